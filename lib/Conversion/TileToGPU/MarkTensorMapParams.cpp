//===- MarkTensorMapParams.cpp - tensor maps as __grid_constant__ params --===//
//
// The TMA reads a tensor map from the parameter, constant or global state
// space, never from local memory. A kernel parameter whose address is taken
// stays in the parameter space only if it is byval and __grid_constant__;
// convert-gpu-to-nvvm keeps no argument attributes, so the kernel lists its
// tensor-map parameters and this pass marks them on the llvm.func.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/Passes.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace tilegym {
#define GEN_PASS_DEF_MARKTENSORMAPPARAMSPASS
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

using namespace mlir;

namespace {
/// A CUtensorMap: 128 bytes, 64-byte aligned.
constexpr int64_t kTensorMapBytes = 128, kTensorMapAlignment = 64;

struct MarkTensorMapParamsPass
    : tilegym::impl::MarkTensorMapParamsPassBase<MarkTensorMapParamsPass> {
  void runOnOperation() override {
    LLVM::LLVMFuncOp func = getOperation();
    auto positions = func->getAttrOfType<DenseI32ArrayAttr>(
        tilegym::tilegpu::kTensorMapParamsAttr);
    if (!positions)
      return;
    MLIRContext *ctx = func.getContext();
    OpBuilder b(ctx);
    auto bytes =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), kTensorMapBytes);
    for (int32_t p : positions.asArrayRef()) {
      if (p < 0 || p >= int32_t(func.getNumArguments()) ||
          !isa<LLVM::LLVMPointerType>(func.getArgument(p).getType())) {
        func.emitOpError() << "lists parameter " << p
                           << " as a tensor map, which must be a pointer "
                              "parameter";
        return signalPassFailure();
      }
      func.setArgAttr(p, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(bytes));
      func.setArgAttr(p, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(kTensorMapAlignment));
      func.setArgAttr(p, NVVM::NVVMDialect::getGridConstantAttrName(),
                      b.getUnitAttr());
    }
  }
};
} // namespace
