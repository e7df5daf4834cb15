//===- mlir.cpp - libFuzzer target for .mlir input ------------------------===//
//
// Fuzzes what `tilegym-opt FILE.mlir` (and `tilegym-cc FILE.mlir`) does
// first: the input bytes are .mlir text, parsed with every dialect that
// tilegym-opt registers (all upstream dialects and extensions, the LLVM IR
// translations, the tile dialect) and verified (mlir::verify); a module that
// verifies is printed, pretty and generic, to a null stream. The tile
// dialect's parsers, printers and verifiers are the interesting part (seeds:
// test/**/*.mlir); the rest of MLIR is Debian's uninstrumented libMLIR.so,
// so a finding there may be upstream's. Diagnostics are swallowed.
//
// Run: scripts/fuzz.sh mlir SECONDS
//   Reproduce a finding: build-fuzz/bin/tilegym-fuzz-mlir CRASH_FILE, or
//   tilegym-opt CRASH_FILE.mlir.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

/// tilegym-opt's registry; dialects load lazily as the inputs name them.
mlir::MLIRContext *makeFuzzContext() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry
      .insert<tilegym::tile::TileDialect, tilegym::tilegpu::TileGPUDialect>();
  auto *c = new mlir::MLIRContext(registry);
  c->loadDialect<tilegym::tile::TileDialect>();
  return c;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = tilegym::fuzz::context();
  tilegym::fuzz::SwallowDiagnostics swallow(ctx);
  // MLIR's lexer reads up to a NUL byte after the buffer (as MemoryBuffer
  // provides for files): a std::string has one, libFuzzer's data does not.
  std::string text(reinterpret_cast<const char *>(data), size);
  // Verified below, as a step of its own.
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  module->print(llvm::nulls());
  module->print(llvm::nulls(), mlir::OpPrintingFlags().printGenericOpForm());
  return 0;
}
