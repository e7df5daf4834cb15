//===- TileToGPU.cpp - tile kernels to per-thread GPU code ----------------===//
//
// Gives every tile a blocked layout and emits, for each kernel, a gpu.func in
// which each thread holds its elements of every tile as SSA registers. See
// the pass description in Passes.td for the lowering of each op.
//
// A blocked layout (per dimension d: elements per thread spt[d], threads per
// warp tpw[d], warps per block wpc[d]; the last dimension fastest) covers
// cov[d] = spt[d] * tpw[d] * wpc[d] elements. A thread's registers along d
// are r = rep * spt[d] + k, at coordinate base[d] + rep * cov[d] + k, where
// base[d] = (warp[d] * tpw[d] + lane[d]) * spt[d]. A tile dimension smaller
// than the coverage wraps around (coordinates modulo its size): its elements
// are replicated over threads, which is what makes a [R, 1] tile broadcast
// against a [R, C] one for free. Tile sizes are powers of two.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/Passes.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

namespace tilegym {
#define GEN_PASS_DEF_CONVERTTILETOGPUPASS
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;

namespace {

constexpr int64_t kWarpSize = 32;
constexpr unsigned kGlobal = 1, kShared = 3;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

struct Layout {
  SmallVector<int64_t> spt, tpw, wpc;
  int64_t rank() const { return spt.size(); }
  int64_t coverage(int64_t d) const { return spt[d] * tpw[d] * wpc[d]; }
};

/// The registers a thread holds of a tile of `shape` in `layout`, indexed
/// row-major over per-dimension register indices.
struct RegMap {
  const Layout *layout;
  SmallVector<int64_t> shape, perDim;
  int64_t count = 1;

  RegMap(const Layout &l, ArrayRef<int64_t> s) : layout(&l), shape(s) {
    for (int64_t d = 0; d < l.rank(); ++d) {
      int64_t reps = std::max<int64_t>(1, s[d] / l.coverage(d));
      perDim.push_back(reps * l.spt[d]);
      count *= perDim.back();
    }
  }
  SmallVector<int64_t> unflatten(int64_t i) const {
    SmallVector<int64_t> r(perDim.size());
    for (int64_t d = perDim.size() - 1; d >= 0; --d) {
      r[d] = i % perDim[d];
      i /= perDim[d];
    }
    return r;
  }
  int64_t flatten(ArrayRef<int64_t> r) const {
    int64_t i = 0;
    for (auto [d, n] : llvm::enumerate(perDim))
      i = i * n + r[d];
    return i;
  }
  /// Static part of the coordinate of register index `r` along `d`.
  int64_t offset(int64_t d, int64_t r) const {
    int64_t spt = layout->spt[d];
    return (r / spt) * layout->coverage(d) + r % spt;
  }
  bool wraps(int64_t d) const { return shape[d] < layout->coverage(d); }
};

/// One layout per tile rank in a kernel, sized for the largest tile of that
/// rank: each thread moves 16 bytes of the narrowest view element type along
/// the last dimension, lanes then warps fill the last dimension first.
Layout chooseLayout(ArrayRef<int64_t> maxShape, int64_t numWarps,
                    int64_t minElementBytes) {
  int64_t rank = maxShape.size(), last = rank - 1;
  Layout l;
  l.spt.assign(rank, 1);
  l.tpw.assign(rank, 1);
  l.wpc.assign(rank, 1);
  l.spt[last] = std::max<int64_t>(
      1, std::min<int64_t>(16 / minElementBytes, maxShape[last]));
  if (rank == 1) {
    l.tpw[0] = kWarpSize;
    l.wpc[0] = numWarps;
    return l;
  }
  l.tpw[last] = std::min<int64_t>(
      kWarpSize, std::max<int64_t>(1, maxShape[last] / l.spt[last]));
  l.tpw[last - 1] = kWarpSize / l.tpw[last];
  l.wpc[last] = std::min<int64_t>(
      numWarps,
      std::max<int64_t>(1, maxShape[last] / (l.spt[last] * l.tpw[last])));
  l.wpc[last - 1] = numWarps / l.wpc[last];
  return l;
}

//===----------------------------------------------------------------------===//
// Kernel emitter
//===----------------------------------------------------------------------===//

struct ViewInfo {
  Value base; // !llvm.ptr<1> at the view's first element
  SmallVector<Value> sizes, strides; // index
  Type elementType;
};

class KernelEmitter {
public:
  KernelEmitter(func::FuncOp kernel, gpu::GPUModuleOp gpuModule)
      : kernel(kernel), gpuModule(gpuModule), b(kernel.getContext()) {}

  LogicalResult emit();

private:
  func::FuncOp kernel;
  gpu::GPUModuleOp gpuModule;
  OpBuilder b;
  int64_t numWarps = 4;
  std::map<int64_t, Layout> layouts;
  std::map<int64_t, SmallVector<Value>> bases;
  Value threadId, laneId, warpId;
  IRMapping scalars;
  DenseMap<Value, SmallVector<Value>> tiles;
  DenseMap<Value, ViewInfo> views;
  LLVM::GlobalOp smem;
  int64_t smemBytes = 0;

  InFlightDiagnostic fail(Operation *op) { return op->emitOpError(); }

