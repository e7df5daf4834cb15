//===- TileToGPU.cpp - tile kernels to per-thread GPU code ----------------===//
//
// Gives every tile a blocked layout and emits, for each kernel, a gpu.func in
// which each thread holds its elements of every tile as SSA registers. See
// the pass description in Passes.td for the lowering of each op.
//
// Layouts are linear (Triton's linear layouts restricted to power-of-two
// bases): each bit of a thread's register index, lane id and warp id adds a
// fixed power of two to one coordinate, and a coordinate is the sum of what
// its set bits add, modulo the tile's size along that dimension. Two
// families exist:
// - blocked (per dimension: elements per thread, threads per warp, warps per
//   block, the last dimension fastest), for memory access and elementwise
//   work: each thread moves 16 contiguous bytes;
// - mma, the accumulator layout of mma.sync m16n8: a lane holds 2 columns of
//   rows lane/4 and lane/4 + 8 of a 16x8 tile, warps tile M then N.
// Registers beyond a family's base bits repeat it over the tile. A tile
// dimension smaller than what the bits cover wraps around: its elements are
// replicated over threads and registers, which is what makes a [R, 1] tile
// broadcast against a [R, C] one for free. Tile sizes are powers of two.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/Passes.h"
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
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
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

#include <deque>
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

/// Bytes an element occupies in memory (i1 takes a byte).
int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

using Basis = SmallVector<int64_t>; // what one index bit adds, per dim

/// A layout family: the bases of a thread's lane and warp bits and of its
/// base register bits; tiles of a given shape add repetition bits.
struct Layout {
  int64_t rank = 0;
  SmallVector<Basis> reg, lane, warp;
  /// Elements covered by all bits along each dimension.
  SmallVector<int64_t> coverage;
  /// mma only: warps along M and N.
  int64_t warpsM = 1, warpsN = 1;

  void finish() {
    coverage.assign(rank, 1);
    for (auto *bits : {&reg, &lane, &warp})
      for (const Basis &bb : *bits)
        for (int64_t d = 0; d < rank; ++d)
          coverage[d] = std::max(coverage[d], 2 * bb[d]);
  }
  static Basis unit(int64_t rank, int64_t d, int64_t v) {
    Basis bb(rank, 0);
    bb[d] = v;
    return bb;
  }
};

/// Blocked: 16 bytes of the narrowest view element type per thread along
/// the last dimension, lanes then warps fill the last dimension first.
/// Sized for the largest tile of the rank.
Layout blockedLayout(ArrayRef<int64_t> maxShape, int64_t numWarps,
                     int64_t minElementBytes) {
  int64_t rank = maxShape.size(), last = rank - 1;
  SmallVector<int64_t> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[last] = std::max<int64_t>(
      1, std::min<int64_t>(16 / minElementBytes, maxShape[last]));
  if (rank == 1) {
    tpw[0] = kWarpSize;
    wpc[0] = numWarps;
  } else {
    tpw[last] = std::min<int64_t>(
        kWarpSize, std::max<int64_t>(1, maxShape[last] / spt[last]));
    tpw[last - 1] = kWarpSize / tpw[last];
    wpc[last] = std::min<int64_t>(
        numWarps, std::max<int64_t>(1, maxShape[last] / (spt[last] * tpw[last])));
    wpc[last - 1] = numWarps / wpc[last];
  }
  Layout l;
  l.rank = rank;
  for (int64_t d = rank - 1; d >= 0; --d) {
    for (int64_t v = 1; v < spt[d]; v *= 2)
      l.reg.push_back(Layout::unit(rank, d, v));
    for (int64_t v = 1; v < tpw[d]; v *= 2)
      l.lane.push_back(Layout::unit(rank, d, v * spt[d]));
    for (int64_t v = 1; v < wpc[d]; v *= 2)
      l.warp.push_back(Layout::unit(rank, d, v * spt[d] * tpw[d]));
  }
  l.finish();
  return l;
}

/// The accumulator layout of mma.sync m16n8 (f32 c0..c3): register bit 0 is
/// column 1, bit 1 row 8; lane bits are columns 2, 4 then rows 1, 2, 4;
/// warps split N first, then M.
Layout mmaLayout(int64_t warpsM, int64_t warpsN) {
  Layout l;
  l.rank = 2;
  l.warpsM = warpsM;
  l.warpsN = warpsN;
  l.reg = {Layout::unit(2, 1, 1), Layout::unit(2, 0, 8)};
  l.lane = {Layout::unit(2, 1, 2), Layout::unit(2, 1, 4), Layout::unit(2, 0, 1),
            Layout::unit(2, 0, 2), Layout::unit(2, 0, 4)};
  for (int64_t v = 1; v < warpsN; v *= 2)
    l.warp.push_back(Layout::unit(2, 1, 8 * v));
  for (int64_t v = 1; v < warpsM; v *= 2)
    l.warp.push_back(Layout::unit(2, 0, 16 * v));
  l.finish();
  return l;
}

/// The registers a thread holds of a tile of `shape` in `layout`: the
/// family's base register bits, then repetition bits for each dimension the
/// family does not cover (the last dimension first).
struct RegMap {
  const Layout *layout;
  SmallVector<int64_t> shape;
  SmallVector<Basis> bits;
  int64_t count;

  RegMap(const Layout &l, ArrayRef<int64_t> s)
      : layout(&l), shape(s), bits(l.reg) {
    for (int64_t d = l.rank - 1; d >= 0; --d)
      for (int64_t v = l.coverage[d]; v < s[d]; v *= 2)
        bits.push_back(Layout::unit(l.rank, d, v));
    count = int64_t(1) << bits.size();
  }
  /// What a bit adds along `d` once wrapped to the tile: 0 for a bit that
  /// only replicates.
  int64_t wrapped(const Basis &bb, int64_t d) const {
    return bb[d] < shape[d] ? bb[d] : 0;
  }
  /// Static part of the coordinates of register `i`.
  SmallVector<int64_t> offsets(int64_t i) const {
    SmallVector<int64_t> off(shape.size(), 0);
    for (auto [j, bb] : llvm::enumerate(bits))
      if (i >> j & 1)
        for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
          off[d] += wrapped(bb, d);
    return off;
  }
  bool wraps(int64_t d) const { return shape[d] < layout->coverage[d]; }
  /// Registers contiguous along the last dimension, from every multiple of
  /// the width: the vector width of memory accesses.
  int64_t vectorWidth() const {
    int64_t last = shape.size() - 1, w = 1;
    for (const Basis &bb : bits) {
      if (bb[last] != w || w >= shape[last])
        break;
      bool onlyLast = llvm::all_of(llvm::seq<int64_t>(0, last),
                                   [&](int64_t d) { return bb[d] == 0; });
      if (!onlyLast)
        break;
      w *= 2;
    }
    return w;
  }
};

//===----------------------------------------------------------------------===//
// Kernel emitter
//===----------------------------------------------------------------------===//

struct ViewInfo {
  Value base; // !llvm.ptr<1> at the view's first element
  SmallVector<Value> sizes, strides; // index
  Type elementType;
  /// Per vector width w (elements), computed once per kernel:
  struct VectorAccess {
    Value ok;      // aligned w-vectors at offsets that are multiples of w,
                   // and a last dimension of at least w (i1)
    Value lastMax; // size of the last dimension - w: the last start in bounds
  };
  llvm::SmallDenseMap<int64_t, VectorAccess> vector;
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
  /// Every tile value's layout; values tied by elementwise ops, loops,
  /// broadcasts and kept-axis reductions share one.
  std::deque<Layout> layouts;
  DenseMap<Value, const Layout *> layoutOfValue;
  std::map<const Layout *, SmallVector<Value>> bases;
  Value threadId, laneId, warpId;
  IRMapping scalars;
  DenseMap<Value, SmallVector<Value>> tiles;
  /// Loaded tiles not unpacked yet: one vector per run (see emitLoad).
  llvm::MapVector<Value, SmallVector<Value>> pendingLoads;
  DenseMap<Value, ViewInfo> views;
  LLVM::GlobalOp smem;
  int64_t smemBytes = 0;
  /// Cross-warp reductions each get their own slice of this buffer, so that
  /// none waits for an earlier user of shared memory to finish reading.
  LLVM::GlobalOp reduceSmem;
  int64_t reduceSmemBytes = 0;
  int64_t loopDepth = 0; // scf.for bodies being emitted
  /// Dot operands loaded one iteration ahead (tile-pipeline-loads) that live
  /// in shared memory instead of registers: two stages each in
  /// `<kernel>__smem_async`, filled by cp.async (findAsyncOperands).
  struct AsyncOperand {
    int64_t offset;     // bytes of stage 0 into the buffer
    int64_t stageBytes; // a stage's bytes
    int64_t stride;     // elements from one row to the next (padded)
    int64_t stages;     // 2: loaded ahead through a loop; 1: loop-invariant
  };
  std::deque<AsyncOperand> asyncOperands;
  /// The loads that fill them (the one before the loop: stage 0; the one in
  /// the body: the stage after the current one), and every value standing
  /// for one: these have no registers.
  struct AsyncLoad {
    const AsyncOperand *operand;
    bool ahead; // in the loop body: fills the next iteration's stage
  };
  DenseMap<Operation *, AsyncLoad> asyncLoads;
  DenseMap<Value, const AsyncOperand *> asyncValues;
  /// Dot operands whose stage holds them transposed (B as [N][K]).
  llvm::DenseSet<Value> asyncTransposed;
  /// Loops carrying async operands, and while one's body is emitted, its
  /// current stage (i32, 0 or 1) and whether this iteration waited yet.
  llvm::DenseSet<Operation *> asyncLoops;
  Value asyncStage;
  bool asyncWaited = false;
  LLVM::GlobalOp asyncSmem;
  int64_t asyncSmemBytes = 0;

  InFlightDiagnostic fail(Operation *op) { return op->emitOpError(); }

