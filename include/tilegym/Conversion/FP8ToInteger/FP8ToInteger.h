//===- FP8ToInteger.h - fp8 conversions as integer code ---------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_FP8TOINTEGER_FP8TOINTEGER_H
#define TILEGYM_CONVERSION_FP8TOINTEGER_FP8TOINTEGER_H

#include "mlir/IR/PatternMatch.h"

namespace tilegym {
/// Patterns rewriting `arith.extf` from and `arith.truncf` to the fp8 types
/// (f8E4M3FN, f8E5M2), and `arith.constant`s of them, into integer code on
/// the bits, with unrealized casts between i8 and fp8 at the edges: neither
/// LLVM IR nor the CPU has fp8 arithmetic, and the GPU's conversions need
/// sm_89. Narrowing rounds to nearest even and saturates (NaN stays NaN,
/// infinities and overflow give the largest finite value), as PTX's
/// `cvt.rn.satfinite` does; widening is exact. Arithmetic on fp8 must be
/// widened first (arith-emulate-unsupported-floats).
void populateFP8ToIntegerPatterns(mlir::RewritePatternSet &patterns);
} // namespace tilegym

#endif // TILEGYM_CONVERSION_FP8TOINTEGER_FP8TOINTEGER_H