  LogicalResult chooseLayouts();
  const Layout &layoutOf(RankedTensorType type) {
    return layouts.at(type.getRank());
  }
  RegMap regMap(RankedTensorType type) {
    return RegMap(layoutOf(type), type.getShape());
  }
  ArrayRef<Value> baseCoords(int64_t rank);
  Value coordinate(const RegMap &map, int64_t d, int64_t r);
  SmallVector<Value> coordinates(const RegMap &map, int64_t i);

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI32Type(), v);
  }
  Location loc() { return currentLoc ? *currentLoc : kernel.getLoc(); }
  std::optional<Location> currentLoc;

  Value sharedBuffer(int64_t bytes);
  Value elementPtr(Value base, Type elementType, Value offset, unsigned space);
  Value combine(ReduceKind kind, Value a, Value b);
  Value identity(ReduceKind kind, Type type);
  Value toWide(Value v);
  Value fromWide(Value v, Type type);
  Value inBounds(const ViewInfo &view, ArrayRef<Value> coords);

  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitLoad(LoadOp op);
  LogicalResult emitStore(StoreOp op);
  LogicalResult emitGather(GatherOp op);
  LogicalResult emitScatter(ScatterOp op);
  LogicalResult emitReduce(ReduceOp op);
  SmallVector<Value> emitReduceKeepDims(ReduceOp op, RankedTensorType keptType);
  SmallVector<Value> convertLayout(ArrayRef<Value> regs, RankedTensorType from,
                                   RankedTensorType to,
                                   ArrayRef<int64_t> permutation);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  SmallVector<Value> flatten(ValueRange values);
  void bindResults(ValueRange olds, ValueRange flat);
};

} // namespace

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::chooseLayouts() {
  std::map<int64_t, SmallVector<int64_t>> maxShapes;
  int64_t minBytes = 4;
  bool ok = true;
  auto visit = [&](Type type, Operation *op) {
    auto tile = dyn_cast<RankedTensorType>(type);
    if (!tile)
      return;
    for (int64_t s : tile.getShape())
      if (!llvm::isPowerOf2_64(s)) {
        op->emitOpError() << "GPU backend needs power-of-two tile sizes, got "
                          << tile;
        ok = false;
        return;
      }
    auto &m = maxShapes[tile.getRank()];
    if (m.empty())
      m.assign(tile.getShape().begin(), tile.getShape().end());
    for (auto [a, s] : llvm::zip(m, tile.getShape()))
      a = std::max(a, s);
  };
  for (Type t : kernel.getArgumentTypes())
    if (auto v = dyn_cast<ViewType>(t))
      minBytes = std::min<int64_t>(
          minBytes, std::max<int64_t>(1, v.getElementType()
                                                 .getIntOrFloatBitWidth() /
                                             8));
  kernel.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      visit(t, op);
    for (Region &r : op->getRegions())
      for (Block &blk : r)
        for (BlockArgument a : blk.getArguments())
          visit(a.getType(), op);
  });
  if (!ok)
    return failure();
  for (auto &[rank, shape] : maxShapes)
    layouts.emplace(rank, chooseLayout(shape, numWarps, minBytes));
  return success();
}

ArrayRef<Value> KernelEmitter::baseCoords(int64_t rank) {
  auto it = bases.find(rank);
  if (it != bases.end())
    return it->second;
  // Computed at the kernel entry so every use dominates.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(warpId);
  const Layout &l = layouts.at(rank);
  SmallVector<Value> out(rank);
  int64_t laneStride = 1, warpStride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value lane = arith::RemUIOp::create(
        b, loc(), arith::DivUIOp::create(b, loc(), laneId, idx(laneStride)),
        idx(l.tpw[d]));
    Value warp = arith::RemUIOp::create(
        b, loc(), arith::DivUIOp::create(b, loc(), warpId, idx(warpStride)),
        idx(l.wpc[d]));
    Value t = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), warp, idx(l.tpw[d])), lane);
    out[d] = arith::MulIOp::create(b, loc(), t, idx(l.spt[d]));
    laneStride *= l.tpw[d];
    warpStride *= l.wpc[d];
  }
  return bases[rank] = out;
}

Value KernelEmitter::coordinate(const RegMap &map, int64_t d, int64_t r) {
  Value c = arith::AddIOp::create(b, loc(), baseCoords(map.shape.size())[d],
                                  idx(map.offset(d, r)));
  if (map.wraps(d))
    c = arith::AndIOp::create(b, loc(), c, idx(map.shape[d] - 1));
  return c;
}

SmallVector<Value> KernelEmitter::coordinates(const RegMap &map, int64_t i) {
  SmallVector<int64_t> r = map.unflatten(i);
  SmallVector<Value> c;
  for (int64_t d = 0; d < (int64_t)r.size(); ++d)
    c.push_back(coordinate(map, d, r[d]));
  return c;
}

/// Shared memory is one static buffer per kernel, reused by every
/// reduction and layout conversion between barriers.
Value KernelEmitter::sharedBuffer(int64_t bytes) {
  smemBytes = std::max(smemBytes, bytes);
  return LLVM::AddressOfOp::create(b, loc(), smem);
}

Value KernelEmitter::elementPtr(Value base, Type elementType, Value offset,
                                unsigned space) {
  Value off = arith::IndexCastOp::create(b, loc(), b.getI64Type(), offset);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), space);
  return LLVM::GEPOp::create(b, loc(), ptrType, elementType, base,
                             ValueRange{off});
}

