//===- DotOperands.h - tiles on their way to a dot ---------------*- C++
//-*-===//
//
// Which tiles end up as a dot operand through ops that only rename their
// elements. The GPU pipeline keeps such tiles in shared memory, in the
// layout the dot reads, instead of registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILE_IR_DOTOPERANDS_H
#define TILEGYM_DIALECT_TILE_IR_DOTOPERANDS_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

namespace tilegym::tile {

/// A tile that reaches a dot as its lhs or rhs through single-use views:
/// reshapes that only drop leading unit dimensions, and 2-D transposes.
struct DotOperandUse {
  DotOp dot;
  unsigned operand;                           ///< 0: lhs, 1: rhs
  bool transposed;                            ///< an odd number of transposes
  llvm::SmallVector<mlir::Operation *> views; ///< on the way, in order
};

/// The dot `tile` feeds that way, if it does.
std::optional<DotOperandUse> followToDot(mlir::Value tile);

/// Whether `load` pads with zeros (no padding given, or +0.0): what an
/// asynchronous copy's zero fill gives at the edges.
bool padsWithZeros(LoadOp load);

} // namespace tilegym::tile

#endif
