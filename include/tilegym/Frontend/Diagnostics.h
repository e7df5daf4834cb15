//===- Diagnostics.h - Backend diagnostics in the language's terms --------===//
//
// The backends check tile IR and report in its terms ("'tile.load' op tile
// 'tensor<65536xf32>' ..."). For a `.tile` source the user wrote `load` and
// thinks of `tile [65536] f32`: this handler rewrites every diagnostic (and
// its notes) into those terms before the next handler prints or verifies
// it, so errors from any pass speak the language and keep pointing at the
// expression the op came from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_FRONTEND_DIAGNOSTICS_H
#define TILEGYM_FRONTEND_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <string>

namespace tilegym {

/// `message` with op names, tile types and view types in the language's
/// words: "'tile.load' op " -> "load: ", "'func.func' op " -> "kernel: ",
/// "'tensor<1x64xbf16>'" -> "tile [1, 64] bf16", "'!tile.view<?xf32>'" ->
/// "view<?xf32>".
std::string inLanguageTerms(llvm::StringRef message);

/// While alive, rewrites the diagnostics of `context` with inLanguageTerms
/// and passes them on to the handler registered before it. It also turns off
/// the "see current operation" notes, which print IR.
class LanguageDiagnosticHandler {
public:
  explicit LanguageDiagnosticHandler(mlir::MLIRContext *context);
  ~LanguageDiagnosticHandler();

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
  bool printedOps;
  bool reemitting = false;
};

/// Makes LLVM's fatal errors (an instruction selection failure, out of
/// memory in a pass) end `tool` with "error: internal compiler error: ..."
/// and exit code 1, instead of an abort and a stack dump: a last line of
/// defence, each such error is a bug to fix where it arises.
void installFatalErrorHandler(const char *tool);

} // namespace tilegym

#endif // TILEGYM_FRONTEND_DIAGNOSTICS_H
