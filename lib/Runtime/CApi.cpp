//===- CApi.cpp - The C API over the C++ runtime --------------------------===//
//
// Handles are the C++ objects themselves behind opaque pointer types. Every
// status-returning function records its message for tg_last_error().
//
//===----------------------------------------------------------------------===//

#include "tilegym/Runtime/Runtime.h"

#include <cstdio>

using namespace tilegym::runtime;

namespace {

thread_local std::string lastError;

tg_status report(const Status &status) {
  lastError = status.message;
  return status.code;
}

tg_status invalid(const char *function, const char *what) {
  return report(
      Status::error(TG_ERROR_INVALID_VALUE,
                    std::string(function) + ": " + what + " is null"));
}

Context *unwrap(tg_context *c) { return reinterpret_cast<Context *>(c); }
Module *unwrap(tg_module *m) { return reinterpret_cast<Module *>(m); }
Kernel *unwrap(tg_kernel *k) { return reinterpret_cast<Kernel *>(k); }
Event *unwrap(tg_event *e) { return reinterpret_cast<Event *>(e); }

Status toParams(const tg_param *params, size_t numParams,
                std::vector<Param> &out) {
  if (numParams && !params)
    return Status::error(TG_ERROR_INVALID_VALUE, "the parameter array is null");
  for (size_t i = 0; i < numParams; ++i) {
    const tg_param &p = params[i];
    std::string name = p.name ? p.name : "";
    if (p.kind == TG_ARG_VIEW && (p.rank < 0 || p.rank > TG_MAX_RANK))
      return Status::error(TG_ERROR_INVALID_VALUE,
                           "parameter " + std::to_string(i + 1) +
                               (name.empty() ? "" : " '" + name + "'") +
                               ": rank " + std::to_string(p.rank) +
                               " is outside 0.." + std::to_string(TG_MAX_RANK));
    Param param;
    param.name = std::move(name);
    param.kind = p.kind;
    param.dtype = p.dtype;
    if (p.kind == TG_ARG_VIEW) {
      param.sizes.assign(p.sizes, p.sizes + p.rank);
      bool anyName = false;
      for (int32_t d = 0; d < p.rank; ++d)
        anyName = anyName || (p.dims[d] && *p.dims[d]);
      if (anyName)
        for (int32_t d = 0; d < p.rank; ++d)
          param.dims.push_back(p.dims[d] ? p.dims[d] : "");
    }
    out.push_back(std::move(param));
  }
  return checkSignature(out);
}

} // namespace