  LogicalResult assignLayouts();
  void findAsyncOperands();
  int64_t minBlocksPerSM();
  RegMap regMap(Value v) {
    return RegMap(*layoutOfValue.lookup(v),
                  cast<RankedTensorType>(v.getType()).getShape());
  }
  ArrayRef<Value> baseCoords(const Layout &layout);
  Value coordinate(const RegMap &map, int64_t d, int64_t offset);
  SmallVector<Value> coordinates(const RegMap &map, int64_t i);

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI32Type(), v);
  }
  Location loc() { return currentLoc ? *currentLoc : kernel.getLoc(); }
  std::optional<Location> currentLoc;

  Value sharedBuffer(int64_t bytes);
  Value reductionScratch(int64_t bytes);
  Value elementPtr(Value base, Type elementType, Value offset, unsigned space);
  Value combine(ReduceKind kind, Value a, Value b);
  Value combineTree(ReduceKind kind, SmallVector<Value> vals);
  Value toWide(Value v);
  Value fromWide(Value v, Type type);
  Value inBounds(const ViewInfo &view, ArrayRef<Value> coords);
  SmallVector<Value> tileOriginOf(ValueRange indices, RankedTensorType type);
  Value vectorAccessOk(const ViewInfo &view, ArrayRef<Value> coords,
                       int64_t width);
  SmallVector<Value> edgePathCoords(ArrayRef<Value> runStart);
  Value guardedLoad(const ViewInfo &view, ArrayRef<Value> coords, Value ok,
                    Value pad);
  void guardedStore(const ViewInfo &view, ArrayRef<Value> coords, Value ok,
                    Value value);
  struct Runs {
    SmallVector<SmallVector<Value>> coords; // each run's first element
    SmallVector<Value> ptrs;
    Value allFast;
  };
  Runs tileRuns(const ViewInfo &view, const RegMap &map, int64_t width,
                ArrayRef<Value> tileOrigin);

  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitLoad(LoadOp op);
  Value asyncStagePtr(const AsyncOperand &operand, Value stage);
  void emitAsyncLoad(LoadOp op, const AsyncOperand &operand, Value stage);
  void waitForAsyncStage();
  void materialize(Value tile);
  void materializeAll();
  LogicalResult emitStore(StoreOp op);
  LogicalResult emitGather(GatherOp op);
  LogicalResult emitScatter(ScatterOp op);
  LogicalResult emitReduce(ReduceOp op);
  LogicalResult emitDot(DotOp op);
  SmallVector<Value> emitReduceKeepDims(ReduceOp op, const RegMap &src,
                                        const RegMap &kept);
  SmallVector<Value> convertLayout(ArrayRef<Value> regs, const RegMap &src,
                                   const RegMap &dst,
                                   ArrayRef<int64_t> permutation);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  /// A value as scf.for/scf.if carry it: scalars as they are, tiles as
  /// their registers (see carriedAsPairs), and back.
  SmallVector<Type> carriedTypes(Value v);
  SmallVector<Value> flatten(ValueRange values);
  void bindResults(ValueRange olds, ValueRange flat);
};

} // namespace

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//


/// The largest shape of a class of 2-D tiles whose every use is as a dot
/// operand (possibly carried through loops), if it is one.
static std::optional<SmallVector<int64_t>>
dotOperandShape(const llvm::EquivalenceClasses<Value> &classes,
                const llvm::EquivalenceClasses<Value>::ECValue &leader) {
  SmallVector<int64_t> shape;
  for (auto m = classes.member_begin(leader); m != classes.member_end(); ++m) {
    auto type = cast<RankedTensorType>((*m).getType());
    if (type.getRank() != 2)
      return std::nullopt;
    for (OpOperand &use : (*m).getUses()) {
      Operation *user = use.getOwner();
      bool operand = isa<scf::YieldOp, scf::ForOp>(user) ||
                     (isa<DotOp>(user) && use.getOperandNumber() < 2);
      if (!operand)
        return std::nullopt;
    }
    if (shape.empty())
      shape.assign(type.getShape().begin(), type.getShape().end());
    for (auto [a, s] : llvm::zip(shape, type.getShape()))
      a = std::max(a, s);
  }
  return shape;
}

LogicalResult KernelEmitter::assignLayouts() {
  // Tiles live in registers: a kernel takes them only through views.
  for (Type t : kernel.getArgumentTypes())
    if (isa<RankedTensorType>(t))
      return kernel.emitOpError()
             << "GPU kernels take views and scalars, not tiles: " << t;
  // Union-find over tile values that must share a layout.
  llvm::EquivalenceClasses<Value> classes;
  SmallVector<Value> tileValues;
  bool ok = true;
  auto addTile = [&](Value v, Operation *op) {
    auto tile = dyn_cast<RankedTensorType>(v.getType());
    if (!tile)
      return;
    for (int64_t s : tile.getShape())
      if (!llvm::isPowerOf2_64(s)) {
        if (ok)
          op->emitOpError() << "GPU backend needs power-of-two tile sizes, "
                               "got "
                            << tile;
        ok = false;
        return;
      }
    classes.insert(v);
    tileValues.push_back(v);
  };
  auto tie = [&](Value a, Value b) {
    if (isa<RankedTensorType>(a.getType()) && isa<RankedTensorType>(b.getType()))
      classes.unionSets(a, b);
  };
  DenseMap<Value, std::pair<int64_t, int64_t>> dotShapes; // mma classes
  llvm::DenseSet<Value> reducedValues;
  kernel.walk([&](Operation *op) {
    for (Value r : op->getResults())
      addTile(r, op);
    for (Region &region : op->getRegions())
      for (Block &blk : region)
        for (BlockArgument a : blk.getArguments())
          addTile(a, op);
  });
  if (!ok)
    return failure();
  kernel.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1) {
      for (Value operand : op->getOperands())
        tie(operand, op->getResult(0));
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [init, arg, next, result] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     yield.getOperands(), loop.getResults())) {
        tie(init, arg);
        tie(arg, next);
        tie(next, result);
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          for (auto [y, r] : llvm::zip(
                   region->front().getTerminator()->getOperands(),
                   branch.getResults()))
            tie(y, r);
    } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      tie(bcast.getSource(), bcast.getResult());
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      reducedValues.insert(reduce.getSource());
      if (reduce.getKeepDims())
        tie(reduce.getSource(), reduce.getResult());
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      tie(dot.getAcc(), dot.getResult());
      dotShapes[dot.getResult()] = {dot.getType().getDimSize(0),
                                    dot.getType().getDimSize(1)};
    }
  });

  // Blocked families, one per rank, sized for the largest tile of the rank.
  int64_t minBytes = 4;
  for (Type t : kernel.getArgumentTypes())
    if (auto v = dyn_cast<ViewType>(t))
      minBytes = std::min<int64_t>(
          minBytes,
          elementBytes(v.getElementType()));
  std::map<int64_t, SmallVector<int64_t>> maxShapes;
  for (Value v : tileValues) {
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    auto &m = maxShapes[shape.size()];
    if (m.empty())
      m.assign(shape.begin(), shape.end());
    for (auto [a, s] : llvm::zip(m, shape))
      a = std::max(a, s);
  }
  std::map<int64_t, const Layout *> blocked;
  for (auto &[rank, shape] : maxShapes) {
    layouts.push_back(blockedLayout(shape, numWarps, minBytes));
    blocked[rank] = &layouts.back();
  }
  // A class holding a dot result takes the mma layout. When the class is
  // reduced, warps split M first, so that row reductions (attention scores)
  // stay within a warp; otherwise the split that loads the fewest operand
  // fragments per k step (ldmatrix.x4: one per 16 rows of A, one per 16
  // columns of B), more warps along M on a tie.
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    int64_t maxM = 0, maxN = 0;
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      if (auto s = dotShapes.find(*m); s != dotShapes.end()) {
        maxM = std::max(maxM, s->second.first);
        maxN = std::max(maxN, s->second.second);
      }
    const Layout *layout;
    if (maxM) {
      bool reduced = false;
      for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
        reduced |= reducedValues.contains(*m);
      int64_t warpsM = std::min<int64_t>(numWarps, std::max<int64_t>(1, maxM / 16));
      if (!reduced) {
        int64_t bestCost = INT64_MAX;
        for (int64_t wm = warpsM; wm >= 1; wm /= 2) {
          int64_t wn = numWarps / wm;
          if (maxN < 8 * wn)
            continue;
          int64_t cost = maxM / (16 * wm) + std::max<int64_t>(1, maxN / (16 * wn));
          if (cost < bestCost) {
            bestCost = cost;
            warpsM = wm;
          }
        }
      }
      int64_t warpsN = numWarps / warpsM;
      if (maxN < 8 * warpsN) {
        kernel.emitOpError() << "dot tile " << maxM << "x" << maxN
                             << " is too small for " << numWarps
                             << " warps; use fewer warps or a larger tile";
        return failure();
      }
      layouts.push_back(mmaLayout(warpsM, warpsN));
      layout = &layouts.back();
    } else if (auto shape = dotOperandShape(classes, **it)) {
      // Only staged into shared memory for a dot: blocked for its own shape,
      // so that a [128, 32] operand is not replicated over a layout sized
      // for [128, 128] (four threads loading and staging each element).
      auto type = cast<RankedTensorType>((*it)->getData().getType());
      layouts.push_back(blockedLayout(*shape, numWarps,
                                      elementBytes(type.getElementType())));
      layout = &layouts.back();
    } else {
      Value leader = (*it)->getData();
      layout = blocked.at(cast<RankedTensorType>(leader.getType()).getRank());
    }
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      layoutOfValue[*m] = layout;
  }
  return success();
}

/// Elements from one row of a staged dot operand to the next: the row padded
/// to an odd number of 16-byte units, so that the 8 rows one ldmatrix phase
/// reads fall into 8 distinct bank groups.
static int64_t paddedRowStride(int64_t cols, int64_t bytes) {
  int64_t units = cols * bytes / 16;
  return units % 2 ? cols : cols + 16 / bytes;
}