//===----------------------------------------------------------------------===//
// Helpers for reductions
//===----------------------------------------------------------------------===//

/// Reductions and shuffles run on 32-bit values: f16/bf16 widen to f32 and
/// i1 to i32, exactly.
Value KernelEmitter::toWide(Value v) {
  Type t = v.getType();
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc(), b.getF32Type(), v);
  if (t.isInteger(1))
    return arith::ExtUIOp::create(b, loc(), b.getI32Type(), v);
  return v;
}

Value KernelEmitter::fromWide(Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc(), type, v);
  return arith::TruncIOp::create(b, loc(), type, v);
}

Value KernelEmitter::combine(ReduceKind kind, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc(), x, y))
                   : Value(arith::AddIOp::create(b, loc(), x, y));
  case ReduceKind::Max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc(), x, y))
                   : Value(arith::MaxSIOp::create(b, loc(), x, y));
  case ReduceKind::Min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc(), x, y))
                   : Value(arith::MinSIOp::create(b, loc(), x, y));
  }
  llvm_unreachable("unknown reduction");
}

Value KernelEmitter::identity(ReduceKind kind, Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    double v = kind == ReduceKind::Sum ? 0.0
               : kind == ReduceKind::Max
                   ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
    return arith::ConstantOp::create(b, loc(), b.getFloatAttr(ft, v));
  }
  int64_t v = kind == ReduceKind::Sum   ? 0
              : kind == ReduceKind::Max ? std::numeric_limits<int32_t>::min()
                                        : std::numeric_limits<int32_t>::max();
  return arith::ConstantIntOp::create(b, loc(), type, v);
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> out;
  for (Value v : values) {
    if (isa<RankedTensorType>(v.getType()))
      llvm::append_range(out, tiles.lookup(v));
    else
      out.push_back(scalars.lookupOrDefault(v));
  }
  return out;
}

void KernelEmitter::bindResults(ValueRange olds, ValueRange flat) {
  size_t pos = 0;
  for (Value old : olds) {
    if (auto tile = dyn_cast<RankedTensorType>(old.getType())) {
      int64_t n = regMap(tile).count;
      tiles[old] = SmallVector<Value>(flat.slice(pos, n));
      pos += n;
    } else {
      scalars.map(old, flat[pos++]);
    }
  }
}

