//===- CApi.cpp - C API for kernel bundles (tilegym_bundle.h) -------------===//
//
// Bundles are read by loadBundle; kernels are loaded and launched through
// the runtime's driver table (lib/Runtime/Driver.h) rather than
// runtime::Kernel, because a launch here takes a CUDA stream. Contexts are
// the GPUs' primary contexts, retained once per process and kept: PyTorch
// and the CUDA runtime use the same ones.
//
//===----------------------------------------------------------------------===//

#include "CApiObjects.h"

#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

using namespace tilegym;
using runtime::Status;
using namespace runtime::cuda;

namespace tilegym::bundle::capi {

thread_local std::string lastError;

tg_status report(const Status &status) {
  lastError = status.message;
  return status.code;
}
tg_status ok() { return report(Status::success()); }
std::string &scratch() {
  thread_local std::string text;
  return text;
}
tg_status invalid(const std::string &message) {
  return report(Status::error(TG_ERROR_INVALID_VALUE, message));
}

const Driver &api() {
  Status ignored;
  return driver(ignored);
}

/// The primary context of each GPU, retained on first use and kept for the
/// process (releasing it while PyTorch still runs would be pointless).
std::mutex contextsMutex;
std::map<int, runtime::Context *> contexts;
std::string lastKernelName; // Named by tgb_synchronize's errors.

Status contextFor(int ordinal, runtime::Context *&context) {
  std::lock_guard<std::mutex> lock(contextsMutex);
  auto it = contexts.find(ordinal);
  if (it != contexts.end()) {
    context = it->second;
    return Status::success();
  }
  std::unique_ptr<runtime::Context> created;
  Status status = runtime::Context::create(ordinal, created);
  if (!status.ok())
    return status;
  context = contexts[ordinal] = created.release();
  return Status::success();
}

/// The entry of `all` (the bundle's kernels or programs, `what`) named
/// `name`, or the only one for a null name.
template <typename Info>
Status findNamed(const tgb_bundle *b, const char *name,
                 const std::vector<Info> bundle::Bundle::*all, const char *what,
                 const Info *&found) {
  if (!b)
    return Status::error(TG_ERROR_INVALID_VALUE, "the bundle is null");
  const std::vector<Info> &entries = b->manifest.*all;
  if (!name) {
    if (entries.size() != 1)
      return Status::error(TG_ERROR_INVALID_VALUE,
                           b->manifest.dir + " has " +
                               std::to_string(entries.size()) + " " + what +
                               "s; name the one you mean");
    found = &entries.front();
    return Status::success();
  }
  for (const Info &entry : entries)
    if (entry.name == name) {
      found = &entry;
      return Status::success();
    }
  return Status::error(TG_ERROR_INVALID_VALUE, std::string("no ") + what +
                                                   " named '" + name + "' in " +
                                                   b->manifest.dir);
}

Status findKernel(const tgb_bundle *b, const char *name,
                  const bundle::KernelInfo *&kernel) {
  return findNamed(b, name, &bundle::Bundle::kernels, "kernel", kernel);
}

Status findProgram(const tgb_bundle *b, const char *name,
                   const bundle::ProgramInfo *&program) {
  return findNamed(b, name, &bundle::Bundle::programs, "program", program);
}

/// Parameter `index` of `params` in the C API's form; the strings live as
/// long as the bundle.
Status describeParam(const std::string &owner,
                     const std::vector<runtime::Param> &params, size_t index,
                     tg_param *param) {
  if (!param)
    return Status::error(TG_ERROR_INVALID_VALUE, "the result pointer is null");
  if (index >= params.size())
    return Status::error(TG_ERROR_INVALID_VALUE,
                         owner + ": parameter index " + std::to_string(index) +
                             " is out of range (" +
                             std::to_string(params.size()) + " parameters)");
  const runtime::Param &p = params[index];
  std::memset(param, 0, sizeof(*param));
  param->name = p.name.c_str();
  param->kind = p.kind;
  param->dtype = p.dtype;
  param->rank = int32_t(p.sizes.size());
  for (size_t d = 0; d < p.sizes.size() && d < TG_MAX_RANK; ++d)
    param->sizes[d] = p.sizes[d];
  for (size_t d = 0; d < p.dims.size() && d < TG_MAX_RANK; ++d)
    param->dims[d] = p.dims[d].empty() ? nullptr : p.dims[d].c_str();
  return Status::success();
}

Status checkArgs(const bundle::KernelInfo &kernel, const tg_arg *args,
                 size_t numArgs) {
  if (numArgs && !args)
    return Status::error(TG_ERROR_INVALID_VALUE,
                         "kernel '" + kernel.name +
                             "': the argument array is null");
  Status status = runtime::checkArguments(kernel.params, args, numArgs);
  if (!status.ok())
    status.message = "kernel '" + kernel.name + "': " + status.message;
  return status;
}

Status evaluateGrid(const bundle::KernelInfo &kernel, const tg_arg *args,
                    size_t numArgs, tg_dim3 &grid) {
  std::array<int64_t, 3> g;
  std::string error;
  if (!bundle::evaluateGrid(kernel, args, numArgs, g, error))
    return Status::error(TG_ERROR_INVALID_VALUE, error);
  grid = {uint32_t(g[0]), uint32_t(g[1]), uint32_t(g[2])};
  return Status::success();
}

Status checkProgramArgs(const bundle::Bundle &manifest,
                        const bundle::ProgramInfo &program, const tg_arg *args,
                        size_t numArgs,
                        std::vector<std::vector<tg_arg>> &shares,
                        std::vector<tg_dim3> &grids) {
  std::string where = "program '" + program.name + "'";
  if (numArgs && !args)
    return Status::error(TG_ERROR_INVALID_VALUE,
                         where + ": the argument array is null");
  Status status =
      runtime::checkArguments(program.signature.params, args, numArgs);
  if (!status.ok()) {
    status.message = where + ": " + status.message;
    return status;
  }
  std::vector<tg_arg> all(args, args + numArgs);
  shares.clear();
  grids.clear();
  for (size_t k = 0; k < program.kernels.size(); ++k) {
    const bundle::KernelInfo &kernel = *manifest.findKernel(program.kernels[k]);
    std::vector<tg_arg> mine = program.signature.kernelArgs(k, all);
    tg_dim3 grid;
    if (!(status = checkArgs(kernel, mine.data(), mine.size())).ok() ||
        !(status = evaluateGrid(kernel, mine.data(), mine.size(), grid)).ok()) {
      status.message = where + ": " + status.message;
      return status;
    }
    shares.push_back(std::move(mine));
    grids.push_back(grid);
  }
  return Status::success();
}

/// The last launch on this thread, as a plan: a launch with the very same
/// arguments (the same bytes: a loop over the same tensors) reuses its
/// checks, its variant, its grid and its packed parameters, and costs the
/// driver call alone. Keyed by the kernel's id, never reused, so a closed
/// bundle's kernel cannot match; and by the bundle's rules' version.
struct LaunchMemo {
  uint64_t kernelId = 0, rulesVersion = 0;
  tgb_plan plan;