/// Static shared memory is limited to 48 KiB per block; async operand
/// stages are dynamic shared memory (up to 227 KiB per block on sm_90, less
/// on sm_80: 163), which the launch asks for. The stages stay within
/// kAsyncSmemBudget, which sm_80 can give a block as well.
constexpr int64_t kStaticSmemLimit = 48 * 1024;
constexpr int64_t kAsyncSmemBudget = 160 * 1024;

/// Dot operands that can skip registers and live in shared memory, in the
/// padded layout the dot reads, copied there by cp.async (emitAsyncLoad):
/// - a tile loaded one iteration ahead through a loop (the form
///   tile-pipeline-loads gives), in two alternating stages: the load before
///   the loop fills stage 0, the one in the body the stage after the
///   current one;
/// - a tile loaded before a loop and used inside it (attention's Q), in one
///   stage, copied once.
/// Either must reach a dot in the loop's body only through views
/// (followToDot: reshapes dropping unit dimensions, transposes; an lhs may
/// not be transposed), be padded with zeros (cp.async zero-fills), move in
/// 16-byte runs, and fit, with the others, in kAsyncSmemBudget.
void KernelEmitter::findAsyncOperands() {
  struct Candidate {
    SmallVector<LoadOp> loads; // first (stage 0), then the one ahead
    SmallVector<Value> values; // everything standing for the tile
    Value operand;             // what the dot takes
    bool transposed;
    scf::ForOp loop;
    int64_t stageBytes, stride, stages;
  };
  SmallVector<Candidate> candidates;
  auto zeroPad = [](LoadOp load) {
    auto pad = load.getPaddingAttr();
    if (!pad)
      return true;
    auto f = dyn_cast<FloatAttr>(pad);
    return f && f.getValue().isPosZero();
  };
  // The candidate for `tile` (loaded by `loads`) reaching a dot of `loop`'s
  // body, if it qualifies.
  auto consider = [&](Value tile, scf::ForOp loop, SmallVector<LoadOp> loads,
                      SmallVector<Value> values, int64_t stages) {
    std::optional<DotOperandUse> use = followToDot(tile);
    if (!use || use->dot->getBlock() != loop.getBody() ||
        (use->operand == 0 && use->transposed))
      return;
    RankedTensorType type = loads.front().getType();
    int64_t rank = type.getRank();
    int64_t bytes = elementBytes(type.getElementType());
    if ((bytes != 2 && bytes != 4) || rank < 2)
      return;
    for (LoadOp load : loads)
      if (!zeroPad(load) ||
          regMap(load.getResult()).vectorWidth() * bytes < 16)
        return;
    for (Operation *view : use->views)
      values.push_back(view->getResult(0));
    int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
    int64_t stride = paddedRowStride(cols, bytes);
    candidates.push_back({loads, values, use->dot->getOperand(use->operand),
                          use->transposed, loop, rows * stride * bytes, stride,
                          stages});
  };
  kernel.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto first = loop.getInitArgs()[i].getDefiningOp<LoadOp>();
      auto next = yield.getOperand(i).getDefiningOp<LoadOp>();
      if (!first || !next || next->getBlock() != loop.getBody() ||
          !first->hasOneUse() || !next->hasOneUse() ||
          !loop.getResult(i).use_empty())
        continue;
      consider(arg, loop, {first, next},
               {first.getResult(), next.getResult(), arg, loop.getResult(i)},
               2);
    }
  });
  kernel.walk([&](LoadOp load) {
    std::optional<DotOperandUse> use = followToDot(load.getResult());
    if (!use)
      return;
    auto loop = dyn_cast<scf::ForOp>(use->dot->getParentOp());
    if (!loop || load->getBlock() != loop->getBlock() ||
        !load->isBeforeInBlock(loop))
      return;
    consider(load.getResult(), loop, {load}, {load.getResult()}, 1);
  });
  // Drop candidates from the last until the stages fit.
  auto need = [&]() {
    int64_t bytes = 0;
    for (const Candidate &c : candidates)
      bytes += c.stages * c.stageBytes;
    return bytes;
  };
  while (!candidates.empty() && need() > kAsyncSmemBudget)
    candidates.pop_back();
  for (const Candidate &c : candidates) {
    asyncOperands.push_back({asyncSmemBytes, c.stageBytes, c.stride, c.stages});
    asyncSmemBytes += c.stages * c.stageBytes;
    const AsyncOperand *operand = &asyncOperands.back();
    for (auto [i, load] : llvm::enumerate(c.loads))
      asyncLoads[load] = {operand, /*ahead=*/i == 1};
    for (Value v : c.values)
      asyncValues[v] = operand;
    if (c.transposed)
      asyncTransposed.insert(c.operand);
    asyncLoops.insert(c.loop);
  }
}

ArrayRef<Value> KernelEmitter::baseCoords(const Layout &l) {
  auto it = bases.find(&l);
  if (it != bases.end())
    return it->second;
  // Computed at the kernel entry so every use dominates.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(warpId);
  SmallVector<Value> out(l.rank, idx(0));
  auto addBits = [&](Value id, ArrayRef<Basis> bits) {
    for (auto [j, bb] : llvm::enumerate(bits)) {
      Value bit = arith::AndIOp::create(
          b, loc(), arith::ShRUIOp::create(b, loc(), id, idx(j)), idx(1));
      for (int64_t d = 0; d < l.rank; ++d)
        if (bb[d])
          out[d] = arith::AddIOp::create(
              b, loc(), out[d], arith::MulIOp::create(b, loc(), bit, idx(bb[d])));
    }
  };
  addBits(laneId, l.lane);
  addBits(warpId, l.warp);
  return bases[&l] = out;
}

Value KernelEmitter::coordinate(const RegMap &map, int64_t d, int64_t off) {
  Value c = arith::AddIOp::create(b, loc(), baseCoords(*map.layout)[d],
                                  idx(off));
  if (map.wraps(d))
    c = arith::AndIOp::create(b, loc(), c, idx(map.shape[d] - 1));
  return c;
}

SmallVector<Value> KernelEmitter::coordinates(const RegMap &map, int64_t i) {
  SmallVector<int64_t> off = map.offsets(i);
  SmallVector<Value> c;
  for (int64_t d = 0; d < (int64_t)off.size(); ++d)
    c.push_back(coordinate(map, d, off[d]));
  return c;
}

/// Shared memory is one static buffer per kernel, reused by every
/// reduction and layout conversion between barriers.
Value KernelEmitter::sharedBuffer(int64_t bytes) {
  smemBytes = std::max(smemBytes, bytes);
  return LLVM::AddressOfOp::create(b, loc(), smem);
}

