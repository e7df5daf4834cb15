//===- Parser.h - Parser for the .tile language -----------------*- C++ -*-===//
//
// A recursive-descent parser producing the AST of AST.h. Errors are reported
// through the MLIR diagnostic engine of the given context, at FileLineColLocs
// named after the buffer's identifier, so a SourceMgrDiagnosticHandler (or
// the verifier handler) registered for the same SourceMgr can show them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_FRONTEND_PARSER_H
#define TILEGYM_FRONTEND_PARSER_H

#include "tilegym/Frontend/AST.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tilegym {

/// Parses buffer `bufferId` of `sourceMgr` as a whole .tile file. Returns null
/// if any error was reported; the parser recovers after an error and reports
/// up to 20 of them.
std::unique_ptr<ModuleAST> parseModule(llvm::SourceMgr &sourceMgr,
                                       unsigned bufferId,
                                       mlir::MLIRContext &context);

} // namespace tilegym

#endif // TILEGYM_FRONTEND_PARSER_H
