//===- Frontend.h - load a .tile or .mlir file as tile IR -------*- C++ -*-===//
#ifndef TILEGYM_FRONTEND_FRONTEND_H
#define TILEGYM_FRONTEND_FRONTEND_H

#include "tilegym/Frontend/MLIRGen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilegym {

/// Registers every dialect tile IR uses (tile, arith, math, scf, func,
/// tensor) with `context`.
void loadTileDialects(mlir::MLIRContext &context);

/// Reads `path` ("-" for stdin) into `sourceMgr` as its main buffer; on
/// failure prints "error: cannot read PATH: REASON" and returns false.
bool addSourceFile(llvm::SourceMgr &sourceMgr, llvm::StringRef path);

/// Compiles the main buffer of `sourceMgr` to tile IR: `.mlir` buffers are
/// parsed as MLIR, anything else as a .tile program with `defines`. Errors go
/// to the context's diagnostic handler; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
loadTileModule(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
               const Defines &defines, const FrontendOptions &options = {});

} // namespace tilegym

#endif // TILEGYM_FRONTEND_FRONTEND_H
