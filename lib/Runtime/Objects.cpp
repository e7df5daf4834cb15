//===- Objects.cpp - Contexts, modules, kernels and events ----------------===//

#include "Driver.h"

#include <cstring>

namespace tilegym::runtime {

using namespace cuda;

#define TILEGYM_RETURN_IF_ERROR(expr)                                          \
  do {                                                                         \
    Status status_ = (expr);                                                   \
    if (!status_.ok())                                                         \
      return status_;                                                          \
  } while (0)

/// The driver table, for objects that exist only once it initialized.
static const Driver &api() {
  Status ignored;
  return driver(ignored);
}

static Status released(const char *what) {
  return Status::error(TG_ERROR_INVALID_VALUE,
                       std::string(what) + " was already released");
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Status Context::create(int ordinal, std::unique_ptr<Context> &context) {
  int count = 0;
  TILEGYM_RETURN_IF_ERROR(deviceCount(count));
  if (ordinal < 0 || ordinal >= count)
    return Status::error(TG_ERROR_INVALID_VALUE,
                         "GPU " + std::to_string(ordinal) +
                             " does not exist (" + std::to_string(count) +
                             " GPUs)");
  std::string gpu = "GPU " + std::to_string(ordinal);
  CUdevice device;
  if (CUresult result = api().cuDeviceGet(&device, ordinal))
    return callError(result, "cuDeviceGet(" + gpu + ")");
  int smCount = 0;
  if (CUresult result = api().cuDeviceGetAttribute(
          &smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device))
    return callError(result,
                     "cuDeviceGetAttribute(" + gpu + ", multiprocessor count)");
  CUcontext handle;
  if (CUresult result = api().cuDevicePrimaryCtxRetain(&handle, device))
    return callError(result, "cuDevicePrimaryCtxRetain(" + gpu + ")");
  context.reset(new Context(ordinal, device, handle, smCount));
  return Status::success();
}

Context::~Context() { release(); }

Status Context::release() {
  if (!handle)
    return Status::success();
  handle = nullptr;
  if (CUresult result = api().cuDevicePrimaryCtxRelease(device))
    return callError(result, "cuDevicePrimaryCtxRelease(GPU " +
                                 std::to_string(gpu) + ")");
  return Status::success();
}

Status Context::makeCurrent() {
  if (!handle)
    return released("context");
  if (CUresult result = api().cuCtxSetCurrent(static_cast<CUcontext>(handle)))
    return callError(result,
                     "cuCtxSetCurrent(GPU " + std::to_string(gpu) + ")");
  return Status::success();
}

Status Context::synchronize() {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuCtxSynchronize())
    return callError(result, lastKernel.empty()
                                 ? std::string("cuCtxSynchronize")
                                 : "cuCtxSynchronize (after kernel '" +
                                       lastKernel + "')");
  return Status::success();
}

Status Context::allocate(size_t bytes, uint64_t &devicePtr) {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuMemAlloc(&devicePtr, bytes))
    return callError(result, "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
  return Status::success();
}

Status Context::deallocate(uint64_t devicePtr) {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuMemFree(devicePtr))
    return callError(result, "cuMemFree");
  return Status::success();
}

Status Context::copyToDevice(uint64_t dst, const void *src, size_t bytes) {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuMemcpyHtoD(dst, src, bytes))
    return callError(result,
                     "cuMemcpyHtoD(" + std::to_string(bytes) + " bytes)");
  return Status::success();
}

Status Context::copyToHost(void *dst, uint64_t src, size_t bytes) {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuMemcpyDtoH(dst, src, bytes))
    return callError(result,
                     "cuMemcpyDtoH(" + std::to_string(bytes) + " bytes)");
  return Status::success();
}

Status Context::fill(uint64_t dst, uint8_t value, size_t bytes) {
  TILEGYM_RETURN_IF_ERROR(makeCurrent());
  if (CUresult result = api().cuMemsetD8Async(dst, value, bytes, nullptr))
    return callError(result,
                     "cuMemsetD8Async(" + std::to_string(bytes) + " bytes)");
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Module and Kernel
//===----------------------------------------------------------------------===//

/// cubin (ELF) or fatbin images go to the driver as they are; anything else
/// is PTX, which the driver wants NUL-terminated.
static bool isBinaryImage(const void *image, size_t size) {
  constexpr unsigned char elf[] = {0x7f, 'E', 'L', 'F'};
  constexpr unsigned char fatbin[] = {0x50, 0xed, 0x55, 0xba};
  return size >= 4 && (std::memcmp(image, elf, 4) == 0 ||
                       std::memcmp(image, fatbin, 4) == 0);
}

Status Module::load(Context &context, const void *image, size_t size,
                    std::unique_ptr<Module> &module) {
  if (!image || size == 0)
    return Status::error(TG_ERROR_INVALID_VALUE, "the module image is empty");
  TILEGYM_RETURN_IF_ERROR(context.makeCurrent());

  bool binary = isBinaryImage(image, size);
  std::string ptx;
  if (!binary)
    ptx.assign(static_cast<const char *>(image), size);

  // The JIT's error log says which PTX line is wrong.
  char log[16384] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log) - 1))};
  CUmodule handle;
  if (CUresult result = api().cuModuleLoadDataEx(
          &handle, binary ? image : ptx.c_str(), 2, options, values)) {
    std::string what = std::string("cuModuleLoadDataEx(") +
                       (binary ? "binary" : "PTX") + " image, " +
                       std::to_string(size) + " bytes)";
    Status status = callError(result, what);
    if (log[0])
      status.message += "\n" + std::string(log);
    return status;
  }
  module.reset(new Module(context, handle));
  return Status::success();
}

Module::~Module() { release(); }

