//===- Pipelines.cpp - TileGym pass pipelines -----------------------------===//
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilegym::buildTileCpuPipeline(OpPassManager &pm) {
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
      arith::ArithEmulateUnsupportedFloatsOptions{{"bf16", "f16"}, "f32"}));
  pm.addPass(math::createMathExtendToSupportedTypes());
  pm.addPass(arith::createArithExpandOpsPass(
      arith::ArithExpandOpsPassOptions{/*includeBf16=*/true}));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());

  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tilegym::registerCpuPipelineDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void tilegym::registerTileGymPipelines() {
  PassPipelineRegistration<>(
      "tilegym-cpu-pipeline",
      "Lower tile kernels to the LLVM dialect for the ExecutionEngine",
      buildTileCpuPipeline);
}
