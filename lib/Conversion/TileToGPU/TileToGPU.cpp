//===- TileToGPU.cpp - tile kernels to per-thread GPU code ----------------===//
//
// Builds, for each kernel, a gpu.func in which each thread holds its
// elements of every tile as SSA registers, placed by the layout in the
// tile's type (tilegpu-assign-layouts): the signature and the per-kernel
// values (thread, lane and warp ids, the views' fields) here, then the
// kernel's body, copied in, lowered op by op by a dialect conversion whose
// patterns each family's file populates. See the pass description in
// Passes.td for the lowering of each op.
//
// The emitter's state and helpers are declared in KernelEmitter.h.
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

/// Whether an op has tiles or tiles in shared memory among its operands
/// and results: it is lowered to the thread's values.
static bool hasThreadValues(Operation *op) {
  auto lowered = [](Type t) {
    return isa<RankedTensorType, tilegpu::MemDescType, tilegpu::MBarriersType>(
        t);
  };
  return llvm::any_of(op->getOperandTypes(), lowered) ||
         llvm::any_of(op->getResultTypes(), lowered);
}

LogicalResult KernelEmitter::emitEntry(gpu::GPUFuncOp &func,
                                       IRMapping &kernelValues,
                                       SmallVector<Operation *> &viewStandIns) {
  if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
    numWarps = w.getInt();
  // A tile has no registers before the kernel starts.
  for (Type t : kernel.getArgumentTypes())
    if (isa<RankedTensorType>(t))
      return kernel.emitOpError()
             << "GPU kernels take views and scalars, not tiles: " << t;
  MLIRContext *ctx = kernel.getContext();
  Location l = kernel.getLoc();

  // Signature: each view as an expanded memref descriptor, as the runtime
  // packs it; index scalars as i64.
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, kGlobal);
  SmallVector<Type> argTypes =
      threadTypes.kernelParameters(kernel.getArgumentTypes());
  // The TMA's tensor maps, after the parameters: each a pointer to the
  // 128-byte parameter itself (byval, __grid_constant__: see
  // tilegym-mark-tensor-map-params), which the bulk copies read.
  SmallVector<tilegpu::TensorMapAttr> maps = tilegpu::getTensorMaps(kernel);
  unsigned firstMapParam = argTypes.size();
  argTypes.append(maps.size(), LLVM::LLVMPointerType::get(ctx));
  b.setInsertionPointToEnd(gpuModule.getBody());
  if (failed(declareSharedMemory()))
    return failure();
  kernel.walk([&](tilegpu::MmaOp mma) {
    anyWgmma |= mma.getInstruction() == tilegpu::DotInstruction::Wgmma;
  });
  int64_t specialized = 0;
  kernel.walk([&](tilegpu::WarpSpecializeOp ws) {
    producerWarps = ws.getProducerWarps();
    ++specialized;
  });
  if (specialized > 1)
    return kernel.emitOpError()
           << "has " << specialized
           << " tilegpu.warp_specialize ops; a kernel splits its warps once";
  if (numWarps + producerWarps > 32)
    return kernel.emitOpError()
           << "has " << numWarps << " warps and " << producerWarps
           << " producer warps, more than the 32 a block may have";
  func = gpu::GPUFuncOp::create(b, l, kernel.getSymName(),
                                b.getFunctionType(argTypes, {}));
  kernelFunc = func;
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>((numWarps + producerWarps) * kWarpSize), 1, 1}));
  // The launch's block has the producers too (the bundle's manifest).
  if (producerWarps)
    func->setAttr(tilegpu::kProducerWarpsAttr,
                  b.getI64IntegerAttr(producerWarps));
  // And whether it is persistent (the launch's grid).
  if (auto persistent =
          kernel->getAttrOfType<IntegerAttr>(tilegpu::kPersistentAttr))
    func->setAttr(tilegpu::kPersistentAttr, persistent);
  // And its clusters' blocks (the launch's clusters).
  if (auto cluster = kernel->getAttrOfType<IntegerAttr>(tilegpu::kClusterAttr))
    func->setAttr(tilegpu::kClusterAttr, cluster);
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
      // The body's uses of the view, until they are lowered: a stand-in
      // for the fields, by which they find its ViewInfo.
      Value view =
          UnrealizedConversionCastOp::create(
              b, l, v, entry.getArguments().slice(pos, 3 + 2 * v.getRank()))
              .getResult(0);
      viewStandIns.push_back(view.getDefiningOp());
      views[view] = info;
      kernelValues.map(arg, view);
      pos += 3 + 2 * v.getRank();
    } else {
      Value a = entry.getArgument(pos++);
      if (arg.getType().isIndex())
        a = arith::IndexCastOp::create(b, l, b.getIndexType(), a);
      kernelValues.map(arg, a);
    }
  }
  if (!maps.empty()) {
    if (!target.hopperOrLater)
      return kernel.emitOpError()
             << "takes tensor maps, which need the TMA (sm_90 or later); the "
                "target is "
             << target.chip;
    SmallVector<int32_t> positions;
    for (auto [m, map] : llvm::enumerate(maps)) {
      auto arg = map.getView() < int64_t(kernel.getNumArguments())
                     ? kernel.getArgument(map.getView())
                     : BlockArgument();
      auto view = arg ? dyn_cast<ViewType>(arg.getType()) : ViewType();
      if (!view || int64_t(map.getBox().size()) != view.getRank())
        return kernel.emitOpError()
               << "tensor map " << m << " describes parameter " << map.getView()
               << ", which must be a view of rank " << map.getBox().size();
      positions.push_back(int32_t(firstMapParam + m));
      TensorMapParam param;
      param.descriptor = entry.getArgument(firstMapParam + m);
      param.view = kernelValues.lookup(arg);
      param.active = tensorMapActive(views[param.view]);
      tensorMaps.push_back(param);
    }
    func->setAttr(tilegpu::kTensorMapParamsAttr,
                  b.getDenseI32ArrayAttr(positions));
    func->setAttr(tilegpu::kTensorMapsAttr,
                  kernel->getAttr(tilegpu::kTensorMapsAttr));
  }
  return success();
}

