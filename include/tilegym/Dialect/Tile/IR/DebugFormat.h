//===- DebugFormat.h - what tile.print and tile.assert say ------*- C++ -*-===//
//
// One line format for both backends, so that a kernel's debug output reads
// the same on the CPU and on the GPU: the CPU lowering passes it to the C
// library's printf, the GPU lowering to CUDA's vprintf (gpu.printf).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILE_IR_DEBUGFORMAT_H
#define TILEGYM_DIALECT_TILE_IR_DEBUGFORMAT_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace tilegym::tile {

/// The source position inside `loc` (through call sites, names and fused
/// locations), or null.
mlir::FileLineColLoc findSourcePosition(mlir::Location loc);

/// `file:line:col` of `loc` (as findSourcePosition finds it), or
/// "<unknown>".
std::string describeSourceLocation(mlir::Location loc);

/// The printf format of one line of `op`: its location, `block (%d, %d,
/// %d)`, then the element's coordinates `[%d, %d]` when it prints a tile,
/// its prefix (a `%` doubled), and one conversion per operand. Arguments in
/// that order: the block's three coordinates, the element's, then each
/// operand as printfArgument makes it.
std::string printFormat(PrintOp op);

/// `scalar` as a C variadic argument of the conversion printFormat gives its
/// type: floats as f64 (`%g`), integers up to 32 bits as i32 (`%d`, i1 as 0
/// or 1), i64 and index as i64 (`%lld`).
mlir::Value printfArgument(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value scalar);

/// What a failing `op` reports: `file:line:col: message`.
std::string assertMessage(AssertOp op);

} // namespace tilegym::tile

#endif // TILEGYM_DIALECT_TILE_IR_DEBUGFORMAT_H
