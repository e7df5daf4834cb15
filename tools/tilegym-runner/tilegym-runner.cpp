//===- tilegym-runner.cpp - runs and verifies bundles on the GPU ----------===//
//
// The GPU counterpart of tilegym-run for machines without LLVM: loads a
// kernel bundle, draws fresh random inputs, poisons the outputs, runs the
// kernel on GPU 0 and compares every output with the float64 reference, with
// the same summary lines and verdict as tilegym-run. No MLIR, no LLVM: it
// links the bundle reader, the runtime and the references only.
//
//   tilegym-runner vector_add.tgb --size N=268435456 --bench
//
// Exit code: 0 on PASS, 1 on FAIL or any error, 77 when there is no CUDA
// driver or no GPU (nothing ran: "skipped", as automake's test drivers
// read it).
//
//===----------------------------------------------------------------------===//
#include "tilegym/Bundle/GpuVerify.h"
#include "tilegym/Reference/Reference.h"
#include "tilegym/Runtime/Runtime.h"

#include <algorithm>
#include <cstring>
#include <iostream>

using namespace tilegym;

static const char *kUsage =
    "usage: tilegym-runner BUNDLE.tgb [options]\n"
    "  --kernel NAME[,..] kernel or program to run, or kernels to run in "
    "order as one program (default: the bundle's only kernel, or else its "
    "only program)\n"
    "  --size M=..,N=..   problem sizes (names and defaults per reference)\n"
    "  --reference NAME   built-in reference program (default: the kernel's "
    "name)\n"
    "  --shape NAME=AxB   any kernel: sizes of a view argument\n"
    "  --arg NAME=VALUE   any kernel: a scalar argument\n"
    "  --init NAME=DIST   any kernel: an input's distribution (normal, "
    "uniform(a,b), randint(a,b), zeros, ones, full(v))\n"
    "  --input NAME=F.npy any kernel: an input read from a .npy file\n"
    "  --check DIR        any kernel: inputs and expected outputs written by "
    "tilegym-run --ref R.tile --dump DIR\n"
    "  --dump DIR         any kernel: write inputs and outputs as .npy\n"
    "  --seed N           seed of the random inputs (default: fresh)\n"
    "  --bench            after a PASS, time the kernel: median of --runs\n"
    "  --runs N           timed runs for --bench (default 20)\n"
    "  --dry-run          check everything and print the launch, without "
    "the GPU\n"
    "  --info             report the CUDA driver and GPUs, and exit\n"
    "exit code: 0 PASS, 1 FAIL or error, 77 no CUDA driver or no GPU\n";

namespace {

struct Options {
  std::string bundle, kernel, sizes, reference, checkDir, dumpDir;
  tilegym::ref::ArgumentChoices choices;
  bool hasSeed = false;
  uint64_t seed = 0;
  bool bench = false, dryRun = false, info = false;
  int runs = 20;
};

} // namespace

static int fail(const std::string &message) {
  std::cerr << "error: " << message << "\n";
  return 1;
}

static bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() ||
      text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 19)
    return false;
  value = std::stoull(text);
  return true;
}

