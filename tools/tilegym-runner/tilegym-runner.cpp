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
#include "tilegym/Bundle/Bundle.h"
#include "tilegym/Reference/Reference.h"
#include "tilegym/Runtime/Runtime.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <random>

using namespace tilegym;

static constexpr int kExitSkipped = 77;

static const char *kUsage =
    "usage: tilegym-runner BUNDLE.tgb [options]\n"
    "  --kernel NAME      kernel to run (default: the bundle's only kernel)\n"
    "  --size M=..,N=..   problem sizes (names and defaults per reference)\n"
    "  --reference NAME   reference program (default: the kernel's name)\n"
    "  --seed N           seed of the random inputs (default: fresh)\n"
    "  --bench            after a PASS, time the kernel: median of --runs\n"
    "  --runs N           timed runs for --bench (default 20)\n"
    "  --dry-run          check everything and print the launch, without "
    "the GPU\n"
    "  --info             report the CUDA driver and GPUs, and exit\n"
    "exit code: 0 PASS, 1 FAIL or error, 77 no CUDA driver or no GPU\n";

namespace {

struct Options {
  std::string bundle, kernel, sizes, reference;
  bool hasSeed = false;
  uint64_t seed = 0;
  bool bench = false, dryRun = false, info = false;
  int runs = 20;
};

/// Device buffers of one run, freed on every exit path.
struct DeviceBuffers {
  runtime::Context &ctx;
  std::vector<uint64_t> pointers;
  ~DeviceBuffers() {
    for (uint64_t p : pointers)
      if (p)
        ctx.deallocate(p);
  }
};

} // namespace

static int fail(const std::string &message) {
  std::cerr << "error: " << message << "\n";
  return 1;
}

static bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
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

/// Work of one run, for --bench: GB/s over every argument's bytes, or
/// TFLOP/s for the programs whose cost is arithmetic.
static std::string throughput(const ref::Reference &reference,
                              const ref::Sizes &sizes,
                              const ref::Options &options,
                              const std::vector<ref::HostTensor> &args,
                              double ms) {
  auto size = [&](const char *name) { return double(sizes.at(name)); };
  char line[128];
  if (reference.name == "matmul") {
    double flops = 2 * size("M") * size("N") * size("K");
    std::snprintf(line, sizeof line, "%.1f TFLOP/s (2*M*N*K flops)",
                  flops / (ms * 1e9));
  } else if (reference.name == "attention" ||
             reference.name == "attention_causal") {
    // Q K^T and P V, 2*S*S*D flops each per head; causal skips half.
    bool causal = ref::optionEnabled(options, "CAUSAL");
    double flops = 4 * size("B") * size("H") * size("S") * size("S") *
                   size("D") / (causal ? 2 : 1);
    std::snprintf(line, sizeof line, "%.1f TFLOP/s (4*B*H*S*S*D%s flops)",
                  flops / (ms * 1e9), causal ? "/2" : "");
  } else {
    double bytes = 0;
    for (const ref::HostTensor &t : args)
      bytes += double(t.sizeInBytes());
    std::snprintf(line, sizeof line, "%.1f GB/s (%.0f bytes of arguments)",
                  bytes / (ms * 1e6), bytes);
  }
  return line;
}