  bool matches(const tgb_kernel &k, const tg_arg *a, size_t n) const {
    return kernelId == k.id && rulesVersion == k.bundle->rulesVersion &&
           plan.args.size() == n && n &&
           std::memcmp(plan.args.data(), a, n * sizeof(tg_arg)) == 0;
  }
};
thread_local LaunchMemo launchMemo;
std::atomic<uint64_t> nextKernelId{1};

/// What a plan holds, for these arguments: they are checked, the variant
/// picked and its grid evaluated, and a copy of them packed.
Status makePlan(tgb_kernel &k, const tg_arg *args, size_t numArgs,
                tgb_plan &plan) {
  Status status = checkArgs(*k.info, args, numArgs);
  if (!status.ok())
    return status;
  plan.variant = variantFor(k.bundle->manifest, k.info->name, args, numArgs);
  if (!(status = evaluateGrid(*k.variants[plan.variant].info, args, numArgs,
                              plan.grid))
           .ok())
    return status;
  plan.kernel = &k;
  plan.args.assign(args, args + numArgs);
  plan.packed =
      std::make_unique<runtime::PackedArgs>(plan.args.data(), numArgs);
  return addTensorMaps(*k.variants[plan.variant].info, plan.args.data(),
                       numArgs, *plan.packed);
}

/// The variant to launch `run` with: the dispatch table's choice for these
/// arguments, which the caller has checked.
size_t variantFor(const bundle::Bundle &manifest, const std::string &run,
                  const tg_arg *args, size_t numArgs) {
  if (manifest.variants.empty() || (numArgs && !args))
    return 0;
  return manifest.selectVariant(run, args, numArgs);
}

/// The tensor maps `info` takes, encoded from `args` into `packed`.
Status addTensorMaps(const bundle::KernelInfo &info, const tg_arg *args,
                     size_t numArgs, runtime::PackedArgs &packed) {
  if (info.tensorMaps.empty())
    return Status::success();
  Status status = packed.addTensorMaps(info.tensorMaps, args, numArgs);
  if (!status.ok())
    status.message = "kernel '" + info.name + "': " + status.message;
  return status;
}

/// The driver launch of variant `variant`, after the arguments passed the
/// checks and the grid was evaluated for that variant.
Status launchPacked(tgb_kernel &k, size_t variant, tg_dim3 grid,
                    runtime::PackedArgs &packed, uint64_t stream) {
  if (!grid.x || !grid.y || !grid.z)
    return Status::success(); // An empty grid: nothing to do.
  Status status = k.context->makeCurrent();
  if (!status.ok())
    return status;
  LoadedVariant &v = k.variants[variant];
  const bundle::KernelInfo &info = *v.info;
  // Built only for an error: a launch allocates nothing on the host.
  auto where = [&] { return "kernel '" + info.name + "'"; };
  status = optIntoSharedBytes(v.function, info.name, info.sharedBytes,
                              v.sharedLimit);
  if (!status.ok())
    return status;
  // Asked once per variant, after the shared memory opt-in it depends on.
  if (info.persistentBlocksPerSM > 0 && v.residentPerSM < 0)
    v.residentPerSM = runtime::cuda::residentBlocksPerSM(
        v.function, int(info.block.x * info.block.y * info.block.z),
        info.sharedBytes);
  if (info.clusterBlocks > 1 && v.activeClusters < 0)
    v.activeClusters = runtime::cuda::activeClusters(
        v.function, info.block, info.sharedBytes, unsigned(info.clusterBlocks));
  bundle::LaunchShape shape =
      bundle::launchShapeOf(info, grid, k.context->multiprocessors(),
                            v.residentPerSM, v.activeClusters);
  status = launchKernel(v.function, where(), shape.grid, info.block,
                        shape.cluster, info.sharedBytes,
                        reinterpret_cast<CUstream>(uintptr_t(stream)),
                        packed.params());
  if (!status.ok())
    return status;
  lastKernelName = info.name;
  return Status::success();
}

} // namespace tilegym::bundle::capi

