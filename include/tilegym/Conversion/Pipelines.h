//===- Pipelines.h - TileGym pass pipelines ---------------------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_PIPELINES_H
#define TILEGYM_CONVERSION_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "tilegym/Runtime/Runtime.h"

#include <map>

namespace tilegym {
/// What a launch of a compiled kernel passes beyond its arguments: its
/// dynamic shared memory per block, and the TMA's tensor maps it takes
/// after its parameters (tilegpu.tensor_maps), the producer warps its
/// block has beyond tile.num_warps (tilegpu.producer_warps), and, for a
/// persistent kernel, the blocks per SM its grid holds (tilegpu.persistent),
/// and the blocks of its clusters (tilegpu.cluster; 1: none).
struct GpuKernelLaunch {
  int64_t sharedBytes = 0;
  std::vector<runtime::TensorMap> tensorMaps;
  int64_t producerWarps = 0;
  int64_t persistentBlocksPerSM = 0;
  int64_t clusterBlocks = 1;
};

/// Lowers a module of tile kernels (and plain func/memref code beside them)
/// to the LLVM dialect, ready for MLIR's ExecutionEngine. Registered as
/// `tilegym-cpu-pipeline`.
void buildTileCpuPipeline(mlir::OpPassManager &pm);

/// The GPU pipeline's first steps for `chip`: the tile transforms the GPU
/// backend wants (tile-pipeline-loads, tile-hoist-loads), then
/// tilegpu-assign-layouts, which puts a layout on every tile and every data
/// movement between layouts into a convert_layout (with `remarks`, saying
/// which and why). What `tilegym-cc --emit=layouts` shows.
void buildTileToLayoutsPasses(mlir::OpPassManager &pm, llvm::StringRef chip,
                              bool remarks = false);

/// The GPU pipeline's tile-level steps for `chip`: buildTileToLayoutsPasses,
/// then tilegpu-remove-layout-conversions, tilegpu-accelerate-dots and
/// tilegpu-allocate-shared-memory. What `tilegym-cc --emit=tilegpu` shows.
void buildTileToTileGpuPasses(mlir::OpPassManager &pm, llvm::StringRef chip,
                              bool remarks = false);

/// Lowers tile kernels to per-thread code in a `gpu.module` for `chip`:
/// buildTileToTileGpuPasses, then convert-tile-to-gpu. What
/// `tilegym-cc --emit=gpu` shows.
void buildTileToGpuPasses(mlir::OpPassManager &pm, llvm::StringRef chip,
                          bool remarks = false);

/// `--remarks` of the tools: buildTileToGpuPasses with remarks on, run on a
/// copy of `module`, so that what the GPU backend chooses for `chip` is
/// said (to the context's diagnostic handler) whatever is then compiled.
mlir::LogicalResult remarkTileToGpuChoices(mlir::ModuleOp module,
                                           llvm::StringRef chip);

/// Lowers tile kernels to a `gpu.module` of NVVM-dialect kernels for `chip`
/// (e.g. "sm_90a"): buildTileToGpuPasses, then canonicalization and
/// convert-gpu-to-nvvm inside the GPU module. Registered as
/// `tilegym-gpu-pipeline`. gpu-module-to-binary is left to the caller.
void buildTileGpuPipeline(mlir::OpPassManager &pm, llvm::StringRef chip);

/// The CUDA toolkit folder holding nvvm/libdevice/libdevice.10.bc: the first
/// of the folder above the ptxas on PATH, $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT
/// and /usr/local/cuda that has it; "" when none does.
std::string findCudaToolkit();

/// Runs the GPU pipeline on a clone of `module` and serializes the GPU
/// module with the toolkit of findCudaToolkit() (libdevice linked in):
/// `format` "isa" gives PTX text, "bin" a cubin (through that toolkit's
/// ptxas). Diagnostics go to the context's handler. `launches`, when
/// given, receives what each kernel's launch must pass beyond its
/// arguments.
mlir::FailureOr<std::string> compileTileToGpuBinary(
    mlir::ModuleOp module, llvm::StringRef chip, llvm::StringRef format,
    std::map<std::string, GpuKernelLaunch> *launches = nullptr);

/// Adds what the CPU and GPU pipelines and the translations to LLVM IR need
/// beyond the tile dialects: upstream dialects and their bufferization and
/// conversion interfaces, and the LLVM IR translations.
void registerPipelineDependencies(mlir::DialectRegistry &registry);

/// Registers the pipelines above with the pass registry.
void registerTileGymPipelines();
} // namespace tilegym

#endif
