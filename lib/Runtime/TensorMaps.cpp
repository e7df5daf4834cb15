//===- TensorMaps.cpp - the TMA's tensor maps, encoded at launch ----------===//
//
// A kernel whose staged tiles the TMA copies takes, after its parameters,
// one CUtensorMap per (view, box): the view's address, sizes and strides,
// the box and the swizzle, which only the driver can encode
// (cuTensorMapEncodeTiled). They are passed by value (the kernel's
// __grid_constant__ parameters), so a launch encodes them with the other
// arguments, and a view the TMA cannot address gets zeros: the kernel
// tests the same rule (tensorMapEligible) and copies it with cp.async.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cstring>

namespace tilegym::runtime {

using namespace cuda;

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
    const Driver *api = resolvedDriver();
    if (!api || !api->cuTensorMapEncodeTiled)
      return invalid(m, "the CUDA driver lacks cuTensorMapEncodeTiled "
                        "(CUDA 12.0 or later)");
    // The driver counts dimensions innermost first, and takes the strides
    // of all but the innermost, in bytes.
    uint64_t dims[kMaxTensorMapRank], strides[kMaxTensorMapRank];
    uint32_t box[kMaxTensorMapRank], elementStrides[kMaxTensorMapRank];
    for (size_t i = 0; i < rank; ++i) {
      size_t d = rank - 1 - i;
      dims[i] = uint64_t(view.sizes[d]);
      box[i] = uint32_t(map.box[d]);
      elementStrides[i] = 1;
      if (i > 0)
        strides[i - 1] = uint64_t(view.strides[d]) * bytes;
    }
    int dataType = bytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                   : bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                   : bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                : CU_TENSOR_MAP_DATA_TYPE_UINT64;
    if (CUresult result = api->cuTensorMapEncodeTiled(
            mapBytes[m].bytes, dataType, uint32_t(rank),
            reinterpret_cast<void *>(uintptr_t(view.data)), dims, strides, box,
            elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
      return callError(result, "cuTensorMapEncodeTiled(tensor map " +
                                   std::to_string(m) + ", parameter " +
                                   std::to_string(map.param) + ")");
  }
  allPointers.assign(pointers, pointers + numSlots);
  for (TensorMapBytes &bytes : mapBytes)
    allPointers.push_back(bytes.bytes);
  return Status::success();
}

} // namespace tilegym::runtime