using namespace tilegym::bundle::capi;

extern "C" {

const char *tgb_last_error(void) { return lastError.c_str(); }
int tgb_format_version(void) { return int(bundle::kFormatVersion); }

tg_status tgb_open(const char *path, tgb_bundle **out) {
  if (!path)
    return invalid("tgb_open: the path is null");
  if (!out)
    return invalid("tgb_open: the result pointer is null");
  *out = nullptr;
  auto b = std::make_unique<tgb_bundle>();
  std::string error;
  if (!bundle::loadBundle(path, b->manifest, error))
    return invalid(error);
  *out = b.release();
  return ok();
}

tg_status tgb_close(tgb_bundle *b) {
  if (!b)
    return ok();
  Status first;
  b->plans.clear();
  for (auto &k : b->kernels)
    for (LoadedVariant &v : k->variants) {
      if (!v.module)
        continue;
      Status status = k->context->makeCurrent();
      if (status.ok())
        if (CUresult result = api().cuModuleUnload(v.module))
          status = callError(result,
                             "cuModuleUnload(kernel '" + k->info->name + "')");
      if (!status.ok() && first.ok())
        first = status;
    }
  delete b;
  return report(first);
}

const char *tgb_target(const tgb_bundle *b) {
  return b ? b->manifest.target.c_str() : "";
}
const char *tgb_source(const tgb_bundle *b) {
  return b ? b->manifest.source.c_str() : "";
}

size_t tgb_num_consts(const tgb_bundle *b) {
  return b ? b->manifest.consts.size() : 0;
}

tg_status tgb_const(const tgb_bundle *b, size_t index, const char **name,
                    const char **value) {
  if (!b)
    return invalid("tgb_const: the bundle is null");
  if (index >= b->manifest.consts.size())
    return invalid("tgb_const: index " + std::to_string(index) +
                   " is out of range (" +
                   std::to_string(b->manifest.consts.size()) + " consts)");
  auto it = b->manifest.consts.begin();
  std::advance(it, index);
  if (name)
    *name = it->first.c_str();
  if (value)
    *value = it->second.c_str();
  return ok();
}

size_t tgb_num_kernels(const tgb_bundle *b) {
  return b ? b->manifest.kernels.size() : 0;
}

const char *tgb_kernel_name(const tgb_bundle *b, size_t index) {
  if (!b || index >= b->manifest.kernels.size())
    return nullptr;
  return b->manifest.kernels[index].name.c_str();
}

tg_status tgb_kernel_info_get(const tgb_bundle *b, const char *name,
                              tgb_kernel_info *info) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  if (!info)
    return invalid("tgb_kernel_info_get: the result pointer is null");
  info->name = k->name.c_str();
  info->entry = k->entry.c_str();
  info->num_warps = int32_t(k->numWarps);
  info->block = k->block;
  info->shared_bytes = k->sharedBytes;
  info->num_params = k->params.size();
  info->ptx = k->ptxFile.c_str();
  info->cubin = k->cubinFile.c_str();
  return ok();
}

