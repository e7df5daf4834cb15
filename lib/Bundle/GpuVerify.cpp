//===- GpuVerify.cpp - run and verify a bundle kernel on the GPU ----------===//
#include "tilegym/Bundle/GpuVerify.h"

#include "tilegym/Reference/CheckFolder.h"
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

/// "variant 1 of 3 (BM=64 BN=128), by the dispatch table" for a bundle of
/// variants; nothing for a bundle of kernels.
static void printVariant(const Bundle &bundle, size_t variant) {
  if (bundle.variants.empty())
    return;
  std::cout << "variant " << variant << " of " << bundle.variants.size() << " ("
            << bundle.describeVariant(variant) << "), by the dispatch table\n";
}

int tilegym::bundle::verifyOnGpu(const Bundle &bundle,
                                 const KernelInfo &signature,
                                 const VerifyOptions &opt) {
  std::string error;
  std::string refName = opt.reference.empty() ? signature.name : opt.reference;
  const ref::Reference *reference = ref::lookupReference(refName);
  if (!reference)
    return fail("no reference program named '" + refName +
                "'; pick one with --reference");
  std::vector<ref::DType> dtypes;
  std::vector<int64_t> ranks;
  for (size_t i = 0; i < signature.params.size(); ++i) {
    const runtime::Param &p = signature.params[i];
    if (p.kind != TG_ARG_VIEW)
      return fail("parameter " + std::to_string(i) + " of '" + signature.name +
                  "' is a scalar; GPU verification binds views only");
    auto dtype = ref::parseDType(runtime::dtypeName(p.dtype));
    if (!dtype)
      return fail("parameter " + std::to_string(i) + " of '" + signature.name +
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
  std::vector<runtime::Param> params = signature.params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name.empty())
      params[i].name = reference->args[i].name;
    params[i].written = reference->args[i].role == ref::Role::Output;
    params[i].read = !params[i].written;
  }

  uint64_t seed = opt.hasSeed ? opt.seed : std::random_device{}();
  std::vector<ref::HostTensor> args =
      ref::makeArguments(*reference, problem, dtypes, seed);
  std::vector<tg_arg> hostArgs;
  for (size_t i = 0; i < args.size(); ++i)
    hostArgs.push_back(ref::hostView(params[i].dtype, args[i]));
  // Checked before anything, dry runs included: the reference's sizes must
  // fit the kernel's static ones (the head dim it was compiled for).
  runtime::Status fits =
      runtime::checkArguments(params, hostArgs.data(), hostArgs.size());
  if (!fits.ok())
    return fail("kernel '" + signature.name + "': " + fits.message +
                "; nothing was run");
  // A bundle of kernels has no rules: its own variant 0.
  size_t variant =
      bundle.selectVariant(signature.name, hostArgs.data(), hostArgs.size());
  const Bundle &chosen = bundle.variant(variant);
  const KernelInfo &kernel = *chosen.findKernel(signature.name);
  std::array<int64_t, 3> grid;
  if (!bundle::evaluateGrid(kernel, hostArgs.data(), hostArgs.size(), grid,
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
  printVariant(bundle, variant);

  if (opt.dryRun) {
    std::cout << "target " << chosen.target << ", entry " << kernel.entry
              << ", block " << kernel.block.x << "x1x1, shared "
              << kernel.sharedBytes << " bytes, images " << kernel.ptxFile
              << (kernel.cubinFile.empty() ? "" : " " + kernel.cubinFile)
              << "\ngrid program: " << bundle::formatGridProgram(kernel.grid)
              << "\ndry run: nothing launched\n";
    return 0;
  }

  KernelInfo named = kernel;
  named.params = params;
  GpuRun run;
  if (int rc = runOnGpu(chosen, named, hostArgs, 0, run, error))
    return rc == kExitNoGpu ? (std::cerr << error << "\n", rc) : fail(error);
  ref::Options options = ref::effectiveOptions(*reference, bundle.consts);
  auto expected = ref::runReference(*reference, problem, options, args);
  auto results = ref::compareOutputs(*reference, problem, args, expected);
  printGpuRun(run);
  bool pass = ref::printVerdict(std::cout, results);
  if (!opt.bench || run.empty)
    return pass ? 0 : 1;
  if (!pass) {
    std::cout << "bench: skipped, the kernel failed verification\n";
    return 1;
  }
  // Timed in a run of its own, so that a kernel failing verification is
  // never launched again.
  if (int rc = runOnGpu(chosen, named, hostArgs, opt.runs, run, error))
    return fail(error), rc;
  std::printf(
      "bench: median %.4f ms (min %.4f, max %.4f, %d runs): %s\n",
      run.medianMs(), run.times.front(), run.times.back(),
      int(run.times.size()),
      throughput(*reference, problem, options, args, run.medianMs()).c_str());
  return 0;
}

double tilegym::bundle::GpuRun::medianMs() const {
  if (times.empty())
    return 0;
  size_t n = times.size();
  return n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}

void tilegym::bundle::printGpuRun(const GpuRun &run) {
  std::cout << "gpu " << run.device << " (" << run.target << ") image "
            << run.image << (run.isCubin ? " (cubin)" : " (PTX, JIT)") << "\n";
  if (run.empty)
    std::cout << "gpu time 0 ms: the grid is empty, nothing launched\n";
  else
    std::cout << "gpu time " << run.firstMs << " ms (first launch)\n";
}

int tilegym::bundle::runOnGpu(const Bundle &bundle, const KernelInfo &kernel,
                              const std::vector<tg_arg> &hostArgs,
                              int benchRuns, GpuRun &run, std::string &error) {
  auto failed = [&](const runtime::Status &st) {
    error = st.message;
    return 1;
  };
  if (!bundle::evaluateGrid(kernel, hostArgs.data(), hostArgs.size(), run.grid,
                            error))
    return 1;
  runtime::Status st = runtime::initDriver();
  if (!st.ok()) {
    error = "cannot run on the GPU: " + st.message;
    return kExitNoGpu;
  }
  runtime::DeviceInfo device;
  if (!(st = runtime::deviceInfo(0, device)).ok())
    return failed(st);
  run.device = device.name;
  run.target = device.target;
  bundle::Image image;
  if (!bundle::selectImage(bundle, kernel, device.ccMajor, device.ccMinor,
                           image, error))
    return 1;
  run.image = image.path;
  run.isCubin = image.isCubin;
  std::unique_ptr<runtime::Context> ctx;
  if (!(st = runtime::Context::create(0, ctx)).ok())
    return failed(st);
  std::unique_ptr<runtime::Module> module;
  if (!(st = runtime::Module::load(*ctx, image.bytes.data(), image.bytes.size(),
                                   module))
           .ok())
    return failed(st);
  runtime::Kernel *gpuKernel;
  if (!(st = module->getKernel(kernel.entry, kernel.params, gpuKernel,
                               kernel.tensorMaps))
           .ok())
    return failed(st);
  // Every view goes over as it is on the host (outputs poisoned, so that
  // unwritten elements show); the views the kernel writes come back after
  // the first launch.
  auto bytesOf = [](const tg_arg &a) {
    size_t n = runtime::dtypeSize(a.dtype);
    for (int32_t d = 0; d < a.rank; ++d)
      n *= size_t(a.sizes[d]);
    return n;
  };
  std::vector<tg_arg> deviceArgs = hostArgs;
  DeviceBuffers buffers{*ctx, {}};
  for (tg_arg &a : deviceArgs) {
    if (a.kind != TG_ARG_VIEW)
      continue;
    size_t bytes = bytesOf(a);
    uint64_t ptr = 0;
    if (bytes) {
      if (!(st = ctx->allocate(bytes, ptr)).ok())
        return failed(st);
      buffers.pointers.push_back(ptr);
      if (!(st = ctx->copyToDevice(ptr, reinterpret_cast<const void *>(a.data),
                                   bytes))
               .ok())
        return failed(st);
    }
    a.data = ptr;
  }
  int residentPerSM = 0;
  if (kernel.persistentBlocksPerSM &&
      !(st = gpuKernel->residentBlocksPerSM(kernel.block, kernel.sharedBytes,
                                            residentPerSM))
           .ok())
    return failed(st);
  int activeClusters = 0;
  if (kernel.clusterBlocks > 1 &&
      !(st = gpuKernel->activeClusters(kernel.block, kernel.sharedBytes,
                                       unsigned(kernel.clusterBlocks),
                                       activeClusters))
           .ok())
    return failed(st);
  bundle::LaunchShape shape = bundle::launchShapeOf(
      kernel,
      {uint32_t(run.grid[0]), uint32_t(run.grid[1]), uint32_t(run.grid[2])},
      ctx->multiprocessors(), residentPerSM, activeClusters);
  tg_dim3 gridDim = shape.grid;
  if (kernel.persistentBlocksPerSM)
    std::cout << "persistent: " << gridDim.x << " blocks ("
              << ctx->multiprocessors() << " SMs x "
              << bundle::persistentBlocksPerSM(kernel, residentPerSM)
              << "; the compiler's estimate " << kernel.persistentBlocksPerSM
              << ", the driver's " << residentPerSM
              << ") run the grid's tiles\n";
  if (kernel.clusterBlocks > 1) {
    if (shape.cluster.x * shape.cluster.y * shape.cluster.z > 1)
      std::cout << "clusters: " << shape.cluster.x << "x" << shape.cluster.y
                << "x" << shape.cluster.z << " blocks (the driver runs "
                << activeClusters << " at once) share the tiles both load\n";
    else
      std::cout << "clusters: none ("
                << (activeClusters > 0
                        ? "the grid's y is not a multiple of " +
                              std::to_string(kernel.clusterBlocks)
                        : std::string("the driver cannot launch them"))
                << "); every block loads its own tiles\n";
  }
  run.empty = run.grid[0] == 0 || run.grid[1] == 0 || run.grid[2] == 0;
  auto launch = [&]() {
    return gpuKernel->launch(gridDim, kernel.block, kernel.sharedBytes,
                             deviceArgs.data(), deviceArgs.size(),
                             shape.cluster);
  };
  std::unique_ptr<runtime::Event> start, end;
  if (!(st = runtime::Event::create(*ctx, start)).ok() ||
      !(st = runtime::Event::create(*ctx, end)).ok())
    return failed(st);
  if (!run.empty) {
    if (!(st = start->record()).ok() || !(st = launch()).ok() ||
        !(st = end->record()).ok() || !(st = ctx->synchronize()).ok() ||
        !(st = runtime::Event::elapsedMs(*start, *end, run.firstMs)).ok())
      return failed(st);
  }
  for (size_t i = 0; i < deviceArgs.size(); ++i)
    if (deviceArgs[i].kind == TG_ARG_VIEW && kernel.params[i].written &&
        bytesOf(deviceArgs[i]))
      if (!(st = ctx->copyToHost(reinterpret_cast<void *>(hostArgs[i].data),
                                 deviceArgs[i].data, bytesOf(deviceArgs[i])))
               .ok())
        return failed(st);
  if (benchRuns <= 0 || run.empty)
    return 0;
  // Warm-up (clocks, caches, lazy driver work), then one event pair per
  // run: the median resists the odd slow launch. Before each run, a write
  // over more bytes than any GPU's L2 (H200: 60 MiB) evicts what the last
  // run left there, so that each run reads its inputs from DRAM, as a
  // kernel in a model does.
  for (int i = 0; i < 3; ++i)
    if (!(st = launch()).ok())
      return failed(st);
  constexpr size_t kL2FlushBytes = size_t(256) << 20;
  uint64_t flush = 0;
  if (!(st = ctx->allocate(kL2FlushBytes, flush)).ok())
    return failed(st);
  auto freeFlush = [&] { return ctx->deallocate(flush); };
  if (!(st = ctx->synchronize()).ok())
    return (void)freeFlush(), failed(st);
  for (int i = 0; i < benchRuns; ++i) {
    float ms;
    if (!(st = ctx->fill(flush, uint8_t(i), kL2FlushBytes)).ok())
      return (void)freeFlush(), failed(st);
    if (!(st = start->record()).ok() || !(st = launch()).ok() ||
        !(st = end->record()).ok() ||
        !(st = runtime::Event::elapsedMs(*start, *end, ms)).ok())
      return (void)freeFlush(), failed(st);
    run.times.push_back(ms);
  }
  if (!(st = freeFlush()).ok())
    return failed(st);
  std::sort(run.times.begin(), run.times.end());
  return 0;
}

int tilegym::bundle::runGeneralOnGpu(
    const Bundle &bundle, const std::vector<const KernelInfo *> &signatures,
    const GeneralRunOptions &opt) {
  std::vector<const KernelInfo *> kernels = signatures;
  std::string error;
  std::vector<std::string> names;
  std::vector<std::vector<runtime::Param>> params;
  for (const KernelInfo *k : kernels) {
    names.push_back(k->name);
    params.push_back(k->params);
  }
  runtime::ProgramSignature program;
  if (!runtime::mergeSignatures(names, params, program, error))
    return fail(error);
  ref::ArgumentChoices choices = opt.choices;
  if (!opt.checkDir.empty() &&
      !ref::readCheckInputs(opt.checkDir, program.params, choices, error))
    return fail(error);
  uint64_t seed = opt.hasSeed ? opt.seed : std::random_device{}();
  ref::BoundArguments bound;
  if (!ref::bindArguments(program.params, choices, seed, bound, error))
    return fail(error);
  ref::Expectation expectation;
  if (!opt.checkDir.empty() &&
      !ref::readExpectation(opt.checkDir, bound, expectation, error))
    return fail("--check: " + error);
  std::vector<ref::HostTensor> inputs;
  for (const ref::HostTensor &t : bound.tensors)
    inputs.push_back(t.clone());
  std::string label;
  for (size_t k = 0; k < names.size(); ++k)
    label += (k ? "," : "") + names[k];
  std::cout << (kernels.size() > 1 ? "kernels " : "kernel ") << label << " ("
            << opt.label << ") backend=gpu check="
            << (opt.checkDir.empty() ? "none" : "folder " + opt.checkDir)
            << " seed=" << seed << "\n"
            << "args: " << ref::describeArguments(bound) << "\n";
  std::vector<tg_arg> args = bound.hostArgs();
  // A bundle of variants: the dispatch table's choice for the kernel, or
  // for the program whose kernels these are, at these shapes.
  size_t variant = 0;
  if (!bundle.variants.empty()) {
    std::string run = names.size() == 1 ? names.front() : "";
    for (const ProgramInfo &p : bundle.programs)
      if (p.kernels == names)
        run = p.name;
    variant = bundle.selectVariant(run, args.data(), args.size());
    for (const KernelInfo *&k : kernels)
      k = bundle.variant(variant).findKernel(k->name);
  }
  printVariant(bundle, variant);
  auto gridText = [&](size_t k, const std::array<int64_t, 3> &g) {
    return (kernels.size() > 1 ? names[k] + ": " : std::string()) +
           "grid=" + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" +
           std::to_string(g[2]);
  };
  if (opt.dryRun) {
    for (size_t k = 0; k < kernels.size(); ++k) {
      std::vector<tg_arg> kernelArgs = program.kernelArgs(k, args);
      std::array<int64_t, 3> grid;
      if (!bundle::evaluateGrid(*kernels[k], kernelArgs.data(),
                                kernelArgs.size(), grid, error))
        return fail(error);
      std::cout << gridText(k, grid) << "\n";
    }
    std::cout << "dry run: nothing launched\n";
    return 0;
  }
  GpuRun run;
  bool empty = true;
  for (size_t k = 0; k < kernels.size(); ++k) {
    // Views travel through the host between kernels.
    if (int rc = runOnGpu(bundle.variant(variant), *kernels[k],
                          program.kernelArgs(k, args), 0, run, error))
      return rc == kExitNoGpu ? (std::cerr << error << "\n", rc) : fail(error);
    if (k == 0)
      printGpuRun(run);
    std::cout << gridText(k, run.grid) << "\n";
    empty = empty && run.empty;
  }
  if (!opt.dumpDir.empty()) {
    std::vector<const ref::HostTensor *> in, out;
    for (size_t i = 0; i < bound.params.size(); ++i) {
      bool view = bound.params[i].kind == TG_ARG_VIEW;
      in.push_back(view && bound.params[i].read ? &inputs[i] : nullptr);
      out.push_back(view && bound.params[i].written ? &bound.tensors[i]
                                                    : nullptr);
    }
    if (!ref::dumpViews(opt.dumpDir, "", bound, in, error) ||
        !ref::dumpViews(opt.dumpDir, ".out", bound, out, error))
      return fail("--dump: " + error);
    std::cout << "dump: inputs as NAME.npy, outputs as NAME.out.npy in "
              << opt.dumpDir << "\n";
  }
  if (opt.checkDir.empty())
    return ref::printUnchecked(std::cout, bound,
                               "give --check DIR, written by tilegym-run "
                               "--ref R.tile --dump DIR")
               ? 0
               : 1;
  std::vector<ref::CompareResult> results =
      ref::compareWritten(bound, expectation);
  if (results.empty())
    return fail("the kernel writes no view: nothing to check");
  bool pass = ref::printVerdict(std::cout, results);
  if (!opt.bench || empty)
    return pass ? 0 : 1;
  if (!pass) {
    std::cout << "bench: skipped, the kernel failed verification\n";
    return 1;
  }
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<tg_arg> kernelArgs = program.kernelArgs(k, args);
    if (int rc = runOnGpu(bundle.variant(variant), *kernels[k], kernelArgs,
                          opt.runs, run, error))
      return fail(error), rc;
    if (run.times.empty())
      continue;
    double bytes = 0;
    for (const tg_arg &a : kernelArgs)
      if (a.kind == TG_ARG_VIEW) {
        double n = double(runtime::dtypeSize(a.dtype));
        for (int32_t d = 0; d < a.rank; ++d)
          n *= double(a.sizes[d]);
        bytes += n;
      }
    std::printf("bench: %s median %.4f ms (min %.4f, max %.4f, %d runs): "
                "%.1f GB/s (%.0f bytes of arguments)\n",
                names[k].c_str(), run.medianMs(), run.times.front(),
                run.times.back(), int(run.times.size()),
                bytes / (run.medianMs() * 1e6), bytes);
  }
  return 0;
}
