//===- SpecializedRings.h - the rings a warp_specialize's producer fills --===//
//
// The passes after tilegpu-warp-specialize (clusters, overlapped dots) need
// to know, for each ring, which mbarriers its consumers release its stages
// on: the producer waits on them right before each copy into the ring.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_SPECIALIZEDRINGS_H
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_SPECIALIZEDRINGS_H

#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace tilegym::tilegpu {

/// A ring the producer fills: its stages, the copies into them (the
/// producer's and the consumers' before their loop) and the mbarriers its
/// consumers release stages on.
struct SpecializedRing {
  LocalAllocOp alloc;
  mlir::Value empty;
  llvm::SmallVector<AsyncCopyOp> copies;
};

/// The kernel's `tilegpu.warp_specialize` (at the top of its body), or
/// null where tilegpu-warp-specialize did not split it.
WarpSpecializeOp warpSpecializeOf(mlir::func::FuncOp kernel);

/// The branch `ws`'s consumer region starts with: its then region runs on
/// the mbarriers the producer fills, its else region is the kernel as it
/// was, on cp.async. Null for a null `ws` or one of another form.
mlir::scf::IfOp consumerBranchOf(WarpSpecializeOp ws);

/// The stages' allocation `copy` fills, or null.
LocalAllocOp ringOf(AsyncCopyOp copy);

/// The rings of `ws`'s producer, in fill order, or why they cannot be told
/// apart (a copy not right after the wait for its stage's release).
mlir::FailureOr<llvm::SmallVector<SpecializedRing>>
findSpecializedRings(WarpSpecializeOp ws, std::string &why);

} // namespace tilegym::tilegpu

#endif // TILEGYM_DIALECT_TILEGPU_TRANSFORMS_SPECIALIZEDRINGS_H
