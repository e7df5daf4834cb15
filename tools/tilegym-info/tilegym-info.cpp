//===- tilegym-info.cpp - What this machine offers TileGym ----------------===//
//
// Prints the CUDA driver (or why there is none), each GPU, ptxas, and the
// backend `--target=auto` picks. Links only the runtime, so it runs where
// LLVM and MLIR are not installed. Exits 0 with or without a GPU: having
// none is a fact to report, not an error.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Runtime/Runtime.h"

#include <cstdio>
#include <cstring>

using namespace tilegym::runtime;

int main(int argc, char **argv) {
  if (argc > 1) {
    bool help = !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h");
    std::fprintf(help ? stdout : stderr,
                 "usage: %s\n"
                 "Reports the CUDA driver, GPUs, ptxas and the backend "
                 "--target=auto picks.\nTILEGYM_LIBCUDA overrides the driver "
                 "library (libcuda.so.1).\n",
                 argv[0]);
    return help ? 0 : 2;
  }

  Environment env = queryEnvironment();
  if (env.driverVersion)
    std::printf("cuda driver: CUDA %d.%d\n", env.driverVersion / 1000,
                env.driverVersion % 1000 / 10);
  else
    std::printf("cuda driver: none\n");
  if (!env.driver.ok())
    std::printf("no gpu: %s\n", env.driver.message.c_str());
  for (const DeviceInfo &gpu : env.devices)
    std::printf("gpu %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, "
                "target %s\n",
                gpu.ordinal, gpu.name.c_str(), gpu.ccMajor, gpu.ccMinor,
                gpu.smCount, double(gpu.totalMemory) / (1u << 30),
                gpu.target.c_str());
  std::printf("ptxas: %s\n",
              env.ptxas.empty()
                  ? "not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)"
                  : env.ptxas.c_str());

  if (env.devices.empty())
    std::printf("auto backend: cpu (no GPU)\n");
  else if (env.autoTarget == "cpu")
    std::printf("auto backend: cpu (GPU 0 has compute capability %d.%d; the "
                "GPU backend needs 8.0 or newer)\n",
                env.devices[0].ccMajor, env.devices[0].ccMinor);
  else
    std::printf("auto backend: gpu, target %s (GPU 0)\n",
                env.autoTarget.c_str());
  return 0;
}
