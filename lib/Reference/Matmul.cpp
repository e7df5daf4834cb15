//===- Matmul.cpp - Reference for C = A @ B -------------------------------===//

#include "Parallel.h"
#include "Programs.h"

#include <algorithm>
#include <cmath>

namespace tilegym::ref {

namespace {

void computeMatmul(const Sizes &sizes, const Options &,
                   const std::vector<const HostTensor *> &inputs,
                   std::vector<std::vector<double>> &outputs) {
  std::vector<double> a = inputs[0]->values(), b = inputs[1]->values();
  std::vector<double> &c = outputs[0];
  int64_t m = sizes.at("M"), n = sizes.at("N"), k = sizes.at("K");
  c.assign(m * n, 0.0);
  // Rows of C are independent: threads take ranges of them. i-k-j order
  // walks B and C along rows, kRows rows of C per pass over B so that each
  // row of B is reused from cache (2-3x faster once B outgrows the cache).
  // Every c[i, j] still adds its products in order p = 0, 1, ..., K-1.
  constexpr int64_t kRows = 8;
  parallelFor(m, [&](int64_t begin, int64_t end) {
    for (int64_t i0 = begin; i0 < end; i0 += kRows)
      for (int64_t p = 0; p < k; ++p)
        for (int64_t i = i0; i < std::min(i0 + kRows, end); ++i) {
          // Plain row pointers vectorise better than indexing the vectors.
          const double aip = a[i * k + p], *bRow = b.data() + p * n;
          double *cRow = c.data() + i * n;
          for (int64_t j = 0; j < n; ++j)
            cRow[j] += aip * bRow[j];
        }
  });
}

/// f32 inputs go through tensor cores as tf32, which keeps 10 mantissa
/// bits, rounded or (when the kernel feeds f32 bits as they are) truncated:
/// each product a*b carries a relative error of rms up to
/// 2^-10 * sqrt(2/3) ~ 8e-4 and, when truncated, a bias of -2^-10. With
/// inputs in [-1, 1] (products of rms 1/3), a K-term sum has an error of rms
/// 2.7e-4 * sqrt(K) around a bias of 1e-3 * |C|: atol = 2e-3 * sqrt(K) is
/// ~7 of those rms, rare even over millions of elements, and rtol and
/// maxRelErr of 3e-3 cover the bias plus the spread. f16 and bf16 products
/// are exact in f32: the default table applies.
Tolerance matmulTolerance(const Sizes &sizes, DType precision) {
  if (precision != DType::F32)
    return defaultTolerance(precision);
  return {2e-3 * std::sqrt(static_cast<double>(sizes.at("K"))), 3e-3, 3e-3};
}

} // namespace

Reference makeMatmulReference() {
  Reference ref;
  ref.name = "matmul";
  ref.description = "C = A @ B";
  // No dimension a multiple of a tile size: exercises the padded edge tiles.
  ref.sizes = {{"M", 257}, {"N", 129}, {"K", 300}};
  ref.args = {{"a", {"M", "K"}, Role::Input},
              {"b", {"K", "N"}, Role::Input},
              {"c", {"M", "N"}, Role::Output}};
  ref.compute = computeMatmul;
  ref.tolerance = matmulTolerance;
  return ref;
}

} // namespace tilegym::ref
