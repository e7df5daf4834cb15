//===- Pipelines.h - TileGym pass pipelines ---------------------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_PIPELINES_H
#define TILEGYM_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace tilegym {
/// Lowers a module of tile kernels (and plain func/memref code beside them)
/// to the LLVM dialect, ready for MLIR's ExecutionEngine. Registered as
/// `tilegym-cpu-pipeline`.
void buildTileCpuPipeline(mlir::OpPassManager &pm);

/// Adds what the CPU pipeline and the translation to LLVM IR need beyond the
/// tile dialects: upstream dialects and their bufferization and conversion
/// interfaces, and the LLVM IR translations.
void registerCpuPipelineDependencies(mlir::DialectRegistry &registry);

/// Registers the pipelines above with the pass registry.
void registerTileGymPipelines();
} // namespace tilegym

#endif
