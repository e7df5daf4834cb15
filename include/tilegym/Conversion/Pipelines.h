//===- Pipelines.h - TileGym pass pipelines ---------------------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_PIPELINES_H
#define TILEGYM_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace tilegym {
/// Lowers a module of tile kernels (and plain func/memref code beside them)
/// to the LLVM dialect, ready for MLIR's ExecutionEngine. Registered as
/// `tilegym-cpu-pipeline`.
void buildTileCpuPipeline(mlir::OpPassManager &pm);

/// Registers the pipelines above with the pass registry.
void registerTileGymPipelines();
} // namespace tilegym

#endif
