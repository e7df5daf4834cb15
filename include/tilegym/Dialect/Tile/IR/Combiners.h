//===- Combiners.h - what reductions, scans and sorts combine ---*- C++ -*-===//
//
// The semantics both backends must share, built once: the identity a
// reduction or an exclusive scan starts from, the order sorts use, and a
// float's bits for compare-and-swap. TileToLinalg (the CPU) and TileToGPU
// call these, so the two cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILE_IR_COMBINERS_H
#define TILEGYM_DIALECT_TILE_IR_COMBINERS_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"

namespace tilegym::tile {

/// The identity of `kind` on `type`: 0 for sum, 1 for prod, -inf/+inf for
/// float max/min, the signed extremes for integer max/min (false/true for
/// i1).
mlir::TypedAttr getReduceIdentity(ReduceKind kind, mlir::Type type);

/// Whether `x` sorts above `y` (an i1): signed for integers; for floats NaN
/// above every number, -0.0 equal to 0.0.
mlir::Value buildSortsAbove(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, mlir::Value y);

/// Whether the entry (`x`, index `ix`) sorts above (`y`, `iy`) in a sort
/// that keeps indices: by value, then equal values by index, so that the
/// lower index comes first whichever the direction (`descending`). Without
/// indices (`ix` and `iy` null), buildSortsAbove.
mlir::Value buildEntrySortsAbove(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value x, mlir::Value ix, mlir::Value y,
                                 mlir::Value iy, bool descending);

/// `v` as an integer of its width (floats bitcast, integers as they are):
/// what compare-and-swap compares.
mlir::Value buildBitsOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);

} // namespace tilegym::tile

#endif // TILEGYM_DIALECT_TILE_IR_COMBINERS_H
