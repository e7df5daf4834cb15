//===- Arguments.cpp - Signature checks and argument packing --------------===//
//
// All of this runs before the driver sees a launch, so a wrong argument is
// reported by name instead of becoming a fault inside the kernel.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Runtime/Runtime.h"
#include <cstdint>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

namespace tilegym::runtime {

const char *dtypeName(tg_dtype dtype) {
  switch (dtype) {
  case TG_F32:
    return "f32";
  case TG_F16:
    return "f16";
  case TG_BF16:
    return "bf16";
  case TG_F64:
    return "f64";
  case TG_I1:
    return "i1";
  case TG_I8:
    return "i8";
  case TG_I32:
    return "i32";
  case TG_I64:
    return "i64";
  case TG_F8E4M3:
    return "f8e4m3";
  case TG_F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

size_t dtypeSize(tg_dtype dtype) {
  switch (dtype) {
  case TG_F32:
  case TG_I32:
    return 4;
  case TG_F16:
  case TG_BF16:
    return 2;
  case TG_F64:
  case TG_I64:
    return 8;
  case TG_I1:
  case TG_I8:
  case TG_F8E4M3:
  case TG_F8E5M2:
    return 1;
  }
  return 0;
}

std::optional<tg_dtype> parseDType(const std::string &name) {
  for (int d = TG_F32; d <= TG_F8E5M2; ++d) // the enum's values, in order
    if (name == dtypeName(tg_dtype(d)))
      return tg_dtype(d);
  return std::nullopt;
}

static bool isScalarType(tg_dtype dtype) {
  return dtype == TG_I32 || dtype == TG_I64 || dtype == TG_F32 ||
         dtype == TG_F64;
}

static std::string label(const char *what, size_t index,
                         const std::string &name) {
  std::string text = std::string(what) + " " + std::to_string(index + 1);
  return name.empty() ? text : text + " '" + name + "'";
}

static std::string dtypeText(tg_dtype dtype) {
  return dtypeSize(dtype) ? dtypeName(dtype)
                          : "unknown dtype " + std::to_string(int(dtype));
}

bool checkGridLimits(const int64_t grid[3], std::string &error) {
  static const char *axes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0 || grid[d] > kMaxGridSize[d]) {
      error = std::string("grid size ") + axes[d] + " = " +
              std::to_string(grid[d]) + " is outside [0, " +
              std::to_string(kMaxGridSize[d]) + "]";
      return false;
    }
  return true;
}

bool parseScalar(tg_dtype dtype, const std::string &text, tg_arg &arg,
                 std::string &error) {
  auto bad = [&](const std::string &why) {
    error = "'" + text + "' is not " + why;
    return false;
  };
  if (text.empty() || text.size() > 64 ||
      text.find_first_of(" \t\n") != std::string::npos)
    return bad(std::string("a value of type ") + dtypeName(dtype));
  errno = 0;
  char *end = nullptr;
  if (dtype == TG_I32 || dtype == TG_I64) {
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end || errno == ERANGE)
      return bad(std::string("an integer in range of ") + dtypeName(dtype));
    if (dtype == TG_I32 && (v < INT32_MIN || v > INT32_MAX))
      return bad("an integer in range of i32");
    arg = tg_scalar_int(dtype, v);
    return true;
  }
  if (dtype == TG_F32 || dtype == TG_F64) {
    // strtod takes hex floats and "infinity" too; both are harmless.
    double v = std::strtod(text.c_str(), &end);
    if (*end)
      return bad(std::string("a number (") + dtypeName(dtype) + ")");
    arg = tg_scalar_float(dtype, dtype == TG_F32 ? double(float(v)) : v);
    return true;
  }
  return bad(std::string("bindable: scalars of type ") + dtypeName(dtype) +
             " are not supported (i32, i64, f32, f64)");
}

Status checkSignature(const std::vector<Param> &params) {
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    auto invalid = [&](const std::string &why) {
      return Status::error(TG_ERROR_INVALID_VALUE,
                           label("parameter", i, p.name) + ": " + why);
    };
    if (p.kind != TG_ARG_VIEW && p.kind != TG_ARG_SCALAR)
      return invalid("unknown kind " + std::to_string(int(p.kind)));
    if (!dtypeSize(p.dtype))
      return invalid(dtypeText(p.dtype));
    if (p.kind == TG_ARG_SCALAR) {
      if (!isScalarType(p.dtype))
        return invalid(std::string("scalar type ") + dtypeName(p.dtype) +
                       " is not supported (i32, i64, f32, f64)");
      continue;
    }
    if (p.sizes.size() > TG_MAX_RANK)
      return invalid("rank " + std::to_string(p.sizes.size()) + " exceeds " +
                     std::to_string(TG_MAX_RANK));
    if (!p.dims.empty() && p.dims.size() != p.sizes.size())
      return invalid(std::to_string(p.dims.size()) +
                     " dimension names for rank " +
                     std::to_string(p.sizes.size()));
    for (size_t d = 0; d < p.sizes.size(); ++d)
      if (p.sizes[d] < 0 && p.sizes[d] != TG_DYNAMIC)
        return invalid("size[" + std::to_string(d) + "] is " +
                       std::to_string(p.sizes[d]) +
                       ", must be >= 0 or TG_DYNAMIC");
  }
  return Status::success();
}

