//===- ElementTypes.cpp - Checks of the reference's element types --------===//
//
// dtype names, the fp8, f16 and bf16 encodings against IEEE bit patterns
// and exhaustive round trips, and conversions from double rounding once.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "tilegym/Reference/Reference.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace tilegym::ref;
using namespace tilegym::refcheck;

namespace {

/// `bits` as 0x... (for failure details).
std::string hex(uint32_t bits) {
  std::ostringstream os;
  os << "0x" << std::hex << bits;
  return os.str();
}

void checkDTypeNames() {
  bool ok = true;
  for (DType type :
       {DType::F64, DType::F32, DType::F16, DType::BF16, DType::I32, DType::I1,
        DType::I8, DType::I64, DType::F8E4M3, DType::F8E5M2})
    ok &= parseDType(dtypeName(type)) == type;
  check(ok, "dtype names round trip");
  check(!parseDType("f8") && !parseDType("i16") && !parseDType("f8e4m3fn") &&
            !parseDType(""),
        "unknown dtype names rejected");
  check(dtypeSize(DType::F32) == 4 && dtypeSize(DType::F16) == 2 &&
            dtypeSize(DType::BF16) == 2 && dtypeSize(DType::I32) == 4 &&
            dtypeSize(DType::I1) == 1 && dtypeSize(DType::I8) == 1 &&
            dtypeSize(DType::I64) == 8 && dtypeSize(DType::F8E4M3) == 1 &&
            dtypeSize(DType::F8E5M2) == 1,
        "dtype byte sizes");
}

/// fp8: every code widens and narrows back to itself (NaNs to 0x7f with
/// their sign; e5m2's infinities saturate, as the kernels' casts do), and
/// the rounding cases: ties to even, saturation, subnormals, NaN.
void checkFP8() {
  for (DType type : {DType::F8E4M3, DType::F8E5M2}) {
    bool ok = true;
    std::string first;
    for (int code = 0; code < 256; ++code) {
      double v = fp8BitsToDouble(uint8_t(code), type);
      uint8_t back = doubleToFP8Bits(v, type);
      uint8_t want = uint8_t(code);
      if (std::isnan(v))
        want = uint8_t((code & 0x80) | 0x7f);
      else if (std::isinf(v))
        want = uint8_t((code & 0x80) | 0x7b);
      if (back != want && first.empty())
        first = "code " + std::to_string(code) + " -> " + std::to_string(back);
      ok &= back == want;
    }
    check(ok, std::string(dtypeName(type)) + ": every code round trips", first);
  }
  struct Case {
    DType type;
    double value;
    int bits;
  };
  const std::vector<Case> cases = {
      {DType::F8E4M3, 448.0, 0x7e},   {DType::F8E4M3, 460.0, 0x7e},
      {DType::F8E4M3, 1e30, 0x7e},    {DType::F8E4M3, -INFINITY, 0xfe},
      {DType::F8E4M3, NAN, 0x7f},     {DType::F8E4M3, -0.0, 0x80},
      {DType::F8E4M3, 1.0625, 0x38},  {DType::F8E4M3, 1.1875, 0x3a},
      {DType::F8E4M3, 0x1p-9, 0x01},  {DType::F8E4M3, 0x1p-10, 0x00},
      {DType::F8E4M3, 0x3p-10, 0x02}, {DType::F8E4M3, 0x1.fp-7, 0x08},
      {DType::F8E5M2, 57344.0, 0x7b}, {DType::F8E5M2, INFINITY, 0x7b},
      {DType::F8E5M2, 1e9, 0x7b},     {DType::F8E5M2, 0x1p-16, 0x01},
      {DType::F8E5M2, 0x1p-17, 0x00}, {DType::F8E5M2, -1.125, 0xbc},
  };
  bool ok = true;
  std::string first;
  for (const Case &c : cases) {
    int got = doubleToFP8Bits(c.value, c.type);
    if (got != c.bits && first.empty())
      first = std::string(dtypeName(c.type)) + " " + std::to_string(c.value) +
              " -> " + std::to_string(got) + ", want " + std::to_string(c.bits);
    ok &= got == c.bits;
  }
  check(ok, "fp8 rounding: ties to even, saturation, subnormals, NaN", first);
  HostTensor t(DType::F8E4M3, {2});
  t.set(0, 0.3);
  t.set(1, 500);
  check(t.get(0) == 0.3125 && t.get(1) == 448.0,
        "f8e4m3 tensor set rounds and saturates");
  HostTensor i8(DType::I8, {2}), i64(DType::I64, {2});
  i8.set(0, 300), i8.set(1, -2.6), i64.set(0, 0x1p52), i64.set(1, -7);
  check(i8.get(0) == 127 && i8.get(1) == -3 && i64.get(0) == 0x1p52 &&
            i64.get(1) == -7,
        "i8 and i64 tensors round and saturate");
}

struct BitsCase {
  const char *what;
  double value;
  uint16_t bits;
};

/// Narrowing from float and from double must both give `bits`.
void checkEncodings(const char *format, const std::vector<BitsCase> &cases,
                    uint16_t (*fromFloat)(float),
                    uint16_t (*fromDouble)(double)) {
  for (const BitsCase &c : cases) {
    uint16_t gotFloat = fromFloat(static_cast<float>(c.value));
    uint16_t gotDouble = fromDouble(c.value);
    check(gotFloat == c.bits && gotDouble == c.bits,
          std::string(format) + " encodes " + c.what + " as " + hex(c.bits),
          "got " + hex(gotFloat) + " from float, " + hex(gotDouble) +
              " from double");
  }
}

void checkHalfBits() {
  const double inf = std::numeric_limits<double>::infinity();
  checkEncodings(
      "f16",
      {{"1.0", 1.0, 0x3c00},
       {"-2.5", -2.5, 0xc100},
       {"65504 (largest finite)", 65504.0, 0x7bff},
       {"65519 (below the overflow tie)", 65519.0, 0x7bff},
       {"65520 (overflow tie, to even: inf)", 65520.0, 0x7c00},
       {"2^-14 (smallest normal)", std::ldexp(1.0, -14), 0x0400},
       {"2^-24 (smallest subnormal)", std::ldexp(1.0, -24), 0x0001},
       {"2^-25 (tie, to even: 0)", std::ldexp(1.0, -25), 0x0000},
       {"3*2^-25 (tie, to even: 2^-23)", 3 * std::ldexp(1.0, -25), 0x0002},
       {"1+2^-11 (tie, to even: 1.0)", 1.0 + std::ldexp(1.0, -11), 0x3c00},
       {"1+3*2^-11 (tie, to even: up)", 1.0 + 3 * std::ldexp(1.0, -11), 0x3c02},
       {"-0.0", -0.0, 0x8000},
       {"inf", inf, 0x7c00},
       {"-inf", -inf, 0xfc00}},
      floatToHalfBits, doubleToHalfBits);
  check(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24) &&
            halfBitsToFloat(0x7bff) == 65504.0f &&
            halfBitsToFloat(0xc100) == -2.5f,
        "f16 decodes known bit patterns");
  float nan = std::numeric_limits<float>::quiet_NaN();
  check(std::isnan(halfBitsToFloat(floatToHalfBits(nan))) &&
            std::isnan(halfBitsToFloat(floatToHalfBits(-nan))),
        "f16 keeps NaN");
}

