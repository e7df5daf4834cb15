//===- Tensor.h - Host tensors for kernel arguments -------------*- C++ -*-===//
//
// A HostTensor is one kernel argument in host memory: an element type, a
// shape and row-major contiguous bytes, laid out exactly as the kernel sees
// them, so the same buffer can be handed to a CPU JIT or copied to a GPU.
// Element access goes through double: set() rounds to the element type, so
// a reference reading inputs back with get() sees exactly the values the
// kernel saw.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_REFERENCE_TENSOR_H
#define TILEGYM_REFERENCE_TENSOR_H

#include "tilegym/Reference/DType.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace tilegym::ref {

/// Bit patterns written by HostTensor::fillPoison. The float ones are quiet
/// NaNs with a payload that arithmetic does not produce (x86 and NVIDIA
/// GPUs return the canonical NaN), so an element still holding the pattern
/// was not written, while any other NaN was computed by the kernel.
constexpr uint32_t kPoisonF32 = 0x7fc0dead;
constexpr uint16_t kPoisonF16 = 0x7ead;
constexpr uint16_t kPoisonBF16 = 0x7fed;
constexpr uint32_t kPoisonI32 = 0xdeadbeef; // -559038737 as an i32.
constexpr uint8_t kPoisonI1 = 0xa5;         // Neither 0 nor 1.
constexpr uint64_t kPoisonF64 = 0x7ff80000deadbeefull;
constexpr uint64_t kPoisonI64 = 0xdeadbeefdeadbeefull;
// -91 as an i8. Every byte is an i8 value, one in 256 computed ones would
// look unwritten: isPoison never says so for i8 (a reference or the CPU JIT
// still catches an output left as -91s).
constexpr uint8_t kPoisonI8 = 0xa5;
// The fp8 NaNs kernels do not produce (their casts give 0x7f and 0xff from
// a NaN of that sign, and no arithmetic runs in fp8): e4m3 has only those
// two NaNs, so its poison is the negative one.
constexpr uint8_t kPoisonF8E4M3 = 0xff;
constexpr uint8_t kPoisonF8E5M2 = 0x7d;

/// Number of elements of a shape (1 for rank 0).
int64_t shapeNumel(const std::vector<int64_t> &shape);

/// "[257, 129]"-style rendering of a shape or of a multi-index.
std::string formatShape(const std::vector<int64_t> &shape);

/// The multi-index of row-major element `linear` of `shape`, as "[i, j]".
std::string formatIndex(const std::vector<int64_t> &shape, int64_t linear);

class HostTensor {
public:
  HostTensor() = default;
  /// Zero-filled, 64-byte aligned storage.
  HostTensor(DType dtype, std::vector<int64_t> shape);

  // Move-only: tensors can be large; use clone() for a deliberate copy.
  HostTensor(HostTensor &&) = default;
  HostTensor &operator=(HostTensor &&) = default;
  HostTensor clone() const;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numel_; }
  size_t sizeInBytes() const { return numel_ * dtypeSize(dtype_); }
  /// Row-major strides in elements (what a memref descriptor wants).
  std::vector<int64_t> strides() const;

  void *data() { return bytes_.get(); }
  const void *data() const { return bytes_.get(); }

  /// Element `linear` (row-major) as a double. Integer elements read as
  /// their value; an i1 byte reads as 1 when nonzero.
  double get(int64_t linear) const;
  /// Stores `value` rounded to the element type: floats round to nearest
  /// even (f16/bf16/fp8 directly from double; fp8 saturating, as the
  /// kernels' casts); integers round to nearest and saturate, NaN giving 0;
  /// i1 stores value != 0. i64 values beyond 2^53 are not exact in double.
  void set(int64_t linear, double value);
  /// Every element through get(), row-major: what references compute on.
  std::vector<double> values() const;

  /// Fills every element with the dtype's kPoison* pattern.
  void fillPoison();
  /// Whether element `linear` still holds the poison pattern, bit for bit.
  bool isPoison(int64_t linear) const;

  /// Fills with values uniform in [lo, hi], rounded to the element type;
  /// integer types draw integers uniformly in [ceil(lo), floor(hi)]. The
  /// draw is defined here from the raw engine output, not through
  /// std::uniform_*_distribution (whose algorithm varies between standard
  /// libraries), so a seed gives the same data on every platform.
  void fillUniform(std::mt19937_64 &rng, double lo, double hi);
  /// Fills with normal values (Box-Muller, defined here like fillUniform),
  /// rounded to the element type.
  void fillNormal(std::mt19937_64 &rng, double mean, double stddev);
  /// Sets every element to `value`, rounded to the element type.
  void fill(double value);

private:
  struct AlignedDelete {
    void operator()(std::byte *p) const;
  };

  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::unique_ptr<std::byte[], AlignedDelete> bytes_;
};

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_TENSOR_H
