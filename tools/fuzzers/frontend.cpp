//===- frontend.cpp - libFuzzer target for the .tile frontend -------------===//
//
// Fuzzes what `tilegym-cc FILE.tile --emit=ast|tile` runs: the input bytes
// are a .tile buffer, parsed to an AST (tilegym::parseModule) and dumped to a
// null stream (tilegym::dumpAST), then loaded as tile IR
// (tilegym::loadTileModule: parse, MLIRGen, verify). A module that loads is
// verified again, printed and parsed back: IR the printer writes must parse
// (a round trip that fails aborts, as a finding). Diagnostics are swallowed;
// only crashes, hangs, ASan reports and such aborts count.
//
// Run: scripts/fuzz.sh frontend SECONDS
//   (builds build-fuzz/bin/tilegym-fuzz-frontend and seeds its corpus from
//   examples/*.tile and test/**/*.tile; tools/fuzzers/tile.dict is its
//   dictionary). Reproduce a finding: build-fuzz/bin/tilegym-fuzz-frontend
//   CRASH_FILE, or tilegym-cc CRASH_FILE.tile.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Frontend/Frontend.h"
#include "FuzzContext.h"
#include "tilegym/Frontend/AST.h"
#include "tilegym/Frontend/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

/// The dialects tilegym-cc loads.
mlir::MLIRContext *makeFuzzContext() {
  auto *c = new mlir::MLIRContext();
  tilegym::loadTileDialects(*c);
  return c;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = tilegym::fuzz::context();
  tilegym::fuzz::SwallowDiagnostics swallow(ctx);
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);

  // The syntax tree alone (--emit=ast).
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
    if (std::unique_ptr<tilegym::ModuleAST> ast =
            tilegym::parseModule(sourceMgr, sourceMgr.getMainFileID(), ctx))
      tilegym::dumpAST(*ast, llvm::nulls());
  }

  // Tile IR (--emit=tile).
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilegym::loadTileModule(sourceMgr, ctx, /*defines=*/{});
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;

  // What --emit=tile prints must read back (tilegym-cc accepts .mlir input).
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  mlir::OwningOpRef<mlir::ModuleOp> reparsed =
      mlir::parseSourceString<mlir::ModuleOp>(printed, mlir::ParserConfig(&ctx),
                                              "roundtrip.mlir");
  if (!reparsed) {
    std::fprintf(stderr,
                 "tilegym-fuzz-frontend: the printed tile IR does not parse "
                 "back:\n%s\n",
                 printed.c_str());
    // Once more, with the parser's diagnostics shown.
    mlir::ScopedDiagnosticHandler show(&ctx, [](mlir::Diagnostic &diag) {
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
      return mlir::success();
    });
    (void)mlir::parseSourceString<mlir::ModuleOp>(
        printed, mlir::ParserConfig(&ctx), "roundtrip.mlir");
    std::abort();
  }
  return 0;
}