void checkBF16Bits() {
  const double inf = std::numeric_limits<double>::infinity();
  checkEncodings(
      "bf16",
      {{"1.0", 1.0, 0x3f80},
       {"-2.5", -2.5, 0xc020},
       {"1+2^-8 (tie, to even: 1.0)", 1.0 + std::ldexp(1.0, -8), 0x3f80},
       {"1+3*2^-8 (tie, to even: up)", 1.0 + 3 * std::ldexp(1.0, -8), 0x3f82},
       {"FLT_MAX (rounds past the largest finite: inf)",
        std::numeric_limits<float>::max(), 0x7f80},
       {"2^-133 (smallest subnormal)", std::ldexp(1.0, -133), 0x0001},
       {"-0.0", -0.0, 0x8000},
       {"-inf", -inf, 0xff80}},
      floatToBF16Bits, doubleToBF16Bits);
  check(bf16BitsToFloat(0x7f7f) == std::ldexp(255.0f, 120) &&
            bf16BitsToFloat(0xc020) == -2.5f,
        "bf16 decodes known bit patterns");
  float nan = std::numeric_limits<float>::quiet_NaN();
  check(std::isnan(bf16BitsToFloat(floatToBF16Bits(nan))), "bf16 keeps NaN");
}

/// Every 16-bit pattern decodes and re-encodes to itself (NaNs to a NaN),
/// and every midpoint between neighbours rounds to the even one, while the
/// floats just above and below it round up and down.
void checkExhaustive(const char *format, float (*decode)(uint16_t),
                     uint16_t (*encode)(float), uint16_t largestFinite) {
  int roundTripErrors = 0, tieErrors = 0;
  std::string firstError;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    float value = decode(bits);
    bool ok = std::isnan(value) ? std::isnan(decode(encode(value)))
                                : encode(value) == bits;
    if (!ok && roundTripErrors++ == 0)
      firstError = "round trip of " + hex(bits);
  }
  for (uint16_t bits = 0; bits < largestFinite; ++bits) {
    uint16_t next = bits + 1;
    // Exact in float; (a + b) / 2 would overflow in the top binade.
    float mid = decode(bits) + (decode(next) - decode(bits)) / 2;
    uint16_t even = (bits % 2 == 0) ? bits : next;
    bool ok = encode(mid) == even &&
              encode(std::nextafter(mid, INFINITY)) == next &&
              encode(std::nextafter(mid, 0.0f)) == bits;
    if (!ok && tieErrors++ == 0)
      firstError = "midpoint above " + hex(bits);
  }
  check(roundTripErrors == 0,
        std::string(format) + " round trip of all 65536 bit patterns",
        std::to_string(roundTripErrors) + " errors, first " + firstError);
  check(tieErrors == 0,
        std::string(format) + " rounding at every midpoint (ties to even)",
        std::to_string(tieErrors) + " errors, first " + firstError);
}

void checkSingleRounding() {
  // 1 + 2^-11 + 2^-40 is just above an f16 tie; through float the 2^-40 is
  // lost and the tie then rounds down to even.
  double justAboveTie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  check(doubleToHalfBits(justAboveTie) == 0x3c01 &&
            floatToHalfBits(static_cast<float>(justAboveTie)) == 0x3c00,
        "f16 from double rounds once");
  double bf16AboveTie = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  check(doubleToBF16Bits(bf16AboveTie) == 0x3f81,
        "bf16 from double rounds once");
}

} // namespace

void tilegym::refcheck::checkElementTypes() {
  checkDTypeNames();
  checkFP8();
  checkHalfBits();
  checkBF16Bits();
  checkExhaustive("f16", halfBitsToFloat, floatToHalfBits, 0x7bff);
  checkExhaustive("bf16", bf16BitsToFloat, floatToBF16Bits, 0x7f7f);
  checkSingleRounding();
}
