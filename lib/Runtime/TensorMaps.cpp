//===- TensorMaps.cpp - the TMA's tensor maps, encoded at launch ----------===//
//
// A kernel whose staged tiles the TMA copies takes, after its parameters,
// one CUtensorMap per (view, box): the view's address, sizes and strides,
// the box and the swizzle, which only the driver can encode
// (cuTensorMapEncodeTiled). They are passed by value (the kernel's
// __grid_constant__ parameters), so a launch encodes them with the other
// arguments, and a view the TMA cannot address gets zeros: the kernel
// tests the same rule (tensorMapEligible) and copies it with cp.async.
// Encoding is a pure function of its inputs, so the maps are memoized per
// (address, element size, sizes, strides, box): a kernel launched again on
// the same tensors costs no driver call.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

namespace tilegym::runtime {

using namespace cuda;

namespace {
/// Everything cuTensorMapEncodeTiled is given that varies between calls
/// (the interleave, swizzle, L2 promotion and fill are constants here).
struct EncodeKey {
  uint64_t address = 0;
  int dataType = 0;
  uint32_t rank = 0;
  std::array<uint64_t, kMaxTensorMapRank> dims{}, strides{};
  std::array<uint32_t, kMaxTensorMapRank> box{};

  auto tie() const {
    return std::tie(address, dataType, rank, dims, strides, box);
  }
  bool operator<(const EncodeKey &other) const { return tie() < other.tie(); }
};

using EncodedMap = std::array<unsigned char, 128>;

/// The maps encoded so far, shared by every kernel and thread. Bounded: a
/// program that keeps allocating new tensors starts over when it is full
/// (re-encoding costs microseconds; the memo is a fast path, not a store).
class EncodeMemo {
public:
  bool find(const EncodeKey &key, unsigned char *bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = maps.find(key);
    if (it == maps.end())
      return false;
    std::memcpy(bytes, it->second.data(), it->second.size());
    return true;
  }
  void insert(const EncodeKey &key, const unsigned char *bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    if (maps.size() >= kCapacity)
      maps.clear();
    std::memcpy(maps[key].data(), bytes, sizeof(EncodedMap));
  }

private:
  static constexpr size_t kCapacity = 4096;
  std::mutex mutex;
  std::map<EncodeKey, EncodedMap> maps;
};

EncodeMemo &encodeMemo() {
  static EncodeMemo *memo = new EncodeMemo; // never destroyed: used at exit
  return *memo;
}
} // namespace

bool tensorMapEligible(const tg_arg &view, size_t elementBytes) {
  if (view.kind != TG_ARG_VIEW || view.rank < 1 || elementBytes == 0 ||
      view.data % 16)
    return false;
  int32_t last = view.rank - 1;
  if (view.strides[last] != 1)
    return false;
  for (int32_t d = 0; d < view.rank; ++d)
    if (view.sizes[d] < 1)
      return false;
  // Outer strides positive multiples of 16 bytes, each spanning the
  // dimension inside it (no overlap, outermost first: what the driver
  // encodes without question).
  for (int32_t d = 0; d < last; ++d)
    if (view.strides[d] < 1 ||
        (uint64_t(view.strides[d]) * elementBytes) % 16 ||
        view.strides[d] < view.sizes[d + 1] * view.strides[d + 1])
      return false;
  return true;
}

Status PackedArgs::addTensorMaps(const std::vector<TensorMap> &maps,
                                 const tg_arg *args, size_t numArgs) {
  auto invalid = [](size_t m, const std::string &why) {
    return Status::error(TG_ERROR_INVALID_VALUE,
                         "tensor map " + std::to_string(m) + ": " + why);
  };
  mapBytes.assign(maps.size(), TensorMapBytes{});
  for (size_t m = 0; m < maps.size(); ++m) {
    const TensorMap &map = maps[m];
    if (map.param >= numArgs || args[map.param].kind != TG_ARG_VIEW)
      return invalid(m, "parameter " + std::to_string(map.param) +
                            " is not a view");
    const tg_arg &view = args[map.param];
    size_t rank = size_t(view.rank);
    if (map.box.size() != rank || rank > kMaxTensorMapRank)
      return invalid(m, "its box has " + std::to_string(map.box.size()) +
                            " dimensions for a view of rank " +
                            std::to_string(rank) + " (at most " +
                            std::to_string(kMaxTensorMapRank) + ")");
    if (map.swizzle != 128)
      return invalid(m,
                     "swizzle " + std::to_string(map.swizzle) + " is not 128");
    size_t bytes = dtypeSize(view.dtype);
    for (int64_t b : map.box)
      if (b < 1 || b > kMaxTensorMapBox)
        return invalid(m, "box size " + std::to_string(b) + " is outside [1, " +
                              std::to_string(kMaxTensorMapBox) + "]");
    if (uint64_t(map.box.back()) * bytes != 128)
      return invalid(m, "the innermost box dimension must be 128 bytes "
                        "(the 128-byte swizzle's rows)");
    if (!tensorMapEligible(view, bytes))
      continue; // zeros: the kernel copies this view with cp.async
    // The driver counts dimensions innermost first, and takes the strides
    // of all but the innermost, in bytes.
    EncodeKey key;
    key.address = view.data;
    key.rank = uint32_t(rank);
    key.dataType = bytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                   : bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                   : bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                : CU_TENSOR_MAP_DATA_TYPE_UINT64;
    uint32_t elementStrides[kMaxTensorMapRank];
    for (size_t i = 0; i < rank; ++i) {
      size_t d = rank - 1 - i;
      key.dims[i] = uint64_t(view.sizes[d]);
      key.box[i] = uint32_t(map.box[d]);
      elementStrides[i] = 1;
      if (i > 0)
        key.strides[i - 1] = uint64_t(view.strides[d]) * bytes;
    }
    if (encodeMemo().find(key, mapBytes[m].bytes))
      continue;
    const Driver *api = resolvedDriver();
    if (!api || !api->cuTensorMapEncodeTiled)
      return invalid(m, "the CUDA driver lacks cuTensorMapEncodeTiled "
                        "(CUDA 12.0 or later)");
    if (CUresult result = api->cuTensorMapEncodeTiled(
            mapBytes[m].bytes, key.dataType, key.rank,
            reinterpret_cast<void *>(uintptr_t(view.data)), key.dims.data(),
            key.strides.data(), key.box.data(), elementStrides,
            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
            CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
      return callError(result, "cuTensorMapEncodeTiled(tensor map " +
                                   std::to_string(m) + ", parameter " +
                                   std::to_string(map.param) + ")");
    encodeMemo().insert(key, mapBytes[m].bytes);
  }
  allPointers.assign(pointers, pointers + numSlots);
  for (TensorMapBytes &bytes : mapBytes)
    allPointers.push_back(bytes.bytes);
  return Status::success();
}

} // namespace tilegym::runtime
