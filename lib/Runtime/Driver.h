//===- Driver.h - The CUDA driver API, resolved at run time -----*- C++ -*-===//
//
// The runtime must build where CUDA is not installed, so it does not include
// cuda.h: it declares the few types it needs (ABI-stable since CUDA 4) and
// resolves each entry point from libcuda.so.1 by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_LIB_RUNTIME_DRIVER_H
#define TILEGYM_LIB_RUNTIME_DRIVER_H

#include "tilegym/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tilegym::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = struct CUevent_st *;
using CUstream = struct CUstream_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_ASSERT = 710;

constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
// CUtensorMap's enums (CUDA 12.0): data types by element size, no
// interleave, the 128-byte swizzle, L2 promotion by 256 bytes, zeros (not
// NaN) out of bounds.
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1;
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2;
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4;
constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;
// cuLaunchKernelEx's configuration (CUDA 12.0): the launch, and attributes
// of which the runtime sets one, the cluster's shape.
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

// X(field, function type, symbol names tried in order). Where the driver has
// versioned a function, the versioned symbol is what cuda.h maps the plain
// name to; the fallback serves older drivers.
#define TILEGYM_CUDA_DRIVER_FUNCTIONS(X)                                       \
  X(cuGetErrorName, CUresult(CUresult, const char **), "cuGetErrorName")       \
  X(cuGetErrorString, CUresult(CUresult, const char **), "cuGetErrorString")   \
  X(cuInit, CUresult(unsigned), "cuInit")                                      \
  X(cuDriverGetVersion, CUresult(int *), "cuDriverGetVersion")                 \
  X(cuDeviceGetCount, CUresult(int *), "cuDeviceGetCount")                     \
  X(cuDeviceGet, CUresult(CUdevice *, int), "cuDeviceGet")                     \
  X(cuDeviceGetName, CUresult(char *, int, CUdevice), "cuDeviceGetName")       \
  X(cuDeviceGetAttribute, CUresult(int *, int, CUdevice),                      \
    "cuDeviceGetAttribute")                                                    \
  X(cuDeviceTotalMem, CUresult(size_t *, CUdevice), "cuDeviceTotalMem_v2")     \
  X(cuDevicePrimaryCtxRetain, CUresult(CUcontext *, CUdevice),                 \
    "cuDevicePrimaryCtxRetain")                                                \
  X(cuDevicePrimaryCtxRelease, CUresult(CUdevice),                             \
    "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")               \
  X(cuCtxSetCurrent, CUresult(CUcontext), "cuCtxSetCurrent")                   \
  X(cuCtxSynchronize, CUresult(), "cuCtxSynchronize")                          \
  X(cuModuleLoadDataEx,                                                        \
    CUresult(CUmodule *, const void *, unsigned, int *, void **),              \
    "cuModuleLoadDataEx")                                                      \
  X(cuModuleUnload, CUresult(CUmodule), "cuModuleUnload")                      \
  X(cuModuleGetFunction, CUresult(CUfunction *, CUmodule, const char *),       \
    "cuModuleGetFunction")                                                     \
  X(cuFuncSetAttribute, CUresult(CUfunction, int, int), "cuFuncSetAttribute")  \
  X(cuLaunchKernel,                                                            \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,     \
             unsigned, unsigned, CUstream, void **, void **),                  \
    "cuLaunchKernel")                                                          \
  X(cuMemAlloc, CUresult(CUdeviceptr *, size_t), "cuMemAlloc_v2")              \
  X(cuMemFree, CUresult(CUdeviceptr), "cuMemFree_v2")                          \
  X(cuMemcpyHtoD, CUresult(CUdeviceptr, const void *, size_t),                 \
    "cuMemcpyHtoD_v2")                                                         \
  X(cuMemcpyDtoH, CUresult(void *, CUdeviceptr, size_t), "cuMemcpyDtoH_v2")    \
  X(cuMemsetD8Async, CUresult(CUdeviceptr, unsigned char, size_t, CUstream),   \
    "cuMemsetD8Async")                                                         \
  X(cuEventCreate, CUresult(CUevent *, unsigned), "cuEventCreate")             \
  X(cuEventDestroy, CUresult(CUevent), "cuEventDestroy_v2", "cuEventDestroy")  \
  X(cuEventRecord, CUresult(CUevent, CUstream), "cuEventRecord")               \
  X(cuEventSynchronize, CUresult(CUevent), "cuEventSynchronize")               \
  X(cuEventElapsedTime, CUresult(float *, CUevent, CUevent),                   \
    "cuEventElapsedTime_v2", "cuEventElapsedTime")