Value KernelEmitter::reductionScratch(int64_t bytes) {
  int64_t offset = reduceSmemBytes;
  reduceSmemBytes = llvm::alignTo(offset + bytes, 16);
  Value base = LLVM::AddressOfOp::create(b, loc(), reduceSmem);
  return elementPtr(base, b.getI8Type(), idx(offset), kShared);
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

/// Combines `vals` as a balanced tree: depth log2 n instead of a chain of n
/// dependent instructions on the reduction's critical path.
Value KernelEmitter::combineTree(ReduceKind kind, SmallVector<Value> vals) {
  while (vals.size() > 1) {
    SmallVector<Value> next;
    for (size_t k = 0; k + 1 < vals.size(); k += 2)
      next.push_back(combine(kind, vals[k], vals[k + 1]));
    if (vals.size() % 2)
      next.push_back(vals.back());
    vals = std::move(next);
  }
  return vals.front();
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

/// Tiles of 16-bit floats cross loop and branch boundaries as pairs in one
/// 32-bit register: carried as scalars, each element would hold a register
/// of its own (ptxas does not pack 16-bit phis), doubling what a loop that
/// loads its operands ahead keeps live.
static bool carriedAsPairs(Value tile, int64_t count) {
  Type elem = cast<RankedTensorType>(tile.getType()).getElementType();
  return count % 2 == 0 && (elem.isF16() || elem.isBF16());
}

SmallVector<Type> KernelEmitter::carriedTypes(Value v) {
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  if (!tile)
    return {v.getType()};
  if (asyncValues.count(v))
    return {};
  int64_t n = regMap(v).count;
  if (carriedAsPairs(v, n))
    return SmallVector<Type>(n / 2, VectorType::get({2}, tile.getElementType()));
  return SmallVector<Type>(n, tile.getElementType());
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> out;
  for (Value v : values) {
    materialize(v);
    if (!isa<RankedTensorType>(v.getType())) {
      out.push_back(scalars.lookupOrDefault(v));
      continue;
    }
    if (asyncValues.count(v))
      continue; // in shared memory: nothing to carry
    const SmallVector<Value> &regs = tiles.lookup(v);
    if (!carriedAsPairs(v, regs.size())) {
      llvm::append_range(out, regs);
      continue;
    }
    auto pairType = VectorType::get({2}, regs.front().getType());
    for (size_t i = 0; i < regs.size(); i += 2) {
      Value pair = LLVM::PoisonOp::create(b, loc(), pairType);
      for (int64_t j = 0; j < 2; ++j)
        pair = LLVM::InsertElementOp::create(b, loc(), pair, regs[i + j], i32(j));
      out.push_back(pair);
    }
  }
  return out;
}

void KernelEmitter::bindResults(ValueRange olds, ValueRange flat) {
  size_t pos = 0;
  for (Value old : olds) {
    if (!isa<RankedTensorType>(old.getType())) {
      scalars.map(old, flat[pos++]);
      continue;
    }
    if (asyncValues.count(old))
      continue;
    int64_t n = regMap(old).count;
    SmallVector<Value> regs;
    if (!carriedAsPairs(old, n)) {
      regs.assign(flat.begin() + pos, flat.begin() + pos + n);
      pos += n;
    } else {
      for (int64_t i = 0; i < n; i += 2, ++pos)
        for (int64_t j = 0; j < 2; ++j)
          regs.push_back(
              LLVM::ExtractElementOp::create(b, loc(), flat[pos], i32(j)));
    }
    tiles[old] = std::move(regs);
  }
}

static bool hasTiles(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  currentLoc = op->getLoc();
  // Unpack loaded tiles where they are first used; a region may use any.
  if (op->getNumRegions() != 0)
    materializeAll();
  for (Value operand : op->getOperands())
    materialize(operand);
  if (isa<ReshapeOp, PermuteOp>(op) && asyncValues.count(op->getResult(0)))
    return success(); // a view of a tile in shared memory: nothing to move
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
  if (auto dot = dyn_cast<DotOp>(op))
    return emitDot(dot);
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
    tiles[splat.getResult()] = SmallVector<Value>(regMap(splat.getResult()).count,
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
    tiles[cst.getResult()] = SmallVector<Value>(regMap(cst.getResult()).count, v);
    return success();
  }
  if (auto iota = dyn_cast<IotaOp>(op)) {
    RegMap map = regMap(iota.getResult());
    SmallVector<Value> regs;
    for (int64_t i = 0; i < map.count; ++i)
      regs.push_back(arith::IndexCastOp::create(
          b, loc(), b.getI32Type(), coordinates(map, i)[0]));
    tiles[iota.getResult()] = regs;
    return success();
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    // Same layout: the register of the source at the same offsets, where a
    // stretched dimension (size 1) is at offset 0.
    RegMap src = regMap(bcast.getSource()), dst = regMap(bcast.getResult());
    std::map<SmallVector<int64_t>, int64_t> byOffsets;
    for (int64_t i = src.count - 1; i >= 0; --i)
      byOffsets[src.offsets(i)] = i;
    const SmallVector<Value> &in = tiles[bcast.getSource()];
    SmallVector<Value> out;
    for (int64_t i = 0; i < dst.count; ++i) {
      SmallVector<int64_t> off = dst.offsets(i);
      for (int64_t d = 0; d < (int64_t)off.size(); ++d)
        if (src.shape[d] == 1)
          off[d] = 0;
      out.push_back(in[byOffsets.at(off)]);
    }
    tiles[bcast.getResult()] = out;
    return success();
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    tiles[reshape.getResult()] =
        convertLayout(tiles[reshape.getSource()], regMap(reshape.getSource()),
                      regMap(reshape.getResult()), {});
    return success();
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    tiles[permute.getResult()] = convertLayout(
        tiles[permute.getSource()], regMap(permute.getSource()),
        regMap(permute.getResult()), permute.getPermutation());
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
  int64_t count = regMap(op->getResult(0)).count;
  SmallVector<SmallVector<Value>> results(op->getNumResults());
  // exp and exp2 of f32 use the SFU's ex2.approx (relative error about
  // 2^-22), as Triton does, instead of libdevice's longer sequences.
  bool isExp = isa<math::ExpOp>(op), isExp2 = isa<math::Exp2Op>(op);
  Type elementType =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if ((isExp || isExp2) && elementType.isF32()) {
    SmallVector<Value> regs;
    Value log2e = arith::ConstantOp::create(
        b, loc(), b.getF32FloatAttr(1.4426950408889634));
    for (Value x : tiles[op->getOperand(0)]) {
      if (isExp)
        x = arith::MulFOp::create(b, loc(), x, log2e);
      regs.push_back(LLVM::CallIntrinsicOp::create(
                         b, loc(), b.getF32Type(),
                         b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
                         ValueRange{x})
                         .getResult(0));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
  // f32 -> bf16/f16 truncation by pairs: one cvt.rn.{bf16,f16}x2.f32 per two
  // elements instead of one cvt each.
  if (auto trunc = dyn_cast<arith::TruncFOp>(op);
      trunc && count % 2 == 0 &&
      cast<RankedTensorType>(trunc.getIn().getType()).getElementType().isF32() &&
      (elementType.isBF16() || elementType.isF16()) && !trunc.getRoundingmodeAttr()) {
    auto pairIn = VectorType::get({2}, b.getF32Type());
    auto pairOut = VectorType::get({2}, elementType);
    const SmallVector<Value> &in = tiles[trunc.getIn()];
    SmallVector<Value> regs;
    for (int64_t i = 0; i < count; i += 2) {
      Value pair = LLVM::PoisonOp::create(b, loc(), pairIn);
      pair = LLVM::InsertElementOp::create(b, loc(), pair, in[i], i32(0));
      pair = LLVM::InsertElementOp::create(b, loc(), pair, in[i + 1], i32(1));
      Value narrow = LLVM::FPTruncOp::create(b, loc(), pairOut, pair);
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), narrow, i32(0)));
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), narrow, i32(1)));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
  // f32 division uses div.full.f32 (2 ulp), as Triton does, instead of the
  // IEEE div.rn sequence. A divisor shared by several registers (a broadcast
  // row sum, say) is inverted once and multiplied: rcp + mul per element is
  // within 2 ulp as well, and several instructions shorter than div.full.
  if (isa<arith::DivFOp>(op) && elementType.isF32()) {
    const SmallVector<Value> &num = tiles[op->getOperand(0)];
    const SmallVector<Value> &den = tiles[op->getOperand(1)];
    DenseMap<Value, int> uses;
    for (Value y : den)
      ++uses[y];
    DenseMap<Value, Value> reciprocal;
    Value one = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(1.0));
    auto divFull = [&](Value x, Value y) -> Value {
      return LLVM::CallIntrinsicOp::create(b, loc(), b.getF32Type(),
                                           b.getStringAttr("llvm.nvvm.div.full"),
                                           ValueRange{x, y})
          .getResult(0);
    };
    SmallVector<Value> regs;
    for (auto [x, y] : llvm::zip(num, den)) {
      if (uses[y] < 2) {
        regs.push_back(divFull(x, y));
        continue;
      }
      Value &r = reciprocal[y];
      if (!r)
        r = divFull(one, y);
      regs.push_back(arith::MulFOp::create(b, loc(), x, r));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
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

/// 0 <= c < size in every dimension, as one unsigned compare per dimension
/// (a negative c is a huge unsigned number; sizes are below 2^31).
Value KernelEmitter::inBounds(const ViewInfo &view, ArrayRef<Value> coords) {
  Value ok;
  for (auto [c, size] : llvm::zip(coords, view.sizes)) {
    Value lt =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, c, size);
    ok = ok ? Value(arith::AndIOp::create(b, loc(), ok, lt)) : lt;
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

/// Element coordinates of a tile's first element from its tile index.
SmallVector<Value> KernelEmitter::tileOriginOf(ValueRange indices,
                                               RankedTensorType type) {
  SmallVector<Value> origin;
  for (auto [i, index] : llvm::enumerate(indices))
    origin.push_back(arith::MulIOp::create(b, loc(), scalars.lookup(index),
                                           idx(type.getDimSize(i))));
  return origin;
}

/// Whether the run of `width` elements at `coords` can move as one vector:
/// in bounds, and the view allows aligned `width`-vectors (ViewInfo). Runs
/// start at multiples of `width` along the last dimension by construction of
/// the layouts, so that alignment holds for every run once it holds for the
/// view.
Value KernelEmitter::vectorAccessOk(const ViewInfo &view,
                                   ArrayRef<Value> coords, int64_t width) {
  // Outer dimensions: 0 <= c < size; the last: 0 <= c <= size - width, whose
  // bound (and size >= width) the view computed once (ViewInfo::vector).
  int64_t last = coords.size() - 1;
  const ViewInfo::VectorAccess &vec = view.vector.find(width)->second;
  Value ok = arith::AndIOp::create(
      b, loc(), vec.ok,
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, coords[last],
                            vec.lastMax));
  for (int64_t d = 0; d < last; ++d)
    ok = arith::AndIOp::create(
        b, loc(), ok,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, coords[d],
                              view.sizes[d]));
  return ok;
}

/// The coordinates of a run as seen by an edge (element by element) path:
/// the last one goes through an opaque copy (inline asm with side effects).
/// Without it LLVM merges the identical per-element coordinates of a load's
/// and a store's edge paths and hoists them to the kernel entry, where they
/// cost instructions and registers on the fast path.
SmallVector<Value> KernelEmitter::edgePathCoords(ArrayRef<Value> runStart) {
  SmallVector<Value> coords(runStart);
  Value c = arith::IndexCastOp::create(b, loc(), b.getI32Type(), coords.back());
  auto copy = LLVM::InlineAsmOp::create(
      b, loc(), b.getI32Type(), ValueRange{c}, "mov.u32 $0, $1;", "=r,r",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  coords.back() = arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                             copy.getResult(0));
  return coords;
}

/// One element of `view` at `coords` when `ok`, else `pad`.
Value KernelEmitter::guardedLoad(const ViewInfo &view, ArrayRef<Value> coords,
                                 Value ok, Value pad) {
  Type elem = view.elementType;
  auto branch = scf::IfOp::create(b, loc(), TypeRange{elem}, ok, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value p =
      elementPtr(view.base, elem, linearOffset(b, loc(), view, coords), kGlobal);
  scf::YieldOp::create(b, loc(),
                       ValueRange{LLVM::LoadOp::create(b, loc(), elem, p,
                                                       elementBytes(elem))});
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc(), pad);
  return branch.getResult(0);
}

/// Stores `value` to `view` at `coords` when `ok`.
void KernelEmitter::guardedStore(const ViewInfo &view, ArrayRef<Value> coords,
                                 Value ok, Value value) {
  Type elem = view.elementType;
  auto branch = scf::IfOp::create(b, loc(), TypeRange{}, ok, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value p =
      elementPtr(view.base, elem, linearOffset(b, loc(), view, coords), kGlobal);
  LLVM::StoreOp::create(b, loc(), value, p, elementBytes(elem));
}

/// The runs of `width` registers of a thread's part of a tile at
/// `tileOrigin` in `view`: each run's first coordinates and address, and
/// whether every run can move as one vector (null when width is 1).
KernelEmitter::Runs KernelEmitter::tileRuns(const ViewInfo &view,
                                            const RegMap &map, int64_t width,
                                            ArrayRef<Value> tileOrigin) {
  Runs runs;
  for (int64_t i = 0; i < map.count; i += width) {
    SmallVector<Value> coords = coordinates(map, i);
    for (auto [c, origin] : llvm::zip(coords, tileOrigin))
      c = arith::AddIOp::create(b, loc(), c, origin);
    runs.ptrs.push_back(elementPtr(view.base, view.elementType,
                                   linearOffset(b, loc(), view, coords),
                                   kGlobal));
    if (width > 1) {
      Value fast = vectorAccessOk(view, coords, width);
      runs.allFast = runs.allFast ? Value(arith::AndIOp::create(
                                        b, loc(), runs.allFast, fast))
                                  : fast;
    }
    runs.coords.push_back(coords);
  }
  return runs;
}

/// A thread's registers go to and from memory by runs that are contiguous
/// along the last dimension. When every run of the thread's part of the tile
/// is in bounds and aligned, one branch takes all of them as vector accesses
/// (the common case: interior tiles); otherwise every element is accessed
/// alone, predicated on its bounds (edge tiles, unaligned views).
///
/// A load yields its runs as vectors and unpacks them only when the tile is
/// first used (materialize): unpacking sub-word elements reads the loaded
/// register, and doing it right after the load would stall the thread there
/// instead of letting it issue its other loads first.
LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  if (auto it = asyncLoads.find(op); it != asyncLoads.end()) {
    Value stage = i32(0);
    if (it->second.ahead) {
      // The other stage was read by the last iteration: every thread must be
      // past that before it is overwritten.
      waitForAsyncStage();
      stage = arith::XOrIOp::create(b, loc(), asyncStage, i32(1));
    }
    emitAsyncLoad(op, *it->second.operand, stage);
    return success();
  }
  RankedTensorType type = op.getType();
  RegMap map = regMap(op.getResult());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t bytes = elementBytes(elem);
  // Runs of contiguous registers, at most 16 bytes per access.
  int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
  Value pad = arith::ConstantOp::create(
      b, loc(), op.getPaddingAttr() ? op.getPaddingAttr()
                                    : TypedAttr(b.getZeroAttr(elem)));
  SmallVector<Value> tileOrigin = tileOriginOf(op.getIndices(), type);

  Runs runs = tileRuns(view, map, width, tileOrigin);

  // Element k of the run at `coords`: loaded when in bounds, else padding.
  auto loadElement = [&](ArrayRef<Value> coords, int64_t k) -> Value {
    SmallVector<Value> c(coords);
    c[last] = arith::AddIOp::create(b, loc(), coords[last], idx(k));
    return guardedLoad(view, c, inBounds(view, c), pad);
  };
  if (width == 1) {
    SmallVector<Value> regs;
    for (ArrayRef<Value> coords : runs.coords)
      regs.push_back(loadElement(coords, 0));
    tiles[op.getResult()] = regs;
    return success();
  }

  auto vecType = VectorType::get({width}, elem);
  SmallVector<Type> types(runs.ptrs.size(), vecType);
  auto branch = scf::IfOp::create(b, loc(), types, runs.allFast, true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    SmallVector<Value> vecs;
    for (Value ptr : runs.ptrs)
      vecs.push_back(
          LLVM::LoadOp::create(b, loc(), vecType, ptr, width * bytes));
    scf::YieldOp::create(b, loc(), vecs);

    b.setInsertionPointToStart(branch.elseBlock());
    vecs.clear();
    for (ArrayRef<Value> runStart : runs.coords) {
      SmallVector<Value> coords = edgePathCoords(runStart);
      Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
      for (int64_t k = 0; k < width; ++k)
        vec = LLVM::InsertElementOp::create(b, loc(), vec,
                                            loadElement(coords, k), i32(k));
      vecs.push_back(vec);
    }
    scf::YieldOp::create(b, loc(), vecs);
  }
  pendingLoads[op.getResult()] =
      SmallVector<Value>(branch.getResults().begin(), branch.getResults().end());
  return success();
}

Value KernelEmitter::asyncStagePtr(const AsyncOperand &operand, Value stage) {
  Value offset = arith::AddIOp::create(
      b, loc(), idx(operand.offset),
      arith::MulIOp::create(
          b, loc(),
          arith::IndexCastOp::create(b, loc(), b.getIndexType(), stage),
          idx(operand.stageBytes)));
  return elementPtr(LLVM::AddressOfOp::create(b, loc(), asyncSmem),
                    b.getI8Type(), offset, kShared);
}

/// Copies a thread's part of the tile into a stage of `operand` with
/// cp.async, 16 bytes per run: a run partly or wholly out of bounds copies
/// only its in-bounds prefix (the rest is zero-filled, no global access).
/// Views that do not allow aligned 16-byte accesses take the synchronous
/// path, element by element. One commit group per load.
void KernelEmitter::emitAsyncLoad(LoadOp op, const AsyncOperand &operand,
                                  Value stage) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(op.getResult());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t bytes = elementBytes(elem);
  int64_t width = 16 / bytes;
  SmallVector<Value> origin = tileOriginOf(op.getIndices(), type);
  Value base = asyncStagePtr(operand, stage);
  int64_t rank = type.getRank(), last = rank - 1;
  SmallVector<std::pair<Value, SmallVector<Value>>> runs; // (dst, coords)
  for (int64_t i = 0; i < map.count; i += width) {
    // Leading dimensions are units: rows and columns are the last two.
    SmallVector<Value> local = coordinates(map, i);
    Value lin = arith::AddIOp::create(
        b, loc(),
        arith::MulIOp::create(b, loc(), local[last - 1], idx(operand.stride)),
        local[last]);
    SmallVector<Value> global;
    for (auto [c, o] : llvm::zip(local, origin))
      global.push_back(arith::AddIOp::create(b, loc(), c, o));
    runs.push_back({elementPtr(base, elem, lin, kShared), global});
  }

  auto branch = scf::IfOp::create(b, loc(), TypeRange{},
                                  view.vector.find(width)->second.ok, true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    for (auto &[dst, coords] : runs) {
      Value rowOk;
      for (int64_t d = 0; d < last; ++d) {
        Value ok = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                         coords[d], view.sizes[d]);
        rowOk = rowOk ? Value(arith::AndIOp::create(b, loc(), rowOk, ok)) : ok;
      }
      Value left =
          arith::SubIOp::create(b, loc(), view.sizes[last], coords[last]);
      left = arith::MaxSIOp::create(
          b, loc(), arith::MinSIOp::create(b, loc(), left, idx(width)), idx(0));
      left = arith::SelectOp::create(b, loc(), rowOk, left, idx(0));
      Value any = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne,
                                        left, idx(0));
      Value src = arith::SelectOp::create(
          b, loc(), any,
          elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                     kGlobal),
          view.base);
      Value srcBytes = arith::IndexCastOp::create(
          b, loc(), b.getI32Type(),
          arith::MulIOp::create(b, loc(), left, idx(bytes)));
      NVVM::CpAsyncOp::create(b, loc(), dst, src, 16,
                              NVVM::LoadCacheModifierKind::CG, srcBytes);
    }
    b.setInsertionPointToStart(branch.elseBlock());
    Value zero = arith::ConstantOp::create(b, loc(), b.getZeroAttr(elem));
    for (auto &[dst, runStart] : runs) {
      SmallVector<Value> coords = edgePathCoords(runStart);
      for (int64_t k = 0; k < width; ++k) {
        SmallVector<Value> c(coords);
        c[last] = arith::AddIOp::create(b, loc(), c[last], idx(k));
        Value v = guardedLoad(view, c, inBounds(view, c), zero);
        LLVM::StoreOp::create(
            b, loc(), v, elementPtr(dst, elem, idx(k), kShared), bytes);
      }
    }
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc());
}