static bool hasTiles(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  currentLoc = op->getLoc();
  if (auto load = dyn_cast<LoadOp>(op))
    return emitLoad(load);
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(store);
  if (auto gather = dyn_cast<GatherOp>(op))
    return emitGather(gather);
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return emitScatter(scatter);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return emitReduce(reduce);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return emitFor(loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return emitIf(branch);
  if (isa<DotOp>(op))
    return fail(op) << "is not supported by the GPU backend yet";
  if (auto id = dyn_cast<BlockIdOp>(op)) {
    scalars.map(id.getResult(), (Value)gpu::BlockIdOp::create(
                        b, loc(), static_cast<gpu::Dimension>(id.getAxis())));
    return success();
  }
  if (auto n = dyn_cast<NumBlocksOp>(op)) {
    scalars.map(n.getResult(), (Value)gpu::GridDimOp::create(
                       b, loc(), static_cast<gpu::Dimension>(n.getAxis())));
    return success();
  }
  if (auto dim = dyn_cast<DimOp>(op)) {
    scalars.map(dim.getResult(), views[dim.getView()].sizes[dim.getAxis()]);
    return success();
  }
  if (auto n = dyn_cast<NumTilesOp>(op)) {
    scalars.map(n.getResult(), (Value)arith::CeilDivSIOp::create(
                       b, loc(), views[n.getView()].sizes[n.getAxis()],
                       idx(n.getTileSize())));
    return success();
  }
  if (auto cdiv = dyn_cast<CdivOp>(op)) {
    scalars.map(cdiv.getResult(), (Value)arith::CeilDivSIOp::create(
                          b, loc(), scalars.lookup(cdiv.getLhs()),
                          scalars.lookup(cdiv.getRhs())));
    return success();
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    tiles[splat.getResult()] = SmallVector<Value>(regMap(splat.getType()).count,
                                      scalars.lookup(splat.getValue()));
    return success();
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto tile = dyn_cast<RankedTensorType>(cst.getType());
    if (!tile) {
      b.clone(*op, scalars);
      return success();
    }
    auto dense = dyn_cast<SplatElementsAttr>(cst.getValue());
    if (!dense)
      return fail(op) << "non-splat tile constants are not supported by the "
                         "GPU backend yet";
    Value v = arith::ConstantOp::create(
        b, loc(), cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    tiles[cst.getResult()] = SmallVector<Value>(regMap(tile).count, v);
    return success();
  }
  if (auto iota = dyn_cast<IotaOp>(op)) {
    RegMap map = regMap(iota.getType());
    SmallVector<Value> regs;
    for (int64_t i = 0; i < map.count; ++i)
      regs.push_back(arith::IndexCastOp::create(
          b, loc(), b.getI32Type(), coordinates(map, i)[0]));
    tiles[iota.getResult()] = regs;
    return success();
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    auto from = cast<RankedTensorType>(bcast.getSource().getType());
    RegMap src = regMap(from), dst = regMap(bcast.getType());
    const SmallVector<Value> &in = tiles[bcast.getSource()];
    SmallVector<Value> out;
    for (int64_t i = 0; i < dst.count; ++i) {
      SmallVector<int64_t> r = dst.unflatten(i);
      for (int64_t d = 0; d < (int64_t)r.size(); ++d)
        if (from.getDimSize(d) == 1)
          r[d] = 0; // a replicated dimension: register 0 holds coordinate 0
      out.push_back(in[src.flatten(r)]);
    }
    tiles[bcast.getResult()] = out;
    return success();
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    auto from = cast<RankedTensorType>(reshape.getSource().getType());
    tiles[reshape.getResult()] = convertLayout(tiles[reshape.getSource()], from,
                                   reshape.getType(), {});
    return success();
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    auto from = cast<RankedTensorType>(permute.getSource().getType());
    tiles[permute.getResult()] = convertLayout(tiles[permute.getSource()], from,
                                   permute.getType(), permute.getPermutation());
    return success();
  }
  if (hasTiles(op)) {
    if (op->hasTrait<OpTrait::Elementwise>())
      return emitElementwise(op);
    return fail(op) << "on tiles is not supported by the GPU backend";
  }
  if (op->getNumRegions() != 0)
    return fail(op) << "is not supported by the GPU backend";
  b.clone(*op, scalars);
  return success();
}

/// An elementwise op on tiles becomes the same op on each register; scalar
/// operands (a select's condition) are shared by all registers.
LogicalResult KernelEmitter::emitElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t count = regMap(type).count;
  SmallVector<SmallVector<Value>> results(op->getNumResults());
  for (int64_t i = 0; i < count; ++i) {
    OperationState state(loc(), op->getName());
    for (Value operand : op->getOperands()) {
      if (isa<RankedTensorType>(operand.getType()))
        state.addOperands(tiles[operand][i]);
      else
        state.addOperands(scalars.lookup(operand));
    }
    for (Type t : op->getResultTypes())
      state.addTypes(cast<RankedTensorType>(t).getElementType());
    state.addAttributes(op->getAttrs());
    Operation *scalarOp = b.create(state);
    for (auto [r, v] : llvm::zip(results, scalarOp->getResults()))
      r.push_back(v);
  }
  for (auto [old, regs] : llvm::zip(op->getResults(), results))
    tiles[old] = regs;
  return success();
}

Value KernelEmitter::inBounds(const ViewInfo &view, ArrayRef<Value> coords) {
  Value ok;
  Value zero = idx(0);
  for (auto [c, size] : llvm::zip(coords, view.sizes)) {
    Value ge = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::sge, c,
                                     zero);
    Value lt =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::slt, c, size);
    Value both = arith::AndIOp::create(b, loc(), ge, lt);
    ok = ok ? Value(arith::AndIOp::create(b, loc(), ok, both)) : both;
  }
  return ok;
}

/// The element offset of `coords` in `view`.
static Value linearOffset(OpBuilder &b, Location loc, const ViewInfo &view,
                          ArrayRef<Value> coords) {
  Value off;
  for (auto [c, stride] : llvm::zip(coords, view.strides)) {
    Value term = arith::MulIOp::create(b, loc, c, stride);
    off = off ? Value(arith::AddIOp::create(b, loc, off, term)) : term;
  }
  return off;
}