extern "C" {

const char *tg_status_name(tg_status status) {
  switch (status) {
  case TG_SUCCESS:
    return "TG_SUCCESS";
  case TG_ERROR_NO_DRIVER:
    return "TG_ERROR_NO_DRIVER";
  case TG_ERROR_NO_DEVICE:
    return "TG_ERROR_NO_DEVICE";
  case TG_ERROR_CUDA:
    return "TG_ERROR_CUDA";
  case TG_ERROR_INVALID_VALUE:
    return "TG_ERROR_INVALID_VALUE";
  case TG_ERROR_ARGUMENT_MISMATCH:
    return "TG_ERROR_ARGUMENT_MISMATCH";
  }
  return "TG_ERROR_UNKNOWN";
}

const char *tg_last_error(void) { return lastError.c_str(); }

const char *tg_dtype_name(tg_dtype dtype) { return dtypeName(dtype); }
size_t tg_dtype_size(tg_dtype dtype) { return dtypeSize(dtype); }

tg_status tg_init(void) { return report(initDriver()); }

tg_status tg_driver_version(int *version) {
  if (!version)
    return invalid("tg_driver_version", "version");
  return report(driverVersion(*version));
}

tg_status tg_device_count(int *count) {
  if (!count)
    return invalid("tg_device_count", "count");
  return report(deviceCount(*count));
}

tg_status tg_get_device_info(int ordinal, tg_device_info *info) {
  if (!info)
    return invalid("tg_get_device_info", "info");
  DeviceInfo device;
  Status status = deviceInfo(ordinal, device);
  if (status.ok()) {
    std::snprintf(info->name, sizeof(info->name), "%s", device.name.c_str());
    info->cc_major = device.ccMajor;
    info->cc_minor = device.ccMinor;
    info->sm_count = device.smCount;
    info->total_memory = device.totalMemory;
    std::snprintf(info->target, sizeof(info->target), "%s",
                  device.target.c_str());
  }
  return report(status);
}

const char *tg_ptxas_path(void) {
  static const std::string path = findPtxas();
  return path.c_str();
}

const char *tg_target_for_cc(int major, int minor) {
  // Valid until the next call on this thread.
  thread_local std::string target;
  target = targetForComputeCapability(major, minor);
  return target.c_str();
}

const char *tg_auto_target(void) {
  static const std::string target = queryEnvironment().autoTarget;
  return target.c_str();
}

tg_arg tg_view(tg_dtype dtype, uint64_t data, int32_t rank,
               const int64_t *sizes, const int64_t *strides) {
  tg_arg arg = {};
  arg.kind = TG_ARG_VIEW;
  arg.dtype = dtype;
  arg.data = data;
  arg.rank = rank;
  // An out-of-range rank is kept for tg_check_args to report.
  int32_t stored = rank < 0 ? 0 : rank > TG_MAX_RANK ? TG_MAX_RANK : rank;
  int64_t stride = 1;
  for (int32_t d = stored - 1; d >= 0; --d) {
    arg.sizes[d] = sizes ? sizes[d] : 0;
    arg.strides[d] = strides ? strides[d] : stride;
    stride *= arg.sizes[d];
  }
  return arg;
}

tg_arg tg_scalar_int(tg_dtype dtype, int64_t value) {
  tg_arg arg = {};
  arg.kind = TG_ARG_SCALAR;
  arg.dtype = dtype;
  arg.int_value = value;
  return arg;
}

tg_arg tg_scalar_float(tg_dtype dtype, double value) {
  tg_arg arg = {};
  arg.kind = TG_ARG_SCALAR;
  arg.dtype = dtype;
  arg.float_value = value;
  return arg;
}

tg_status tg_check_args(const tg_param *params, size_t num_params,
                        const tg_arg *args, size_t num_args) {
  std::vector<Param> signature;
  Status status = toParams(params, num_params, signature);
  if (!status.ok())
    return report(status);
  return report(checkArguments(signature, args, num_args));
}

tg_status tg_context_create(int ordinal, tg_context **context) {
  if (!context)
    return invalid("tg_context_create", "context");
  std::unique_ptr<Context> created;
  Status status = Context::create(ordinal, created);
  *context = reinterpret_cast<tg_context *>(created.release());
  return report(status);
}

tg_status tg_context_destroy(tg_context *context) {
  if (!context)
    return invalid("tg_context_destroy", "context");
  std::unique_ptr<Context> owned(unwrap(context));
  return report(owned->release());
}

tg_status tg_context_synchronize(tg_context *context) {
  if (!context)
    return invalid("tg_context_synchronize", "context");
  return report(unwrap(context)->synchronize());
}

tg_status tg_mem_alloc(tg_context *context, size_t bytes,
                       uint64_t *device_ptr) {
  if (!context || !device_ptr)
    return invalid("tg_mem_alloc", !context ? "context" : "device_ptr");
  return report(unwrap(context)->allocate(bytes, *device_ptr));
}

tg_status tg_mem_free(tg_context *context, uint64_t device_ptr) {
  if (!context)
    return invalid("tg_mem_free", "context");
  return report(unwrap(context)->deallocate(device_ptr));
}

tg_status tg_memcpy_htod(tg_context *context, uint64_t dst, const void *src,
                         size_t bytes) {
  if (!context || !src)
    return invalid("tg_memcpy_htod", !context ? "context" : "src");
  return report(unwrap(context)->copyToDevice(dst, src, bytes));
}

tg_status tg_memcpy_dtoh(tg_context *context, void *dst, uint64_t src,
                         size_t bytes) {
  if (!context || !dst)
    return invalid("tg_memcpy_dtoh", !context ? "context" : "dst");
  return report(unwrap(context)->copyToHost(dst, src, bytes));
}

tg_status tg_module_load(tg_context *context, const void *image, size_t size,
                         tg_module **module) {
  if (!context || !module)
    return invalid("tg_module_load", !context ? "context" : "module");
  std::unique_ptr<Module> loaded;
  Status status = Module::load(*unwrap(context), image, size, loaded);
  *module = reinterpret_cast<tg_module *>(loaded.release());
  return report(status);
}

tg_status tg_module_unload(tg_module *module) {
  if (!module)
    return invalid("tg_module_unload", "module");
  std::unique_ptr<Module> owned(unwrap(module));
  return report(owned->release());
}

tg_status tg_kernel_get(tg_module *module, const char *name,
                        const tg_param *params, size_t num_params,
                        tg_kernel **kernel) {
  if (!module || !name || !kernel)
    return invalid("tg_kernel_get", !module ? "module"
                                    : !name ? "name"
                                            : "kernel");
  *kernel = nullptr;
  std::vector<Param> signature;
  Status status = toParams(params, num_params, signature);
  if (!status.ok())
    return report(status);
  Kernel *found = nullptr;
  status = unwrap(module)->getKernel(name, std::move(signature), found);
  *kernel = reinterpret_cast<tg_kernel *>(found);
  return report(status);
}

tg_status tg_launch(tg_kernel *kernel, tg_dim3 grid, tg_dim3 block,
                    uint32_t shared_bytes, const tg_arg *args,
                    size_t num_args) {
  if (!kernel)
    return invalid("tg_launch", "kernel");
  return report(
      unwrap(kernel)->launch(grid, block, shared_bytes, args, num_args));
}

tg_status tg_event_create(tg_context *context, tg_event **event) {
  if (!context || !event)
    return invalid("tg_event_create", !context ? "context" : "event");
  std::unique_ptr<Event> created;
  Status status = Event::create(*unwrap(context), created);
  *event = reinterpret_cast<tg_event *>(created.release());
  return report(status);
}

tg_status tg_event_destroy(tg_event *event) {
  if (!event)
    return invalid("tg_event_destroy", "event");
  std::unique_ptr<Event> owned(unwrap(event));
  return report(owned->release());
}

tg_status tg_event_record(tg_event *event) {
  if (!event)
    return invalid("tg_event_record", "event");
  return report(unwrap(event)->record());
}

tg_status tg_event_elapsed_ms(tg_event *start, tg_event *end, float *ms) {
  if (!start || !end || !ms)
    return invalid("tg_event_elapsed_ms", !start ? "start"
                                          : !end ? "end"
                                                 : "ms");
  return report(Event::elapsedMs(*unwrap(start), *unwrap(end), *ms));
}

} // extern "C"