Status Module::release() {
  if (!handle)
    return Status::success();
  kernels.clear();
  CUmodule module = static_cast<CUmodule>(handle);
  handle = nullptr;
  TILEGYM_RETURN_IF_ERROR(ctx.makeCurrent());
  if (CUresult result = api().cuModuleUnload(module))
    return callError(result, "cuModuleUnload");
  return Status::success();
}

Status Module::getKernel(const std::string &name, std::vector<Param> params,
                         Kernel *&kernel, std::vector<TensorMap> tensorMaps) {
  if (!handle)
    return released("module");
  TILEGYM_RETURN_IF_ERROR(checkSignature(params));
  TILEGYM_RETURN_IF_ERROR(ctx.makeCurrent());
  CUfunction function;
  if (CUresult result = api().cuModuleGetFunction(
          &function, static_cast<CUmodule>(handle), name.c_str()))
    return callError(result, "cuModuleGetFunction(kernel '" + name + "')");
  kernels.emplace_back(new Kernel(*this, function, name, std::move(params),
                                  std::move(tensorMaps)));
  kernel = kernels.back().get();
  return Status::success();
}

Status Kernel::residentBlocksPerSM(tg_dim3 block, uint32_t sharedBytes,
                                   int &blocks) {
  blocks = 0;
  TILEGYM_RETURN_IF_ERROR(module.context().makeCurrent());
  TILEGYM_RETURN_IF_ERROR(cuda::optIntoSharedBytes(
      static_cast<CUfunction>(handle), kernelName, sharedBytes, sharedLimit));
  blocks =
      cuda::residentBlocksPerSM(static_cast<CUfunction>(handle),
                                int(block.x * block.y * block.z), sharedBytes);
  return Status::success();
}

Status Kernel::activeClusters(tg_dim3 block, uint32_t sharedBytes,
                              unsigned clusterBlocks, int &clusters) {
  clusters = 0;
  TILEGYM_RETURN_IF_ERROR(module.context().makeCurrent());
  TILEGYM_RETURN_IF_ERROR(cuda::optIntoSharedBytes(
      static_cast<CUfunction>(handle), kernelName, sharedBytes, sharedLimit));
  clusters = cuda::activeClusters(static_cast<CUfunction>(handle), block,
                                  sharedBytes, clusterBlocks);
  return Status::success();
}

Status Kernel::launch(tg_dim3 grid, tg_dim3 block, uint32_t sharedBytes,
                      const tg_arg *args, size_t numArgs, tg_dim3 cluster) {
  std::string where = "kernel '" + kernelName + "'";
  Status status = checkArguments(signature, args, numArgs);
  if (!status.ok())
    return Status::error(status.code, where + ": " + status.message);
  auto hasZero = [](tg_dim3 d) { return !d.x || !d.y || !d.z; };
  if (hasZero(grid) || hasZero(block))
    return Status::error(TG_ERROR_INVALID_VALUE,
                         where + ": grid " + dim3Text(grid) + " and block " +
                             dim3Text(block) + " must not have a 0 dimension");
  if (hasZero(cluster) || grid.x % cluster.x || grid.y % cluster.y ||
      grid.z % cluster.z)
    return Status::error(TG_ERROR_INVALID_VALUE,
                         where + ": grid " + dim3Text(grid) +
                             " is not a multiple of its clusters " +
                             dim3Text(cluster));

  Context &context = module.context();
  TILEGYM_RETURN_IF_ERROR(context.makeCurrent());
  CUfunction function = static_cast<CUfunction>(handle);
  TILEGYM_RETURN_IF_ERROR(
      optIntoSharedBytes(function, kernelName, sharedBytes, sharedLimit));

  PackedArgs packed(args, numArgs);
  if (!tensorMaps.empty()) {
    status = packed.addTensorMaps(tensorMaps, args, numArgs);
    if (!status.ok())
      return Status::error(status.code, where + ": " + status.message);
  }
  TILEGYM_RETURN_IF_ERROR(launchKernel(function, where, grid, block, cluster,
                                       sharedBytes, nullptr, packed.params()));
  context.lastKernel = kernelName;
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Event
//===----------------------------------------------------------------------===//

Status Event::create(Context &context, std::unique_ptr<Event> &event) {
  TILEGYM_RETURN_IF_ERROR(context.makeCurrent());
  CUevent handle;
  if (CUresult result = api().cuEventCreate(&handle, 0))
    return callError(result, "cuEventCreate");
  event.reset(new Event(context, handle));
  return Status::success();
}

Event::~Event() { release(); }

Status Event::release() {
  if (!handle)
    return Status::success();
  CUevent event = static_cast<CUevent>(handle);
  handle = nullptr;
  TILEGYM_RETURN_IF_ERROR(ctx.makeCurrent());
  if (CUresult result = api().cuEventDestroy(event))
    return callError(result, "cuEventDestroy");
  return Status::success();
}

Status Event::record() {
  if (!handle)
    return released("event");
  TILEGYM_RETURN_IF_ERROR(ctx.makeCurrent());
  if (CUresult result =
          api().cuEventRecord(static_cast<CUevent>(handle), nullptr))
    return callError(result, "cuEventRecord");
  return Status::success();
}

Status Event::elapsedMs(Event &start, Event &end, float &ms) {
  if (!start.handle || !end.handle)
    return released("event");
  TILEGYM_RETURN_IF_ERROR(end.ctx.makeCurrent());
  CUevent first = static_cast<CUevent>(start.handle);
  CUevent last = static_cast<CUevent>(end.handle);
  if (CUresult result = api().cuEventSynchronize(last))
    return callError(result, "cuEventSynchronize");
  if (CUresult result = api().cuEventElapsedTime(&ms, first, last))
    return callError(result, "cuEventElapsedTime");
  return Status::success();
}

} // namespace tilegym::runtime
