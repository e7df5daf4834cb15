//===- Driver.cpp - Loading the CUDA driver -------------------------------===//

#include "Driver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

namespace tilegym::runtime::cuda {

namespace {

struct Loaded {
  Driver api;
  bool resolved = false; // every entry point found, cuInit not necessarily ok
  Status status;         // of loading, resolving and cuInit
};

std::string errorName(const Driver &api, CUresult result) {
  const char *name = nullptr;
  if (api.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUDA error " + std::to_string(result);
}

std::string describe(const Driver &api, CUresult result) {
  std::string text = errorName(api, result);
  const char *detail = nullptr;
  if (api.cuGetErrorString(result, &detail) == CUDA_SUCCESS && detail)
    text += std::string(" (") + detail + ")";
  return text;
}

/// Sets `fn` from the first of `names` the library exports; returns the
/// preferred name when there is none, for the message.
template <typename Fn>
const char *resolve(void *library, Fn *&fn,
                    std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *symbol = dlsym(library, name)) {
      fn = reinterpret_cast<Fn *>(symbol);
      return nullptr;
    }
  return *names.begin();
}

Loaded load() {
  Loaded loaded;
  const char *override = std::getenv("TILEGYM_LIBCUDA");
  std::string path = override && *override ? override : "libcuda.so.1";
  // Never closed: contexts and modules may be used until the process exits.
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    loaded.status =
        Status::error(TG_ERROR_NO_DRIVER, "no CUDA driver (" + path +
                                              " not found: " + dlerror() + ")");
    return loaded;
  }

#define TILEGYM_RESOLVE(field, type, ...)                                      \
  if (const char *missing =                                                    \
          resolve(library, loaded.api.field, {__VA_ARGS__})) {                 \
    loaded.status =                                                            \
        Status::error(TG_ERROR_NO_DRIVER, "CUDA driver " + path + " lacks " +  \
                                              missing + " (driver too old?)"); \
    return loaded;                                                             \
  }
  TILEGYM_CUDA_DRIVER_FUNCTIONS(TILEGYM_RESOLVE)
#undef TILEGYM_RESOLVE
#define TILEGYM_RESOLVE_OPTIONAL(field, type, ...)                             \
  (void)resolve(library, loaded.api.field, {__VA_ARGS__});
  TILEGYM_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TILEGYM_RESOLVE_OPTIONAL)
#undef TILEGYM_RESOLVE_OPTIONAL
  loaded.resolved = true;

  if (CUresult result = loaded.api.cuInit(0)) {
    loaded.status =
        result == CUDA_ERROR_NO_DEVICE
            ? Status::error(TG_ERROR_NO_DEVICE,
                            "CUDA driver found but no GPU (cuInit: " +
                                errorName(loaded.api, result) + ")")
            : Status::error(TG_ERROR_CUDA,
                            "CUDA driver found but unusable (cuInit: " +
                                describe(loaded.api, result) + ")");
    return loaded;
  }
  int count = 0;
  if (CUresult result = loaded.api.cuDeviceGetCount(&count)) {
    loaded.status = Status::error(
        TG_ERROR_CUDA, "cuDeviceGetCount: " + describe(loaded.api, result));
    return loaded;
  }
  if (count == 0)
    loaded.status =
        Status::error(TG_ERROR_NO_DEVICE,
                      "CUDA driver found but no GPU (cuDeviceGetCount: 0)");
  return loaded;
}

const Loaded &loaded() {
  static const Loaded instance = load();
  return instance;
}

} // namespace

const Driver &driver(Status &status) {
  status = loaded().status;
  return loaded().api;
}

const Driver *resolvedDriver() {
  return loaded().resolved ? &loaded().api : nullptr;
}

Status optIntoSharedBytes(CUfunction function, const std::string &name,
                          uint32_t bytes, uint32_t &limit) {
  if (bytes <= limit)
    return Status::success();
  if (CUresult result = loaded().api.cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
          int(bytes)))
    return callError(result, "cuFuncSetAttribute(kernel '" + name +
                                 "', max dynamic shared memory " +
                                 std::to_string(bytes) + " bytes)");
  limit = bytes;
  return Status::success();
}

int residentBlocksPerSM(CUfunction function, int threads, size_t sharedBytes) {
  const Driver *api = resolvedDriver();
  int blocks = 0;
  if (!api || !api->cuOccupancyMaxActiveBlocksPerMultiprocessor ||
      api->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function,
                                                       threads, sharedBytes))
    return 0;
  return blocks;
}

std::string dim3Text(tg_dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" +
         std::to_string(d.z);
}

int activeClusters(CUfunction function, tg_dim3 block, size_t sharedBytes,
                   unsigned clusterBlocks) {
  const Driver *api = resolvedDriver();
  if (!api || !api->cuLaunchKernelEx || !api->cuOccupancyMaxActiveClusters)
    return 0;
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim = {clusterBlocks, 1, 1};
  CUlaunchConfig config = {
      clusterBlocks,         1,       1,          block.x, block.y, block.z,
      unsigned(sharedBytes), nullptr, &attribute, 1};
  int clusters = 0;
  if (api->cuOccupancyMaxActiveClusters(&clusters, function, &config))
    return 0;
  return clusters;
}

Status launchKernel(CUfunction function, const std::string &what, tg_dim3 grid,
                    tg_dim3 block, tg_dim3 cluster, uint32_t sharedBytes,
                    CUstream stream, void **params) {
  const Driver &api = loaded().api;
  bool clustered = cluster.x * cluster.y * cluster.z > 1;
  CUresult result;
  if (!clustered) {
    result =
        api.cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y,
                           block.z, sharedBytes, stream, params, nullptr);
  } else if (!api.cuLaunchKernelEx) {
    return Status::error(TG_ERROR_CUDA,
                         what + ": the driver has no cuLaunchKernelEx, which "
                                "launches clusters (CUDA 12.0)");
  } else {
    CUlaunchAttribute attribute = {};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim = {cluster.x, cluster.y, cluster.z};
    CUlaunchConfig config = {grid.x,  grid.y,      grid.z, block.x,    block.y,
                             block.z, sharedBytes, stream, &attribute, 1};
    result = api.cuLaunchKernelEx(&config, function, params, nullptr);
  }
  if (result)
    return callError(
        result,
        std::string(clustered ? "cuLaunchKernelEx(" : "cuLaunchKernel(") +
            what + ", grid " + dim3Text(grid) + ", block " + dim3Text(block) +
            (clustered ? ", cluster " + dim3Text(cluster) : "") + ", shared " +
            std::to_string(sharedBytes) + " bytes)");
  return Status::success();
}

Status callError(CUresult result, const std::string &what) {
  std::string message = what + ": " + describe(loaded().api, result);
  if (result == CUDA_ERROR_ASSERT)
    message += "; an assert of the kernel failed (CUDA printed its file, "
               "line, block and thread above), and the GPU context is lost";
  return Status::error(TG_ERROR_CUDA, message);
}

} // namespace tilegym::runtime::cuda
