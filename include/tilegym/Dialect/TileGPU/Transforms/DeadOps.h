//===- DeadOps.h - what a rewrite of a block leaves behind ---*- C++ -*-===//
//
// The rewrites that split and re-loop a kernel (warp specialization,
// persistence) move the ops that use an index or an address and leave
// behind the arithmetic that computed it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_DEADOPS_H
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_DEADOPS_H

#include "mlir/IR/Block.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

namespace tilegym::tilegpu {

/// Erases the ops of `block` that nothing uses and that touch no memory,
/// until none is left (the last first, so that a chain goes in one sweep).
/// Not mlir::isOpTriviallyDead: it drops ops that only read, and a wait on
/// an mbarrier reads one and returns nothing.
inline void eraseDeadOps(mlir::Block *block) {
  bool erased = true;
  while (erased) {
    erased = false;
    for (mlir::Operation &op :
         llvm::make_early_inc_range(llvm::reverse(*block)))
      if (op.use_empty() && mlir::isMemoryEffectFree(&op) &&
          !op.getNumRegions() && !op.hasTrait<mlir::OpTrait::IsTerminator>()) {
        op.erase();
        erased = true;
      }
  }
}

} // namespace tilegym::tilegpu

#endif // TILEGYM_DIALECT_TILEGPU_TRANSFORMS_DEADOPS_H
