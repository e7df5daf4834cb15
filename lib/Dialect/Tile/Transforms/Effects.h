//===- Effects.h - memory effects shared by the tile transforms -*- C++ -*-===//
#ifndef TILEGYM_LIB_DIALECT_TILE_TRANSFORMS_EFFECTS_H
#define TILEGYM_LIB_DIALECT_TILE_TRANSFORMS_EFFECTS_H

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilegym::tile {

/// Whether `op` (or an op nested in it) may write memory; unknown effects
/// count as writes.
inline bool mayWrite(mlir::Operation *op) {
  std::optional<llvm::SmallVector<mlir::MemoryEffects::EffectInstance>>
      effects = mlir::getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(
      *effects, [](const mlir::MemoryEffects::EffectInstance &e) {
        return llvm::isa<mlir::MemoryEffects::Write, mlir::MemoryEffects::Free>(
            e.getEffect());
      });
}

} // namespace tilegym::tile

#endif
