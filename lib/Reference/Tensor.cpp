//===- Tensor.cpp - Host tensors for kernel arguments ---------------------===//

#include "tilegym/Reference/Tensor.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <new>

namespace tilegym::ref {

namespace {

// 64 bytes: a cache line, and enough for any vector load a CPU kernel may
// assume aligned.
constexpr std::align_val_t kAlignment{64};

template <typename T> T loadAt(const std::byte *base, int64_t linear) {
  T value;
  std::memcpy(&value, base + linear * sizeof(T), sizeof(T));
  return value;
}

template <typename T> void storeAt(std::byte *base, int64_t linear, T value) {
  std::memcpy(base + linear * sizeof(T), &value, sizeof(T));
}

template <typename T> void fillPattern(std::byte *base, int64_t n, T pattern) {
  for (int64_t i = 0; i < n; ++i)
    storeAt(base, i, pattern);
}

/// `value` rounded to nearest and saturated to the integer type; NaN is 0.
template <typename T> T toInteger(double value) {
  if (std::isnan(value))
    return 0;
  double rounded = std::nearbyint(value);
  // The bounds as doubles: T's max may round up (2^63 for int64_t), so the
  // comparison is >=, giving max for everything at or past it.
  if (rounded <= static_cast<double>(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (rounded >= static_cast<double>(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return static_cast<T>(rounded);
}

} // namespace

int64_t shapeNumel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string formatIndex(const std::vector<int64_t> &shape, int64_t linear) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = linear % shape[i];
    linear /= shape[i];
  }
  return formatShape(index);
}

void HostTensor::AlignedDelete::operator()(std::byte *p) const {
  ::operator delete[](p, kAlignment);
}

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), numel_(shapeNumel(shape_)),
      bytes_(new (kAlignment) std::byte[sizeInBytes()]()) {}

HostTensor HostTensor::clone() const {
  HostTensor copy(dtype_, shape_);
  std::memcpy(copy.data(), data(), sizeInBytes());
  return copy;
}

std::vector<int64_t> HostTensor::strides() const {
  std::vector<int64_t> strides(shape_.size());
  int64_t stride = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape_[i];
  }
  return strides;
}

double HostTensor::get(int64_t linear) const {
  const std::byte *base = bytes_.get();
  switch (dtype_) {
  case DType::F32:
    return loadAt<float>(base, linear);
  case DType::F16:
    return halfBitsToFloat(loadAt<uint16_t>(base, linear));
  case DType::BF16:
    return bf16BitsToFloat(loadAt<uint16_t>(base, linear));
  case DType::I32:
    return loadAt<int32_t>(base, linear);
  case DType::I1:
    return loadAt<uint8_t>(base, linear) != 0 ? 1.0 : 0.0;
  case DType::F64:
    return loadAt<double>(base, linear);
  case DType::I8:
    return loadAt<int8_t>(base, linear);
  case DType::I64:
    return static_cast<double>(loadAt<int64_t>(base, linear));
  case DType::F8E4M3:
  case DType::F8E5M2:
    return fp8BitsToDouble(loadAt<uint8_t>(base, linear), dtype_);
  }
  return 0.0;
}

void HostTensor::set(int64_t linear, double value) {
  std::byte *base = bytes_.get();
  switch (dtype_) {
  case DType::F32:
    storeAt(base, linear, static_cast<float>(value));
    return;
  case DType::F16:
    storeAt(base, linear, doubleToHalfBits(value));
    return;
  case DType::BF16:
    storeAt(base, linear, doubleToBF16Bits(value));
    return;
  case DType::I32:
    storeAt(base, linear, toInteger<int32_t>(value));
    return;
  case DType::I8:
    storeAt(base, linear, toInteger<int8_t>(value));
    return;
  case DType::I64:
    storeAt(base, linear, toInteger<int64_t>(value));
    return;
  case DType::F8E4M3:
  case DType::F8E5M2:
    storeAt(base, linear, doubleToFP8Bits(value, dtype_));
    return;
  case DType::I1:
    storeAt<uint8_t>(base, linear, value != 0.0);
    return;
  case DType::F64:
    storeAt(base, linear, value);
    return;
  }
}

std::vector<double> HostTensor::values() const {
  std::vector<double> values(numel_);
  for (int64_t i = 0; i < numel_; ++i)
    values[i] = get(i);
  return values;
}

void HostTensor::fillPoison() {
  std::byte *base = bytes_.get();
  switch (dtype_) {
  case DType::F32:
    return fillPattern(base, numel_, kPoisonF32);
  case DType::F16:
    return fillPattern(base, numel_, kPoisonF16);
  case DType::BF16:
    return fillPattern(base, numel_, kPoisonBF16);
  case DType::I32:
    return fillPattern(base, numel_, kPoisonI32);
  case DType::I1:
    return fillPattern(base, numel_, kPoisonI1);
  case DType::F64:
    return fillPattern(base, numel_, kPoisonF64);
  case DType::I8:
    return fillPattern(base, numel_, kPoisonI8);
  case DType::I64:
    return fillPattern(base, numel_, kPoisonI64);
  case DType::F8E4M3:
    return fillPattern(base, numel_, kPoisonF8E4M3);
  case DType::F8E5M2:
    return fillPattern(base, numel_, kPoisonF8E5M2);
  }
}

bool HostTensor::isPoison(int64_t linear) const {
  const std::byte *base = bytes_.get();
  switch (dtype_) {
  case DType::F32:
    return loadAt<uint32_t>(base, linear) == kPoisonF32;
  case DType::I32:
    return loadAt<uint32_t>(base, linear) == kPoisonI32;
  case DType::F16:
    return loadAt<uint16_t>(base, linear) == kPoisonF16;
  case DType::BF16:
    return loadAt<uint16_t>(base, linear) == kPoisonBF16;
  case DType::I1:
    return loadAt<uint8_t>(base, linear) == kPoisonI1;
  case DType::F64:
    return loadAt<uint64_t>(base, linear) == kPoisonF64;
  case DType::I8:
    return false; // Every byte is an i8 value: see kPoisonI8.
  case DType::I64:
    return loadAt<uint64_t>(base, linear) == kPoisonI64;
  case DType::F8E4M3:
    return loadAt<uint8_t>(base, linear) == kPoisonF8E4M3;
  case DType::F8E5M2:
    return loadAt<uint8_t>(base, linear) == kPoisonF8E5M2;
  }
  return false;
}

// Serial on purpose: element i takes the i-th draw of one engine shared by
// all arguments, and std::mt19937_64 has no cheap jump-ahead, so threads
// could not start mid-sequence without changing a seed's data. It is also
// linear time, small beside the matmul and attention references.
void HostTensor::fillUniform(std::mt19937_64 &rng, double lo, double hi) {
  if (isFloat(dtype_)) {
    for (int64_t i = 0; i < numel_; ++i) {
      // The top 53 bits of the draw give a double uniform in [0, 1).
      double unit = std::ldexp(static_cast<double>(rng() >> 11), -53);
      set(i, lo + (hi - lo) * unit);
    }
    return;
  }
  double first = std::ceil(lo);
  if (std::floor(hi) < first)
    return fill(first);
  uint64_t count = static_cast<uint64_t>(std::floor(hi) - first) + 1;
  // The modulo bias is below count / 2^64: irrelevant for test data.
  for (int64_t i = 0; i < numel_; ++i)
    set(i, first + static_cast<double>(rng() % count));
}

} // namespace tilegym::ref

namespace tilegym::ref {

void HostTensor::fill(double value) {
  for (int64_t i = 0; i < numel_; ++i)
    set(i, value);
}

// Box-Muller on two draws of the engine, for the same reason as
// fillUniform: the transform is fixed here, so a seed gives the same data
// everywhere.
void HostTensor::fillNormal(std::mt19937_64 &rng, double mean, double stddev) {
  const double twoPi = 6.283185307179586;
  for (int64_t i = 0; i < numel_; ++i) {
    // u1 in (0, 1]: log(u1) stays finite.
    double u1 = std::ldexp(static_cast<double>((rng() >> 11) + 1), -53);
    double u2 = std::ldexp(static_cast<double>(rng() >> 11), -53);
    set(i, mean + stddev * std::sqrt(-2 * std::log(u1)) * std::cos(twoPi * u2));
  }
}

} // namespace tilegym::ref