static int check(const runtime::Status &status) {
  std::cerr << "error: " << status.message << "\n";
  return 1;
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
  const bundle::KernelInfo *kernel = nullptr;
  if (!opt.kernel.empty()) {
    kernel = bundle.findKernel(opt.kernel);
    if (!kernel)
      return fail("no kernel named '" + opt.kernel + "' in " + opt.bundle);
  } else if (bundle.kernels.size() == 1) {
    kernel = &bundle.kernels.front();
  } else {
    return fail(opt.bundle + " has " + std::to_string(bundle.kernels.size()) +
                " kernels; pick one with --kernel");
  }

  std::string refName = opt.reference.empty() ? kernel->name : opt.reference;
  const ref::Reference *reference = ref::lookupReference(refName);
  if (!reference)
    return fail("no reference program named '" + refName +
                "'; pick one with --reference");
  std::vector<ref::DType> dtypes;
  std::vector<int64_t> ranks;
  for (size_t i = 0; i < kernel->params.size(); ++i) {
    const runtime::Param &p = kernel->params[i];
    if (p.kind != TG_ARG_VIEW)
      return fail("parameter " + std::to_string(i) + " of '" + kernel->name +
                  "' is a scalar; tilegym-runner binds views only");
    auto dtype = ref::parseDType(runtime::dtypeName(p.dtype));
    if (!dtype)
      return fail("parameter " + std::to_string(i) + " of '" + kernel->name +
                  "' has element type " + runtime::dtypeName(p.dtype) +
                  ", which no reference takes");
    dtypes.push_back(*dtype);
    ranks.push_back(int64_t(p.sizes.size()));
  }
  ref::Sizes problem = ref::defaultSizes(*reference);
  if (!ref::parseSizes(*reference, opt.sizes, problem, error) ||
      !ref::checkSignature(*reference, dtypes, ranks, error))
    return fail(error);
  // The reference's argument names make the runtime's errors readable.
  std::vector<runtime::Param> params = kernel->params;
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name.empty())
      params[i].name = reference->args[i].name;

  uint64_t seed = opt.hasSeed ? opt.seed : std::random_device{}();
  std::vector<ref::HostTensor> args =
      ref::makeArguments(*reference, problem, dtypes, seed);
  // Device pointers are filled in after allocation; the grid needs sizes only.
  std::vector<tg_arg> launchArgs;
  for (size_t i = 0; i < args.size(); ++i)
    launchArgs.push_back(tg_view(params[i].dtype, 0, int32_t(args[i].rank()),
                                 args[i].shape().data(),
                                 args[i].strides().data()));
  std::array<int64_t, 3> grid;
  if (!bundle::evaluateGrid(*kernel, launchArgs.data(), launchArgs.size(),
                            grid, error))
    return fail(error);

  std::cout << "kernel " << kernel->name << " (" << opt.bundle
            << ") backend=gpu reference=" << reference->name << " sizes=";
  bool first = true;
  for (const auto &[name, value] : problem) {
    std::cout << (first ? "" : ",") << name << "=" << value;
    first = false;
  }
  std::cout << " grid=" << grid[0] << "x" << grid[1] << "x" << grid[2]
            << " seed=" << seed << "\n";

  if (opt.dryRun) {
    std::cout << "target " << bundle.target << ", entry " << kernel->entry
              << ", block " << kernel->block.x << "x1x1, shared "
              << kernel->sharedBytes << " bytes, images " << kernel->ptxFile
              << (kernel->cubinFile.empty() ? "" : " " + kernel->cubinFile)
              << "\ngrid program: " << bundle::formatGridProgram(kernel->grid)
              << "\ndry run: nothing launched\n";
    return 0;
  }

  runtime::Status st = runtime::initDriver();
  if (!st.ok()) {
    std::cerr << "tilegym-runner: cannot run on the GPU: " << st.message
              << "\n";
    return kExitSkipped;
  }
  runtime::DeviceInfo device;
  if (!(st = runtime::deviceInfo(0, device)).ok())
    return check(st);
  bundle::Image image;
  if (!bundle::selectImage(bundle, *kernel, device.ccMajor, device.ccMinor,
                           image, error))
    return fail(error);

  std::unique_ptr<runtime::Context> ctx;
  if (!(st = runtime::Context::create(0, ctx)).ok())
    return check(st);
  std::unique_ptr<runtime::Module> module;
  if (!(st = runtime::Module::load(*ctx, image.bytes.data(),
                                   image.bytes.size(), module))
           .ok())
    return check(st);
  runtime::Kernel *gpuKernel;
  if (!(st = module->getKernel(kernel->entry, params, gpuKernel)).ok())
    return check(st);

  // Outputs go over poisoned too, so that unwritten elements show.
  DeviceBuffers buffers{*ctx, {}};
  for (size_t i = 0; i < args.size(); ++i) {
    uint64_t ptr = 0;
    if (args[i].sizeInBytes()) {
      if (!(st = ctx->allocate(args[i].sizeInBytes(), ptr)).ok())
        return check(st);
      buffers.pointers.push_back(ptr);
      if (!(st = ctx->copyToDevice(ptr, args[i].data(),
                                   args[i].sizeInBytes()))
               .ok())
        return check(st);
    }
    launchArgs[i].data = ptr;
  }

  tg_dim3 gridDim = {uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2])};
  bool empty = grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
  auto launch = [&]() {
    return gpuKernel->launch(gridDim, kernel->block, kernel->sharedBytes,
                             launchArgs.data(), launchArgs.size());
  };
  std::unique_ptr<runtime::Event> start, end;
  if (!(st = runtime::Event::create(*ctx, start)).ok() ||
      !(st = runtime::Event::create(*ctx, end)).ok())
    return check(st);
  float ms = 0;
  if (!empty) {
    if (!(st = start->record()).ok() || !(st = launch()).ok() ||
        !(st = end->record()).ok() || !(st = ctx->synchronize()).ok() ||
        !(st = runtime::Event::elapsedMs(*start, *end, ms)).ok())
      return check(st);
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (reference->args[i].role == ref::Role::Output && args[i].sizeInBytes())
      if (!(st = ctx->copyToHost(args[i].data(), launchArgs[i].data,
                                 args[i].sizeInBytes()))
               .ok())
        return check(st);

  ref::Options options = ref::effectiveOptions(*reference, bundle.consts);
  auto expected = ref::runReference(*reference, problem, options, args);
  auto results = ref::compareOutputs(*reference, problem, args, expected);
  std::cout << "gpu " << device.name << " (" << device.target << ") image "
            << image.path << (image.isCubin ? " (cubin)" : " (PTX, JIT)")
            << "\n";
  if (empty)
    std::cout << "gpu time 0 ms: the grid is empty, nothing launched\n";
  else
    std::cout << "gpu time " << ms << " ms (first launch)\n";
  bool pass = ref::printVerdict(std::cout, results);
  if (!opt.bench || empty)
    return pass ? 0 : 1;
  if (!pass) {
    std::cout << "bench: skipped, the kernel failed verification\n";
    return 1;
  }

  // Warm-up (clocks, caches, lazy driver work), then one event pair per
  // run: the median resists the odd slow launch.
  for (int i = 0; i < 3; ++i)
    if (!(st = launch()).ok())
      return check(st);
  if (!(st = ctx->synchronize()).ok())
    return check(st);
  std::vector<float> times;
  for (int i = 0; i < opt.runs; ++i) {
    if (!(st = start->record()).ok() || !(st = launch()).ok() ||
        !(st = end->record()).ok() ||
        !(st = runtime::Event::elapsedMs(*start, *end, ms)).ok())
      return check(st);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  double median = times.size() % 2
                      ? times[times.size() / 2]
                      : 0.5 * (times[times.size() / 2 - 1] +
                               times[times.size() / 2]);
  std::printf("bench: median %.4f ms (min %.4f, max %.4f, %d runs): %s\n",
              median, times.front(), times.back(), opt.runs,
              throughput(*reference, problem, options, args, median).c_str());
  return 0;
}
