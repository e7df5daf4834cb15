//===- Attention.cpp - Reference for attention forward --------------------===//

#include "Parallel.h"
#include "Programs.h"

#include <algorithm>
#include <cmath>

namespace tilegym::ref {

namespace {

/// O = softmax(Q K^T * scale [+ causal mask]) V per (batch, head), with
/// scale = 1/sqrt(D); the causal mask drops keys j > query i. Computes each
/// full score row, as the definition reads, rather than online.
void computeAttention(const Sizes &sizes, const Options &options,
                      const std::vector<const HostTensor *> &inputs,
                      std::vector<std::vector<double>> &outputs) {
  std::vector<double> q = inputs[0]->values(), k = inputs[1]->values(),
                      v = inputs[2]->values();
  std::vector<double> &o = outputs[0];
  int64_t batch = sizes.at("B"), heads = sizes.at("H"), s = sizes.at("S"),
          d = sizes.at("D");
  bool causal = optionEnabled(options, "CAUSAL");
  double scale = 1.0 / std::sqrt(static_cast<double>(d));
  o.assign(batch * heads * s * d, 0.0);
  // One task per (batch, head, query) row; causal rows differ in cost, which
  // parallelFor's dynamic ranges absorb.
  parallelFor(batch * heads * s, [&](int64_t begin, int64_t end) {
    std::vector<double> scores(s);
    for (int64_t row = begin; row < end; ++row) {
      const int64_t i = row % s;
      const int64_t base = (row / s) * s * d; // Offset of this [S, D] slice.
      int64_t numKeys = causal ? i + 1 : s;
      double rowMax = -INFINITY;
      for (int64_t j = 0; j < numKeys; ++j) {
        double dotProduct = 0.0;
        for (int64_t c = 0; c < d; ++c)
          dotProduct += q[base + i * d + c] * k[base + j * d + c];
        scores[j] = dotProduct * scale;
        rowMax = std::max(rowMax, scores[j]);
      }
      double sum = 0.0;
      for (int64_t j = 0; j < numKeys; ++j) {
        scores[j] = std::exp(scores[j] - rowMax);
        sum += scores[j];
      }
      double *out = &o[base + i * d];
      for (int64_t j = 0; j < numKeys; ++j) {
        double weight = scores[j] / sum;
        for (int64_t c = 0; c < d; ++c)
          out[c] += weight * v[base + j * d + c];
      }
    }
  });
}

/// f32 inputs: both products run in tf32 (see matmulTolerance). With q, k in
/// [-2, 2] the score error has rms ~ 8e-4 * 4/3 (the scale cancels the
/// sqrt(D) growth), a relative error of each weight; the P V product adds
/// 8e-4 per term. O is a weighted mean of V rows, so its relative error
/// stays ~1.4e-3: rtol 1e-2 is ~7 of those, maxRelErr 3e-3 about twice.
/// f16 and bf16 (probabilities rounded to the input type before P V) are
/// covered by the default table.
Tolerance attentionTolerance(const Sizes &, DType precision) {
  if (precision != DType::F32)
    return defaultTolerance(precision);
  return {1e-3, 1e-2, 3e-3};
}

} // namespace

Reference makeAttentionReference(bool causal) {
  Reference ref;
  ref.name = causal ? "attention_causal" : "attention";
  ref.description = causal ? "O = softmax(Q K^T / sqrt(D) + causal mask) V"
                           : "O = softmax(Q K^T / sqrt(D)) V, no mask";
  // The name says whether the mask applies, not the kernel's CAUSAL const.
  ref.fixedOptions = {{"CAUSAL", causal ? "1" : "0"}};
  // S is not a multiple of a tile size: exercises the masked last key tile.
  ref.sizes = {{"B", 2}, {"H", 3}, {"S", 200}, {"D", 64}};
  // q, k in [-2, 2] give scores of rms ~1.3: a peaked, not flat, softmax.
  ref.args = {{"q", {"B", "H", "S", "D"}, Role::Input, -2.0, 2.0},
              {"k", {"B", "H", "S", "D"}, Role::Input, -2.0, 2.0},
              {"v", {"B", "H", "S", "D"}, Role::Input},
              {"o", {"B", "H", "S", "D"}, Role::Output}};
  ref.compute = computeAttention;
  ref.tolerance = attentionTolerance;
  return ref;
}

} // namespace tilegym::ref
