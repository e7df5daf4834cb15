//===- tilegym-opt.cpp - the mlir-opt of TileGym --------------------------===//
//
// Every upstream dialect and pass plus TileGym's own, for lit tests and for
// running pipelines by hand.
//
//===----------------------------------------------------------------------===//
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "tilegym/Conversion/Passes.h"
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/Tile/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  tilegym::registerTileGymConversionPasses();
  tilegym::tile::registerTileTransformsPasses();
  tilegym::tilegpu::registerTileGPUTransformsPasses();
  tilegym::registerTileGymPipelines();
  mlir::DialectRegistry registry;
  // Upstream dialects, their interfaces and the LLVM IR translations
  // (gpu-module-to-binary translates GPU modules to LLVM IR).
  tilegym::registerPipelineDependencies(registry);
  registry
      .insert<tilegym::tile::TileDialect, tilegym::tilegpu::TileGPUDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TileGym optimizer driver\n", registry));
}