/// Once per iteration of a loop with async operands, before the first
/// access to a stage: this thread's copies are done (wait_group 0) and every
/// thread's are visible, and every thread is past the last iteration's reads.
void KernelEmitter::waitForAsyncStage() {
  if (asyncWaited)
    return;
  NVVM::CpAsyncWaitGroupOp::create(b, loc(), 0);
  gpu::BarrierOp::create(b, loc());
  asyncWaited = true;
}

void KernelEmitter::materialize(Value tile) {
  auto it = pendingLoads.find(tile);
  if (it == pendingLoads.end())
    return;
  SmallVector<Value> regs;
  for (Value vec : it->second) {
    int64_t width = cast<VectorType>(vec.getType()).getNumElements();
    for (int64_t k = 0; k < width; ++k)
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), vec, i32(k)));
  }
  tiles[tile] = regs;
  pendingLoads.erase(it);
}

void KernelEmitter::materializeAll() {
  for (Value tile : llvm::to_vector(llvm::make_first_range(pendingLoads)))
    materialize(tile);
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(op.getValue());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t bytes = elementBytes(elem);
  // Runs of contiguous registers, at most 16 bytes per access.
  int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
  const SmallVector<Value> &regs = tiles[op.getValue()];
  SmallVector<Value> tileOrigin = tileOriginOf(op.getIndices(), type);

  Runs runs = tileRuns(view, map, width, tileOrigin);
  // Each element stored alone where it is in bounds.
  auto storeElements = [&]() {
    for (auto [run, runStart] : llvm::enumerate(runs.coords)) {
      SmallVector<Value> coords =
          width > 1 ? edgePathCoords(runStart) : SmallVector<Value>(runStart);
      for (int64_t k = 0; k < width; ++k) {
        SmallVector<Value> c = coords;
        c[last] = arith::AddIOp::create(b, loc(), coords[last], idx(k));
        guardedStore(view, c, inBounds(view, c), regs[run * width + k]);
      }
    }
  };
  if (width == 1) {
    storeElements();
    return success();
  }
  auto branch = scf::IfOp::create(b, loc(), TypeRange{}, runs.allFast, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  auto vecType = VectorType::get({width}, elem);
  for (auto [run, ptr] : llvm::enumerate(runs.ptrs)) {
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(b, loc(), vec, regs[run * width + k],
                                          i32(k));
    LLVM::StoreOp::create(b, loc(), vec, ptr, width * bytes);
  }
  b.setInsertionPointToStart(branch.elseBlock());
  storeElements();
  return success();
}

LogicalResult KernelEmitter::emitGather(GatherOp op) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(op.getResult());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
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
    regs.push_back(guardedLoad(view, coords, ok, pad));
  }
  tiles[op.getResult()] = regs;
  return success();
}

