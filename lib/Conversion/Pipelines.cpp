//===- Pipelines.cpp - TileGym pass pipelines -----------------------------===//
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Conversion/Passes.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/Tile/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;

void tilegym::buildTileCpuPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(tilegym::tile::createTileStripDebugPass());
  // Tile ops to value-semantic linalg on tensors; views are memrefs already.
  pm.addPass(createConvertTileToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Elementwise chains into single loops: fewer temporary buffers.
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Tensors are internal to each function: no function-boundary
  // bufferization. Loops may carry new tiles (an updated accumulator); the
  // deallocation pipeline frees every temporary, loop-carried ones included
  // (kernels run for millions of blocks).
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createConvertLinalgToLoopsPass());

  // bf16/f16 arithmetic and math run in f32 and round back to the tile type
  // (no dependence on the host's half-precision support); bf16 conversions
  // become integer code. Math ops become LLVM intrinsics where there are
  // some, the rest (tanh, erf, ...) libm calls: convert-math-to-libm alone
  // would also call functions that libm lacks, such as rsqrtf.
  pm.addPass(arith::createArithEmulateUnsupportedFloats(
      arith::ArithEmulateUnsupportedFloatsOptions{
          {"bf16", "f16", "f8E4M3FN", "f8E5M2"}, "f32"}));
  pm.addPass(math::createMathExtendToSupportedTypes());
  // fp8 conversions become integer code at once: the emulation marks its
  // extf/truncf pairs `contract`, which folding may cancel, skipping the
  // fp8 rounding of each op's result that the GPU does.
  pm.addPass(createConvertFP8ToIntegerPass());
  pm.addPass(arith::createArithExpandOpsPass(
      arith::ArithExpandOpsPassOptions{/*includeBf16=*/true}));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());

  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  // Once more for fp8 constants: the passes above fold an i8 constant's
  // bitcast back into an fp8 constant, which LLVM cannot take.
  pm.addPass(createConvertFP8ToIntegerPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tilegym::buildTileToLayoutsPasses(OpPassManager &pm, llvm::StringRef chip,
                                       bool remarks) {
  pm.addNestedPass<func::FuncOp>(tilegym::tile::createTileStripDebugPass());
  tilegpu::TileGPULegalizeDotsPassOptions dotTypes;
  dotTypes.chip = chip.str();
  dotTypes.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPULegalizeDotsPass(dotTypes));
  tilegym::tile::TilePipelineLoadsPassOptions ahead;
  ahead.dotOperandsInSharedMemory = true;
  pm.addPass(tilegym::tile::createTilePipelineLoadsPass(ahead));
  pm.addPass(tilegym::tile::createTileHoistLoadsPass());
  tilegpu::TileGPUAssignLayoutsPassOptions layouts;
  layouts.chip = chip.str();
  layouts.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUAssignLayoutsPass(layouts));
}

void tilegym::buildTileToTileGpuPasses(OpPassManager &pm, llvm::StringRef chip,
                                       bool remarks) {
  buildTileToLayoutsPasses(pm, chip, remarks);
  tilegpu::TileGPURemoveLayoutConversionsPassOptions conversions;
  conversions.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPURemoveLayoutConversionsPass(conversions));
  tilegpu::TileGPUAccelerateDotsPassOptions dots;
  dots.chip = chip.str();
  dots.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUAccelerateDotsPass(dots));
  // The fp8 dots tilegpu-accelerate-dots left on mma.sync.
  tilegpu::TileGPULegalizeDotsPassOptions leftDotTypes;
  leftDotTypes.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPULegalizeDotsPass(leftDotTypes));
  tilegpu::TileGPUAssignTmaPassOptions tma;
  tma.chip = chip.str();
  tma.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(tilegpu::createTileGPUAssignTmaPass(tma));
  tilegpu::TileGPUPipelinePassOptions pipeline;
  pipeline.chip = chip.str();
  pm.addNestedPass<func::FuncOp>(tilegpu::createTileGPUPipelinePass(pipeline));
  tilegpu::TileGPUWarpSpecializePassOptions specialize;
  specialize.chip = chip.str();
  specialize.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUWarpSpecializePass(specialize));
  tilegpu::TileGPUMulticastPassOptions multicast;
  multicast.chip = chip.str();
  multicast.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUMulticastPass(multicast));
  tilegpu::TileGPUOverlapDotsPassOptions overlap;
  overlap.chip = chip.str();
  overlap.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUOverlapDotsPass(overlap));
  tilegpu::TileGPUPingPongPassOptions pingPong;
  pingPong.chip = chip.str();
  pingPong.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(tilegpu::createTileGPUPingPongPass(pingPong));
  tilegpu::TileGPUPersistentPassOptions persistent;
  persistent.chip = chip.str();
  persistent.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUPersistentPass(persistent));
  tilegpu::TileGPUStreamKPassOptions streamK;
  streamK.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(tilegpu::createTileGPUStreamKPass(streamK));
  tilegpu::TileGPUAllocateSharedMemoryPassOptions shared;
  shared.chip = chip.str();
  shared.remarks = remarks;
  pm.addNestedPass<func::FuncOp>(
      tilegpu::createTileGPUAllocateSharedMemoryPass(shared));
}