tg_status tgb_kernel_param(const tgb_bundle *b, const char *name, size_t index,
                           tg_param *param) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  return report(
      describeParam("kernel '" + k->name + "'", k->params, index, param));
}

const char *tgb_grid_program(const tgb_bundle *b, const char *name) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok()) {
    report(status);
    return "";
  }
  scratch() = bundle::formatGridProgram(k->grid);
  ok();
  return scratch().c_str();
}

tg_status tgb_check_args(const tgb_bundle *b, const char *name,
                         const tg_arg *args, size_t numArgs) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  return report(checkArgs(*k, args, numArgs));
}

tg_status tgb_grid(const tgb_bundle *b, const char *name, const tg_arg *args,
                   size_t numArgs, tg_dim3 *grid) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  if (!grid)
    return invalid("tgb_grid: the result pointer is null");
  if (numArgs && !args)
    return invalid("kernel '" + k->name + "': the argument array is null");
  return report(evaluateGrid(*k, args, numArgs, *grid));
}

tg_status tgb_load(tgb_bundle *b, const char *name, int ordinal,
                   tgb_kernel **loaded) {
  const bundle::KernelInfo *k;
  Status status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  if (!loaded)
    return invalid("tgb_load: the result pointer is null");
  *loaded = nullptr;
  for (auto &existing : b->kernels)
    if (existing->info == k && existing->ordinal == ordinal) {
      *loaded = existing.get();
      return ok();
    }

  runtime::DeviceInfo device;
  if (!(status = runtime::deviceInfo(ordinal, device)).ok())
    return report(status);
  runtime::Context *context;
  if (!(status = contextFor(ordinal, context)).ok() ||
      !(status = context->makeCurrent()).ok())
    return report(status);
  auto kernel = std::make_unique<tgb_kernel>();
  kernel->bundle = b;
  kernel->info = k;
  kernel->ordinal = ordinal;
  kernel->context = context;
  kernel->id = nextKernelId++;
  // Every variant is loaded now, so that a launch (in a CUDA graph capture
  // too) only picks one.
  auto unloadAll = [&] {
    for (LoadedVariant &v : kernel->variants)
      api().cuModuleUnload(v.module);
  };
  for (size_t i = 0; i < b->manifest.numVariants(); ++i) {
    const bundle::Bundle &variant = b->manifest.variant(i);
    LoadedVariant loadedVariant;
    loadedVariant.info = variant.findKernel(k->name);
    bundle::Image image;
    std::string error;
    if (!bundle::selectImage(variant, *loadedVariant.info, device.ccMajor,
                             device.ccMinor, image, error)) {
      unloadAll();
      return invalid(error);
    }
    // The driver wants PTX NUL-terminated (std::string's c_str is); the
    // JIT's error log says which PTX line is wrong.
    char log[16384] = {};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER,
                     CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log,
                      reinterpret_cast<void *>(uintptr_t(sizeof(log) - 1))};
    if (CUresult result = api().cuModuleLoadDataEx(
            &loadedVariant.module, image.bytes.c_str(), 2, options, values)) {
      status = callError(result, "cuModuleLoadDataEx(" + image.path + ")");
      if (log[0])
        status.message += "\n" + std::string(log);
      unloadAll();
      return report(status);
    }
    if (CUresult result = api().cuModuleGetFunction(
            &loadedVariant.function, loadedVariant.module,
            loadedVariant.info->entry.c_str())) {
      status = callError(result, "cuModuleGetFunction(kernel '" +
                                     loadedVariant.info->entry + "' in " +
                                     image.path + ")");
      api().cuModuleUnload(loadedVariant.module);
      unloadAll();
      return report(status);
    }
    loadedVariant.imagePath = image.path;
    loadedVariant.isCubin = image.isCubin;
    kernel->variants.push_back(std::move(loadedVariant));
  }
  b->kernels.push_back(std::move(kernel));
  *loaded = b->kernels.back().get();
  return ok();
}