/// Whether the launch encoded the tensor map of `view` (i1): the rule of
/// tilegym::runtime::tensorMapEligible, which passes zeros where it fails.
/// The base 16-byte aligned, no dimension empty, the innermost stride 1,
/// every other stride a positive multiple of 16 bytes and at least the
/// extent of the dimension inside it.
Value KernelEmitter::tensorMapActive(const ViewInfo &view) {
  int64_t bytes = elementBytes(view.elementType);
  auto cmp = [&](arith::CmpIPredicate p, Value a, Value c) -> Value {
    return arith::CmpIOp::create(b, loc(), p, a, c);
  };
  Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI64Type(), view.base);
  Value ok = cmp(arith::CmpIPredicate::eq,
                 arith::RemUIOp::create(b, loc(), addr,
                                        arith::ConstantIntOp::create(
                                            b, loc(), b.getI64Type(), 16)),
                 arith::ConstantIntOp::create(b, loc(), b.getI64Type(), 0));
  int64_t last = view.strides.size() - 1;
  ok = arith::AndIOp::create(
      b, loc(), ok, cmp(arith::CmpIPredicate::eq, view.strides[last], idx(1)));
  for (int64_t d = 0; d <= last; ++d) {
    ok = arith::AndIOp::create(
        b, loc(), ok, cmp(arith::CmpIPredicate::sge, view.sizes[d], idx(1)));
    if (d == last)
      continue;
    ok = arith::AndIOp::create(
        b, loc(), ok, cmp(arith::CmpIPredicate::sgt, view.strides[d], idx(0)));
    ok = arith::AndIOp::create(
        b, loc(), ok,
        cmp(arith::CmpIPredicate::sge, view.strides[d],
            arith::MulIOp::create(b, loc(), view.sizes[d + 1],
                                  view.strides[d + 1])));
    if (int64_t unit = 16 / bytes; unit > 1)
      ok = arith::AndIOp::create(
          b, loc(), ok,
          cmp(arith::CmpIPredicate::eq,
              arith::RemUIOp::create(b, loc(), view.strides[d], idx(unit)),
              idx(0)));
  }
  return ok;
}

