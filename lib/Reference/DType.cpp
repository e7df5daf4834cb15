//===- DType.cpp - Element types and 16-bit float conversions -------------===//

#include "tilegym/Reference/DType.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tilegym::ref {

std::optional<DType> parseDType(std::string_view name) {
  if (name == "f32")
    return DType::F32;
  if (name == "f16")
    return DType::F16;
  if (name == "bf16")
    return DType::BF16;
  if (name == "i32")
    return DType::I32;
  if (name == "i1")
    return DType::I1;
  if (name == "f64")
    return DType::F64;
  return std::nullopt;
}

const char *dtypeName(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  case DType::I1:
    return "i1";
  case DType::F64:
    return "f64";
  }
  return "?";
}

size_t dtypeSize(DType type) {
  switch (type) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I1:
    return 1;
  case DType::F64:
    return 8;
  }
  return 0;
}

bool isFloat(DType type) {
  return type == DType::F32 || type == DType::F16 || type == DType::BF16 ||
         type == DType::F64;
}

namespace {

/// A binary floating-point format of 16 bits or less: 1 sign bit,
/// `expBits` exponent bits, `manBits` stored mantissa bits.
struct SmallFloatFormat {
  int expBits;
  int manBits;

  int bias() const { return (1 << (expBits - 1)) - 1; }
  uint32_t expMask() const { return ((1u << expBits) - 1) << manBits; }
  uint32_t signBit() const { return 1u << (expBits + manBits); }
};

constexpr SmallFloatFormat kHalf{5, 10};
constexpr SmallFloatFormat kBF16{8, 7};

/// Rounds `value` to the format, to nearest with ties to even. Exact
/// arithmetic: the value is scaled by a power of two (exact) so that one
/// ulp of the result is 1.0, and the integer rounding is done by hand
/// (std::nearbyint would depend on the current rounding mode).
uint16_t roundToSmallFloat(double value, SmallFloatFormat fmt) {
  uint32_t sign = std::signbit(value) ? fmt.signBit() : 0;
  if (std::isnan(
          value)) // Quiet NaN: all exponent bits and the top mantissa bit.
    return sign | fmt.expMask() | (1u << (fmt.manBits - 1));
  double mag = std::fabs(value);
  if (std::isinf(mag))
    return sign | fmt.expMask();
  if (mag == 0.0)
    return sign;

  int exp2;
  std::frexp(mag, &exp2);  // mag = f * 2^exp2 with f in [0.5, 1).
  int unbiased = exp2 - 1; // mag = 1.x * 2^unbiased.
  int minNormalExp = 1 - fmt.bias();
  if (unbiased > fmt.bias()) // Beyond the largest binade: overflows.
    return sign | fmt.expMask();

  // Subnormals share the ulp of the smallest normal binade.
  int ulpExp = std::max(unbiased, minNormalExp) - fmt.manBits;
  double scaled = std::ldexp(mag, -ulpExp); // < 2^(manBits+1), exact.
  double whole = std::floor(scaled);
  double frac = scaled - whole;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) != 0.0))
    whole += 1.0;
  uint32_t mantissa = static_cast<uint32_t>(whole);

  uint32_t bits;
  if (unbiased < minNormalExp) {
    // Subnormal; rounding up to 2^manBits lands exactly on the smallest
    // normal's encoding.
    bits = mantissa;
  } else {
    // mantissa is in [2^manBits, 2^(manBits+1)]; adding it to the exponent
    // field carries into the next binade when rounding overflowed the
    // mantissa, and into the infinity encoding past the largest finite value.
    bits = (static_cast<uint32_t>(unbiased + fmt.bias()) << fmt.manBits) +
           (mantissa - (1u << fmt.manBits));
    if (bits >= fmt.expMask())
      bits = fmt.expMask();
  }
  return static_cast<uint16_t>(sign | bits);
}

double smallFloatToDouble(uint16_t bits, SmallFloatFormat fmt) {
  bool negative = bits & fmt.signBit();
  uint32_t expField = (bits & fmt.expMask()) >> fmt.manBits;
  uint32_t mantissa = bits & ((1u << fmt.manBits) - 1);
  uint32_t maxExpField = (1u << fmt.expBits) - 1;
  double mag;
  if (expField == maxExpField)
    mag = mantissa ? std::numeric_limits<double>::quiet_NaN()
                   : std::numeric_limits<double>::infinity();
  else if (expField == 0)
    mag =
        std::ldexp(static_cast<double>(mantissa), 1 - fmt.bias() - fmt.manBits);
  else
    mag = std::ldexp(static_cast<double>(mantissa | (1u << fmt.manBits)),
                     static_cast<int>(expField) - fmt.bias() - fmt.manBits);
  return negative ? -mag : mag;
}

} // namespace

uint16_t floatToHalfBits(float value) {
  return roundToSmallFloat(value, kHalf);
}
uint16_t doubleToHalfBits(double value) {
  return roundToSmallFloat(value, kHalf);
}
float halfBitsToFloat(uint16_t bits) {
  return static_cast<float>(smallFloatToDouble(bits, kHalf));
}

uint16_t floatToBF16Bits(float value) {
  return roundToSmallFloat(value, kBF16);
}
uint16_t doubleToBF16Bits(double value) {
  return roundToSmallFloat(value, kBF16);
}
float bf16BitsToFloat(uint16_t bits) {
  // bf16 is the top half of an f32: widening is a shift.
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

} // namespace tilegym::ref