const char *tgb_kernel_image(const tgb_kernel *k) {
  return k ? k->variants[k->bundle->manifest.defaultVariant].imagePath.c_str()
           : "";
}
int tgb_kernel_image_is_cubin(const tgb_kernel *k) {
  return k && k->variants[k->bundle->manifest.defaultVariant].isCubin ? 1 : 0;
}

tg_status tgb_launch(tgb_kernel *k, const tg_arg *args, size_t numArgs,
                     uint64_t stream) {
  if (!k)
    return invalid("tgb_launch: the kernel is null");
  if (numArgs && !args)
    return report(checkArgs(*k->info, args, numArgs)); // Names the error.
  LaunchMemo &memo = launchMemo;
  if (!memo.matches(*k, args, numArgs)) {
    memo.kernelId = 0; // Until the new entry is whole.
    Status status = makePlan(*k, args, numArgs, memo.plan);
    if (!status.ok())
      return report(status);
    memo.kernelId = k->id;
    memo.rulesVersion = k->bundle->rulesVersion;
  }
  const tgb_plan &plan = memo.plan;
  return report(
      launchPacked(*k, plan.variant, plan.grid, *plan.packed, stream));
}

tg_status tgb_launch_variant(tgb_kernel *k, size_t variant, const tg_arg *args,
                             size_t numArgs, uint64_t stream) {
  if (!k)
    return invalid("tgb_launch_variant: the kernel is null");
  if (variant >= k->variants.size())
    return invalid("kernel '" + k->info->name + "': variant " +
                   std::to_string(variant) + " is out of range (" +
                   std::to_string(k->variants.size()) + " variants)");
  Status status = checkArgs(*k->info, args, numArgs);
  tg_dim3 grid;
  if (!status.ok() ||
      !(status = evaluateGrid(*k->variants[variant].info, args, numArgs, grid))
           .ok())
    return report(status);
  runtime::PackedArgs packed(args, numArgs);
  if (!(status =
            addTensorMaps(*k->variants[variant].info, args, numArgs, packed))
           .ok())
    return report(status);
  return report(launchPacked(*k, variant, grid, packed, stream));
}

