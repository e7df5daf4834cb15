//===- VectorAdd.cpp - Reference for c = a + b ----------------------------===//

#include "Programs.h"

namespace tilegym::ref {

namespace {

void computeVectorAdd(const Sizes &sizes, const Options &,
                      const std::vector<const HostTensor *> &inputs,
                      std::vector<std::vector<double>> &outputs) {
  std::vector<double> a = inputs[0]->values(), b = inputs[1]->values();
  std::vector<double> &c = outputs[0];
  int64_t n = sizes.at("N");
  c.assign(n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

} // namespace

Reference makeVectorAddReference() {
  Reference ref;
  ref.name = "vector_add";
  ref.description = "c[i] = a[i] + b[i]";
  // Not a multiple of any tile size: exercises the masked last tile.
  ref.sizes = {{"N", 1000003}};
  ref.args = {{"a", {"N"}, Role::Input},
              {"b", {"N"}, Role::Input},
              {"c", {"N"}, Role::Output}};
  ref.compute = computeVectorAdd;
  return ref;
}

} // namespace tilegym::ref
