//===- Compare.h - Comparing kernel outputs with a reference ----*- C++ -*-===//
//
// Compares an output tensor written by a kernel with a float64 reference and
// prints the figures and a verdict.
//
// An element passes when |out - ref| <= atol + rtol * |ref| (or out == ref,
// for infinities). An output passes when every element passes, no element
// was left unwritten, and the relative error ||out - ref||_2 / ||ref||_2 is
// at most maxRelErr. The element test catches a few badly wrong elements;
// the norm test catches a small error spread over everything, which a loose
// per-element bound lets through.
//
// Default tolerances by the least precise float element type among the
// kernel's arguments (u = unit roundoff of that type):
//
//   dtype  atol   rtol   maxRelErr  why
//   f32    1e-6   1e-5   1e-5       u = 6e-8: leaves ~160 u for f32
//                                   reductions and approximate exp/tanh
//   f16    1e-3   2e-3   2e-3       u = 4.9e-4: the output rounding is up to
//                                   1 u, and flash attention rounds the
//                                   probabilities to f16 once more
//   bf16   1e-2   2e-2   1e-2       u = 3.9e-3: same reasoning, 8x coarser
//   f8e4m3 1.6e-2 0.125  0.0625     u = 0.0625: an output rounded to fp8 is
//                                   within 1 u; atol is 8 of its smallest
//                                   subnormals (2^-9)
//   f8e5m2 3.2e-2 0.25   0.125      u = 0.125: the same, 2x coarser
//   ints   0      0      0          integers must match exactly
//
// A program may override the table where its arithmetic is coarser than its
// element types say: matmul and attention with f32 inputs run their dot
// products in tf32 (u = 4.9e-4), so their tolerances grow like the error of
// a K-term (or D-term) tf32 sum. See Reference::tolerance and the programs'
// sources for those formulas.
//
// tilegym-reference-check runs kernels simulated the way GPU kernels compute
// against these tolerances: truncated-tf32 matmul (rel_err 7e-4 of 3e-3
// allowed, at K = 300 and 4096) and bf16 flash attention with bf16
// probabilities (rel_err 2e-3 of 1e-2) pass with margin.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_REFERENCE_COMPARE_H
#define TILEGYM_REFERENCE_COMPARE_H

#include "tilegym/Reference/Tensor.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tilegym::ref {

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  double maxRelErr = 0.0;
};

/// The table above.
Tolerance defaultTolerance(DType precision);

/// The least precise float type among `dtypes` (f8e5m2 < f8e4m3 < bf16 < f16
/// < f32 < f64); I32 when there is no float type.
DType leastPreciseDType(const std::vector<DType> &dtypes);

struct CompareResult {
  std::string name;           ///< Argument name, for printing.
  std::vector<int64_t> shape; ///< Output shape, for printing indices.
  DType dtype = DType::F32;
  Tolerance tolerance;
  std::string error; ///< Set when out and ref differ in size.

  /// Over the written elements; a NaN error counts as infinite.
  double maxAbsErr = 0.0;
  /// ||out - ref||_2 / ||ref||_2 over the written elements (||out - ref||_2
  /// alone, or 0, when ||ref||_2 is 0); NaN when an output is NaN.
  double relErr = 0.0;
  /// Written elements failing the element test; a NaN output always counts.
  int64_t mismatches = 0;
  /// Elements still holding the poison pattern (disjoint from mismatches).
  int64_t unwritten = 0;

  int64_t firstMismatch = -1; ///< Linear index, -1 if none.
  double firstMismatchGot = 0.0;
  double firstMismatchExpected = 0.0;
  int64_t firstUnwritten = -1; ///< Linear index, -1 if none.

  bool pass = false;
};

/// Compares `out` with `ref` (row-major, out.numel() values). With
/// `scale`, each element's magnitude (in the element test and in the norm
/// that divides the relative error) is max(|ref|, |scale|) where scale is
/// finite: pass the reference evaluated on |inputs| for outputs that are
/// sums or dot products, whose rounding error grows with sum |terms|, not
/// with |sum| (docs/verification.md).
CompareResult compare(const std::string &name, const HostTensor &out,
                      const std::vector<double> &ref,
                      const Tolerance &tolerance,
                      const std::vector<double> *scale = nullptr);

/// One line per output, e.g.
///   c [1000003] f32: max_abs_err=2.4e-07 rel_err=4.1e-08 mismatches=0
///   unwritten=0 (atol=1e-06 rtol=1e-05 max_rel_err=1e-05) PASS
/// (on one line), then, when there are some, lines for the first mismatch
/// and the first unwritten element:
///   c: first mismatch at [17]: got 1.5, expected 1.25
///   c: first unwritten at [1000000]
void printSummary(std::ostream &os, const CompareResult &result);

/// Prints the summaries of all outputs, then "verdict: PASS" or
/// "verdict: FAIL (n of m outputs failed)". Returns whether all passed.
bool printVerdict(std::ostream &os, const std::vector<CompareResult> &results);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_COMPARE_H