tg_status tgb_launch_views(tgb_kernel *k, size_t numArgs, const int32_t *dtypes,
                           const uint64_t *data, const int32_t *ranks,
                           const int64_t *sizes, const int64_t *strides,
                           uint64_t stream) {
  if (!k)
    return invalid("tgb_launch_views: the kernel is null");
  if (numArgs && (!dtypes || !data || !ranks))
    return invalid("tgb_launch_views: dtypes, data or ranks is null");
  std::vector<tg_arg> args;
  size_t offset = 0;
  for (size_t i = 0; i < numArgs; ++i) {
    if (ranks[i] < 0 || ranks[i] > TG_MAX_RANK)
      return report(Status::error(
          TG_ERROR_ARGUMENT_MISMATCH,
          "kernel '" + k->info->name + "': argument " + std::to_string(i + 1) +
              ": rank " + std::to_string(ranks[i]) + " is outside 0.." +
              std::to_string(TG_MAX_RANK)));
    if (ranks[i] && !sizes)
      return invalid("tgb_launch_views: sizes is null");
    args.push_back(tg_view(tg_dtype(dtypes[i]), data[i], ranks[i],
                           sizes ? sizes + offset : nullptr,
                           strides ? strides + offset : nullptr));
    offset += size_t(ranks[i]);
  }
  return tgb_launch(k, args.data(), args.size(), stream);
}

tg_status tgb_plan_create(tgb_kernel *k, const tg_arg *args, size_t numArgs,
                          tgb_plan **out) {
  if (!k)
    return invalid("tgb_plan_create: the kernel is null");
  if (!out)
    return invalid("tgb_plan_create: the result pointer is null");
  *out = nullptr;
  auto plan = std::make_unique<tgb_plan>();
  Status status = makePlan(*k, args, numArgs, *plan);
  if (!status.ok())
    return report(status);
  k->bundle->plans.push_back(std::move(plan));
  *out = k->bundle->plans.back().get();
  return ok();
}

tg_status tgb_plan_grid(const tgb_plan *plan, tg_dim3 *grid) {
  if (!plan || !grid)
    return invalid("tgb_plan_grid: the plan or the result pointer is null");
  *grid = plan->grid;
  return ok();
}

tg_status tgb_plan_launch(tgb_plan *plan, uint64_t stream) {
  if (!plan)
    return invalid("tgb_plan_launch: the plan is null");
  return report(launchPacked(*plan->kernel, plan->variant, plan->grid,
                             *plan->packed, stream));
}

tg_status tgb_plan_destroy(tgb_plan *plan) {
  if (!plan)
    return ok();
  auto &plans = plan->kernel->bundle->plans;
  for (auto it = plans.begin(); it != plans.end(); ++it)
    if (it->get() == plan) {
      plans.erase(it);
      return ok();
    }
  return invalid("tgb_plan_destroy: unknown plan (destroyed twice?)");
}

tg_status tgb_synchronize(int ordinal) {
  runtime::Context *context;
  Status status = contextFor(ordinal, context);
  if (!status.ok() || !(status = context->makeCurrent()).ok())
    return report(status);
  if (CUresult result = api().cuCtxSynchronize())
    return report(callError(result, lastKernelName.empty()
                                        ? std::string("cuCtxSynchronize")
                                        : "cuCtxSynchronize (after kernel '" +
                                              lastKernelName + "')"));
  return ok();
}

} // extern "C"
