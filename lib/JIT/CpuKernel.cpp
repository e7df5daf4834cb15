//===- CpuKernel.cpp - run tile kernels on the CPU through the JIT --------===//
#include "tilegym/JIT/CpuKernel.h"

#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Conversion/TileToLinalg/TileToLinalg.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Reference/DType.h"
#include "tilegym/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

using namespace mlir;
using namespace tilegym;

/// The packed-call interface passes a pointer to every scalar of the lowered
/// signature: the runtime's PackedArgs (a memref expands to allocated,
/// aligned, offset, sizes..., strides...; a scalar is itself), then the
/// trailing block ids and grid sizes of a kernel call, or the grid
/// function's result.
struct CallArgs {
  runtime::PackedArgs packed;
  std::vector<void *> ptrs;
  int64_t extra[6] = {0, 0, 0, 0, 0, 0};
  CallArgs(const std::vector<tg_arg> &args, size_t numExtra)
      : packed(args.data(), args.size()),
        ptrs(packed.params(), packed.params() + packed.size()) {
    for (size_t i = 0; i < numExtra; ++i)
      ptrs.push_back(&extra[i]);
  }
};

/// Compiler-rt's float-to-bfloat16 builtins, which LLVM's x86 and AArch64
/// backends call where they legalize bf16 values through f32 (a select or
/// phi of bf16); libgcc has them only from GCC 13. Rounding is to nearest
/// even, NaN stays NaN. A bf16 is returned in the low 16 bits of the first
/// floating-point register, where a float's low bits are: the float
/// return type gives exactly that register.
static float bf16Result(uint16_t bits) {
  uint32_t word = bits;
  float result;
  std::memcpy(&result, &word, sizeof result);
  return result;
}

static float truncSFToBF2(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return bf16Result(uint16_t((bits >> 16) | 0x40));
  bits += 0x7fff + ((bits >> 16) & 1);
  return bf16Result(uint16_t(bits >> 16));
}

static float truncDFToBF2(double value) {
  return bf16Result(ref::doubleToBF16Bits(value));
}

/// The failed asserts of one run: the first message, and how many.
struct AssertFailures {
  std::mutex mutex;
  std::string first;
  int64_t count = 0;
  std::atomic<bool> any{false};
};

/// The run whose block the calling thread executes: a kernel's assert
/// reaches its run through the thread, the JIT's calls carrying no context.
static thread_local AssertFailures *currentRun = nullptr;

/// kCpuAssertFailName: a kernel's assert failed in block (x, y, z).
static void cpuAssertFail(const char *message, int32_t x, int32_t y,
                          int32_t z) {
  AssertFailures *run = currentRun;
  if (!run)
    return;
  std::lock_guard<std::mutex> lock(run->mutex);
  if (run->count++ == 0)
    run->first = std::string(message) + " (block (" + std::to_string(x) + ", " +
                 std::to_string(y) + ", " + std::to_string(z) + "))";
  run->any = true;
}

CpuKernel::~CpuKernel() = default;

llvm::Expected<std::unique_ptr<CpuKernel>>
CpuKernel::compile(ModuleOp module, llvm::StringRef kernel) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  MLIRContext *ctx = module.getContext();
  auto func = module.lookupSymbol<func::FuncOp>(kernel);
  if (!func || !func->hasAttr(tile::kKernelAttr))
    return llvm::createStringError("no kernel named '" + kernel.str() + "'");
  auto gridName = func->getAttrOfType<FlatSymbolRefAttr>(tile::kGridFnAttr);
  if (!gridName)
    return llvm::createStringError("kernel '" + kernel.str() +
                                   "' has no grid function");

  DialectRegistry registry;
  registerPipelineDependencies(registry);
  ctx->appendDialectRegistry(registry);

  OwningOpRef<ModuleOp> lowered(cast<ModuleOp>(module->clone()));
  PassManager pm(ctx);
  buildTileCpuPipeline(pm);
  std::string diagnostics;
  {
    // Collect the pipeline's diagnostics into the error message.
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
      return success();
    });
    if (failed(pm.run(*lowered)))
      return llvm::createStringError("CPU lowering failed:\n" + diagnostics);
  }

  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/3,
                                               /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*lowered, options);
  if (!engine)
    return engine.takeError();

  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner mangle) {
    llvm::orc::SymbolMap symbols;
    symbols[mangle("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncSFToBF2),
        llvm::JITSymbolFlags::Exported};
    symbols[mangle("__truncdfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncDFToBF2),
        llvm::JITSymbolFlags::Exported};
    symbols[mangle(kCpuAssertFailName)] = {
        llvm::orc::ExecutorAddr::fromPtr(&cpuAssertFail),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  std::unique_ptr<CpuKernel> result(new CpuKernel());
  result->engine = std::move(*engine);
  auto kernelFn = result->engine->lookupPacked(kernel);
  if (!kernelFn)
    return kernelFn.takeError();
  auto gridFn = result->engine->lookupPacked(gridName.getValue());
  if (!gridFn)
    return gridFn.takeError();
  result->kernelFn = *kernelFn;
  result->gridFn = *gridFn;
  return result;
}

std::array<int64_t, 3> CpuKernel::grid(const std::vector<tg_arg> &args) const {
  CallArgs call(args, 0);
  struct {
    int64_t x, y, z;
  } result{};
  call.ptrs.push_back(&result);
  gridFn(call.ptrs.data());
  return {result.x, result.y, result.z};
}

llvm::Error CpuKernel::run(const std::vector<tg_arg> &args,
                           std::array<int64_t, 3> grid,
                           unsigned threads) const {
  int64_t total = grid[0] * grid[1] * grid[2];
  if (total <= 0)
    return llvm::Error::success();
  AssertFailures failures;
  threads = std::max(1u, std::min<unsigned>(threads, total));
  // Blocks are handed out one at a time: their cost can differ (causal
  // attention), so a static split would leave threads idle.
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    CallArgs call(args, 6);
    int64_t *ids = call.extra;
    ids[3] = grid[0];
    ids[4] = grid[1];
    ids[5] = grid[2];
    currentRun = &failures;
    // As on the GPU, where a failed assert stops the launch: no block
    // starts after one; those running finish (their accesses are
    // bounds-checked).
    for (int64_t b; !failures.any && (b = next.fetch_add(1)) < total;) {
      ids[0] = b % grid[0];
      ids[1] = (b / grid[0]) % grid[1];
      ids[2] = b / (grid[0] * grid[1]);
      kernelFn(call.ptrs.data());
    }
    currentRun = nullptr;
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
  if (!failures.count)
    return llvm::Error::success();
  std::string message = "assert failed: " + failures.first;
  if (failures.count > 1)
    message += "; " + std::to_string(failures.count - 1) +
               " more failure(s) in blocks already running";
  return llvm::createStringError(message);
}
