//===- TileToGPU.cpp - tile kernels to per-thread GPU code ----------------===//
//
// Emits, for each kernel, a gpu.func in which each thread holds its elements
// of every tile as SSA registers, placed by the layout in the tile's type
// (tilegpu-assign-layouts). See the pass description in Passes.td for the
// lowering of each op.
//
// The emitter's state and helpers are declared in KernelEmitter.h; reading
// the layouts, memory accesses, reductions and dots are in Layouts.cpp,
// Memory.cpp, Reduce.cpp and Dot.cpp.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"
#include "tilegym/Conversion/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tilegym {
#define GEN_PASS_DEF_CONVERTTILETOGPUPASS
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

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
/// 32-bit register (ThreadTypeConverter::packsPairs).
static bool carriedAsPairs(Value tile, int64_t count) {
  return ThreadTypeConverter::packsPairs(cast<RankedTensorType>(tile.getType()),
                                         count);
}

SmallVector<Type> KernelEmitter::carriedTypes(Value v) {
  SmallVector<Type> types;
  if (!isa<RankedTensorType>(v.getType()) ||
      failed(threadTypes.convertType(v.getType(), types)))
    return {v.getType()};
  return types;
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> out;
  for (Value v : values) {
    materialize(v);
    if (!isa<RankedTensorType>(v.getType())) {
      out.push_back(scalars.lookupOrDefault(v));
      continue;
    }
    const SmallVector<Value> &regs = tiles.lookup(v);
    if (!carriedAsPairs(v, regs.size())) {
      llvm::append_range(out, regs);
      continue;
    }
    auto pairType = VectorType::get({2}, regs.front().getType());
    for (size_t i = 0; i < regs.size(); i += 2) {
      Value pair = LLVM::PoisonOp::create(b, loc(), pairType);
      for (int64_t j = 0; j < 2; ++j)
        pair =
            LLVM::InsertElementOp::create(b, loc(), pair, regs[i + j], i32(j));
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
  if (auto load = dyn_cast<LoadOp>(op))
    return emitLoad(load);
  if (isa<tilegpu::LocalAllocOp, tilegpu::MemDescIndexOp,
          tilegpu::MemDescTransOp, tilegpu::AsyncCopyOp,
          tilegpu::AsyncCommitGroupOp, tilegpu::AsyncWaitOp,
          tilegpu::LocalLoadOp, tilegpu::FenceAsyncSharedOp>(op))
    return emitSharedTileOp(op);
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(store);
  if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
    emitPrefetch(prefetch);
    return success();
  }
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
  if (auto mma = dyn_cast<tilegpu::MmaOp>(op))
    return emitDot(mma);
  if (auto wait = dyn_cast<tilegpu::MmaWaitOp>(op)) {
    if (!target.wgmma)
      return fail(op) << "waits for wgmma groups, which need sm_90a; the "
                         "target is "
                      << target.chip;
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), wait.getPending());
    for (auto [from, to] : llvm::zip(wait.getValues(), wait.getResults()))
      sameRegisters(to, from);
    return success();
  }
  if (isa<DotOp>(op))
    return fail(op) << "has no tensor-core instruction yet: run "
                       "tilegpu-accelerate-dots and tilegpu-pipeline first";
  if (auto id = dyn_cast<BlockIdOp>(op)) {
    scalars.map(id.getResult(),
                (Value)gpu::BlockIdOp::create(
                    b, loc(), static_cast<gpu::Dimension>(id.getAxis())));
    return success();
  }
  if (auto n = dyn_cast<NumBlocksOp>(op)) {
    scalars.map(n.getResult(),
                (Value)gpu::GridDimOp::create(
                    b, loc(), static_cast<gpu::Dimension>(n.getAxis())));
    return success();
  }
  if (auto dim = dyn_cast<DimOp>(op)) {
    scalars.map(dim.getResult(), views[dim.getView()].sizes[dim.getAxis()]);
    return success();
  }
  if (auto n = dyn_cast<NumTilesOp>(op)) {
    scalars.map(n.getResult(),
                (Value)arith::CeilDivSIOp::create(
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
    tiles[splat.getResult()] = SmallVector<Value>(
        regMap(splat.getResult()).count, scalars.lookup(splat.getValue()));
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
    tiles[cst.getResult()] =
        SmallVector<Value>(regMap(cst.getResult()).count, v);
    return success();
  }
  if (auto iota = dyn_cast<IotaOp>(op)) {
    RegMap map = regMap(iota.getResult());
    SmallVector<Value> regs;
    for (int64_t i = 0; i < map.count; ++i)
      regs.push_back(arith::IndexCastOp::create(b, loc(), b.getI32Type(),
                                                coordinates(map, i)[0]));
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
    RegMap dst = regMap(reshape.getResult());
    auto from = cast<RankedTensorType>(reshape.getSource().getType());
    if (tilegpu::movesNoData(from, reshape.getType())) {
      sameRegisters(reshape.getResult(), reshape.getSource());
      return success();
    }
    // A reshaped iota ([N] to [1, N] or [N, 1]) is its coordinate along the
    // one dimension of size N, computed in the result's layout: no trip
    // through shared memory (attention's column indices, every iteration).
    auto shape = reshape.getType().getShape();
    if (reshape.getSource().getDefiningOp<IotaOp>() &&
        llvm::count_if(shape, [](int64_t d) { return d != 1; }) == 1) {
      int64_t dim = llvm::find_if(shape, [](int64_t d) { return d != 1; }) -
                    shape.begin();
      SmallVector<Value> regs;
      for (int64_t i = 0; i < dst.count; ++i)
        regs.push_back(arith::IndexCastOp::create(b, loc(), b.getI32Type(),
                                                  coordinates(dst, i)[dim]));
      tiles[reshape.getResult()] = regs;
      return success();
    }
    tiles[reshape.getResult()] = convertLayout(
        op, tiles[reshape.getSource()], regMap(reshape.getSource()), dst, {});
    return failure(allocationFailed);
  }
  if (auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op)) {
    if (tilegpu::movesNoData(convert.getSource().getType(),
                             convert.getType())) {
      sameRegisters(convert.getResult(), convert.getSource());
      return success();
    }
    tiles[convert.getResult()] = convertLayout(op, tiles[convert.getSource()],
                                               regMap(convert.getSource()),
                                               regMap(convert.getResult()), {});
    return failure(allocationFailed);
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    auto from = cast<RankedTensorType>(permute.getSource().getType());
    if (tilegpu::movesNoData(from, permute.getType(),
                             permute.getPermutation())) {
      sameRegisters(permute.getResult(), permute.getSource());
      return success();
    }
    tiles[permute.getResult()] = convertLayout(
        op, tiles[permute.getSource()], regMap(permute.getSource()),
        regMap(permute.getResult()), permute.getPermutation());
    return failure(allocationFailed);
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
  // elements instead of one cvt each. The NVVM op, not a vector fptrunc:
  // LLVM splits the latter back into scalar cvts where the halves are used
  // apart (an edge path), and ptxas serializes every wgmma of a kernel
  // whose scalar cvts read accumulator registers (C7514: matmul writing
  // bf16 C ran at 0.65 of cuBLAS, bench/NOTES.md, experiments).
  if (auto trunc = dyn_cast<arith::TruncFOp>(op);
      trunc && count % 2 == 0 &&
      cast<RankedTensorType>(trunc.getIn().getType())
          .getElementType()
          .isF32() &&
      (elementType.isBF16() || elementType.isF16()) &&
      !trunc.getRoundingmodeAttr()) {
    auto pairOut = VectorType::get({2}, elementType);
    const SmallVector<Value> &in = tiles[trunc.getIn()];
    SmallVector<Value> regs;
    for (int64_t i = 0; i < count; i += 2) {
      // Element 0 is the low half: PTX's `b`, the op's src_lo.
      Value narrow = elementType.isBF16()
                         ? Value(NVVM::ConvertF32x2ToBF16x2Op::create(
                               b, loc(), pairOut, in[i + 1], in[i], Value(),
                               NVVM::FPRoundingMode::RN))
                         : Value(NVVM::ConvertF32x2ToF16x2Op::create(
                               b, loc(), pairOut, in[i + 1], in[i], Value(),
                               NVVM::FPRoundingMode::RN));
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
      return LLVM::CallIntrinsicOp::create(
                 b, loc(), b.getF32Type(),
                 b.getStringAttr("llvm.nvvm.div.full"), ValueRange{x, y})
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
    ++loopDepth;
    LogicalResult body = emitBlock(*op.getBody());
    --loopDepth;
    if (failed(body))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    scf::YieldOp::create(b, loc(), flatten(yield.getOperands()));
  }
  bindResults(op.getResults(), loop.getResults());
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
/// none for operands in shared memory) and 32 more registers: one block's
/// mma.sync then runs while the other waits for its loads and barriers (matmul
/// 128x128x32 on 8 warps, its operands loaded one iteration ahead: 158
/// registers and 1 block per SM ran 778 us at 4096^3 on the H200; limited to
/// 128, 574 us). A kernel with more than one dot (attention) counts all of
/// them at once, as they live across its loop together, and asks for 2
/// blocks only when they all fit the limit.
int64_t KernelEmitter::minBlocksPerSM() {
  if (auto asked = kernel->getAttrOfType<IntegerAttr>(kMinBlocksPerSMAttr))
    return asked.getInt();
  int64_t threads = numWarps * kWarpSize;
  auto regsOf = [&](Value tile) {
    auto type = cast<RankedTensorType>(tile.getType());
    return llvm::divideCeil(type.getNumElements() *
                                elementBytes(type.getElementType()),
                            4 * threads);
  };
  // Operands in shared memory take no registers.
  auto operandRegs = [&](Value operand) -> int64_t {
    return isa<RankedTensorType>(operand.getType()) ? 2 * regsOf(operand) : 0;
  };
  // One dot: its accumulator and register operands. More (attention): all
  // of them at once, as they live across the loop with the online softmax
  // state (D=64 on 8 warps: 128 registers, 2 blocks per SM; D=128 on 4
  // warps: above the 255 a thread may have, so no hint).
  int64_t dotRegs = 0, allDotRegs = 0, dots = 0;
  kernel.walk([&](tilegpu::MmaOp dot) {
    ++dots;
    int64_t regs = regsOf(dot.getResult()) + operandRegs(dot.getLhs()) +
                   operandRegs(dot.getRhs());
    dotRegs = std::max<int64_t>(dotRegs, regs + 32);
    allDotRegs += regs;
  });
  if (dots > 1)
    dotRegs = allDotRegs + 32;
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
  int64_t blocks =
      std::min<int64_t>(64 / numWarps, 65536 / (threads * (tileRegs + 24)));
  return blocks >= 2 ? blocks : 0;
}

LogicalResult KernelEmitter::emit() {
  if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
    numWarps = w.getInt();
  if (failed(loadLayouts()))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  Location l = kernel.getLoc();

  // Signature: each view as an expanded memref descriptor, as the runtime
  // packs it; index scalars as i64.
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, kGlobal);
  SmallVector<Type> argTypes =
      threadTypes.kernelParameters(kernel.getArgumentTypes());
  b.setInsertionPointToEnd(gpuModule.getBody());
  if (failed(declareSharedMemory()))
    return failure();
  kernel.walk([&](tilegpu::MmaOp mma) {
    anyWgmma |= mma.getInstruction() == tilegpu::DotInstruction::Wgmma;
  });
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
  // With wgmma, the warp index broadcast from lane 0: ptxas then knows it is
  // uniform across the warp and keeps what derives from it (descriptors,
  // per-warp offsets) in uniform registers, as CUTLASS's
  // canonical_warp_idx_sync does (attention D64 0.81 -> 0.87 of cuDNN).
  // Elsewhere the shuffle would only lengthen the way to the first load.
  if (anyWgmma) {
    Value warp = arith::IndexCastOp::create(b, l, b.getI32Type(), warpId);
    warp = gpu::ShuffleOp::create(b, l, warp, i32(0), i32(kWarpSize),
                                  gpu::ShuffleMode::IDX)
               .getShuffleResult();
    warpId = arith::IndexCastOp::create(b, l, b.getIndexType(), warp);
  }

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
  if (smemBytes > kStaticSharedBytesLimit)
    func->setAttr(kDynamicSharedBytesAttr, b.getI64IntegerAttr(smemBytes));
  return success();
}

/// The kernel's buffer, as tilegpu-allocate-shared-memory sized it: a
/// static `.shared` array up to the 48 KiB a block may have statically, an
/// `.extern .shared` one (dynamic, sized at launch) above.
LogicalResult KernelEmitter::declareSharedMemory() {
  auto total = kernel->getAttrOfType<IntegerAttr>(tilegpu::kSharedMemoryAttr);
  smemBytes = total ? total.getInt() : 0;
  if (smemBytes > target.sharedBytesPerBlock)
    return kernel.emitOpError()
           << "has " << smemBytes << " bytes of shared memory per block, more "
           << "than the " << target.sharedBytesPerBlock
           << " a block can have on " << target.chip;
  if (smemBytes == 0)
    return success();
  bool dynamic = smemBytes > kStaticSharedBytesLimit;
  smem = LLVM::GlobalOp::create(
      b, kernel.getLoc(),
      LLVM::LLVMArrayType::get(b.getI8Type(), dynamic ? 0 : smemBytes),
      /*isConstant=*/false,
      dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal,
      (kernel.getSymName() + "__smem").str(), Attribute(),
      /*alignment=*/kSwizzleAtomBytes, kShared);
  return success();
}

namespace {
struct ConvertTileToGPUPass
    : tilegym::impl::ConvertTileToGPUPassBase<ConvertTileToGPUPass> {
  using Base::Base;
  /// f64 tiles exist for float64 reference kernels on the CPU; the GPU
  /// layouts and tensor-core paths are built for 16- and 32-bit elements.
  static LogicalResult refuseF64(func::FuncOp kernel) {
    auto isF64 = [](Type t) {
      if (auto view = dyn_cast<ViewType>(t))
        t = view.getElementType();
      return getElementTypeOrSelf(t).isF64();
    };
    for (BlockArgument arg : kernel.getArguments())
      if (isF64(arg.getType()))
        return emitError(arg.getLoc())
               << "f64 runs on the CPU only (float64 reference kernels); "
                  "the GPU backend takes f32, f16, bf16, i32 and i1";
    WalkResult found = kernel.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (isF64(t)) {
          op->emitError() << "f64 runs on the CPU only (float64 reference "
                             "kernels); the GPU backend takes f32, f16, "
                             "bf16, i32 and i1";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return failure(found.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Programs name tile kernels for launches, which read them before
    // lowering; the lowered kernels are no longer tile kernels.
    module->removeAttr(kProgramsAttr);
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    std::optional<unsigned> version = tilegpu::parseChipVersion(chip);
    if (!version) {
      module.emitError() << "invalid chip '" << chip
                         << "'; expected sm_<N> or sm_<N>a";
      return signalPassFailure();
    }
    // LLVM's default PTX ISA for sm_90 (7.8) predates Hopper's bulk copies
    // and prefetches (PTX 8.0); sm_90a's default is 8.0 already, and later
    // chips' defaults are newer still (a feature here would lower them).
    std::string features = chip == "sm_90" ? ", features = \"+ptx80\"" : "";
    Attribute targetAttr = parseAttribute(
        "#nvvm.target<chip = \"" + chip + "\"" + features + ", O = 3>", ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(
        b, module.getLoc(), "tilegym_kernels", b.getArrayAttr({targetAttr}));
    GpuTarget target{chip, chip == "sm_90a", *version >= 90,
                     tilegpu::getMaxSharedBytesPerBlock(*version)};
    for (auto kernel : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (!kernel->hasAttr(kKernelAttr))
        continue;
      if (failed(refuseF64(kernel)))
        return signalPassFailure();
      if (failed(KernelEmitter(kernel, gpuModule, target, remarks).emit()))
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
                        op->getContext(), (flags ? flags.getValue()
                                                 : arith::FastMathFlags::none) |
                                              arith::FastMathFlags::contract));
      });
  }
};
} // namespace
