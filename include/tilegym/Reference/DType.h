//===- DType.h - Element types of host tensors ------------------*- C++ -*-===//
//
// Element types that kernel arguments may have, their names and sizes, and
// exact software conversions between float and the 16-bit float formats.
// Plain C++17: this library also serves the MLIR-free GPU runner, and the
// conversions must not depend on compiler support for _Float16 or __bf16.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_REFERENCE_DTYPE_H
#define TILEGYM_REFERENCE_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilegym::ref {

/// F64 also holds float64 references (reference kernels and their
/// outputs). F8E4M3 is e4m3 without infinities (MLIR's f8E4M3FN, torch's
/// float8_e4m3fn), F8E5M2 the IEEE-like e5m2.
// parseDType walks the values from F32 to F8E5M2: a new type goes last.
enum class DType { F32, F16, BF16, I32, I1, F64, I8, I64, F8E4M3, F8E5M2 };

/// "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "i64", "i32", "i8" or
/// "i1"; std::nullopt for anything else.
std::optional<DType> parseDType(std::string_view name);
const char *dtypeName(DType type);

/// Bytes per element in memory. i1 takes one byte (0 or 1), as in MLIR
/// memrefs of i1.
size_t dtypeSize(DType type);

bool isFloat(DType type);
bool isFP8(DType type);

// IEEE binary16 (f16) and bfloat16 (bf16) conversions. Narrowing rounds to
// nearest, ties to even; overflow gives infinity; subnormals are kept (no
// flush to zero); infinities keep their sign; any NaN gives a quiet NaN of
// the same sign. Widening is exact.
//
// The double overloads round once, directly from double: going through
// float first would round twice and could land one ulp off on ties.
uint16_t floatToHalfBits(float value);
uint16_t doubleToHalfBits(double value);
float halfBitsToFloat(uint16_t bits);

uint16_t floatToBF16Bits(float value);
uint16_t doubleToBF16Bits(double value);
float bf16BitsToFloat(uint16_t bits);

// fp8 conversions (`type` F8E4M3 or F8E5M2), as the kernels' casts do them:
// narrowing rounds to nearest, ties to even, once, and saturates: any NaN
// gives 0x7f with its sign, infinities and finite values past the largest
// (448 for e4m3, 57344 for e5m2) give the largest; subnormals are kept.
// Widening is exact.
uint8_t doubleToFP8Bits(double value, DType type);
double fp8BitsToDouble(uint8_t bits, DType type);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_DTYPE_H
