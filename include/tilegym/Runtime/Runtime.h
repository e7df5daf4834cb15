//===- Runtime.h - C++ API of the TileGym GPU runtime -----------*- C++ -*-===//
//
// Loads compiled kernels through the CUDA driver API, checks launch arguments
// against kernel signatures, launches and times them. Plain C++17 and libdl:
// the driver is opened at run time (see Driver.h), so this builds without
// CUDA and reports a missing driver or GPU as a Status, never a crash.
// Calls return a Status instead of throwing so that code built without
// exceptions can use them. The C API (tilegym_runtime.h) wraps this one and
// shares its plain-data types (tg_arg, tg_dtype, tg_status, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_RUNTIME_RUNTIME_H
#define TILEGYM_RUNTIME_RUNTIME_H

#include "tilegym/Runtime/tilegym_runtime.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilegym::runtime {

struct Status {
  tg_status code = TG_SUCCESS;
  std::string message;

  bool ok() const { return code == TG_SUCCESS; }
  static Status success() { return {}; }
  static Status error(tg_status code, std::string message) {
    return {code, std::move(message)};
  }
};

//===----------------------------------------------------------------------===//
// Environment
//===----------------------------------------------------------------------===//

/// Loads libcuda.so.1 (or $TILEGYM_LIBCUDA) and calls cuInit, once per
/// process; returns that outcome on every call, e.g. TG_ERROR_NO_DRIVER
/// "no CUDA driver (libcuda.so.1 not found: ...)" or TG_ERROR_NO_DEVICE
/// "CUDA driver found but no GPU (cuInit: CUDA_ERROR_NO_DEVICE)".
Status initDriver();
Status driverVersion(int &version);
Status deviceCount(int &count);

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  uint64_t totalMemory = 0; // bytes
  std::string target;       // targetForComputeCapability(ccMajor, ccMinor)
};
Status deviceInfo(int ordinal, DeviceInfo &info);

/// ptxas from PATH, $CUDA_HOME/bin or /usr/local/cuda/bin; "" if none.
std::string findPtxas();
/// "sm_90a" for 9.0, "sm_80" for 8.x, "sm_<M><m>" from 10.0, "cpu" below 8.0.
std::string targetForComputeCapability(int major, int minor);

/// Everything tilegym-info reports. Never fails: `driver` holds why there is
/// no GPU, and autoTarget is then "cpu".
struct Environment {
  Status driver;
  int driverVersion = 0;
  std::vector<DeviceInfo> devices;
  std::string ptxas;
  std::string autoTarget;
};
Environment queryEnvironment();
/// The report tilegym-info and `tilegym-run --info` print.
void printEnvironment(const Environment &env, std::FILE *out);

//===----------------------------------------------------------------------===//
// Kernel signatures and arguments (no driver involved)
//===----------------------------------------------------------------------===//

const char *dtypeName(tg_dtype dtype);
size_t dtypeSize(tg_dtype dtype);
/// The dtype whose dtypeName is `name`; std::nullopt for any other name.
std::optional<tg_dtype> parseDType(const std::string &name);

/// One kernel parameter: a view with a rank and optionally static sizes
/// (TG_DYNAMIC where open), or a scalar of type i32, i64, f32 or f64.
struct Param {
  std::string name;
  tg_arg_kind kind = TG_ARG_VIEW;
  tg_dtype dtype = TG_F32;
  std::vector<int64_t> sizes; // views: rank = sizes.size()
  /// Views: empty, or one name per dimension ("" for unnamed). Dimensions
  /// of one name, across all views, must have equal sizes at launch.
  std::vector<std::string> dims;
  /// What the kernel does with a view (from its body). Not checked at
  /// launch; verifiers use it to draw inputs and compare outputs.
  bool read = true, written = true;
  /// Scalars: the source's default, as text ("1e-05", "3"); "" for none.
  std::string defaultValue;

  static Param view(std::string name, tg_dtype dtype,
                    std::vector<int64_t> sizes) {
    Param p;
    p.name = std::move(name);
    p.dtype = dtype;
    p.sizes = std::move(sizes);
    return p;
  }
  static Param scalar(std::string name, tg_dtype dtype) {
    Param p;
    p.name = std::move(name);
    p.kind = TG_ARG_SCALAR;
    p.dtype = dtype;
    return p;
  }
};

/// Parses the text of a scalar argument of type `dtype` (i32, i64: decimal
/// integers in range; f32, f64: decimal floats, inf and nan; f32 rounds)
/// into `arg`. On error sets `error` ("'1.5' is not an i32").
bool parseScalar(tg_dtype dtype, const std::string &text, tg_arg &arg,
                 std::string &error);

