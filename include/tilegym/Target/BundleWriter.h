//===- BundleWriter.h - writing kernel bundles from tile IR -----*- C++ -*-===//
//
// Writes a bundle folder (docs/gpu.md): manifest.json, read from the tile
// module (kernel signatures, num_warps, file-level consts, grid functions
// serialized as straight-line programs), plus each kernel's PTX and cubin
// as the GPU backend produced them. The MLIR-free runtime side reads it
// with tilegym/Bundle/Bundle.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_TARGET_BUNDLEWRITER_H
#define TILEGYM_TARGET_BUNDLEWRITER_H

#include "tilegym/Runtime/Runtime.h"
#include "tilegym/Target/PtxasInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tilegym {

/// What the GPU backend produced for one kernel.
struct GpuKernelBinary {
  std::string entry; ///< Symbol in the PTX/cubin; "" means the kernel's name.
  std::string ptx;   ///< Required.
  std::string cubin; ///< "" when ptxas was not found.
  int64_t sharedBytes = 0; ///< Dynamic shared memory per block.
  /// Registers and spills ptxas reported for it; none without ptxas.
  std::optional<PtxasResources> resources;
  /// The TMA's tensor maps the kernel takes after its parameters.
  std::vector<runtime::TensorMap> tensorMaps;
  /// Warps beyond tile.num_warps running a warp-specialized kernel's
  /// producer: the block has both.
  int64_t producerWarps = 0;
  /// A persistent kernel's blocks per SM (0: one block per tile).
  int64_t persistentBlocksPerSM = 0;
  /// The blocks of its clusters (1: none; tilegpu-multicast).
  int64_t clusterBlocks = 1;
};

/// Writes the bundle of `tileModule` (tile dialect, before GPU lowering) into
/// folder `dir`, created if needed. `binaries` maps every kernel's name to
/// its binary; `target` is the GPU target they were built for ("sm_90a").
/// Everything is checked before any file is written; errors name the kernel
/// and, for grid functions using ops a bundle cannot express, the op's
/// file:line:col.
llvm::Error writeBundle(llvm::StringRef dir, mlir::ModuleOp tileModule,
                        llvm::StringRef target,
                        const std::map<std::string, GpuKernelBinary> &binaries);

/// Compiles every kernel of `tileModule` with the GPU backend for `chip`
/// (PTX, and a cubin when ptxas is found) and writes the bundle into `dir`.
/// Compiler diagnostics go to the context's handler.
llvm::Error compileBundle(llvm::StringRef dir, mlir::ModuleOp tileModule,
                          llvm::StringRef chip);

} // namespace tilegym

#endif // TILEGYM_TARGET_BUNDLEWRITER_H