LogicalResult KernelEmitter::emit() {
  IRMapping kernelValues;
  gpu::GPUFuncOp func;
  SmallVector<Operation *> viewStandIns;
  if (failed(emitEntry(func, kernelValues, viewStandIns)))
    return failure();
  // The body, copied: the kernel stays for the host (its grid, its
  // signature); the copy is lowered in place.
  for (Operation &op : kernel.getBody().front())
    b.clone(op, kernelValues);
  if (failed(loadLayouts(func)) || failed(expandWarpSpecialize(func)))
    return failure();
  if (int64_t blocks = minBlocksPerSM())
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(blocks));
  // Loops and branches other than scf.for, scf.while and scf.if have no
  // lowering.
  WalkResult regions = func.getBody().walk([&](Operation *op) {
    if (op->getNumRegions() == 0 ||
        isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op))
      return WalkResult::advance();
    fail(op) << "is not supported by the GPU backend";
    return WalkResult::interrupt();
  });
  if (regions.wasInterrupted())
    return failure();

  ConversionTarget target(*getContext());
  target.addIllegalDialect<TileDialect, tilegpu::TileGPUDialect>();
  target.addIllegalOp<func::ReturnOp>();
  target.addLegalOp<UnrealizedConversionCastOp>();
  target.markUnknownOpDynamicallyLegal(
      [](Operation *op) { return !hasThreadValues(op); });
  RewritePatternSet patterns(getContext());
  populateElementwisePatterns(*this, patterns);
  populateMemoryPatterns(*this, patterns);
  populateGatherScatterPatterns(*this, patterns);
  populateAtomicPatterns(*this, patterns);
  populateDebugPatterns(*this, patterns);
  populateSharedTilePatterns(*this, patterns);
  populateReducePatterns(*this, patterns);
  populateScanPatterns(*this, patterns);
  populateSortPatterns(*this, patterns);
  populateDotPatterns(*this, patterns);
  populatePartialPatterns(*this, patterns);
  populateControlFlowPatterns(*this, patterns);
  ConversionConfig config;
  // The emitter's output is what it emits: nothing folded on the way.
  config.foldingMode = DialectConversionFoldingMode::Never;
  // Replaced ops stay in the IR until the end: unpackLoad reads the original
  // users and order, and the iota and load-order fast paths (emitReshape,
  // fillsInLoadOrder) the original producers.
  config.allowPatternRollback = true;
  LogicalResult converted =
      applyPartialConversion(func, target, std::move(patterns), config);
  b.setListener(nullptr); // the conversion's rewriter is gone
  if (failed(converted) || loweringFailed)
    return failure();
  nameConsumerBarriers(func);
  for (Operation *standIn : viewStandIns) {
    if (!standIn->use_empty())
      return fail(*standIn->getUsers().begin())
             << "uses a view the GPU backend did not lower";
    standIn->erase();
  }
  if (smemBytes > kStaticSharedBytesLimit)
    func->setAttr(kDynamicSharedBytesAttr, b.getI64IntegerAttr(smemBytes));
  return success();
}

SmallVector<Value> KernelEmitter::threadValues(Value v) {
  if (isa<RankedTensorType>(v.getType()))
    return tiles.lookup(v);
  if (isa<tilegpu::MemDescType, tilegpu::MBarriersType>(v.getType()))
    return {sharedTiles.lookup(v), sharedOffsets.lookup(v)};
  return {scalars.lookupOrDefault(v)};
}

LogicalResult KernelEmitter::lower(Operation *op, ArrayRef<ValueRange> operands,
                                   ConversionPatternRewriter &rewriter,
                                   function_ref<LogicalResult()> emitOp) {
  if (!loweringFailed) {
    b.setListener(rewriter.getListener());
    b.setInsertionPoint(op);
    currentLoc = op->getLoc();
    loopDepth = 0;
    for (Operation *p = op->getParentOp(); p && p != kernelFunc;
         p = p->getParentOp())
      loopDepth += isa<LoopLikeOpInterface>(p);
    role = roleOf(op);
    for (auto [operand, values] : llvm::zip(op->getOperands(), operands)) {
      if (isa<RankedTensorType>(operand.getType())) {
        tiles[operand] = llvm::to_vector(values);
      } else if (isa<tilegpu::MemDescType, tilegpu::MBarriersType>(
                     operand.getType())) {
        sharedTiles[operand] = values[0];
        sharedOffsets[operand] = values[1];
      } else if (!isa<ViewType>(operand.getType())) {
        scalars.map(operand, values.front());
      }
    }
    loweringFailed = failed(emitOp());
    for (auto &[tile, runs] : pendingLoads)
      if (!loweringFailed && !tile.use_empty())
        unpackLoad(tile, runs);
    pendingLoads.clear();
  }
  if (loweringFailed) {
    // Stand-ins for the results, so that the conversion goes on quietly.
    SmallVector<SmallVector<Value>> standIns;
    for (Value r : op->getResults()) {
      SmallVector<Type> types;
      if (failed(threadTypes.convertType(r.getType(), types)))
        types = {r.getType()};
      auto standIn = UnrealizedConversionCastOp::create(rewriter, op->getLoc(),
                                                        types, ValueRange{});
      standIns.emplace_back(standIn.getResults().begin(),
                            standIn.getResults().end());
    }
    rewriter.replaceOpWithMultiple(op, standIns);
    return success();
  }
  if (llvm::all_of(op->getResults(), [](Value r) { return r.use_empty(); })) {
    rewriter.eraseOp(op);
    return success();
  }
  SmallVector<SmallVector<Value>> results;
  for (Value r : op->getResults())
    results.push_back(threadValues(r));
  rewriter.replaceOpWithMultiple(op, results);
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
      if (failed(KernelEmitter(kernel, gpuModule, target, remarks).emit()))
        return signalPassFailure();
    }
    storeFP8AsBytes(gpuModule);
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