LogicalResult KernelEmitter::emitScatter(ScatterOp op) {
  RegMap map = regMap(op.getValue());
  const ViewInfo &view = views[op.getView()];
  for (int64_t i = 0; i < map.count; ++i) {
    SmallVector<Value> coords;
    for (Value index : op.getIndices())
      coords.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                  tiles[index][i]));
    Value ok = inBounds(view, coords);
    if (op.getMask())
      ok = arith::AndIOp::create(b, loc(), ok, tiles[op.getMask()][i]);
    guardedStore(view, coords, ok, tiles[op.getValue()][i]);
  }
  return success();
}

/// Reduces along the op's axis into `kept` (the source shape with the axis
/// at size 1, same layout). Bits that move along the axis within the tile
/// are reduced over: register bits within the thread, lane bits with xor
/// shuffles, warp bits through shared memory. Bits that only replicate
/// (they move by the tile's size or more) are not, so nothing counts twice.
SmallVector<Value> KernelEmitter::emitReduceKeepDims(ReduceOp op,
                                                     const RegMap &src,
                                                     const RegMap &dst) {
  const Layout &l = *src.layout;
  int64_t axis = op.getAxis();
  ReduceKind kind = op.getKind();
  const SmallVector<Value> &in = tiles[op.getSource()];
  Type elem = cast<RankedTensorType>(op.getSource().getType()).getElementType();
  auto along = [&](const Basis &bb) { return src.wrapped(bb, axis) != 0; };

  // 1. Within the thread: the destination register with the same offsets
  // off the axis takes every source register whose replicating bits are 0.
  std::map<SmallVector<int64_t>, int64_t> dstByOffsets;
  for (int64_t o = dst.count - 1; o >= 0; --o)
    dstByOffsets[dst.offsets(o)] = o;
  std::map<int64_t, SmallVector<Value>> terms;
  for (int64_t i = 0; i < src.count; ++i) {
    bool replica = false;
    for (auto [j, bb] : llvm::enumerate(src.bits))
      if ((i >> j & 1) && !along(bb) &&
          llvm::all_of(llvm::seq<int64_t>(0, l.rank),
                       [&](int64_t d) { return src.wrapped(bb, d) == 0; }))
        replica = true;
    if (replica)
      continue;
    SmallVector<int64_t> off = src.offsets(i);
    off[axis] = 0;
    int64_t o = dstByOffsets.at(off);
    terms[o].push_back(toWide(in[i]));
  }
  std::map<int64_t, Value> partial;
  for (auto &[o, vals] : terms)
    partial[o] = combineTree(kind, vals);

  // 2. Across the lanes whose bits move along the axis.
  for (auto &[o, v] : partial)
    for (auto [j, bb] : llvm::enumerate(l.lane))
      if (along(bb)) {
        auto shuffle = gpu::ShuffleOp::create(b, loc(), v, i32(int64_t(1) << j),
                                              i32(kWarpSize),
                                              gpu::ShuffleMode::XOR);
        v = combine(kind, v, shuffle.getShuffleResult());
      }

  // 3. Across the warps whose bits move along the axis: every warp writes
  // its partials to its own slice of shared memory, then each thread
  // combines the slices of the warps that differ from its own in those bits
  // only, in a fixed order.
  int64_t axisWarpMask = 0;
  for (auto [j, bb] : llvm::enumerate(l.warp))
    if (along(bb))
      axisWarpMask |= int64_t(1) << j;
  if (axisWarpMask) {
    Type wide = partial.begin()->second.getType();
    int64_t numel = 1;
    for (int64_t s : dst.shape)
      numel *= s;
    int64_t wbytes = elementBytes(wide);
    // A slice of its own: only a loop's next iteration can overwrite it
    // while slower warps still read it.
    if (loopDepth > 0)
      gpu::BarrierOp::create(b, loc());
    Value buf = reductionScratch(numWarps * numel * wbytes);
    auto slot = [&](Value warp, int64_t o) {
      SmallVector<Value> c = coordinates(dst, o);
      Value lin = idx(0);
      for (int64_t d = 0; d < l.rank; ++d)
        lin = arith::AddIOp::create(
            b, loc(), arith::MulIOp::create(b, loc(), lin, idx(dst.shape[d])),
            c[d]);
      return arith::AddIOp::create(
          b, loc(), arith::MulIOp::create(b, loc(), warp, idx(numel)), lin);
    };
    for (auto &[o, v] : partial)
      LLVM::StoreOp::create(b, loc(), v,
                            elementPtr(buf, wide, slot(warpId, o), kShared));
    gpu::BarrierOp::create(b, loc());
    Value others = arith::AndIOp::create(b, loc(), warpId, idx(~axisWarpMask));
    for (auto &[o, v] : partial) {
      SmallVector<Value> slices;
      for (int64_t w = 0; w < numWarps; ++w) {
        if ((w & ~axisWarpMask) != 0)
          continue; // enumerate the subsets of the axis bits only
        Value warp = arith::OrIOp::create(b, loc(), others, idx(w));
        slices.push_back(LLVM::LoadOp::create(
            b, loc(), wide, elementPtr(buf, wide, slot(warp, o), kShared)));
      }
      v = combineTree(kind, slices);
    }
  }

  // Destination registers that differ only in replicating bits hold the
  // same element: give each the partial of its representative.
  SmallVector<Value> out(dst.count);
  for (int64_t i = 0; i < dst.count; ++i) {
    auto it = partial.find(i);
    if (it == partial.end())
      it = partial.find(dstByOffsets.at(dst.offsets(i)));
    out[i] = fromWide(it->second, elem);
  }
  return out;
}

LogicalResult KernelEmitter::emitReduce(ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  SmallVector<int64_t> keptShape(srcType.getShape());
  keptShape[op.getAxis()] = 1;
  RegMap src = regMap(op.getSource());
  RegMap kept(*src.layout, keptShape);
  SmallVector<Value> regs = emitReduceKeepDims(op, src, kept);
  if (!op.getKeepDims())
    regs = convertLayout(regs, kept, regMap(op.getResult()), {});
  tiles[op.getResult()] = regs;
  return success();
}