void tilegym::buildTileToGpuPasses(OpPassManager &pm, llvm::StringRef chip,
                                   bool remarks) {
  buildTileToTileGpuPasses(pm, chip, remarks);
  ConvertTileToGPUPassOptions options;
  options.chip = chip.str();
  options.remarks = remarks;
  pm.addPass(createConvertTileToGPUPass(options));
}

LogicalResult tilegym::remarkTileToGpuChoices(ModuleOp module,
                                              llvm::StringRef chip) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  buildTileToGpuPasses(pm, chip, /*remarks=*/true);
  return pm.run(*copy);
}

void tilegym::buildTileGpuPipeline(OpPassManager &pm, llvm::StringRef chip) {
  buildTileToGpuPasses(pm, chip);
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createSCFToControlFlowPass());
  // fp8 math and arithmetic run in f32 (the other floats keep their own);
  // fp8 conversions become integer code, which every chip runs, before
  // anything folds the emulation's extf/truncf pairs (marked contract).
  gpu.addPass(math::createMathExtendToSupportedTypes(
      math::MathExtendToSupportedTypesOptions{{"f16", "bf16"}, "f32"}));
  gpu.addPass(arith::createArithEmulateUnsupportedFloats(
      arith::ArithEmulateUnsupportedFloatsOptions{{"f8E4M3FN", "f8E5M2"},
                                                  "f32"}));
  gpu.addPass(createConvertFP8ToIntegerPass());
  // 32-bit index arithmetic, as Triton does: 64-bit integer multiplies cost
  // several instructions each on the GPU. The runtime rejects views whose
  // element offsets do not fit.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 32;
  gpu.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpu.addNestedPass<LLVM::LLVMFuncOp>(createMarkTensorMapParamsPass());
  // Math ops libdevice has no function for (math.trunc) become LLVM
  // intrinsics, which the NVPTX backend selects (cvt.rzi).
  gpu.addPass(createConvertMathToLLVMPass());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become inline PTX.
  gpu.addPass(createConvertNVVMToLLVMPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
}

std::string tilegym::findCudaToolkit() {
  // In the runtime's order for ptxas (findPtxas: PATH, $CUDA_HOME, then
  // /usr/local/cuda), so that the ptxas tilegym-info reports is the one used.
  SmallVector<std::string> candidates;
  // The toolkit whose ptxas is on PATH (<toolkit>/bin/ptxas).
  if (auto ptxas = llvm::sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (!llvm::sys::fs::real_path(*ptxas, real))
      candidates.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real))
              .str());
  }
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *dir = std::getenv(var); dir && *dir)
      candidates.push_back(dir);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &dir : candidates)
    if (llvm::sys::fs::exists(dir + "/nvvm/libdevice/libdevice.10.bc"))
      return dir;
  return "";
}