/// Loads and stores go by runs of a thread's registers that are contiguous
/// along the last dimension: one vector access when the whole run is in
/// bounds and aligned, element-wise predicated accesses otherwise.
LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(type);
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t width = map.wraps(last) ? 1 : map.layout->spt[last];
  int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  Value pad = arith::ConstantOp::create(
      b, loc(), op.getPaddingAttr() ? op.getPaddingAttr()
                                    : TypedAttr(b.getZeroAttr(elem)));
  SmallVector<Value> tileOrigin;
  for (auto [i, index] : llvm::enumerate(op.getIndices()))
    tileOrigin.push_back(arith::MulIOp::create(
        b, loc(), scalars.lookup(index), idx(type.getDimSize(i))));

  SmallVector<Value> regs(map.count);
  for (int64_t i = 0; i < map.count; i += width) {
    SmallVector<Value> coords = coordinates(map, i);
    for (int64_t d = 0; d < rank; ++d)
      coords[d] = arith::AddIOp::create(b, loc(), coords[d], tileOrigin[d]);
    Value offset = linearOffset(b, loc(), view, coords);
    Value ptr = elementPtr(view.base, elem, offset, kGlobal);
    SmallVector<Type> types(width, elem);
    auto loadElements = [&](OpBuilder &nested, Location l) {
      SmallVector<Value> vals;
      for (int64_t k = 0; k < width; ++k) {
        SmallVector<Value> c = coords;
        c[last] = arith::AddIOp::create(b, l, coords[last], idx(k));
        Value ok = inBounds(view, c);
        auto branch = scf::IfOp::create(b, l, TypeRange{elem}, ok, true);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(branch.thenBlock());
          Value p = elementPtr(view.base, elem, linearOffset(b, l, view, c),
                               kGlobal);
          scf::YieldOp::create(b, l, ValueRange{LLVM::LoadOp::create(
                                         b, l, elem, p, bytes)});
          b.setInsertionPointToStart(branch.elseBlock());
          scf::YieldOp::create(b, l, pad);
        }
        vals.push_back(branch.getResult(0));
      }
      scf::YieldOp::create(b, l, vals);
    };
    if (width == 1) {
      auto branch = scf::IfOp::create(b, loc(), types, inBounds(view, coords),
                                      true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(branch.thenBlock());
      scf::YieldOp::create(b, loc(), ValueRange{LLVM::LoadOp::create(
                                         b, loc(), elem, ptr, bytes)});
      b.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(b, loc(), pad);
      b.setInsertionPointAfter(branch);
      regs[i] = branch.getResult(0);
      continue;
    }
    // Fast path: the run is in bounds, contiguous and aligned.
    SmallVector<Value> lastCoords = coords;
    lastCoords[last] =
        arith::AddIOp::create(b, loc(), coords[last], idx(width - 1));
    Value fast = arith::AndIOp::create(b, loc(), inBounds(view, coords),
                                       inBounds(view, lastCoords));
    Value unit = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                       view.strides[last], idx(1));
    Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI64Type(), ptr);
    Value misalign = arith::RemUIOp::create(
        b, loc(), addr,
        arith::ConstantIntOp::create(b, loc(), b.getI64Type(), width * bytes));
    Value aligned = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::eq, misalign,
        arith::ConstantIntOp::create(b, loc(), b.getI64Type(), 0));
    fast = arith::AndIOp::create(b, loc(), fast,
                                 arith::AndIOp::create(b, loc(), unit, aligned));
    auto branch = scf::IfOp::create(b, loc(), types, fast, true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(branch.thenBlock());
      auto vecType = VectorType::get({width}, elem);
      Value vec = LLVM::LoadOp::create(b, loc(), vecType, ptr, width * bytes);
      SmallVector<Value> vals;
      for (int64_t k = 0; k < width; ++k)
        vals.push_back(LLVM::ExtractElementOp::create(
            b, loc(), vec,
            arith::ConstantIntOp::create(b, loc(), b.getI32Type(), k)));
      scf::YieldOp::create(b, loc(), vals);
      b.setInsertionPointToStart(branch.elseBlock());
      loadElements(b, loc());
    }
    for (int64_t k = 0; k < width; ++k)
      regs[i + k] = branch.getResult(k);
  }
  tiles[op.getResult()] = regs;
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(type);
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t width = map.wraps(last) ? 1 : map.layout->spt[last];
  int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  const SmallVector<Value> &regs = tiles[op.getValue()];
  SmallVector<Value> tileOrigin;
  for (auto [i, index] : llvm::enumerate(op.getIndices()))
    tileOrigin.push_back(arith::MulIOp::create(
        b, loc(), scalars.lookup(index), idx(type.getDimSize(i))));

  for (int64_t i = 0; i < map.count; i += width) {
    SmallVector<Value> coords = coordinates(map, i);
    for (int64_t d = 0; d < rank; ++d)
      coords[d] = arith::AddIOp::create(b, loc(), coords[d], tileOrigin[d]);
    Value ptr = elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                           kGlobal);
    auto storeElements = [&]() {
      for (int64_t k = 0; k < width; ++k) {
        SmallVector<Value> c = coords;
        c[last] = arith::AddIOp::create(b, loc(), coords[last], idx(k));
        auto branch =
            scf::IfOp::create(b, loc(), TypeRange{}, inBounds(view, c), false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(branch.thenBlock());
        Value p = elementPtr(view.base, elem, linearOffset(b, loc(), view, c),
                             kGlobal);
        LLVM::StoreOp::create(b, loc(), regs[i + k], p, bytes);
      }
    };
    if (width == 1) {
      storeElements();
      continue;
    }
    SmallVector<Value> lastCoords = coords;
    lastCoords[last] =
        arith::AddIOp::create(b, loc(), coords[last], idx(width - 1));
    Value fast = arith::AndIOp::create(b, loc(), inBounds(view, coords),
                                       inBounds(view, lastCoords));
    Value unit = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                       view.strides[last], idx(1));
    Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI64Type(), ptr);
    Value misalign = arith::RemUIOp::create(
        b, loc(), addr,
        arith::ConstantIntOp::create(b, loc(), b.getI64Type(), width * bytes));
    Value aligned = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::eq, misalign,
        arith::ConstantIntOp::create(b, loc(), b.getI64Type(), 0));
    fast = arith::AndIOp::create(b, loc(), fast,
                                 arith::AndIOp::create(b, loc(), unit, aligned));
    auto branch = scf::IfOp::create(b, loc(), TypeRange{}, fast, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    auto vecType = VectorType::get({width}, elem);
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(
          b, loc(), vec, regs[i + k],
          arith::ConstantIntOp::create(b, loc(), b.getI32Type(), k));
    LLVM::StoreOp::create(b, loc(), vec, ptr, width * bytes);
    b.setInsertionPointToStart(branch.elseBlock());
    storeElements();
  }
  return success();
}