/// Moves a tile between layouts (a reshape, a permutation, a change of
/// rank or of layout family). Where both place every element in the same
/// register of the same thread, this is a renaming; otherwise the tile goes
/// through shared memory, row-major in the source shape.
SmallVector<Value> KernelEmitter::convertLayout(ArrayRef<Value> regs,
                                                const RegMap &src,
                                                const RegMap &dst,
                                                ArrayRef<int64_t> perm) {
  // Same placement: every lane, warp and register bit moves the same
  // non-unit dimensions (in order) by the same amount.
  auto nonUnit = [](const RegMap &m) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < (int64_t)m.shape.size(); ++d)
      if (m.shape[d] != 1)
        dims.push_back(d);
    return dims;
  };
  SmallVector<int64_t> a = nonUnit(src), c = nonUnit(dst);
  bool identityPerm =
      perm.empty() || llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
  auto sameBits = [&](ArrayRef<Basis> x, const RegMap &mx, ArrayRef<Basis> y,
                      const RegMap &my) {
    if (x.size() != y.size())
      return false;
    for (auto [bx, by] : llvm::zip(x, y)) {
      for (auto [dx, dy] : llvm::zip(a, c))
        if (mx.wrapped(bx, dx) != my.wrapped(by, dy))
          return false;
    }
    return true;
  };
  if (identityPerm && a.size() == c.size() &&
      llvm::all_of(llvm::zip(a, c),
                   [&](auto p) {
                     return src.shape[std::get<0>(p)] == dst.shape[std::get<1>(p)];
                   }) &&
      sameBits(src.bits, src, dst.bits, dst) &&
      sameBits(src.layout->lane, src, dst.layout->lane, dst) &&
      sameBits(src.layout->warp, src, dst.layout->warp, dst))
    return SmallVector<Value>(regs);

  Type elem = regs.front().getType();
  Type stored = elem.isInteger(1) ? b.getI8Type() : elem;
  int64_t bytes = elementBytes(stored);
  int64_t numel = 1;
  for (int64_t s : src.shape)
    numel *= s;
  gpu::BarrierOp::create(b, loc());
  Value buf = sharedBuffer(numel * bytes);
  auto rowMajor = [&](ArrayRef<int64_t> shape, ArrayRef<Value> coords) {
    Value lin = idx(0);
    for (auto [s, co] : llvm::zip(shape, coords))
      lin = arith::AddIOp::create(
          b, loc(), arith::MulIOp::create(b, loc(), lin, idx(s)), co);
    return lin;
  };
  for (int64_t i = 0; i < src.count; ++i) {
    Value v = regs[i];
    if (elem.isInteger(1))
      v = arith::ExtUIOp::create(b, loc(), stored, v);
    LLVM::StoreOp::create(
        b, loc(), v,
        elementPtr(buf, stored, rowMajor(src.shape, coordinates(src, i)),
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
    Value lin = perm.empty() ? rowMajor(dst.shape, dc) : rowMajor(src.shape, sc);
    Value v = LLVM::LoadOp::create(b, loc(), stored,
                                   elementPtr(buf, stored, lin, kShared));
    if (elem.isInteger(1))
      v = arith::TruncIOp::create(b, loc(), elem, v);
    out.push_back(v);
  }
  return out;
}

/// A dot on tensor cores. The operands go to shared memory, A row-major
/// [M][K] and B transposed [N][K], so that each thread's fragment pairs are
/// contiguous; then every warp runs mma.sync over its 16x8 tiles of the
/// accumulator, which is in the mma layout: m16n8k16 for f16/bf16, m16n8k8
/// for f32 rounded to tf32.
LogicalResult KernelEmitter::emitDot(DotOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  Type elem = lhsType.getElementType();
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = op.getType().getDimSize(1);
  bool tf32 = elem.isF32();
  int64_t kStep = tf32 ? 8 : 16;
  RegMap acc = regMap(op.getResult());
  const Layout &l = *acc.layout;
  if (K % kStep)
    return fail(op) << "needs K to be a multiple of " << kStep << ", got "
                    << K;
  if (tf32 && op.getPrecision() != Precision::TF32)
    return fail(op) << "f32 inputs at ieee precision are not supported by "
                       "the GPU backend yet";

  if (M < 16 * l.warpsM || N < 8 * l.warpsN)
    return fail(op) << "tile " << M << "x" << N << " is smaller than the "
                    << 16 * l.warpsM << "x" << 8 * l.warpsN
                    << " its warps cover";

  // 1. Both operands row-major in shared memory, A as [M][K] and B as
  // [K][N], rows padded (paddedRowStride). An async operand is there
  // already (its stage of this iteration); the others are staged from
  // registers, each thread storing its contiguous runs as vectors of up to
  // 16 bytes, between two barriers.
  int64_t bytes = elementBytes(elem);
  struct Operand {
    Value tile;
    int64_t rows, cols, stride;
    Value base;         // !llvm.ptr<3> at element [0][0]
    bool nMajor = false; // B stored as [N][K] (an async transposed rhs)
  };
  Operand ops[2] = {{op.getLhs(), M, K, paddedRowStride(K, bytes), {}},
                    {op.getRhs(), K, N, paddedRowStride(N, bytes), {}}};
  int64_t stagedElems = 0;
  bool anyAsync = false;
  for (Operand &o : ops) {
    if (asyncValues.count(o.tile))
      anyAsync = true;
    else
      stagedElems += o.rows * o.stride;
  }
  if (anyAsync)
    waitForAsyncStage();
  if (stagedElems) {
    gpu::BarrierOp::create(b, loc());
    Value buf = sharedBuffer(stagedElems * bytes);
    int64_t offset = 0;
    for (Operand &o : ops) {
      if (asyncValues.count(o.tile))
        continue;
      o.base = elementPtr(buf, elem, idx(offset), kShared);
      offset += o.rows * o.stride;
      RegMap map = regMap(o.tile);
      const SmallVector<Value> &regs = tiles[o.tile];
      int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
      for (int64_t i = 0; i < map.count; i += width) {
        SmallVector<Value> c = coordinates(map, i);
        Value lin = arith::AddIOp::create(
            b, loc(), arith::MulIOp::create(b, loc(), c[0], idx(o.stride)),
            c[1]);
        Value ptr = elementPtr(o.base, elem, lin, kShared);
        if (width == 1) {
          LLVM::StoreOp::create(b, loc(), regs[i], ptr, bytes);
          continue;
        }
        auto vecType = VectorType::get({width}, elem);
        Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
        for (int64_t k = 0; k < width; ++k)
          vec = LLVM::InsertElementOp::create(b, loc(), vec, regs[i + k],
                                              i32(k));
        LLVM::StoreOp::create(b, loc(), vec, ptr, width * bytes);
      }
    }
    gpu::BarrierOp::create(b, loc());
  }
  for (Operand &o : ops) {
    auto it = asyncValues.find(o.tile);
    if (it == asyncValues.end())
      continue;
    const AsyncOperand &async = *it->second;
    o.base = asyncStagePtr(async, async.stages == 1 ? i32(0) : asyncStage);
    o.stride = async.stride;
    o.nMajor = asyncTransposed.contains(o.tile);
  }
  const Operand &opA = ops[0], &opB = ops[1];

  // 2. Fragments. A 32-bit register holds two f16/bf16 neighbours along K,
  // or one tf32. f16/bf16 fragments come from ldmatrix: lane i gives the
  // address of row i % 8 of 8x8 matrix i / 8; A's four matrices are rows
  // +0/+8 by K +0/+8 (a0..a3), B's are read transposed from [K][N], K +0/+8
  // by up to two N blocks (b0, b1 of each).
  Type i32Type = b.getI32Type();
  auto sharedAt = [&](const Operand &o, Value row, Value col) {
    Value lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), row, idx(o.stride)), col);
    return elementPtr(o.base, elem, lin, kShared);
  };
  // Round to nearest (ties away) on the 13 dropped mantissa bits, as the CPU
  // backend and cvt.rna.tf32.f32 do.
  auto toTf32 = [&](Value f) -> Value {
    Value bits = LLVM::BitcastOp::create(b, loc(), i32Type, f);
    bits = arith::AddIOp::create(b, loc(), bits, i32(0x1000));
    return arith::AndIOp::create(b, loc(), bits, i32(~0x1fff));
  };
  auto loadTf32 = [&](const Operand &o, Value row, Value col) {
    return toTf32(
        LLVM::LoadOp::create(b, loc(), elem, sharedAt(o, row, col), 4));
  };
  // nvvm.mma.sync takes f16 pairs as vector<2xf16>, bf16 pairs as i32.
  auto pairType = VectorType::get({2}, elem);
  auto ldmatrix = [&](Value ptr, int64_t num, bool trans) {
    Type result = num == 1 ? Type(i32Type)
                           : LLVM::LLVMStructType::getLiteral(
                                 b.getContext(),
                                 SmallVector<Type>(num, i32Type));
    Value m = NVVM::LdMatrixOp::create(
        b, loc(), result, ptr, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> regs;
    for (int64_t j = 0; j < num; ++j) {
      Value r = num == 1 ? m : Value(LLVM::ExtractValueOp::create(b, loc(), m, j));
      regs.push_back(elem.isF16()
                         ? Value(LLVM::BitcastOp::create(b, loc(), pairType, r))
                         : r);
    }
    return regs;
  };
  Value lane = laneId;
  Value groupRow = arith::DivUIOp::create(b, loc(), lane, idx(4));
  Value quad = arith::RemUIOp::create(b, loc(), lane, idx(4));
  Value warpN = arith::RemUIOp::create(b, loc(), warpId, idx(l.warpsN));
  Value warpM = arith::RemUIOp::create(
      b, loc(), arith::DivUIOp::create(b, loc(), warpId, idx(l.warpsN)),
      idx(l.warpsM));
  int64_t repsM = std::max<int64_t>(1, M / (16 * l.warpsM));
  int64_t repsN = std::max<int64_t>(1, N / (8 * l.warpsN));
  auto add = [&](Value a, int64_t c) {
    return c ? Value(arith::AddIOp::create(b, loc(), a, idx(c))) : a;
  };
  auto mul = [&](Value a, int64_t c) {
    return Value(arith::MulIOp::create(b, loc(), a, idx(c)));
  };
  Value mBase = add(mul(warpM, 16), 0), nBase = add(mul(warpN, 8), 0);
  Value colPair = tf32 ? quad : mul(quad, 2);
  int64_t half = tf32 ? 4 : 8;
  // ldmatrix lane roles: row within a matrix, which +8 half, which pair.
  Value lane8 = arith::RemUIOp::create(b, loc(), lane, idx(8));
  Value half8 = mul(arith::RemUIOp::create(
                        b, loc(), arith::DivUIOp::create(b, loc(), lane, idx(8)),
                        idx(2)),
                    8);
  Value pair16 = arith::DivUIOp::create(b, loc(), lane, idx(16));
  Value aRow = arith::AddIOp::create(b, loc(), add(mBase, 0),
                                     arith::AddIOp::create(b, loc(), lane8, half8));
  Value aCol = mul(pair16, 8);
  Value bRow = arith::AddIOp::create(b, loc(), lane8, half8);
  Value bCol = arith::AddIOp::create(b, loc(), nBase, mul(pair16, 8 * l.warpsN));
  // B stored as [N][K]: the same matrices, read without transposing, lane i
  // addressing row (n) i % 8 of its N block at K +0/+8.
  Value bRowN = arith::AddIOp::create(b, loc(), bCol, lane8);
  auto loadB = [&](Value k, Value n) {
    return opB.nMajor ? loadTf32(opB, n, k) : loadTf32(opB, k, n);
  };

  SmallVector<Value> out(tiles[op.getAcc()].begin(), tiles[op.getAcc()].end());
  auto f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptxType = tf32          ? NVVM::MMATypes::tf32
                           : elem.isBF16() ? NVVM::MMATypes::bf16
                                           : NVVM::MMATypes::f16;
  for (int64_t k = 0; k < K; k += kStep) {
    Value kCol = add(colPair, k);
    SmallVector<SmallVector<Value>> bFrags;
    for (int64_t rn = 0; rn < repsN; rn += tf32 ? 1 : 2) {
      if (tf32) {
        Value n = arith::AddIOp::create(
            b, loc(), add(nBase, rn * 8 * l.warpsN), groupRow);
        bFrags.push_back({loadB(kCol, n), loadB(add(kCol, half), n)});
        continue;
      }
      bool two = rn + 1 < repsN;
      SmallVector<Value> r =
          opB.nMajor
              ? ldmatrix(sharedAt(opB, add(bRowN, rn * 8 * l.warpsN),
                                  add(half8, k)),
                         two ? 4 : 2, /*trans=*/false)
              : ldmatrix(sharedAt(opB, add(bRow, k),
                                  add(bCol, rn * 8 * l.warpsN)),
                         two ? 4 : 2, /*trans=*/true);
      bFrags.push_back({r[0], r[1]});
      if (two)
        bFrags.push_back({r[2], r[3]});
    }
    for (int64_t rm = 0; rm < repsM; ++rm) {
      SmallVector<Value> aFrag;
      if (tf32) {
        Value r = arith::AddIOp::create(
            b, loc(), add(mBase, rm * 16 * l.warpsM), groupRow);
        aFrag = {loadTf32(opA, r, kCol), loadTf32(opA, add(r, 8), kCol),
                 loadTf32(opA, r, add(kCol, half)),
                 loadTf32(opA, add(r, 8), add(kCol, half))};
      } else {
        aFrag = ldmatrix(
            sharedAt(opA, add(aRow, rm * 16 * l.warpsM), add(aCol, k)), 4,
            /*trans=*/false);
      }
      for (int64_t rn = 0; rn < repsN; ++rn) {
        // Accumulator registers c0..c3 of this 16x8 tile: base bits first,
        // then N repetitions, then M repetitions (RegMap's order).
        int64_t base = 4 * (rn + repsN * rm);
        SmallVector<Value> c(out.begin() + base, out.begin() + base + 4);
        Value d = NVVM::MmaOp::create(
            b, loc(), resultType, aFrag, bFrags[rn], c,
            {16, 8, kStep}, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int64_t j = 0; j < 4; ++j)
          out[base + j] = LLVM::ExtractValueOp::create(b, loc(), d, j);
      }
    }
  }
  if ((int64_t)out.size() != acc.count)
    return fail(op) << "internal error: accumulator registers do not match "
                       "the mma layout";
  tiles[op.getResult()] = out;
  return success();
}

