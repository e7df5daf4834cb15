//===- Gelu.cpp - Reference for y = gelu_tanh(x * w + b) ------------------===//

#include "Parallel.h"
#include "Programs.h"

#include <cmath>

namespace tilegym::ref {

namespace {

double geluTanh(double v) {
  constexpr double kSqrt2OverPi = 0.79788456080286535588; // sqrt(2 / pi)
  return 0.5 * v * (1.0 + std::tanh(kSqrt2OverPi * (v + 0.044715 * v * v * v)));
}

void computeGelu(const Sizes &sizes, const Options &,
                 const std::vector<const HostTensor *> &inputs,
                 std::vector<std::vector<double>> &outputs) {
  std::vector<double> x = inputs[0]->values(), w = inputs[1]->values(),
                      b = inputs[2]->values();
  std::vector<double> &y = outputs[0];
  int64_t m = sizes.at("M"), n = sizes.at("N");
  y.assign(m * n, 0.0);
  parallelFor(m, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < n; ++j)
        y[i * n + j] = geluTanh(x[i * n + j] * w[j] + b[j]);
  });
}

} // namespace

Reference makeGeluReference() {
  Reference ref;
  ref.name = "gelu";
  ref.description = "y[m,n] = gelu_tanh(x[m,n] * w[n] + b[n])";
  ref.sizes = {{"M", 257}, {"N", 1000}};
  // x * w + b spans about [-4, 4]: the curved part of GELU and both tails.
  ref.args = {{"x", {"M", "N"}, Role::Input, -2.0, 2.0},
              {"w", {"N"}, Role::Input, 0.5, 1.5},
              {"b", {"N"}, Role::Input, -1.0, 1.0},
              {"y", {"M", "N"}, Role::Output}};
  ref.compute = computeGelu;
  return ref;
}

} // namespace tilegym::ref
