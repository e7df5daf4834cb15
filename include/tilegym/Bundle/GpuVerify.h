//===- GpuVerify.h - run and verify a bundle kernel on the GPU --*- C++ -*-===//
//
// The GPU half of verification, without MLIR or LLVM: draws fresh random
// inputs, poisons the outputs, runs a bundle's kernel on GPU 0 and compares
// every output with the float64 reference, printing the same summary lines
// and verdict as tilegym-run on the CPU; optionally times it. Used by
// tilegym-runner (bundles on machines without LLVM) and by
// `tilegym-run --backend=gpu` (a .tile file compiled in-process).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_BUNDLE_GPUVERIFY_H
#define TILEGYM_BUNDLE_GPUVERIFY_H

#include "tilegym/Bundle/Bundle.h"

#include <cstdint>
#include <string>

namespace tilegym::bundle {

/// Exit code when there is no CUDA driver or no GPU: nothing ran.
constexpr int kExitNoGpu = 77;

struct VerifyOptions {
  std::string label;     ///< Where the kernel came from, for the header line.
  std::string sizes;     ///< "M=..,N=.."; empty keeps the defaults.
  std::string reference; ///< Reference program; empty means the kernel's name.
  bool hasSeed = false;
  uint64_t seed = 0;
  bool bench = false;  ///< After a PASS, time --runs launches.
  bool dryRun = false; ///< Check everything and print the launch only.
  int runs = 20;
};

/// Verifies `kernel` of `bundle` on GPU 0. Returns 0 on PASS, 1 on FAIL or
/// any error (reported on stderr), kExitNoGpu without a driver or a GPU.
int verifyOnGpu(const Bundle &bundle, const KernelInfo &kernel,
                const VerifyOptions &opt);

} // namespace tilegym::bundle

#endif // TILEGYM_BUNDLE_GPUVERIFY_H
