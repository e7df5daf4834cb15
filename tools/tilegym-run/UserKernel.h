//===- UserKernel.h - run and check any kernel ------------------*- C++ -*-===//
//
// The part of tilegym-run that needs no built-in reference program: binds a
// kernel's arguments from its signature and the command line, runs it on the
// CPU JIT or the GPU, and checks its outputs against a reference kernel
// written in the language (--ref, run in float64 on the CPU) or against the
// CPU JIT of the same kernel (--compare=cpu).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TOOLS_TILEGYM_RUN_USERKERNEL_H
#define TILEGYM_TOOLS_TILEGYM_RUN_USERKERNEL_H

#include "tilegym/Frontend/MLIRGen.h"
#include "tilegym/Reference/Arguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>

namespace tilegym {

struct UserRunOptions {
  std::string label; ///< The kernel's file, for the header line.
  ref::ArgumentChoices choices;
  uint64_t seed = 0;
  bool gpu = false;
  std::string chip; ///< GPU target when `gpu`.
  /// --ref FILE[:KERNEL]: a reference kernel in the language.
  std::string reference;
  bool compareCpu = false; ///< --compare=cpu
  std::string dumpDir;     ///< --dump DIR; "" for none.
  Defines defines;         ///< Applied to the reference file too.
  unsigned cpuThreads = 1;
  bool bench = false;
};

/// Runs `kernels` of `module` in order, as one program whose parameters of
/// one name are one argument (runtime::mergeSignatures), and prints the
/// verdict. Returns the exit code: 0 on PASS (or a run without a check
/// whose outputs were all written), 1 on FAIL or any error, 77 when the GPU
/// is missing.
int runUserKernels(mlir::ModuleOp module,
                   llvm::ArrayRef<mlir::func::FuncOp> kernels,
                   const UserRunOptions &options);

} // namespace tilegym

#endif // TILEGYM_TOOLS_TILEGYM_RUN_USERKERNEL_H
