//===- Environment.cpp - Driver, GPUs, ptxas and the auto target ----------===//

#include "Driver.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace tilegym::runtime {

using namespace cuda;

Status initDriver() {
  Status status;
  driver(status);
  return status;
}

Status driverVersion(int &version) {
  // Answerable without a GPU, which makes "no GPU" reports more useful.
  const Driver *api = resolvedDriver();
  if (!api)
    return initDriver();
  if (CUresult result = api->cuDriverGetVersion(&version))
    return callError(result, "cuDriverGetVersion");
  return Status::success();
}

Status deviceCount(int &count) {
  Status status;
  const Driver &api = driver(status);
  if (!status.ok())
    return status;
  if (CUresult result = api.cuDeviceGetCount(&count))
    return callError(result, "cuDeviceGetCount");
  return Status::success();
}

Status deviceInfo(int ordinal, DeviceInfo &info) {
  Status status;
  const Driver &api = driver(status);
  if (!status.ok())
    return status;
  std::string gpu = "GPU " + std::to_string(ordinal);
  CUdevice device;
  if (CUresult result = api.cuDeviceGet(&device, ordinal))
    return callError(result, "cuDeviceGet(" + gpu + ")");

  char name[256] = {};
  if (CUresult result = api.cuDeviceGetName(name, sizeof(name) - 1, device))
    return callError(result, "cuDeviceGetName(" + gpu + ")");
  struct {
    int attribute;
    const char *what;
    int &value;
  } attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability major",
       info.ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability minor",
       info.ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessor count",
       info.smCount},
  };
  for (auto &attribute : attributes)
    if (CUresult result = api.cuDeviceGetAttribute(&attribute.value,
                                                   attribute.attribute, device))
      return callError(result, std::string("cuDeviceGetAttribute(") + gpu +
                                   ", " + attribute.what + ")");
  size_t bytes = 0;
  if (CUresult result = api.cuDeviceTotalMem(&bytes, device))
    return callError(result, "cuDeviceTotalMem(" + gpu + ")");

  info.ordinal = ordinal;
  info.name = name;
  info.totalMemory = bytes;
  info.target = targetForComputeCapability(info.ccMajor, info.ccMinor);
  return Status::success();
}

static bool isExecutable(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

std::string findPtxas() {
  std::vector<std::string> dirs;
  if (const char *path = std::getenv("PATH")) {
    std::string list = path;
    for (size_t start = 0; start <= list.size();) {
      size_t end = list.find(':', start);
      if (end == std::string::npos)
        end = list.size();
      if (end > start)
        dirs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  if (const char *cudaHome = std::getenv("CUDA_HOME"); cudaHome && *cudaHome)
    dirs.push_back(std::string(cudaHome) + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
  for (const std::string &dir : dirs)
    if (isExecutable(dir + "/ptxas"))
      return dir + "/ptxas";
  return "";
}

std::string targetForComputeCapability(int major, int minor) {
  if (major < 8)
    return "cpu";
  if (major == 8)
    return "sm_80";
  if (major == 9 && minor == 0)
    return "sm_90a";
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

Environment queryEnvironment() {
  Environment env;
  env.ptxas = findPtxas();
  env.autoTarget = "cpu";
  env.driver = initDriver();
  // A failed version query leaves 0: the driver status says more.
  driverVersion(env.driverVersion);
  if (!env.driver.ok())
    return env;

  int count = 0;
  env.driver = deviceCount(count);
  for (int i = 0; i < count && env.driver.ok(); ++i) {
    DeviceInfo info;
    env.driver = deviceInfo(i, info);
    if (env.driver.ok())
      env.devices.push_back(std::move(info));
  }
  if (!env.devices.empty())
    env.autoTarget = env.devices.front().target;
  return env;
}

} // namespace tilegym::runtime

void tilegym::runtime::printEnvironment(const Environment &env,
                                        std::FILE *out) {
  if (env.driverVersion)
    std::fprintf(out, "cuda driver: CUDA %d.%d\n", env.driverVersion / 1000,
                 env.driverVersion % 1000 / 10);
  else
    std::fprintf(out, "cuda driver: none\n");
  if (!env.driver.ok())
    std::fprintf(out, "no gpu: %s\n", env.driver.message.c_str());
  for (const DeviceInfo &gpu : env.devices)
    std::fprintf(out,
                 "gpu %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, "
                 "target %s\n",
                 gpu.ordinal, gpu.name.c_str(), gpu.ccMajor, gpu.ccMinor,
                 gpu.smCount, double(gpu.totalMemory) / (1u << 30),
                 gpu.target.c_str());
  std::fprintf(out, "ptxas: %s\n",
               env.ptxas.empty()
                   ? "not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)"
                   : env.ptxas.c_str());

  if (env.devices.empty())
    std::fprintf(out, "auto backend: cpu (no GPU)\n");
  else if (env.autoTarget == "cpu")
    std::fprintf(out,
                 "auto backend: cpu (GPU 0 has compute capability %d.%d; the "
                 "GPU backend needs 8.0 or newer)\n",
                 env.devices[0].ccMajor, env.devices[0].ccMinor);
  else
    std::fprintf(out, "auto backend: gpu, target %s (GPU 0)\n",
                 env.autoTarget.c_str());
}