/// Parses argv; returns false with `error` set on a bad command line.
static bool parseOptions(int argc, char **argv, Options &o,
                         std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    size_t eq = arg.find('=');
    bool inlineValue = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inlineValue) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    auto takeValue = [&]() {
      if (inlineValue)
        return true;
      if (i + 1 >= argc) {
        error = arg + " needs a value";
        return false;
      }
      value = argv[++i];
      return true;
    };
    auto flag = [&]() {
      if (inlineValue)
        error = arg + " takes no value";
      return !inlineValue;
    };
    uint64_t n;
    if (arg == "--kernel") {
      if (!takeValue())
        return false;
      o.kernel = value;
    } else if (arg == "--size") {
      if (!takeValue())
        return false;
      o.sizes = value;
    } else if (arg == "--shape" || arg == "--arg" || arg == "--init" ||
               arg == "--input") {
      if (!takeValue())
        return false;
      if (value.empty()) {
        error = arg + " is empty; expected NAME=VALUE[,NAME=VALUE...]";
        return false;
      }
      auto &list = arg == "--shape"  ? o.choices.shapes
                   : arg == "--arg"  ? o.choices.scalars
                   : arg == "--init" ? o.choices.inits
                                     : o.choices.inputs;
      list.push_back(value);
    } else if (arg == "--check" || arg == "--dump") {
      if (!takeValue())
        return false;
      if (value.empty()) {
        error = arg + " is empty; expected a folder";
        return false;
      }
      (arg == "--check" ? o.checkDir : o.dumpDir) = value;
    } else if (arg == "--reference") {
      if (!takeValue())
        return false;
      o.reference = value;
    } else if (arg == "--seed") {
      if (!takeValue())
        return false;
      if (!parseUnsigned(value, o.seed)) {
        error = "--seed expects a non-negative integer, got '" + value + "'";
        return false;
      }
      o.hasSeed = true;
    } else if (arg == "--runs") {
      if (!takeValue())
        return false;
      if (!parseUnsigned(value, n) || n < 1 || n > 100000) {
        error = "--runs expects an integer in [1, 100000], got '" + value + "'";
        return false;
      }
      o.runs = int(n);
    } else if (arg == "--bench") {
      if (!flag())
        return false;
      o.bench = true;
    } else if (arg == "--dry-run") {
      if (!flag())
        return false;
      o.dryRun = true;
    } else if (arg == "--info") {
      if (!flag())
        return false;
      o.info = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg.rfind("-", 0) == 0) {
      error = "unknown option '" + arg + "'";
      return false;
    } else if (o.bundle.empty()) {
      o.bundle = arg;
    } else {
      error = "more than one bundle given ('" + o.bundle + "', '" + arg + "')";
      return false;
    }
  }
  if (o.bundle.empty() && !o.info) {
    error = "no bundle given";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  Options opt;
  std::string error;
  if (!parseOptions(argc, argv, opt, error)) {
    std::cerr << "error: " << error << "\n" << kUsage;
    return 1;
  }
  if (opt.info) {
    runtime::printEnvironment(runtime::queryEnvironment(), stdout);
    return 0;
  }

  bundle::Bundle bundle;
  if (!bundle::loadBundle(opt.bundle, bundle, error))
    return fail(error);
  // --kernel a,b or a program's name: a sequence, run as one program.
  std::vector<const bundle::KernelInfo *> sequence;
  if (!bundle.resolveKernels(opt.kernel, sequence, error))
    return fail(error);
  const bundle::KernelInfo *kernel = sequence.front();
  bool general = sequence.size() > 1 || !opt.checkDir.empty() ||
                 !opt.dumpDir.empty() || !opt.choices.shapes.empty() ||
                 !opt.choices.scalars.empty() || !opt.choices.inits.empty() ||
                 !opt.choices.inputs.empty() ||
                 (opt.reference.empty() && !ref::lookupReference(kernel->name));
  bundle::GpuRunOptions common;
  common.label = opt.bundle;
  common.hasSeed = opt.hasSeed;
  common.seed = opt.seed;
  common.bench = opt.bench;
  common.dryRun = opt.dryRun;
  common.runs = opt.runs;
  if (general) {
    if (!opt.reference.empty())
      return fail("--reference names a built-in program; it does not combine "
                  "with --check, --dump, --shape, --arg, --init or --input");
    bundle::GeneralRunOptions run;
    static_cast<bundle::GpuRunOptions &>(run) = common;
    run.choices = opt.choices;
    if (!opt.sizes.empty())
      run.choices.sizes.push_back(opt.sizes);
    run.checkDir = opt.checkDir;
    run.dumpDir = opt.dumpDir;
    return bundle::runGeneralOnGpu(bundle, sequence, run);
  }
  bundle::VerifyOptions verify;
  static_cast<bundle::GpuRunOptions &>(verify) = common;
  verify.sizes = opt.sizes;
  verify.reference = opt.reference;
  return bundle::verifyOnGpu(bundle, *kernel, verify);
}
