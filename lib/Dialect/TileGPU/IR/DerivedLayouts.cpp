//===- DerivedLayouts.cpp - layouts in which a view op moves no data ------===//
//
// A reshape, a permutation or a reduction can leave every element in the
// register, lane and warp that holds it: the result's layout is then the
// source's bases re-expressed in the result's coordinates, and the op is a
// renaming of registers. tilegpu-assign-layouts gives those ops these
// layouts and puts any data movement into an explicit convert_layout.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilegym::tilegpu;

/// What `basis` adds along each dimension of a tile of `shape`: a basis at
/// or past the size wraps to 0 (sizes are powers of two).
static Basis wrapped(const Basis &basis, ArrayRef<int64_t> shape) {
  Basis out(basis);
  for (auto [v, s] : llvm::zip(out, shape))
    if (v >= s)
      v = 0;
  return out;
}

/// A register, lane and warp basis list as a linear layout, or null past
/// what a `#tilegpu.linear` can hold.
static LinearLayoutAttr makeLinear(MLIRContext *ctx, LinearBases bases) {
  if (bases.rank == 0 || (int64_t)bases.reg.size() > kMaxRegisterBits ||
      (int64_t)bases.lane.size() != kLaneBits ||
      (int64_t)bases.warp.size() > kLaneBits)
    return {};
  return LinearLayoutAttr::get(ctx, bases);
}

LinearLayoutAttr
tilegym::tilegpu::getReshapedLayout(DistributedLayoutAttr layout,
                                    ArrayRef<int64_t> fromShape,
                                    ArrayRef<int64_t> toShape) {
  if (!layout || layout.getRank() != (int64_t)fromShape.size() ||
      toShape.empty())
    return {};
  LinearBases src = layout.getLinearBases();
  // Row-major strides of both shapes: an element keeps its row-major index.
  auto strides = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> s(shape.size(), 1);
    for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
      s[d] = s[d + 1] * shape[d + 1];
    return s;
  };
  SmallVector<int64_t> fromStrides = strides(fromShape),
                       toStrides = strides(toShape);
  // Each basis must name one bit of the row-major index, and no two the
  // same bit: then the sum of a set of bases is their bitwise or, and the
  // element they name maps to the same element of the result.
  llvm::SmallDenseSet<int64_t> seen;
  bool ok = true;
  auto map = [&](ArrayRef<Basis> bases) {
    SmallVector<Basis> out;
    for (const Basis &basis : bases) {
      int64_t flat = 0;
      for (auto [v, s] : llvm::zip(wrapped(basis, fromShape), fromStrides))
        flat += v * s;
      Basis mapped(toShape.size(), 0);
      if (flat != 0) {
        ok &= llvm::isPowerOf2_64(flat) && seen.insert(flat).second;
        for (auto [d, s] : llvm::enumerate(toStrides))
          mapped[d] = flat / s % toShape[d];
      }
      out.push_back(std::move(mapped));
    }
    return out;
  };
  LinearBases dst;
  dst.rank = toShape.size();
  dst.reg = map(getRegisterBits(src, fromShape));
  dst.lane = map(src.lane);
  dst.warp = map(src.warp);
  if (!ok)
    return {};
  return makeLinear(layout.getContext(), std::move(dst));
}

LinearLayoutAttr
tilegym::tilegpu::getPermutedLayout(DistributedLayoutAttr layout,
                                    ArrayRef<int64_t> fromShape,
                                    ArrayRef<int64_t> permutation) {
  if (!layout || layout.getRank() != (int64_t)fromShape.size() ||
      permutation.size() != fromShape.size())
    return {};
  LinearBases src = layout.getLinearBases();
  // Result dimension j is source dimension permutation[j].
  auto map = [&](ArrayRef<Basis> bases) {
    SmallVector<Basis> out;
    for (const Basis &basis : bases) {
      Basis w = wrapped(basis, fromShape), mapped(w.size(), 0);
      for (auto [j, p] : llvm::enumerate(permutation))
        mapped[j] = w[p];
      out.push_back(std::move(mapped));
    }
    return out;
  };
  LinearBases dst;
  dst.rank = src.rank;
  dst.reg = map(getRegisterBits(src, fromShape));
  dst.lane = map(src.lane);
  dst.warp = map(src.warp);
  return makeLinear(layout.getContext(), std::move(dst));
}

bool tilegym::tilegpu::haveSamePlacement(RankedTensorType a,
                                         RankedTensorType b) {
  DistributedLayoutAttr la = getLayout(a), lb = getLayout(b);
  if (!la || !lb || a.getShape() != b.getShape())
    return false;
  if (la == lb)
    return true;
  ArrayRef<int64_t> shape = a.getShape();
  LinearBases ba = la.getLinearBases(), bb = lb.getLinearBases();
  auto same = [&](ArrayRef<Basis> x, ArrayRef<Basis> y) {
    if (x.size() != y.size())
      return false;
    for (auto [u, v] : llvm::zip(x, y))
      if (wrapped(u, shape) != wrapped(v, shape))
        return false;
    return true;
  };
  return same(getRegisterBits(ba, shape), getRegisterBits(bb, shape)) &&
         same(ba.lane, bb.lane) && same(ba.warp, bb.warp);
}