/// A loop with async operands also carries the index (0 or 1) of their
/// current stage, and waits for every copy after it.
LogicalResult KernelEmitter::emitFor(scf::ForOp op) {
  bool async = asyncLoops.contains(op);
  SmallVector<Value> inits = flatten(op.getInitArgs());
  if (async)
    inits.push_back(i32(0));
  auto loop = scf::ForOp::create(b, loc(), scalars.lookup(op.getLowerBound()),
                                 scalars.lookup(op.getUpperBound()),
                                 scalars.lookup(op.getStep()), inits);
  ValueRange carried = loop.getRegionIterArgs();
  ValueRange results = loop.getResults();
  if (async) {
    carried = carried.drop_back();
    results = results.drop_back();
  }
  {
    OpBuilder::InsertionGuard g(b);
    // Without iter_args the loop comes with a yield; ours replaces it.
    if (loop.getBody()->mightHaveTerminator())
      loop.getBody()->getTerminator()->erase();
    b.setInsertionPointToEnd(loop.getBody());
    scalars.map(op.getInductionVar(), loop.getInductionVar());
    bindResults(op.getRegionIterArgs(), carried);
    Value outerStage = asyncStage;
    bool outerWaited = asyncWaited;
    if (async) {
      asyncStage = loop.getRegionIterArgs().back();
      asyncWaited = false;
    }
    ++loopDepth;
    LogicalResult body = emitBlock(*op.getBody());
    --loopDepth;
    if (failed(body))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    SmallVector<Value> yields = flatten(yield.getOperands());
    if (async)
      yields.push_back(arith::XOrIOp::create(b, loc(), asyncStage, i32(1)));
    scf::YieldOp::create(b, loc(), yields);
    asyncStage = outerStage;
    asyncWaited = outerWaited;
  }
  if (async)
    NVVM::CpAsyncWaitGroupOp::create(b, loc(), 0);
  bindResults(op.getResults(), results);
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  SmallVector<Type> types;
  for (Value r : op.getResults())
    llvm::append_range(types, carriedTypes(r));
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

/// The occupancy asked of ptxas (.minnctapersm), 0 for none. A block of 16
/// or more warps in a kernel without tensor-core work asks for as many
/// blocks per SM as fit (64 warps) while each thread keeps its largest tile
/// plus 24 registers: left alone, ptxas gave a 16-warp f32 softmax row of
/// 16384 104 registers, so one block held the SM and nothing overlapped its
/// reductions and barriers (2 blocks: 136 instead of 160 us on the H200); a
/// row of 4096 on 16 warps gets 4 blocks and 32 registers, as Triton's. Smaller
/// blocks are not limited: there ptxas takes the hint as licence to use more
/// registers and occupancy drops (GELU 2x1024 at 4 warps: 40 -> 48
/// registers, 6% slower).
///
/// A kernel with tensor-core work asks for 2 blocks per SM when that limit
/// binds (blocks of 8+ warps) and leaves room for the largest dot's
/// accumulator, two copies of its operands in registers (one loaded ahead;
/// none for operands in shared memory) and 32 more registers: one block's mma.sync then runs while the other waits for its
/// loads and barriers (matmul 128x128x32 on 8 warps, its
/// operands loaded one iteration ahead: 158 registers and 1 block per SM ran
/// 778 us at 4096^3 on the H200; limited to 128, 574 us).
int64_t KernelEmitter::minBlocksPerSM() {
  if (auto asked = kernel->getAttrOfType<IntegerAttr>(kMinBlocksPerSMAttr))
    return asked.getInt();
  int64_t threads = numWarps * kWarpSize;
  auto regsOf = [&](Value tile) {
    auto type = cast<RankedTensorType>(tile.getType());
    return llvm::divideCeil(
        type.getNumElements() * elementBytes(type.getElementType()),
        4 * threads);
  };
  // Operands in shared memory (async) take no registers.
  auto operandRegs = [&](Value operand) -> int64_t {
    return asyncValues.count(operand) ? 0 : 2 * regsOf(operand);
  };
  int64_t dotRegs = 0;
  kernel.walk([&](DotOp dot) {
    dotRegs = std::max<int64_t>(dotRegs, regsOf(dot.getResult()) +
                                             operandRegs(dot.getLhs()) +
                                             operandRegs(dot.getRhs()) + 32);
  });
  if (dotRegs) {
    int64_t limit = 65536 / (2 * threads);
    return limit < 255 && limit >= dotRegs ? 2 : 0;
  }
  if (numWarps < 16)
    return 0;
  int64_t tileRegs = 0;
  for (Value value : llvm::make_first_range(layoutOfValue)) {
    int64_t bytes =
        regMap(value).count *
        elementBytes(cast<RankedTensorType>(value.getType()).getElementType());
    tileRegs = std::max<int64_t>(tileRegs, llvm::divideCeil(bytes, 4));
  }
  int64_t blocks = std::min<int64_t>(64 / numWarps,
                                     65536 / (threads * (tileRegs + 24)));
  return blocks >= 2 ? blocks : 0;
}

LogicalResult KernelEmitter::emit() {
  if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
    numWarps = w.getInt();
  if (failed(assignLayouts()))
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
  reduceSmem = LLVM::GlobalOp::create(
      b, l, LLVM::LLVMArrayType::get(b.getI8Type(), 1), /*isConstant=*/false,
      LLVM::Linkage::Internal, (kernel.getSymName() + "__smem_reduce").str(),
      Attribute(), /*alignment=*/16, kShared);
  findAsyncOperands();
  if (asyncSmemBytes) // dynamic: `.extern .shared` of no size
    asyncSmem = LLVM::GlobalOp::create(
        b, l, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
        /*isConstant=*/false, LLVM::Linkage::External,
        (kernel.getSymName() + "__smem_async").str(), Attribute(),
        /*alignment=*/16, kShared);
  auto func = gpu::GPUFuncOp::create(b, l, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(numWarps * kWarpSize), 1, 1}));
  if (int64_t blocks = minBlocksPerSM())
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(blocks));
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
      // Whether runs of w elements starting at multiples of w are aligned
      // w-vectors: unit innermost stride, outer strides and the base
      // aligned to w elements. Checked once here instead of at every access.
      int64_t bytes = elementBytes(info.elementType);
      Value addr = LLVM::PtrToIntOp::create(b, l, b.getI64Type(), info.base);
      for (int64_t w = 2; w * bytes <= 16; w *= 2) {
        Value ok = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(
                b, l, addr,
                arith::ConstantIntOp::create(b, l, b.getI64Type(), w * bytes)),
            arith::ConstantIntOp::create(b, l, b.getI64Type(), 0));
        for (int64_t d = 0; d < v.getRank(); ++d) {
          Value strideOk =
              d == v.getRank() - 1
                  ? arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                          info.strides[d], idx(1))
                  : arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::eq,
                        arith::RemUIOp::create(b, l, info.strides[d], idx(w)),
                        idx(0));
          ok = arith::AndIOp::create(b, l, ok, strideOk);
        }
        Value lastSize = info.sizes.back();
        ok = arith::AndIOp::create(
            b, l, ok,
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, lastSize,
                                  idx(w)));
        info.vector[w] = {ok, arith::SubIOp::create(b, l, lastSize, idx(w))};
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
  if (asyncSmemBytes)
    func->setAttr(kDynamicSharedBytesAttr, b.getI64IntegerAttr(asyncSmemBytes));
  if (int64_t total = smemBytes + reduceSmemBytes; total > kStaticSmemLimit)
    return kernel.emitOpError()
           << "needs " << total << " bytes of static shared memory, more than "
           << "the " << kStaticSmemLimit << " a block can have; use smaller "
           << "tiles";
  if (smemBytes == 0)
    smem.erase();
  else
    smem.setGlobalType(LLVM::LLVMArrayType::get(b.getI8Type(), smemBytes));
  if (reduceSmemBytes == 0)
    reduceSmem.erase();
  else
    reduceSmem.setGlobalType(
        LLVM::LLVMArrayType::get(b.getI8Type(), reduceSmemBytes));
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
    // Let LLVM fuse a * b + c into one fma, as nvcc (--fmad=true) and Triton
    // (enable_fp_fusion) do by default: fewer instructions and one rounding
    // instead of two. Without `contract`, NVPTX emits mul.rn/add.rn, which
    // ptxas may not fuse.
    if (fpContract)
      gpuModule.walk([](arith::ArithFastMathInterface op) {
        // Ops built from an OperationState may carry no flags attribute yet.
        arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
        op->setAttr(op.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(
                        op->getContext(),
                        (flags ? flags.getValue() : arith::FastMathFlags::none) |
                            arith::FastMathFlags::contract));
      });
  }
};
} // namespace