LogicalResult KernelEmitter::emitGather(GatherOp op) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(type);
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  Value pad = arith::ConstantOp::create(
      b, loc(), op.getPaddingAttr() ? op.getPaddingAttr()
                                    : TypedAttr(b.getZeroAttr(elem)));
  SmallVector<Value> regs;
  for (int64_t i = 0; i < map.count; ++i) {
    SmallVector<Value> coords;
    for (Value index : op.getIndices())
      coords.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                  tiles[index][i]));
    Value ok = inBounds(view, coords);
    if (op.getMask())
      ok = arith::AndIOp::create(b, loc(), ok, tiles[op.getMask()][i]);
    auto branch = scf::IfOp::create(b, loc(), TypeRange{elem}, ok, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    Value p = elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                         kGlobal);
    scf::YieldOp::create(b, loc(),
                         ValueRange{LLVM::LoadOp::create(b, loc(), elem, p,
                                                         bytes)});
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(b, loc(), pad);
    regs.push_back(branch.getResult(0));
  }
  tiles[op.getResult()] = regs;
  return success();
}

LogicalResult KernelEmitter::emitScatter(ScatterOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(type);
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  for (int64_t i = 0; i < map.count; ++i) {
    SmallVector<Value> coords;
    for (Value index : op.getIndices())
      coords.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                  tiles[index][i]));
    Value ok = inBounds(view, coords);
    if (op.getMask())
      ok = arith::AndIOp::create(b, loc(), ok, tiles[op.getMask()][i]);
    auto branch = scf::IfOp::create(b, loc(), TypeRange{}, ok, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    Value p = elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                         kGlobal);
    LLVM::StoreOp::create(b, loc(), tiles[op.getValue()][i], p, bytes);
  }
  return success();
}

/// Reduces along `axis` into `keptType` (the source shape with the axis at
/// size 1, same layout): within each thread, across lanes with xor
/// shuffles, then across warps through shared memory.
SmallVector<Value> KernelEmitter::emitReduceKeepDims(ReduceOp op,
                                                     RankedTensorType kept) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  RegMap src = regMap(srcType), dst = regMap(kept);
  const Layout &l = *src.layout;
  int64_t axis = op.getAxis();
  ReduceKind kind = op.getKind();
  const SmallVector<Value> &in = tiles[op.getSource()];
  Type elem = srcType.getElementType();
  Type wide = toWide(identity(kind, elem)).getType();

  // 1. Within the thread. Where the axis wraps, several registers and
  // threads hold the same element: only its first holder contributes.
  std::map<int64_t, Value> partial; // by destination register index
  for (int64_t i = 0; i < src.count; ++i) {
    SmallVector<int64_t> r = src.unflatten(i);
    int64_t ra = r[axis];
    r[axis] = 0;
    int64_t o = dst.flatten(r);
    Value v = toWide(in[i]);
    if (src.wraps(axis)) {
      if (src.offset(axis, ra) >= srcType.getDimSize(axis))
        continue;
      Value raw = arith::AddIOp::create(b, loc(), baseCoords(src.shape.size())[axis],
                                        idx(src.offset(axis, ra)));
      Value first = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          raw, idx(srcType.getDimSize(axis)));
      v = arith::SelectOp::create(b, loc(), first, v, identity(kind, wide));
    }
    auto it = partial.find(o);
    partial[o] = it == partial.end() ? v : combine(kind, it->second, v);
  }

  // 2. Across the lanes that split the axis.
  int64_t laneStride = 1;
  for (int64_t d = axis + 1; d < l.rank(); ++d)
    laneStride *= l.tpw[d];
  for (auto &[o, v] : partial)
    for (int64_t s = 1; s < l.tpw[axis]; s *= 2) {
      auto shuffle = gpu::ShuffleOp::create(b, loc(), v, i32(s * laneStride),
                                            i32(kWarpSize),
                                            gpu::ShuffleMode::XOR);
      v = combine(kind, v, shuffle.getShuffleResult());
    }

  // 3. Across the warps that split the axis, through shared memory laid out
  // as [warp along axis][element of the kept tile].
  if (l.wpc[axis] > 1) {
    int64_t numel = kept.getNumElements();
    int64_t wbytes = wide.getIntOrFloatBitWidth() / 8;
    gpu::BarrierOp::create(b, loc()); // earlier users of the buffer are done
    Value buf = sharedBuffer(l.wpc[axis] * numel * wbytes);
    int64_t warpStride = 1;
    for (int64_t d = axis + 1; d < l.rank(); ++d)
      warpStride *= l.wpc[d];
    Value warpAlong = arith::RemUIOp::create(
        b, loc(), arith::DivUIOp::create(b, loc(), warpId, idx(warpStride)),
        idx(l.wpc[axis]));
    auto slot = [&](Value warp, int64_t o) {
      SmallVector<Value> c = coordinates(dst, o);
      Value lin = idx(0);
      for (int64_t d = 0; d < l.rank(); ++d)
        lin = arith::AddIOp::create(
            b, loc(), arith::MulIOp::create(b, loc(), lin, idx(kept.getDimSize(d))),
            d == axis ? idx(0) : c[d]);
      return arith::AddIOp::create(
          b, loc(), arith::MulIOp::create(b, loc(), warp, idx(numel)), lin);
    };
    for (auto &[o, v] : partial)
      LLVM::StoreOp::create(b, loc(), v,
                            elementPtr(buf, wide, slot(warpAlong, o), kShared));
    gpu::BarrierOp::create(b, loc());
    for (auto &[o, v] : partial) {
      Value acc;
      for (int64_t w = 0; w < l.wpc[axis]; ++w) {
        Value x = LLVM::LoadOp::create(
            b, loc(), wide, elementPtr(buf, wide, slot(idx(w), o), kShared));
        acc = acc ? combine(kind, acc, x) : x;
      }
      v = acc;
    }
  }

  // Registers along the kept axis all hold the one result.
  SmallVector<Value> out(dst.count);
  for (int64_t i = 0; i < dst.count; ++i) {
    SmallVector<int64_t> r = dst.unflatten(i);
    r[axis] = 0;
    out[i] = fromWide(partial.at(dst.flatten(r)), elem);
  }
  return out;
}

