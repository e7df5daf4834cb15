//===- Softmax.cpp - Reference for the row softmax ------------------------===//

#include "Parallel.h"
#include "Programs.h"

#include <algorithm>
#include <cmath>

namespace tilegym::ref {

namespace {

void computeSoftmax(const Sizes &sizes, const Options &,
                    const std::vector<const HostTensor *> &inputs,
                    std::vector<std::vector<double>> &outputs) {
  std::vector<double> x = inputs[0]->values();
  std::vector<double> &y = outputs[0];
  int64_t m = sizes.at("M"), n = sizes.at("N");
  y.assign(m * n, 0.0);
  parallelFor(m, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t row = i * n;
      double rowMax = -INFINITY;
      for (int64_t j = 0; j < n; ++j)
        rowMax = std::max(rowMax, x[row + j]);
      double sum = 0.0;
      for (int64_t j = 0; j < n; ++j) {
        y[row + j] = std::exp(x[row + j] - rowMax);
        sum += y[row + j];
      }
      for (int64_t j = 0; j < n; ++j)
        y[row + j] /= sum;
    }
  });
}

} // namespace

Reference makeSoftmaxReference() {
  Reference ref;
  ref.name = "softmax";
  ref.aliases = {"softmax_online", "softmax_looped"};
  ref.description = "y[m,:] = softmax(x[m,:]), max-subtracted";
  ref.sizes = {{"M", 67}, {"N", 1000}};
  // A spread of 10 makes the largest weights ~e^10 times the smallest: the
  // max subtraction and the normalisation both matter.
  ref.args = {{"x", {"M", "N"}, Role::Input, -5.0, 5.0},
              {"y", {"M", "N"}, Role::Output}};
  ref.compute = computeSoftmax;
  return ref;
}

} // namespace tilegym::ref