FailureOr<std::string> tilegym::compileTileToGpuBinary(
    ModuleOp module, llvm::StringRef chip, llvm::StringRef format,
    std::map<std::string, GpuKernelLaunch> *launches) {
  // Serialization needs the NVVM target and LLVM IR translation interfaces.
  DialectRegistry registry;
  registerPipelineDependencies(registry);
  module.getContext()->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(module->clone()));
  PassManager pm(module.getContext());
  buildTileGpuPipeline(pm, chip);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  // libdevice (tanh, rsqrt, ... of the math dialect) and ptxas come from the
  // toolkit; without it the PTX would call undefined __nv_* functions.
  // PTX for reading can do without (a warning); a cubin cannot.
  binary.toolkitPath = findCudaToolkit();
  if (binary.toolkitPath.empty()) {
    auto diag = format == "bin" ? module.emitError() : module.emitWarning();
    diag << "no CUDA toolkit found (nvvm/libdevice/libdevice.10.bc under "
            "$CUDA_HOME, $CUDA_PATH, the folder above ptxas on PATH, or "
            "/usr/local/cuda): libdevice is not linked, so math such as tanh "
            "or rsqrt stays a call to an undefined __nv_* function";
    if (format == "bin")
      return failure();
  }
  if (failed(pm.run(*clone)))
    return failure();
  if (launches)
    // The kernels are llvm.func ops by now; the attributes stay on them.
    clone->walk([&](LLVM::LLVMFuncOp func) {
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        return;
      GpuKernelLaunch &launch = (*launches)[func.getName().str()];
      if (auto bytes =
              func->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttr))
        launch.sharedBytes = bytes.getInt();
      if (auto warps =
              func->getAttrOfType<IntegerAttr>(tilegpu::kProducerWarpsAttr))
        launch.producerWarps = warps.getInt();
      if (auto persistent =
              func->getAttrOfType<IntegerAttr>(tilegpu::kPersistentAttr))
        launch.persistentBlocksPerSM = persistent.getInt();
      if (auto cluster =
              func->getAttrOfType<IntegerAttr>(tilegpu::kClusterAttr))
        launch.clusterBlocks = cluster.getInt();
      for (tilegpu::TensorMapAttr map : tilegpu::getTensorMaps(func)) {
        runtime::TensorMap t;
        t.param = size_t(map.getView());
        t.box.assign(map.getBox().begin(), map.getBox().end());
        launch.tensorMaps.push_back(std::move(t));
      }
    });
  PassManager serialize(module.getContext());
  serialize.addPass(createGpuModuleToBinaryPass(binary));
  if (failed(serialize.run(*clone)))
    return failure();
  for (auto bin : clone->getOps<gpu::BinaryOp>())
    for (Attribute object : bin.getObjects())
      return cast<gpu::ObjectAttr>(object).getObject().str();
  return module.emitError() << "the GPU pipeline produced no binary";
}

namespace {
struct GpuPipelineOptions : PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU architecture"),
                           llvm::cl::init("sm_90a")};
};
} // namespace

namespace {
/// The memory effects of an LLVM atomic, which the LLVM dialect leaves
/// unknown: it reads and writes what its pointer points to. The CPU
/// backend's atomics (tile.atomic_rmw, tile.atomic_cas) are LLVM atomics
/// amid memrefs, and the buffer deallocation pipeline refuses ops of unknown
/// effects.
template <typename AtomicOp>
struct AtomicMemoryEffects
    : MemoryEffectOpInterface::ExternalModel<AtomicMemoryEffects<AtomicOp>,
                                             AtomicOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    OpOperand &ptr = op->getOpOperand(0);
    effects.emplace_back(MemoryEffects::Read::get(), &ptr);
    effects.emplace_back(MemoryEffects::Write::get(), &ptr);
  }
};
} // namespace

void tilegym::registerPipelineDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.addExtension(+[](MLIRContext *ctx, LLVM::LLVMDialect *) {
    LLVM::AtomicRMWOp::attachInterface<AtomicMemoryEffects<LLVM::AtomicRMWOp>>(
        *ctx);
    LLVM::AtomicCmpXchgOp::attachInterface<
        AtomicMemoryEffects<LLVM::AtomicCmpXchgOp>>(*ctx);
  });
}

void tilegym::registerTileGymPipelines() {
  PassPipelineRegistration<>(
      "tilegym-cpu-pipeline",
      "Lower tile kernels to the LLVM dialect for the ExecutionEngine",
      buildTileCpuPipeline);
  PassPipelineRegistration<GpuPipelineOptions>(
      "tilegym-gpu-pipeline",
      "Lower tile kernels to NVVM kernels in a gpu.module",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        buildTileGpuPipeline(pm, options.chip);
      });
}