LogicalResult KernelEmitter::emitReduce(ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  SmallVector<int64_t> keptShape(srcType.getShape());
  keptShape[op.getAxis()] = 1;
  auto kept = RankedTensorType::get(keptShape, srcType.getElementType());
  SmallVector<Value> regs = emitReduceKeepDims(op, kept);
  if (!op.getKeepDims())
    regs = convertLayout(regs, kept, op.getType(), {});
  tiles[op.getResult()] = regs;
  return success();
}

/// Moves a tile between layouts (a reshape, a permutation, a change of
/// rank). Where the two layouts place every element in the same register of
/// the same thread, this is a renaming; otherwise the tile goes through
/// shared memory, row-major in the source shape.
SmallVector<Value> KernelEmitter::convertLayout(ArrayRef<Value> regs,
                                                RankedTensorType from,
                                                RankedTensorType to,
                                                ArrayRef<int64_t> perm) {
  RegMap src = regMap(from), dst = regMap(to);
  // Same placement: the non-unit dimensions match in order, sizes and
  // layout, and unit dimensions hold one element per thread.
  auto nonUnit = [](const RegMap &m) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < (int64_t)m.shape.size(); ++d) {
      const Layout &l = *m.layout;
      if (m.shape[d] != 1)
        dims.push_back(d);
      else if (l.spt[d] != 1 || l.tpw[d] != 1 || l.wpc[d] != 1)
        return std::optional<SmallVector<int64_t>>();
    }
    return std::optional<SmallVector<int64_t>>(dims);
  };
  auto a = nonUnit(src), c = nonUnit(dst);
  bool identityPerm = perm.empty() || llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
  if (a && c && a->size() == c->size() && identityPerm && src.count == dst.count) {
    bool same = true;
    for (auto [x, y] : llvm::zip(*a, *c))
      same &= src.shape[x] == dst.shape[y] &&
              src.layout->spt[x] == dst.layout->spt[y] &&
              src.layout->tpw[x] == dst.layout->tpw[y] &&
              src.layout->wpc[x] == dst.layout->wpc[y];
    if (same)
      return SmallVector<Value>(regs);
  }

  Type elem = from.getElementType();
  Type stored = elem.isInteger(1) ? b.getI8Type() : elem;
  int64_t bytes = std::max<int64_t>(1, stored.getIntOrFloatBitWidth() / 8);
  gpu::BarrierOp::create(b, loc());
  Value buf = sharedBuffer(from.getNumElements() * bytes);
  auto rowMajor = [&](ArrayRef<int64_t> shape, ArrayRef<Value> coords) {
    Value lin = idx(0);
    for (auto [s, c] : llvm::zip(shape, coords))
      lin = arith::AddIOp::create(
          b, loc(), arith::MulIOp::create(b, loc(), lin, idx(s)), c);
    return lin;
  };
  for (int64_t i = 0; i < src.count; ++i) {
    Value v = regs[i];
    if (elem.isInteger(1))
      v = arith::ExtUIOp::create(b, loc(), stored, v);
    LLVM::StoreOp::create(
        b, loc(), v,
        elementPtr(buf, stored, rowMajor(from.getShape(), coordinates(src, i)),
                   kShared));
  }
  gpu::BarrierOp::create(b, loc());
  SmallVector<Value> out;
  for (int64_t i = 0; i < dst.count; ++i) {
    SmallVector<Value> dc = coordinates(dst, i);
    SmallVector<Value> sc = dc;
    if (!perm.empty())
      for (auto [j, p] : llvm::enumerate(perm))
        sc[p] = dc[j];
    Value lin = perm.empty() ? rowMajor(to.getShape(), dc)
                             : rowMajor(from.getShape(), sc);
    Value v = LLVM::LoadOp::create(b, loc(), stored,
                                   elementPtr(buf, stored, lin, kShared));
    if (elem.isInteger(1))
      v = arith::TruncIOp::create(b, loc(), elem, v);
    out.push_back(v);
  }
  return out;
}