Status checkArguments(const std::vector<Param> &params, const tg_arg *args,
                      size_t numArgs) {
  if (numArgs != params.size())
    return Status::error(TG_ERROR_ARGUMENT_MISMATCH,
                         "expected " + std::to_string(params.size()) +
                             " arguments, got " + std::to_string(numArgs));
  if (numArgs && !args)
    return Status::error(TG_ERROR_INVALID_VALUE, "the argument array is null");

  // The first argument giving each dimension name its size. A launch checks
  // every time, so nothing here allocates unless something is wrong (or a
  // signature names more dimensions than fit inline).
  struct Named {
    const std::string *name;
    size_t arg;
    int64_t size;
  };
  Named inlineNamed[32];
  std::vector<Named> moreNamed;
  size_t numNamed = 0;
  auto findNamed = [&](const std::string &name) -> Named * {
    for (size_t k = 0; k < numNamed; ++k) {
      Named &n = k < 32 ? inlineNamed[k] : moreNamed[k - 32];
      if (*n.name == name)
        return &n;
    }
    return nullptr;
  };
  for (size_t i = 0; i < numArgs; ++i) {
    const Param &p = params[i];
    const tg_arg &a = args[i];
    auto mismatch = [&](const std::string &why) {
      return Status::error(TG_ERROR_ARGUMENT_MISMATCH,
                           label("argument", i, p.name) + ": " + why);
    };
    auto kindText = [](tg_arg_kind kind) {
      return kind == TG_ARG_VIEW     ? std::string("a view")
             : kind == TG_ARG_SCALAR ? std::string("a scalar")
                                     : "unknown kind " + std::to_string(kind);
    };
    if (a.kind != p.kind)
      return mismatch("expected " + kindText(p.kind) + ", got " +
                      kindText(a.kind));
    if (a.dtype != p.dtype)
      return mismatch(std::string("expected dtype ") + dtypeName(p.dtype) +
                      ", got " + dtypeText(a.dtype));
    if (a.kind == TG_ARG_SCALAR)
      continue;

    int32_t rank = int32_t(p.sizes.size());
    if (a.rank != rank)
      return mismatch("expected rank " + std::to_string(rank) + ", got " +
                      std::to_string(a.rank));
    bool empty = false;
    for (int32_t d = 0; d < rank; ++d) {
      auto dim = [d] { return "size[" + std::to_string(d) + "]"; };
      if (a.sizes[d] < 0)
        return mismatch(dim() + " is " + std::to_string(a.sizes[d]) +
                        ", must be >= 0");
      if (p.sizes[d] != TG_DYNAMIC && a.sizes[d] != p.sizes[d])
        return mismatch("expected " + dim() + " = " +
                        std::to_string(p.sizes[d]) + ", got " +
                        std::to_string(a.sizes[d]));
      if (size_t(d) < p.dims.size() && !p.dims[d].empty()) {
        Named *first = findNamed(p.dims[d]);
        if (!first) {
          Named entry{&p.dims[d], i, a.sizes[d]};
          if (numNamed < 32)
            inlineNamed[numNamed] = entry;
          else
            moreNamed.push_back(entry);
          ++numNamed;
        } else if (first->size != a.sizes[d]) {
          return mismatch(
              "dimension " + p.dims[d] + " (" + dim() + ") is " +
              std::to_string(a.sizes[d]) + ", but " +
              label("argument", first->arg, params[first->arg].name) + " has " +
              p.dims[d] + " = " + std::to_string(first->size));
        }
      }
      empty = empty || a.sizes[d] == 0;
    }
    // A rank-0 view holds one element, so it needs memory too.
    if (!empty && a.data == 0)
      return mismatch("null data pointer for a non-empty view");
    // GPU kernels compute element offsets in 32 bits.
    int64_t extent = 0;
    for (int32_t d = 0; d < rank && !empty; ++d) {
      int64_t step = a.strides[d] < 0 ? -a.strides[d] : a.strides[d];
      if (a.sizes[d] > 1 && step > (INT32_MAX - extent) / (a.sizes[d] - 1))
        return mismatch("spans more than 2^31-1 elements; GPU kernels "
                        "address views with 32-bit element offsets");
      extent += (a.sizes[d] - 1) * step;
    }
  }
  return Status::success();
}

PackedArgs::PackedArgs(const tg_arg *args, size_t numArgs) {
  size_t count = 0;
  for (size_t i = 0; i < numArgs; ++i)
    count += args[i].kind == TG_ARG_VIEW ? 3 + 2 * size_t(args[i].rank) : 1;
  numSlots = count;
  slots = inlineSlots;
  pointers = inlinePointers;
  if (count > kInlineSlots) {
    heapSlots.assign(count, 0);
    heapPointers.resize(count);
    slots = heapSlots.data();
    pointers = heapPointers.data();
  }
  for (size_t k = 0; k < count; ++k) {
    slots[k] = 0;
    pointers[k] = &slots[k];
  }

  uint64_t *slot = slots;
  auto put = [&](auto value) { std::memcpy(slot++, &value, sizeof(value)); };
  for (size_t i = 0; i < numArgs; ++i) {
    const tg_arg &a = args[i];
    if (a.kind == TG_ARG_VIEW) {
      put(a.data); // allocated pointer
      put(a.data); // aligned pointer
      put(int64_t(0));
      for (int32_t d = 0; d < a.rank; ++d)
        put(a.sizes[d]);
      for (int32_t d = 0; d < a.rank; ++d)
        put(a.strides[d]);
      continue;
    }
    switch (a.dtype) {
    case TG_I32:
      put(int32_t(a.int_value));
      break;
    case TG_I64:
      put(int64_t(a.int_value));
      break;
    case TG_F32:
      put(float(a.float_value));
      break;
    default:
      put(double(a.float_value));
      break; // f64, per checkSignature
    }
  }
}

} // namespace tilegym::runtime
