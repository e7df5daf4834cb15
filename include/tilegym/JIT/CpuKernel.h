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

#include "tilegym/Runtime/tilegym_runtime.h"

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

class CpuKernel {
public:
  /// Compiles `kernel` of `module` (tile dialect; the module is cloned, not
  /// changed). Fails with the pipeline's or the JIT's message.
  static llvm::Expected<std::unique_ptr<CpuKernel>>
  compile(mlir::ModuleOp module, llvm::StringRef kernel);
  ~CpuKernel();

  /// Evaluates the kernel's launch grid for these arguments.
  /// Arguments are the runtime's tg_arg, with host addresses for views
  /// (data, sizes and strides in elements) and scalars by value; they must
  /// have passed runtime::checkArguments against the kernel's signature.
  std::array<int64_t, 3> grid(const std::vector<tg_arg> &args) const;

  /// Runs every block of `grid` on up to `threads` threads. Fails when a
  /// kernel's assert (tile.assert, kept by --debug) failed: no block starts
  /// after the first failure, and the error names its message and block.
  llvm::Error run(const std::vector<tg_arg> &args, std::array<int64_t, 3> grid,
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
