//===- Contiguity.h - how integer tiles vary along their last dimension ---===//
//
// Coordinates of a gather or scatter are tiles of integers. Where those of
// the last dimension step by one along it and the others stay constant
// along it (a window: `load_at(v, [r, c], [1, W])`, an embedding row at a
// loaded index), each thread's run of contiguous registers reads contiguous
// memory, and the GPU backend moves it as one vector whenever it is aligned
// and in bounds at run time.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILE_IR_CONTIGUITY_H
#define TILEGYM_DIALECT_TILE_IR_CONTIGUITY_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

namespace tilegym::tile {

/// How the elements of an integer tile change from one element to the next
/// along its last dimension, as far as the ops that compute it show.
enum class LastDimStride {
  Unknown,
  Uniform, ///< the same value along the last dimension (stride 0)
  Unit,    ///< one more than the element before it (stride 1)
};

/// The stride of `tile` along its last dimension: tiles whose last
/// dimension has one element are Uniform; iotas are Unit; splats and splat
/// constants Uniform; broadcasts keep their source's, or make it Uniform
/// along a last dimension of one; reshapes whose last dimension divides
/// their source's keep their source's; Unit + Uniform and Unit - Uniform are
/// Unit; an elementwise op of Uniform operands is Uniform.
LastDimStride getLastDimStride(mlir::Value tile);

/// Whether element coordinates `indices` (one integer tile per dimension of
/// a view) make runs along the last dimension contiguous in the view: the
/// last coordinates Unit, the others Uniform.
bool areContiguousAlongLastDim(mlir::ValueRange indices);

} // namespace tilegym::tile

#endif // TILEGYM_DIALECT_TILE_IR_CONTIGUITY_H
