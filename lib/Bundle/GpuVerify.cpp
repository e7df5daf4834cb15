//===- GpuVerify.cpp - run and verify a bundle kernel on the GPU ----------===//
#include "tilegym/Bundle/GpuVerify.h"

#include "tilegym/Reference/Reference.h"
#include "tilegym/Runtime/Runtime.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>

using namespace tilegym;
using namespace tilegym::bundle;

namespace {

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

static int check(const runtime::Status &status) {
  std::cerr << "error: " << status.message << "\n";
  return 1;
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

int tilegym::bundle::verifyOnGpu(const Bundle &bundle, const KernelInfo &kernel,
                                 const VerifyOptions &opt) {
  std::string error;
  std::string refName = opt.reference.empty() ? kernel.name : opt.reference;
  const ref::Reference *reference = ref::lookupReference(refName);
  if (!reference)
    return fail("no reference program named '" + refName +
                "'; pick one with --reference");
  std::vector<ref::DType> dtypes;
  std::vector<int64_t> ranks;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const runtime::Param &p = kernel.params[i];
    if (p.kind != TG_ARG_VIEW)
      return fail("parameter " + std::to_string(i) + " of '" + kernel.name +
                  "' is a scalar; GPU verification binds views only");
    auto dtype = ref::parseDType(runtime::dtypeName(p.dtype));
    if (!dtype)
      return fail("parameter " + std::to_string(i) + " of '" + kernel.name +
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
  std::vector<runtime::Param> params = kernel.params;
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
  if (!bundle::evaluateGrid(kernel, launchArgs.data(), launchArgs.size(), grid,
                            error))
    return fail(error);

  std::cout << "kernel " << kernel.name << " (" << opt.label
            << ") backend=gpu reference=" << reference->name << " sizes=";
  bool first = true;
  for (const auto &[name, value] : problem) {
    std::cout << (first ? "" : ",") << name << "=" << value;
    first = false;
  }
  std::cout << " grid=" << grid[0] << "x" << grid[1] << "x" << grid[2]
            << " seed=" << seed << "\n";

  if (opt.dryRun) {
    std::cout << "target " << bundle.target << ", entry " << kernel.entry
              << ", block " << kernel.block.x << "x1x1, shared "
              << kernel.sharedBytes << " bytes, images " << kernel.ptxFile
              << (kernel.cubinFile.empty() ? "" : " " + kernel.cubinFile)
              << "\ngrid program: " << bundle::formatGridProgram(kernel.grid)
              << "\ndry run: nothing launched\n";
    return 0;
  }

  runtime::Status st = runtime::initDriver();
  if (!st.ok()) {
    std::cerr << "cannot run on the GPU: " << st.message << "\n";
    return kExitNoGpu;
  }
  runtime::DeviceInfo device;
  if (!(st = runtime::deviceInfo(0, device)).ok())
    return check(st);
  bundle::Image image;
  if (!bundle::selectImage(bundle, kernel, device.ccMajor, device.ccMinor,
                           image, error))
    return fail(error);

  std::unique_ptr<runtime::Context> ctx;
  if (!(st = runtime::Context::create(0, ctx)).ok())
    return check(st);
  std::unique_ptr<runtime::Module> module;
  if (!(st = runtime::Module::load(*ctx, image.bytes.data(), image.bytes.size(),
                                   module))
           .ok())
    return check(st);
  runtime::Kernel *gpuKernel;
  if (!(st = module->getKernel(kernel.entry, params, gpuKernel)).ok())
    return check(st);

  // Outputs go over poisoned too, so that unwritten elements show.
  DeviceBuffers buffers{*ctx, {}};
  for (size_t i = 0; i < args.size(); ++i) {
    uint64_t ptr = 0;
    if (args[i].sizeInBytes()) {
      if (!(st = ctx->allocate(args[i].sizeInBytes(), ptr)).ok())
        return check(st);
      buffers.pointers.push_back(ptr);
      if (!(st = ctx->copyToDevice(ptr, args[i].data(), args[i].sizeInBytes()))
               .ok())
        return check(st);
    }
    launchArgs[i].data = ptr;
  }

  tg_dim3 gridDim = {uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2])};
  bool empty = grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
  auto launch = [&]() {
    return gpuKernel->launch(gridDim, kernel.block, kernel.sharedBytes,
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
  double median =
      times.size() % 2
          ? times[times.size() / 2]
          : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
  std::printf("bench: median %.4f ms (min %.4f, max %.4f, %d runs): %s\n",
              median, times.front(), times.back(), opt.runs,
              throughput(*reference, problem, options, args, median).c_str());
  return 0;
}
