//===- DType.cpp - Element types and 16-bit float conversions -------------===//

#include "tilegym/Reference/DType.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tilegym::ref {

std::optional<DType> parseDType(std::string_view name) {
  for (int d = int(DType::F32); d <= int(DType::F8E5M2); ++d)
    if (name == dtypeName(DType(d)))
      return DType(d);
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
  case DType::I8:
    return "i8";
  case DType::I64:
    return "i64";
  case DType::F8E4M3:
    return "f8e4m3";
  case DType::F8E5M2:
    return "f8e5m2";
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
  case DType::I8:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return 1;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  return 0;
}

bool isFloat(DType type) {
  return type == DType::F32 || type == DType::F16 || type == DType::BF16 ||
         type == DType::F64 || isFP8(type);
}

bool isFP8(DType type) {
  return type == DType::F8E4M3 || type == DType::F8E5M2;
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

/// The encoding (exponent and mantissa fields, no sign) of the finite
/// `mag` > 0 rounded to a format of `bias` and `manBits` stored mantissa
/// bits, to nearest with ties to even. Exact arithmetic: the value is
/// scaled by a power of two (exact) so that one ulp of the result is 1.0,
/// and the integer rounding is done by hand (std::nearbyint would depend on
/// the current rounding mode). Past the format's top binades the result is
/// UINT32_MAX; callers clamp what lies beyond their largest encoding.
uint32_t roundedMagnitudeBits(double mag, int bias, int manBits) {
  int exp2;
  std::frexp(mag, &exp2);  // mag = f * 2^exp2 with f in [0.5, 1).
  int unbiased = exp2 - 1; // mag = 1.x * 2^unbiased.
  int minNormalExp = 1 - bias;
  if (unbiased > bias + 1) // Beyond every format's largest binade.
    return UINT32_MAX;

  // Subnormals share the ulp of the smallest normal binade.
  int ulpExp = std::max(unbiased, minNormalExp) - manBits;
  double scaled = std::ldexp(mag, -ulpExp); // < 2^(manBits+1), exact.
  double whole = std::floor(scaled);
  double frac = scaled - whole;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) != 0.0))
    whole += 1.0;
  uint32_t mantissa = static_cast<uint32_t>(whole);
  // Subnormal: rounding up to 2^manBits lands exactly on the smallest
  // normal's encoding. Normal: mantissa is in [2^manBits, 2^(manBits+1)];
  // adding it to the exponent field carries into the next binade when
  // rounding overflowed the mantissa.
  if (unbiased < minNormalExp)
    return mantissa;
  return (static_cast<uint32_t>(unbiased + bias) << manBits) +
         (mantissa - (1u << manBits));
}

/// Rounds `value` to the IEEE-like format, to nearest with ties to even;
/// overflow gives infinity.
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
  // Past the largest finite value: the infinity encoding.
  uint32_t bits = std::min(roundedMagnitudeBits(mag, fmt.bias(), fmt.manBits),
                           fmt.expMask());
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

/// An fp8 format: exponent bias, stored mantissa bits, the encoding of the
/// largest finite magnitude, and whether the top exponent is inf/NaN (e5m2)
/// or holds normal values, S.1111.111 alone being NaN (e4m3fn).
struct FP8Format {
  int bias;
  int manBits;
  uint8_t maxFinite;
  bool ieee;
};

FP8Format fp8Format(DType type) {
  return type == DType::F8E4M3 ? FP8Format{7, 3, 0x7e, false}
                               : FP8Format{15, 2, 0x7b, true};
}

} // namespace

uint8_t doubleToFP8Bits(double value, DType type) {
  FP8Format fmt = fp8Format(type);
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value))
    return sign | 0x7f;
  double mag = std::fabs(value);
  if (mag == 0.0)
    return sign;
  if (std::isinf(mag))
    return sign | fmt.maxFinite;
  uint32_t bits = roundedMagnitudeBits(mag, fmt.bias, fmt.manBits);
  return sign | static_cast<uint8_t>(std::min<uint32_t>(bits, fmt.maxFinite));
}

double fp8BitsToDouble(uint8_t bits, DType type) {
  FP8Format fmt = fp8Format(type);
  bool negative = bits & 0x80;
  uint32_t expField = (bits & 0x7f) >> fmt.manBits;
  uint32_t mantissa = bits & ((1u << fmt.manBits) - 1);
  uint32_t topExp = (1u << (7 - fmt.manBits)) - 1;
  double mag;
  if ((bits & 0x7f) == 0x7f || (fmt.ieee && expField == topExp && mantissa))
    mag = std::numeric_limits<double>::quiet_NaN();
  else if (fmt.ieee && expField == topExp)
    mag = std::numeric_limits<double>::infinity();
  else if (expField == 0)
    mag = std::ldexp(static_cast<double>(mantissa), 1 - fmt.bias - fmt.manBits);
  else
    mag = std::ldexp(static_cast<double>(mantissa | (1u << fmt.manBits)),
                     static_cast<int>(expField) - fmt.bias - fmt.manBits);
  return negative ? -mag : mag;
}

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
