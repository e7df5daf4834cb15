//===- CpuKernel.h - run tile kernels on the CPU through the JIT -*- C++
//-*-===//
//
// Lowers a tile-dialect module with the CPU pipeline, JIT-compiles it with
// MLIR's ExecutionEngine, and runs a kernel over its launch grid, one block
// per call, the blocks spread over threads.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_JIT_CPUKERNEL_H
#define TILEGYM_JIT_CPUKERNEL_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace tilegym {

/// A strided tensor in host memory: what a `!tile.view` argument receives.
/// Sizes and strides count elements.
struct ViewArg {
  void *data = nullptr;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
};

class CpuKernel {
public:
  /// Compiles `kernel` of `module` (tile dialect; the module is cloned, not
  /// changed). Fails with the pipeline's or the JIT's message.
  static llvm::Expected<std::unique_ptr<CpuKernel>>
  compile(mlir::ModuleOp module, llvm::StringRef kernel);
  ~CpuKernel();

  /// Evaluates the kernel's launch grid for these arguments.
  std::array<int64_t, 3> grid(const std::vector<ViewArg> &args) const;

  /// Runs every block of `grid` on up to `threads` threads.
  void run(const std::vector<ViewArg> &args, std::array<int64_t, 3> grid,
           unsigned threads) const;

private:
  CpuKernel() = default;
  using PackedFn = void (*)(void **);
  std::unique_ptr<mlir::ExecutionEngine> engine;
  PackedFn kernelFn = nullptr;
  PackedFn gridFn = nullptr;
};

} // namespace tilegym

#endif // TILEGYM_JIT_CPUKERNEL_H
