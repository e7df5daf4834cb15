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
#include "tilegym/Reference/Arguments.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilegym::bundle {

/// Exit code when there is no CUDA driver or no GPU: nothing ran.
constexpr int kExitNoGpu = 77;

/// What every GPU verification run takes.
struct GpuRunOptions {
  std::string label; ///< Where the kernel came from, for the header line.
  bool hasSeed = false;
  uint64_t seed = 0;
  bool bench = false;  ///< After a PASS, time --runs launches.
  bool dryRun = false; ///< Check everything and print the launch only.
  int runs = 20;
};

/// A run against a built-in reference program.
struct VerifyOptions : GpuRunOptions {
  std::string sizes;     ///< "M=..,N=.."; empty keeps the defaults.
  std::string reference; ///< Reference program; empty means the kernel's name.
};

/// One run of a bundle kernel on GPU 0.
struct GpuRun {
  std::string device, target, image;
  bool isCubin = false;
  std::array<int64_t, 3> grid = {0, 0, 0};
  bool empty = false; ///< A grid size was 0: nothing launched.
  float firstMs = 0;
  std::vector<float> times; ///< Sorted; empty without benchmarking.
  double medianMs() const;
};

/// Runs `kernel` on GPU 0 with `hostArgs` (views at host addresses, as
/// ref::BoundArguments::hostArgs gives them; scalars by value): evaluates
/// the grid, copies every view to the device, launches once, copies the
/// views the kernel writes (Param::written) back; then, with `benchRuns`, times
/// that many launches after three warm-up ones. Returns 0, 1 on an error (in
/// `error`), or kExitNoGpu.
int runOnGpu(const Bundle &bundle, const KernelInfo &kernel,
             const std::vector<tg_arg> &hostArgs, int benchRuns, GpuRun &run,
             std::string &error);
/// "gpu NAME (TARGET) image ..." and "gpu time ... ms" lines.
void printGpuRun(const GpuRun &run);

/// A run of any kernel, its arguments bound from the signature
/// (ref::bindArguments), checked against a check folder when there is one.
struct GeneralRunOptions : GpuRunOptions {
  ref::ArgumentChoices choices;
  std::string checkDir; ///< --check DIR: inputs and expected outputs.
  std::string dumpDir;  ///< --dump DIR: inputs and outputs as .npy.
};
/// Runs `kernels` in order as one program (runtime::mergeSignatures).
int runGeneralOnGpu(const Bundle &bundle,
                    const std::vector<const KernelInfo *> &kernels,
                    const GeneralRunOptions &opt);

/// Verifies `kernel` of `bundle` on GPU 0. Returns 0 on PASS, 1 on FAIL or
/// any error (reported on stderr), kExitNoGpu without a driver or a GPU.
int verifyOnGpu(const Bundle &bundle, const KernelInfo &kernel,
                const VerifyOptions &opt);

} // namespace tilegym::bundle

#endif // TILEGYM_BUNDLE_GPUVERIFY_H
