//===- CopyAddresses.h - choosing how copies address their runs -*- C++ -*-===//
//
// The one GPU-backend choice made from ptxas's answer: how each kernel's
// copies into shared memory address their runs (`tilegpu.async_copy`'s
// `chained`).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TARGET_COPYADDRESSES_H
#define TILEGYM_TARGET_COPYADDRESSES_H

#include "tilegym/Conversion/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tilegym {

/// Spill bytes the chained form must save to be chosen: below that, its
/// slower schedule costs more than the spills (bench/NOTES.md).
constexpr int64_t kChainedCopySpillSaving = 64;

/// A trial compile that is the module as chosen: its PTX and each kernel's
/// dynamic shared-memory bytes, as compileTileToGpuBinary gives them, so
/// that the caller need not compile the module once more.
struct CompiledPtx {
  std::string ptx;
  std::map<std::string, GpuKernelLaunch> launches;
};

/// For each kernel of `module` (tile dialect) that copies into shared memory
/// (once the tile-level GPU passes have staged its dots' operands) and has
/// no choice made yet: when ptxas is found, compiles the module for `chip` with
/// direct run addresses and, for the kernels ptxas spills, with chained ones,
/// and sets the kernel's `tilegpu.chain_copy_addresses` to whether chaining
/// saves at least kChainedCopySpillSaving spill bytes (a kernel that has the
/// attribute is left as it is). `remarks`: says what was chosen and why,
/// per kernel. Without ptxas, or when a trial compile fails (the real
/// compile then reports why), nothing is set. Returns the trial's PTX when
/// one trial compiled every kernel in the form chosen for it (no kernel
/// chained, or every kernel tried chained keeping it) and a CUDA toolkit is
/// found (without one, the caller's compile warns that libdevice is not
/// linked).
std::optional<CompiledPtx>
chooseCopyAddresses(mlir::ModuleOp module, llvm::StringRef chip, bool remarks);

} // namespace tilegym

#endif