LogicalResult KernelEmitter::emitFor(scf::ForOp op) {
  SmallVector<Value> inits = flatten(op.getInitArgs());
  auto loop = scf::ForOp::create(b, loc(), scalars.lookup(op.getLowerBound()),
                                 scalars.lookup(op.getUpperBound()),
                                 scalars.lookup(op.getStep()), inits);
  {
    OpBuilder::InsertionGuard g(b);
    // Without iter_args the loop comes with a yield; ours replaces it.
    if (loop.getBody()->mightHaveTerminator())
      loop.getBody()->getTerminator()->erase();
    b.setInsertionPointToEnd(loop.getBody());
    scalars.map(op.getInductionVar(), loop.getInductionVar());
    bindResults(op.getRegionIterArgs(), loop.getRegionIterArgs());
    if (failed(emitBlock(*op.getBody())))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    SmallVector<Value> yields = flatten(yield.getOperands());
    scf::YieldOp::create(b, loc(), yields);
  }
  bindResults(op.getResults(), loop.getResults());
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  SmallVector<Type> types;
  for (Value r : op.getResults()) {
    if (auto tile = dyn_cast<RankedTensorType>(r.getType()))
      types.append(regMap(tile).count, tile.getElementType());
    else
      types.push_back(r.getType());
  }
  bool withElse = !op.getElseRegion().empty();
  auto branch = scf::IfOp::create(b, loc(), types,
                                  scalars.lookup(op.getCondition()), withElse);
  auto emitRegion = [&](Region &from, Block *to) -> LogicalResult {
    OpBuilder::InsertionGuard g(b);
    if (to->mightHaveTerminator())
      to->getTerminator()->erase();
    b.setInsertionPointToEnd(to);
    if (failed(emitBlock(from.front())))
      return failure();
    auto yield = cast<scf::YieldOp>(from.front().getTerminator());
    scf::YieldOp::create(b, loc(), flatten(yield.getOperands()));
    return success();
  };
  if (failed(emitRegion(op.getThenRegion(), branch.thenBlock())))
    return failure();
  if (withElse && failed(emitRegion(op.getElseRegion(), branch.elseBlock())))
    return failure();
  bindResults(op.getResults(), branch.getResults());
  return success();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emit() {
  if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
    numWarps = w.getInt();
  if (failed(chooseLayouts()))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  Location l = kernel.getLoc();

  // Signature: each view as an expanded memref descriptor, as the runtime
  // packs it; index scalars as i64.
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, kGlobal);
  SmallVector<Type> argTypes;
  for (Type t : kernel.getArgumentTypes()) {
    if (auto v = dyn_cast<ViewType>(t)) {
      argTypes.append({globalPtr, globalPtr, b.getI64Type()});
      argTypes.append(2 * v.getRank(), b.getI64Type());
    } else {
      argTypes.push_back(t.isIndex() ? b.getI64Type() : t);
    }
  }
  b.setInsertionPointToEnd(gpuModule.getBody());
  smem = LLVM::GlobalOp::create(
      b, l, LLVM::LLVMArrayType::get(b.getI8Type(), 1), /*isConstant=*/false,
      LLVM::Linkage::Internal, (kernel.getSymName() + "__smem").str(),
      Attribute(), /*alignment=*/16, kShared);
  auto func = gpu::GPUFuncOp::create(b, l, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(numWarps * kWarpSize), 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);

  threadId = gpu::ThreadIdOp::create(b, l, gpu::Dimension::x);
  laneId = arith::RemUIOp::create(b, l, threadId, idx(kWarpSize));
  warpId = arith::DivUIOp::create(b, l, threadId, idx(kWarpSize));

  unsigned pos = 0;
  for (BlockArgument arg : kernel.getArguments()) {
    if (auto v = dyn_cast<ViewType>(arg.getType())) {
      ViewInfo info;
      info.elementType = v.getElementType();
      Value aligned = entry.getArgument(pos + 1);
      Value offset = entry.getArgument(pos + 2);
      info.base = LLVM::GEPOp::create(b, l, globalPtr, info.elementType,
                                      aligned, ValueRange{offset});
      for (int64_t d = 0; d < v.getRank(); ++d) {
        info.sizes.push_back(arith::IndexCastOp::create(
            b, l, b.getIndexType(), entry.getArgument(pos + 3 + d)));
        info.strides.push_back(arith::IndexCastOp::create(
            b, l, b.getIndexType(),
            entry.getArgument(pos + 3 + v.getRank() + d)));
      }
      views[arg] = info;
      pos += 3 + 2 * v.getRank();
    } else {
      Value a = entry.getArgument(pos++);
      if (arg.getType().isIndex())
        a = arith::IndexCastOp::create(b, l, b.getIndexType(), a);
      scalars.map(arg, a);
    }
  }
  if (failed(emitBlock(kernel.getBody().front())))
    return failure();
  gpu::ReturnOp::create(b, l);
  smem.setGlobalType(
      LLVM::LLVMArrayType::get(b.getI8Type(), std::max<int64_t>(1, smemBytes)));
  return success();
}

namespace {
struct ConvertTileToGPUPass
    : tilegym::impl::ConvertTileToGPUPassBase<ConvertTileToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    llvm::StringRef arch(chip);
    unsigned version;
    if (!arch.consume_front("sm_") ||
        arch.drop_back(arch.ends_with("a") ? 1 : 0).getAsInteger(10, version)) {
      module.emitError() << "invalid chip '" << chip
                         << "'; expected sm_<N> or sm_<N>a";
      return signalPassFailure();
    }
    Attribute targetAttr = parseAttribute(
        "#nvvm.target<chip = \"" + chip + "\", O = 3>", ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(),
                                              "tilegym_kernels",
                                              b.getArrayAttr({targetAttr}));
    for (auto kernel : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (!kernel->hasAttr(kKernelAttr))
        continue;
      if (failed(KernelEmitter(kernel, gpuModule).emit()))
        return signalPassFailure();
    }
  }
};
} // namespace
