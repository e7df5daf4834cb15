//===- DotOperands.h - tiles on their way to a dot -------------*- C++ -*-===//
//
// Which tiles end up as a dot operand through ops that only rename their
// elements. The GPU pipeline keeps such tiles in shared memory, in the
// layout the dot reads, instead of registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILE_IR_DOTOPERANDS_H
#define TILEGYM_DIALECT_TILE_IR_DOTOPERANDS_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

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

/// Where dot operand `operand` comes from, walking back from the dot
/// through the single-use views followToDot follows: the tile it starts
/// from, and whether the dot reads it through an odd number of 2-D
/// transposes (a B stored [N][K], K-major).
struct DotOperandSource {
  mlir::Value tile;
  bool transposed;
};
DotOperandSource traceDotOperand(mlir::Value operand);

/// Whether `load` pads with zeros (no padding given, or +0.0): what an
/// asynchronous copy's zero fill gives at the edges.
bool padsWithZeros(LoadOp load);

/// A window of k tiles a loop carries k iterations ahead, as
/// tile-pipeline-loads leaves it: iteration arguments a0..a(k-1), each
/// loaded before the loop, a(j) yielded as a(j-1), the load in the body
/// yielded as a(k-1); a0 is what the body uses. Every load has one use and
/// no loop result is used.
struct LoadWindow {
  /// The loads before the loop (filling a0..a(k-1)), then the one in the
  /// body.
  llvm::SmallVector<LoadOp> loads;
  /// Every value standing for the tile: the loads' results, the iteration
  /// arguments and the loop's results.
  llvm::SmallVector<mlir::Value> values;
};

/// The window whose a0 is iteration argument `arg` of `loop`, if it is one
/// (at least one load before the loop and one in the body).
std::optional<LoadWindow> getLoadWindow(mlir::scf::ForOp loop, unsigned arg);

/// The loads that can fill shared-memory stages for `tile`, read in
/// `loop`'s body: the window's loads when `tile` is an iteration argument
/// of `loop` carrying a window (one stage each), or `tile`'s own load when
/// it comes before `loop` in the loop's block (one stage); none otherwise.
/// tilegpu-accelerate-dots stages these; tilegpu-assign-layouts predicts
/// from them which dots it will stage.
llvm::SmallVector<LoadOp> getStageableLoads(mlir::Value tile,
                                            mlir::scf::ForOp loop);

/// How much more coarsely than their element types the dots under `root`
/// round when compiled for `chip` ("" for the CPU JIT): "tf32" when one
/// multiplies f32 tiles in tf32 (the tensor cores' default, which the CPU
/// JIT emulates: tf32's u = 2^-11 on every product); "fp8-wgmma" when one
/// multiplies fp8 tiles on sm_90a, whose fp8 wgmma adds the products
/// keeping about 13 mantissa bits; "" otherwise (fp8 dots elsewhere widen
/// to f16 and sum in f32).
llvm::StringRef getCoarseDotRounding(mlir::Operation *root,
                                     llvm::StringRef chip);

} // namespace tilegym::tile

#endif
