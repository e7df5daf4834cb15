//===- compile.cpp - libFuzzer target for the whole compile ---------------===//
//
// Fuzzes what `tilegym-cc FILE.tile --target=CHIP --emit=ptx` and
// `tilegym-cc FILE.tile --emit=llvm` run. The input bytes are a .tile
// source; its first byte also picks the chip, byte % 3: sm_80, sm_90,
// sm_90a ('\t', '\n' and ' ' pick each without changing the program). A
// source that loads and verifies goes through
//   - tilegym::compileTileToGpuBinary(module, chip, "isa"): the GPU pipeline
//     and gpu-module-to-binary to PTX (ptxas is not run), and
//   - on a clone, tilegym::buildTileCpuPipeline and translateModuleToLLVMIR.
// Diagnostics are swallowed: a clean error is a pass; crashes, hangs
// (-timeout), ASan reports and exit() calls (report_fatal_error) are
// findings.
//
// LLVMFuzzerCustomMutator (TileMutator.h) edits tokens: interesting integers
// and floats, other identifiers/builtins/types, statements duplicated or
// deleted, tokens swapped or inserted; libFuzzer's byte mutations the rest
// of the time.
//
// Tiles of more than TILEGYM_FUZZ_MAX_TILE_ELEMENTS elements (environment;
// default 16384, 0 for no limit) are not compiled: the time LLVM's NVPTX
// backend takes grows faster than the tile (a 65536-element vector_add takes
// 30 s here, a known issue), and the first such input would end every run
// as a timeout.
//
// Run: scripts/fuzz.sh compile SECONDS   (-max_len=4096 -timeout=20)
//   Reproduce a finding: build-fuzz/bin/tilegym-fuzz-compile CRASH_FILE, or
//   tilegym-cc CRASH_FILE.tile --target=sm_90a --emit=ptx (the chip of the
//   first byte) and tilegym-cc CRASH_FILE.tile --emit=llvm.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "TileMutator.h"

#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Frontend/Frontend.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <cstdlib>
#include <limits>

/// What tilegym-cc's GPU and CPU paths register: the tile dialects, the
/// pipeline dependencies (every upstream dialect, extension and LLVM IR
/// translation) and the NVVM target.
mlir::MLIRContext *makeFuzzContext() {
  mlir::DialectRegistry registry;
  tilegym::registerPipelineDependencies(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  auto *c = new mlir::MLIRContext(registry);
  tilegym::loadTileDialects(*c);
  return c;
}

static int64_t maxTileElements() {
  static int64_t limit = [] {
    const char *env = std::getenv("TILEGYM_FUZZ_MAX_TILE_ELEMENTS");
    return env ? std::atoll(env) : int64_t(16384);
  }();
  return limit;
}

/// Whether a tile (tensor) of the module has more elements than the limit.
static bool hasHugeTile(mlir::ModuleOp module) {
  int64_t limit = maxTileElements();
  if (limit <= 0)
    return false;
  auto huge = [&](mlir::Type type) {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor)
      return false;
    int64_t n = 1;
    for (int64_t d : tensor.getShape()) {
      if (d < 0)
        continue;
      if (d > 0 && n > limit / d)
        return true;
      n *= d;
    }
    return n > limit;
  };
  bool found = false;
  module->walk([&](mlir::Operation *op) {
    for (mlir::Type t : op->getResultTypes())
      found |= huge(t);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument arg : block.getArguments())
          found |= huge(arg.getType());
    return found ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });
  return found;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return tilegym::fuzz::mutate(data, size, maxSize, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static const char *const chips[] = {"sm_80", "sm_90", "sm_90a"};
  llvm::StringRef chip = chips[data[0] % 3];

  mlir::MLIRContext &ctx = tilegym::fuzz::context();
  tilegym::fuzz::SwallowDiagnostics swallow(ctx);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.tile"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilegym::loadTileModule(sourceMgr, ctx, /*defines=*/{});
  if (!module || mlir::failed(mlir::verify(*module)) || hasHugeTile(*module))
    return 0;

  // The GPU: to PTX (compileTileToGpuBinary works on a clone).
  (void)tilegym::compileTileToGpuBinary(*module, chip, "isa");

  // The CPU: to LLVM IR, as --emit=llvm --target=cpu.
  mlir::OwningOpRef<mlir::ModuleOp> cpu(module->clone());
  mlir::PassManager pm(&ctx);
  tilegym::buildTileCpuPipeline(pm);
  if (mlir::failed(pm.run(*cpu)))
    return 0;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(*cpu, llvmContext);
  (void)llvmModule;
  return 0;
}