// Entry points a launch needs only for some kernels, which older drivers
// lack: null there, and such a launch fails saying so.
// cuTensorMapEncodeTiled (CUDA 12.0) encodes the TMA's tensor maps; its enum
// parameters are passed as ints. cuOccupancyMaxActiveBlocksPerMultiprocessor
// says how many blocks of a kernel an SM holds (persistent launches; without
// it, the compiler's estimate is taken). cuLaunchKernelEx and
// cuOccupancyMaxActiveClusters (CUDA 12.0) launch clusters of blocks and say
// how many fit the GPU at once (without them, no clusters).
#define TILEGYM_CUDA_DRIVER_OPTIONAL_FUNCTIONS(X)                              \
  X(cuTensorMapEncodeTiled,                                                    \
    CUresult(void *, int, uint32_t, void *, const uint64_t *,                  \
             const uint64_t *, const uint32_t *, const uint32_t *, int, int,   \
             int, int),                                                        \
    "cuTensorMapEncodeTiled")                                                  \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor,                               \
    CUresult(int *, CUfunction, int, size_t),                                  \
    "cuOccupancyMaxActiveBlocksPerMultiprocessor")                             \
  X(cuLaunchKernelEx,                                                          \
    CUresult(const CUlaunchConfig *, CUfunction, void **, void **),            \
    "cuLaunchKernelEx")                                                        \
  X(cuOccupancyMaxActiveClusters,                                              \
    CUresult(int *, CUfunction, const CUlaunchConfig *),                       \
    "cuOccupancyMaxActiveClusters")

struct Driver {
#define TILEGYM_DECLARE(field, type, ...)                                      \
  std::add_pointer_t<type> field = nullptr;
  TILEGYM_CUDA_DRIVER_FUNCTIONS(TILEGYM_DECLARE)
  TILEGYM_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TILEGYM_DECLARE)
#undef TILEGYM_DECLARE
};

/// The driver, loaded and initialized on first use; `status` says whether
/// that worked. The functions are only usable when it did.
const Driver &driver(Status &status);

/// The entry points when the library loaded and exports them all, even if
/// cuInit then failed (cuDriverGetVersion still works); null otherwise.
const Driver *resolvedDriver();

/// Opts `function` (kernel `name`) into `bytes` of dynamic shared memory
/// where that is more than `limit`, the most it was opted into so far,
/// which then becomes `bytes`: without, a block may only take 48 KiB less
/// its static shared memory.
Status optIntoSharedBytes(CUfunction function, const std::string &name,
                          uint32_t bytes, uint32_t &limit);

/// How many blocks of `function`, with `threads` threads and `sharedBytes`
/// of dynamic shared memory (already opted into), one SM holds at once, by
/// the driver's occupancy calculator (its registers, shared memory and
/// threads); 0 where the driver lacks it or fails.
int residentBlocksPerSM(CUfunction function, int threads, size_t sharedBytes);

/// How many clusters of `clusterBlocks` blocks of `function` (as above) the
/// GPU runs at once, by the driver's occupancy calculator; 0 where the
/// driver lacks it (or cuLaunchKernelEx) or fails, or none fits.
int activeClusters(CUfunction function, tg_dim3 block, size_t sharedBytes,
                   unsigned clusterBlocks);

/// Launches `function` on `stream`: with cuLaunchKernelEx where `cluster`
/// has more than one block (a multiple of which `grid` has on each axis),
/// else with cuLaunchKernel. A failure names `what` (the kernel) and the
/// launch's shape.
Status launchKernel(CUfunction function, const std::string &what, tg_dim3 grid,
                    tg_dim3 block, tg_dim3 cluster, uint32_t sharedBytes,
                    CUstream stream, void **params);

/// "2x1x1".
std::string dim3Text(tg_dim3 d);

/// "cuLaunchKernel(kernel 'k'): CUDA_ERROR_INVALID_VALUE (invalid argument)"
/// for a failed call; `what` names the operation and its operands.
Status callError(CUresult result, const std::string &what);

} // namespace tilegym::runtime::cuda

#endif // TILEGYM_LIB_RUNTIME_DRIVER_H
