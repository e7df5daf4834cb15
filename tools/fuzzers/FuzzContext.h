//===- FuzzContext.h - what the MLIR fuzz targets share -----------*- C++
//-*-===//
//
// Each MLIR fuzz target defines makeFuzzContext() (its own dialects and
// registry) and includes this header once: it gets one context for every
// run (creating one per input would dominate the time), single-threaded and
// built in LLVMFuzzerInitialize, and a handler that swallows an input's
// diagnostics (only crashes, hangs, sanitizer reports and aborts count).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_FUZZERS_FUZZCONTEXT_H
#define TILEGYM_FUZZERS_FUZZCONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

/// The target's context, before multithreading is turned off.
mlir::MLIRContext *makeFuzzContext();

namespace tilegym::fuzz {

inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::MLIRContext *c = makeFuzzContext();
    c->disableMultithreading();
    return c;
  }();
  return *ctx;
}

/// Drops every diagnostic reported while it lives.
class SwallowDiagnostics : public mlir::ScopedDiagnosticHandler {
public:
  explicit SwallowDiagnostics(mlir::MLIRContext &ctx)
      : mlir::ScopedDiagnosticHandler(
            &ctx, [](mlir::Diagnostic &) { return mlir::success(); }) {}
};

} // namespace tilegym::fuzz

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)tilegym::fuzz::context();
  return 0;
}

#endif // TILEGYM_FUZZERS_FUZZCONTEXT_H