/// Rejects signatures no argument could match: ranks above TG_MAX_RANK,
/// sizes below TG_DYNAMIC, unsupported scalar types.
Status checkSignature(const std::vector<Param> &params);
/// Checks each argument's kind, dtype, rank, sizes (>= 0, equal to the static
/// ones, equal across dimensions of one name) and that a non-empty view has
/// a non-null pointer. Strides are not checked. Messages: "argument 2 'y':
/// expected rank 2, got 1", "argument 3 'w': dimension N (size[0]) is 512,
/// but argument 1 'x' has N = 1024".
/// CUDA's largest grid size along x, y and z.
constexpr int64_t kMaxGridSize[3] = {(int64_t(1) << 31) - 1, 65535, 65535};
/// CUDA's launch limits on a grid: x in [0, 2^31 - 1], y and z in
/// [0, 65535]. tilegym-run applies them on the CPU too, so that a grid runs
/// on both. Errors read "grid size y = 70000 is outside [0, 65535]".
bool checkGridLimits(const int64_t grid[3], std::string &error);

Status checkArguments(const std::vector<Param> &params, const tg_arg *args,
                      size_t numArgs);

/// The TMA's limits on a tensor map: dimensions, and elements of a box
/// along each.
constexpr size_t kMaxTensorMapRank = 5;
constexpr int64_t kMaxTensorMapBox = 256;

/// A tensor map a kernel takes after its parameters: the TMA's description
/// (CUtensorMap, 128 bytes) of the view that is parameter `param`, moved
/// in boxes of `box` elements (outermost dimension first, one per view
/// dimension) to or from shared memory under the 128-byte swizzle
/// (`swizzle` = 128, the only one yet).
struct TensorMap {
  size_t param = 0;
  std::vector<int64_t> box;
  int64_t swizzle = 128;
};

/// Whether the TMA can address `view` (elements of `elementBytes`): its data
/// 16-byte aligned, no dimension empty, its innermost stride 1, every other
/// stride a positive multiple of 16 bytes and at least the extent of the
/// dimension inside it. The kernel tests the same on its parameters and
/// copies with cp.async where it fails; the launch then passes a tensor map
/// of zeros.
bool tensorMapEligible(const tg_arg &view, size_t elementBytes);

/// Launch arguments in the driver's form (cuLaunchKernel's kernelParams).
/// A view of rank r becomes 3 + 2r parameters, MLIR's expanded memref
/// descriptor: allocated pointer, aligned pointer (both the view's data),
/// offset 0, r sizes, r strides, all 64-bit. A scalar becomes one parameter
/// of its own size. Arguments must have passed checkArguments.
class PackedArgs {
public:
  PackedArgs(const tg_arg *args, size_t numArgs);
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;

  /// Appends one 128-byte parameter per map, encoded by the driver
  /// (cuTensorMapEncodeTiled) where the view is eligible, zeros where not.
  /// Fails on a map the signature cannot have (a parameter that is not a
  /// view, a box of the wrong rank) and where the driver refuses.
  Status addTensorMaps(const std::vector<TensorMap> &maps, const tg_arg *args,
                       size_t numArgs);

  void **params() {
    return allPointers.empty() ? pointers : allPointers.data();
  }
  size_t size() const { return numSlots + mapBytes.size(); }

private:
  struct alignas(64) TensorMapBytes {
    unsigned char bytes[128];
  };
  std::vector<TensorMapBytes> mapBytes;
  std::vector<void *> allPointers; // pointers, then one per map; if any

  // Every parameter gets a zeroed 8-byte slot; pointers[i] -> slots[i].
  // Inline up to kInlineSlots (a launch packs its arguments each time, and
  // allocates nothing for any signature of a few views).
  static constexpr size_t kInlineSlots = 64;
  uint64_t inlineSlots[kInlineSlots];
  void *inlinePointers[kInlineSlots];
  std::vector<uint64_t> heapSlots;
  std::vector<void *> heapPointers;
  uint64_t *slots = nullptr;
  void **pointers = nullptr;
  size_t numSlots = 0;
};

//===----------------------------------------------------------------------===//
// GPU objects. Each releases its driver resource on destruction; call
// release() first to see whether that succeeded.
//===----------------------------------------------------------------------===//

class Context {
public:
  /// Retains the primary context of GPU `ordinal`.
  static Status create(int ordinal, std::unique_ptr<Context> &context);
  ~Context();
  Status release();

