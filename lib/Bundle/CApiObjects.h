//===- CApiObjects.h - the C API's objects and helpers ------*- C++ -*-===//
//
// Private to lib/Bundle: what CApi.cpp (bundles, kernels, launches, plans)
// and CApiPrograms.cpp (programs, variants) share.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_BUNDLE_CAPIOBJECTS_H
#define TILEGYM_LIB_BUNDLE_CAPIOBJECTS_H

#include "tilegym/Bundle/Bundle.h"
#include "tilegym/Bundle/tilegym_bundle.h"

#include "Driver.h" // lib/Runtime: the driver entry points.

#include <memory>
#include <string>
#include <vector>

/// A kernel of one variant of the bundle, loaded (a bundle of kernels is
/// its own only variant).
struct LoadedVariant {
  const tilegym::bundle::KernelInfo *info =
      nullptr; // Its block, shared memory, grid.
  tilegym::runtime::cuda::CUmodule module = nullptr;
  tilegym::runtime::cuda::CUfunction function = nullptr;
  std::string imagePath;
  bool isCubin = false;
  uint32_t sharedLimit = 0; // Opted into so far (cuda::optIntoSharedBytes).
  int residentPerSM = -1;   // Blocks an SM holds (the driver's); -1: not asked.
  int activeClusters =
      -1; // Clusters the GPU holds (the driver's); -1: not asked.
};

struct tgb_kernel {
  tgb_bundle *bundle = nullptr;
  uint64_t id = 0; // Unique in the process, never reused (LaunchMemo).
  const tilegym::bundle::KernelInfo *info = nullptr; // The signature.
  int ordinal = 0;
  tilegym::runtime::Context *context = nullptr;
  std::vector<LoadedVariant> variants; // One per variant of the bundle.
};

struct tgb_plan {
  tgb_kernel *kernel = nullptr;
  size_t variant = 0;
  std::vector<tg_arg> args;
  tg_dim3 grid = {0, 0, 0};
  std::unique_ptr<tilegym::runtime::PackedArgs> packed;
};

struct tgb_program {
  const tilegym::bundle::ProgramInfo *info = nullptr;
  int ordinal = 0;
  std::vector<tgb_kernel *> kernels; // Loaded, in the program's order.
};

struct tgb_bundle {
  tilegym::bundle::Bundle manifest;
  uint64_t rulesVersion = 0; // Bumped by tgb_set_rule (LaunchMemo).
  std::vector<std::unique_ptr<tgb_kernel>> kernels;
  std::vector<std::unique_ptr<tgb_plan>> plans;
  std::vector<std::unique_ptr<tgb_program>> programs;
};

namespace tilegym::bundle::capi {

using runtime::Status;

/// Sets the message tgb_last_error gives on this thread; returns the code.
tg_status report(const Status &status);
tg_status ok();
tg_status invalid(const std::string &message);
/// A string that lives until the next call on this thread, for results
/// returned as `const char *` (tgb_grid_program, tgb_variant_tuned).
std::string &scratch();

Status findKernel(const tgb_bundle *b, const char *name,
                  const KernelInfo *&kernel);
Status findProgram(const tgb_bundle *b, const char *name,
                   const ProgramInfo *&program);
/// Parameter `index` of `params` in the C API's form; the strings live as
/// long as the bundle.
Status describeParam(const std::string &owner,
                     const std::vector<runtime::Param> &params, size_t index,
                     tg_param *param);
Status checkArgs(const KernelInfo &kernel, const tg_arg *args, size_t numArgs);
/// Checks a program's arguments against its merged signature (so that
/// dimensions of one name agree across all its kernels), then each kernel's
/// share of them (returned in `shares`), evaluating every grid: nothing is
/// launched unless the whole program can be.
Status checkProgramArgs(const Bundle &manifest, const ProgramInfo &program,
                        const tg_arg *args, size_t numArgs,
                        std::vector<std::vector<tg_arg>> &shares,
                        std::vector<tg_dim3> &grids);
/// The variant to launch `run` with: the dispatch table's choice for these
/// arguments, which the caller has checked.
size_t variantFor(const Bundle &manifest, const std::string &run,
                  const tg_arg *args, size_t numArgs);
/// The driver launch of variant `variant`, after the arguments passed the
/// checks and the grid was evaluated for that variant.
Status launchPacked(tgb_kernel &k, size_t variant, tg_dim3 grid,
                    runtime::PackedArgs &packed, uint64_t stream);
Status addTensorMaps(const bundle::KernelInfo &info, const tg_arg *args,
                     size_t numArgs, runtime::PackedArgs &packed);

} // namespace tilegym::bundle::capi

#endif // TILEGYM_LIB_BUNDLE_CAPIOBJECTS_H
