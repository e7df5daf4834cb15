//===- BuiltinsRandom.cpp - counter-based random numbers
//-------------------===//
//
// rand, randn and randint: Philox4x32 (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3", SC'11) keyed by a seed and counted by
// per-element offsets, built from elementwise integer ops. Each element's
// numbers depend only on (seed, offset), never on the tile's shape, the
// thread or the backend: the CPU and the GPU draw the same stream, and so
// does Triton's tl.rand / tl.randn / tl.randint for the same seed and
// offsets (the same constants, key schedule and float conversions).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

namespace {
// Philox4x32's multipliers and Weyl key increments.
constexpr uint32_t kRoundA = 0xD2511F53, kRoundB = 0xCD9E8D57;
constexpr uint32_t kKeyA = 0x9E3779B9, kKeyB = 0xBB67AE85;

/// Elementwise i32 arithmetic on values of one type (a tile or a scalar).
struct IntBuilder {
  OpBuilder &b;
  Location loc;
  Type type;

  Value constant(uint32_t v) const {
    return constantOf(b, loc, type,
                      b.getI32IntegerAttr(static_cast<int32_t>(v)));
  }
  Value xor_(Value x, Value y) const {
    return arith::XOrIOp::create(b, loc, x, y);
  }
  Value add(Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
};

/// The four 32-bit words of Philox4x32 with `rounds` rounds for counter
/// (offset, 0, 0, 0); `key(r)` gives round r's two key words, of the
/// counter's type. The high half of each unsigned product is
/// mului_extended's.
std::array<Value, 4>
philox(const IntBuilder &ib, Value offset, int64_t rounds,
       function_ref<std::pair<Value, Value>(int64_t)> key) {
  Value zero = ib.constant(0);
  Value c0 = offset, c1 = zero, c2 = zero, c3 = zero;
  Value a = ib.constant(kRoundA), bConst = ib.constant(kRoundB);
  for (int64_t r = 0; r < rounds; ++r) {
    auto [k0, k1] = key(r);
    auto prodB = arith::MulUIExtendedOp::create(ib.b, ib.loc, bConst, c2);
    auto prodA = arith::MulUIExtendedOp::create(ib.b, ib.loc, a, c0);
    c0 = ib.xor_(ib.xor_(prodB.getHigh(), c1), k0);
    c2 = ib.xor_(ib.xor_(prodA.getHigh(), c3), k1);
    c1 = prodB.getLow();
    c3 = prodA.getLow();
  }
  return {c0, c1, c2, c3};
}

/// A 32-bit word as a float in [0, 1): its bits as a signed integer x,
/// ~x where negative (the 2^31 non-negative values, each twice), times
/// 2^-31 (rounded to 4.6566127342e-10, as Triton's uint_to_uniform_float).
Value uniform(const IntBuilder &ib, Value word) {
  Value sign = arith::ShRSIOp::create(ib.b, ib.loc, word, ib.constant(31));
  Value magnitude = ib.xor_(word, sign);
  Type f32 = ib.b.getF32Type();
  Type floatType = f32;
  if (auto tile = dyn_cast<RankedTensorType>(ib.type))
    floatType = tile.clone(f32);
  Value f = arith::SIToFPOp::create(ib.b, ib.loc, floatType, magnitude);
  Value scale = constantOf(ib.b, ib.loc, floatType,
                           ib.b.getF32FloatAttr(4.6566127342e-10f));
  return arith::MulFOp::create(ib.b, ib.loc, f, scale);
}

Value floatConstant(OpBuilder &b, Location loc, Type like, double v) {
  return constantOf(b, loc, like, b.getF32FloatAttr(static_cast<float>(v)));
}
} // namespace

/// rand(seed, offset), randn(seed, offset), randint(seed, offset), each with
/// `rounds = 10`: seed and offset are i32 (scalars or tiles, broadcast
/// together); the result has their shape.
Val MLIRGenImpl::genRandom(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (failed(checkArgs(call, 2, 2, {"rounds"})))
    return Val::failure();
  int64_t rounds = 10;
  if (const ExprAST *r = keyword(call, "rounds")) {
    std::optional<int64_t> v = constInt(*r, "rounds");
    if (!v)
      return Val::failure();
    if (*v < 1 || *v > 64) {
      error(r->getLoc()) << "'" << name << "' takes rounds from 1 to 64, got "
                         << *v;
      return Val::failure();
    }
    rounds = *v;
  }
  SmallVector<Value, 2> xs;
  static constexpr StringLiteral kWhat[] = {"seed", "offset"};
  for (auto [arg, what] : llvm::zip(call.getArgs(), kWhat)) {
    Val v = genExpr(*arg);
    if (v.failed())
      return v;
    if (!v.isConst() && isa<t::ViewType>(v.value.getType())) {
      error(arg->getLoc()) << "'" << name << "' " << what
                           << " cannot be a view; load a tile first";
      return Val::failure();
    }
    Value x = materializeDefault(v, arg->getLoc());
    if (!x)
      return Val::failure();
    Type element = elementTypeOf(x.getType());
    if (element.isIndex())
      x = castTo(x, builder.getI32Type(), arg->getLoc());
    else if (!element.isInteger(32)) {
      error(arg->getLoc()) << "'" << name << "' " << what
                           << " must be i32, got " << describe(x.getType())
                           << "; use cast";
      return Val::failure();
    }
    xs.push_back(x);
  }
  Value seed = xs[0], offset = xs[1];
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(shapeOf(seed.getType()), shapeOf(offset.getType()), loc);
  if (!shape)
    return Val::failure();
  bool tile = isa<RankedTensorType>(seed.getType()) ||
              isa<RankedTensorType>(offset.getType());
  if (tile)
    offset = broadcastTo(offset, *shape, loc);
  // The key is the seed as a 64-bit integer: its low word and its sign
  // extension, advanced by Weyl increments each round. Computed on the
  // seed as it is (a scalar seed: scalar adds, one splat per round).
  IntBuilder keys{builder, loc, seed.getType()};
  Value k0 = seed,
        k1 = arith::ShRSIOp::create(builder, loc, seed, keys.constant(31));
  IntBuilder ib{builder, loc, offset.getType()};
  std::array<Value, 4> words =
      philox(ib, offset, rounds, [&](int64_t r) -> std::pair<Value, Value> {
        if (r > 0) {
          k0 = keys.add(k0, keys.constant(kKeyA));
          k1 = keys.add(k1, keys.constant(kKeyB));
        }
        if (!tile)
          return {k0, k1};
        return {broadcastTo(k0, *shape, loc), broadcastTo(k1, *shape, loc)};
      });
  if (name == "randint")
    return Val{words[0], {}};
  Value u0 = uniform(ib, words[0]);
  if (name == "rand")
    return Val{u0, {}};
  // randn: Box-Muller on the first two words, the cosine branch:
  // sqrt(-2 log max(u0, 1e-7)) * cos(2 pi u1).
  Value u1 = uniform(ib, words[1]);
  Type f32Type = u0.getType();
  Value u = arith::MaximumFOp::create(
      builder, loc, floatConstant(builder, loc, f32Type, 1.0e-7), u0);
  Value theta = arith::MulFOp::create(
      builder, loc, floatConstant(builder, loc, f32Type, 6.283185307179586),
      u1);
  Value r = math::SqrtOp::create(
      builder, loc,
      arith::MulFOp::create(builder, loc,
                            floatConstant(builder, loc, f32Type, -2.0),
                            math::LogOp::create(builder, loc, u)));
  return Val{arith::MulFOp::create(builder, loc, r,
                                   math::CosOp::create(builder, loc, theta)),
             {}};
}