  /// Makes this context current on the calling thread; every call below
  /// does so first, so a Context may be used from any thread.
  Status makeCurrent();
  Status synchronize();
  Status allocate(size_t bytes, uint64_t &devicePtr);
  Status deallocate(uint64_t devicePtr);
  Status copyToDevice(uint64_t dst, const void *src, size_t bytes);
  Status copyToHost(void *dst, uint64_t src, size_t bytes);
  /// Sets `bytes` bytes at `dst` to `value`, in order on the default stream
  /// (the benchmarks' L2 flush).
  Status fill(uint64_t dst, uint8_t value, size_t bytes);

  int ordinal() const { return gpu; }
  /// The GPU's SMs (a persistent kernel's grid is sized by them).
  int multiprocessors() const { return smCount; }

private:
  friend class Kernel;
  Context(int gpu, int device, void *handle, int smCount)
      : gpu(gpu), device(device), smCount(smCount), handle(handle) {}
  int gpu;
  int device; // CUdevice
  int smCount;
  void *handle; // CUcontext; null once released.
  // Named in synchronize()'s errors: launches fail asynchronously.
  std::string lastKernel;
};

class Kernel;

class Module {
public:
  /// Loads a cubin, fatbin or PTX image; PTX is JIT-compiled by the driver,
  /// whose error log is appended to a failure's message. `context` must
  /// outlive the module.
  static Status load(Context &context, const void *image, size_t size,
                     std::unique_ptr<Module> &module);
  ~Module();
  Status release();

  /// Finds kernel `name` and attaches its signature. The kernel is owned by
  /// the module.
  /// `tensorMaps`: the TMA descriptors the kernel takes after its
  /// parameters, which each launch encodes (PackedArgs::addTensorMaps).
  Status getKernel(const std::string &name, std::vector<Param> params,
                   Kernel *&kernel, std::vector<TensorMap> tensorMaps = {});

  Context &context() const { return ctx; }

private:
  Module(Context &ctx, void *handle) : ctx(ctx), handle(handle) {}
  Context &ctx;
  void *handle; // CUmodule; null once released.
  std::vector<std::unique_ptr<Kernel>> kernels;
};

class Kernel {
public:
  /// Checks the arguments against the signature before any driver call,
  /// then launches on the default stream, in clusters of `cluster` blocks
  /// where it has more than one (the grid a multiple of it).
  Status launch(tg_dim3 grid, tg_dim3 block, uint32_t sharedBytes,
                const tg_arg *args, size_t numArgs,
                tg_dim3 cluster = {1, 1, 1});

  /// How many blocks of `block` threads with `sharedBytes` of dynamic
  /// shared memory one SM holds at once (the driver's occupancy
  /// calculator); 0 where the driver cannot say.
  Status residentBlocksPerSM(tg_dim3 block, uint32_t sharedBytes, int &blocks);

  /// How many clusters of `clusterBlocks` such blocks the GPU runs at once
  /// (the driver's occupancy calculator); 0 where the driver cannot launch
  /// clusters or say.
  Status activeClusters(tg_dim3 block, uint32_t sharedBytes,
                        unsigned clusterBlocks, int &clusters);

  const std::string &name() const { return kernelName; }
  const std::vector<Param> &params() const { return signature; }

private:
  friend class Module;
  Kernel(Module &module, void *handle, std::string name,
         std::vector<Param> params, std::vector<TensorMap> tensorMaps)
      : module(module), handle(handle), kernelName(std::move(name)),
        signature(std::move(params)), tensorMaps(std::move(tensorMaps)) {}
  Module &module;
  void *handle; // CUfunction
  std::string kernelName;
  std::vector<Param> signature;
  std::vector<TensorMap> tensorMaps;
  // The dynamic shared memory the kernel was last opted into. Any amount is:
  // without opting in, a block may take 48 KiB less its static shared
  // memory, which the launch does not know.
  uint32_t sharedLimit = 0;
};

class Event {
public:
  static Status create(Context &context, std::unique_ptr<Event> &event);
  ~Event();
  Status release();

  /// Records on the default stream.
  Status record();
  /// Waits for `end`, then gives the milliseconds between the two records.
  static Status elapsedMs(Event &start, Event &end, float &ms);

private:
  Event(Context &ctx, void *handle) : ctx(ctx), handle(handle) {}
  Context &ctx;
  void *handle; // CUevent; null once released.
};

} // namespace tilegym::runtime

#endif // TILEGYM_RUNTIME_RUNTIME_H
