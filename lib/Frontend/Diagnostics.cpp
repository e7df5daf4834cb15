//===- Diagnostics.cpp - Backend diagnostics in the language's terms ------===//
#include "tilegym/Frontend/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace mlir;

/// The builtin or construct of the language an op of the IR comes from.
static std::string constructOf(llvm::StringRef op) {
  std::string named = llvm::StringSwitch<std::string>(op)
                          .Case("tile.splat", "full")
                          .Case("tile.iota", "arange")
                          .Case("tile.reduce", "reduction")
                          .Case("func.func", "kernel")
                          .Case("func.return", "return")
                          .Case("func.call", "call")
                          .Case("scf.for", "for loop")
                          .Case("scf.if", "if")
                          .Case("scf.yield", "end of a block")
                          .Case("arith.constant", "constant")
                          .Case("arith.select", "where")
                          .Default("");
  if (!named.empty())
    return named;
  if (op.consume_front("tile."))
    return op.str();
  if (op.consume_front("arith.") || op.consume_front("math."))
    return "'" + op.str() + "' arithmetic";
  return op.str();
}

/// "64x?x" dims of a tensor or view type and its element type; false if
/// `body` is not "DIMxDIMx...ELEMENT".
static bool splitShape(llvm::StringRef body,
                       llvm::SmallVectorImpl<llvm::StringRef> &dims,
                       llvm::StringRef &element) {
  llvm::SmallVector<llvm::StringRef> parts;
  body.split(parts, 'x');
  element = parts.pop_back_val();
  for (llvm::StringRef d : parts) {
    if (d.empty() || (d != "?" && !llvm::all_of(d, llvm::isDigit)))
      return false;
    dims.push_back(d);
  }
  return !element.empty() && llvm::all_of(element, [](char c) {
    return llvm::isAlnum(c) || c == '_';
  });
}

/// Rewrites each `<prefix>BODY>` of `text` (the type's own quotes included
/// when present) with `rewrite(BODY)`, leaving text it cannot read as is.
template <typename Fn>
static std::string replaceTypes(llvm::StringRef text, llvm::StringRef prefix,
                                Fn rewrite) {
  std::string out;
  while (true) {
    size_t at = text.find(prefix);
    if (at == llvm::StringRef::npos)
      break;
    size_t close = text.find('>', at);
    if (close == llvm::StringRef::npos)
      break;
    llvm::StringRef body = text.slice(at + prefix.size(), close);
    std::string replaced;
    if (!rewrite(body, replaced)) {
      out += text.take_front(close + 1).str();
      text = text.drop_front(close + 1);
      continue;
    }
    bool quoted = at > 0 && text[at - 1] == '\'' && close + 1 < text.size() &&
                  text[close + 1] == '\'';
    out += text.take_front(quoted ? at - 1 : at).str() + replaced;
    text = text.drop_front(close + 1 + (quoted ? 1 : 0));
  }
  return out + text.str();
}

std::string tilegym::inLanguageTerms(llvm::StringRef message) {
  std::string text = message.str();
  // "'dialect.op' op " at the start, as Operation::emitOpError writes it.
  llvm::StringRef m(text);
  if (m.starts_with("'")) {
    size_t end = m.find("' op ");
    if (end != llvm::StringRef::npos && end > 1)
      text = constructOf(m.slice(1, end)) + ": " + m.drop_front(end + 5).str();
  }
  text = replaceTypes(text, "!tile.view<",
                      [](llvm::StringRef body, std::string &out) {
                        out = "view<" + body.str() + ">";
                        return true;
                      });
  text =
      replaceTypes(text, "tensor<", [](llvm::StringRef body, std::string &out) {
        llvm::SmallVector<llvm::StringRef> dims;
        llvm::StringRef element;
        if (!splitShape(body, dims, element))
          return false;
        out = "tile [" + llvm::join(dims, ", ") + "] " + element.str();
        return true;
      });
  return text;
}

tilegym::LanguageDiagnosticHandler::LanguageDiagnosticHandler(
    MLIRContext *context)
    : context(context), printedOps(context->shouldPrintOpOnDiagnostic()) {
  context->printOpOnDiagnostic(false);
  id = context->getDiagEngine().registerHandler(
      [this](Diagnostic &diag) -> LogicalResult {
        // The rewritten diagnostic comes back through here: pass it on.
        if (reemitting)
          return failure();
        std::string message = inLanguageTerms(diag.str());
        reemitting = true;
        InFlightDiagnostic out =
            diag.getSeverity() == DiagnosticSeverity::Error
                ? emitError(diag.getLocation())
            : diag.getSeverity() == DiagnosticSeverity::Warning
                ? emitWarning(diag.getLocation())
                : emitRemark(diag.getLocation());
        out << message;
        for (Diagnostic &note : diag.getNotes())
          out.attachNote(note.getLocation()) << inLanguageTerms(note.str());
        out.report();
        reemitting = false;
        return success();
      });
}

tilegym::LanguageDiagnosticHandler::~LanguageDiagnosticHandler() {
  context->getDiagEngine().eraseHandler(id);
  context->printOpOnDiagnostic(printedOps);
}

void tilegym::installFatalErrorHandler(const char *tool) {
  llvm::install_fatal_error_handler(
      [](void *tool, const char *reason, bool) {
        llvm::errs() << static_cast<const char *>(tool)
                     << ": error: internal compiler error: " << reason
                     << " (please report it with the input)\n";
        llvm::errs().flush();
        // The handler must not return; exit without running destructors of
        // a state LLVM just declared broken.
        _exit(1);
      },
      const_cast<char *>(tool));
}
