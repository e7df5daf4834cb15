//===- FP8ToInteger.cpp - fp8 conversions as integer code -----------------===//
//
// fp8 values travel as bytes (the LLVM type converter makes them i8); only
// the conversions need arithmetic on their bits. Both directions are a few
// integer ops per element, the same on the CPU and on any GPU. Between fp8
// and i8 go unrealized casts, which the LLVM conversion's own cancel.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Conversion/FP8ToInteger/FP8ToInteger.h"
#include "tilegym/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace tilegym {
#define GEN_PASS_DEF_CONVERTFP8TOINTEGERPASS
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

using namespace mlir;

namespace {

/// An fp8 format: exponent bias, stored mantissa bits, and the encodings of
/// its largest finite magnitude and of its NaN.
struct FP8Format {
  int bias;
  int mantissaBits;
  int64_t maxFinite;
  int64_t nan;
  bool hasInfinity; // e5m2 is IEEE-like; e4m3fn spends that code on 448.

  int exponentBits() const { return 7 - mantissaBits; }
  /// The exponent of the smallest normal value.
  int minExponent() const { return 1 - bias; }
};

std::optional<FP8Format> formatOf(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return FP8Format{7, 3, 0x7e, 0x7f, false};
  if (isa<Float8E5M2Type>(type))
    return FP8Format{15, 2, 0x7b, 0x7f, true};
  return std::nullopt;
}

/// `type` with its element type (scalar or vector) replaced.
Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// Builds integer code over scalars or vectors of one shape.
class BitBuilder {
public:
  BitBuilder(PatternRewriter &rewriter, Location loc, Type shapeLike)
      : b(rewriter), loc(loc), shapeLike(shapeLike) {}

  Type intType(unsigned width) const {
    return withElement(shapeLike, b.getIntegerType(width));
  }
  /// `scalar` as a constant of the builder's shape.
  Value splat(TypedAttr scalar) {
    if (auto vector = dyn_cast<VectorType>(shapeLike))
      scalar = DenseElementsAttr::get(vector.clone(scalar.getType()),
                                      cast<Attribute>(scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value constant(unsigned width, int64_t value) {
    return splat(b.getIntegerAttr(b.getIntegerType(width), value));
  }
  unsigned bitWidth(Value v) const {
    return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  }
  Value c(Value like, int64_t value) { return constant(bitWidth(like), value); }
  Value andI(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, c(x, m));
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shl(Value x, Value n) { return arith::ShLIOp::create(b, loc, x, n); }
  Value shr(Value x, Value n) { return arith::ShRUIOp::create(b, loc, x, n); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value maxS(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value minS(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value bitcast(Value x, Type element) {
    return arith::BitcastOp::create(b, loc, withElement(x.getType(), element),
                                    x);
  }
  /// fp8 and i8 values of the same bits. An unrealized cast, not an
  /// arith.bitcast: the LLVM conversion turns fp8 into i8, so the casts
  /// cancel; an arith.bitcast of a constant i8 would be folded back into an
  /// fp8 constant, which LLVM cannot take.
  Value reinterpret(Value x, Type element) {
    return UnrealizedConversionCastOp::create(
               b, loc, withElement(x.getType(), element), x)
        .getResult(0);
  }

  PatternRewriter &b;
  Location loc;
  Type shapeLike;
};

/// fp8 bits (i8) to the f32 with the same value: exact.
Value decodeToF32(BitBuilder &bb, Value bits8, const FP8Format &fmt) {
  PatternRewriter &b = bb.b;
  Value u = arith::ExtUIOp::create(b, bb.loc, bb.intType(32), bits8);
  Value sign = bb.shl(bb.andI(u, 0x80), bb.constant(32, 24));
  Value exponent = bb.andI(bb.shr(u, bb.constant(32, fmt.mantissaBits)),
                           (1 << fmt.exponentBits()) - 1);
  Value mantissa = bb.andI(u, (1 << fmt.mantissaBits) - 1);
  // Normal: rebias the exponent, left-align the mantissa.
  Value normal =
      bb.orI(bb.shl(bb.add(exponent, bb.constant(32, 127 - fmt.bias)),
                    bb.constant(32, 23)),
             bb.shl(mantissa, bb.constant(32, 23 - fmt.mantissaBits)));
  // Subnormal (exponent field 0, zero included): mantissa * 2^(1 - bias -
  // mantissaBits), exact in f32.
  Type f32 = withElement(bb.shapeLike, b.getF32Type());
  Value scale = bb.splat(b.getF32FloatAttr(
      std::ldexp(1.0f, fmt.minExponent() - fmt.mantissaBits)));
  Value subnormalValue = arith::MulFOp::create(
      b, bb.loc, arith::UIToFPOp::create(b, bb.loc, f32, mantissa), scale);
  Value subnormal = bb.bitcast(subnormalValue, b.getI32Type());
  Value magnitude =
      bb.select(bb.cmp(arith::CmpIPredicate::eq, exponent, bb.constant(32, 0)),
                subnormal, normal);
  // Specials: e4m3fn's S.1111.111 is NaN; e5m2's top exponent is inf/NaN.
  Value low7 = bb.andI(u, 0x7f);
  Value nanBits = bb.constant(32, 0x7fc00000);
  if (fmt.hasInfinity) {
    Value top = bb.cmp(arith::CmpIPredicate::eq, exponent,
                       bb.constant(32, (1 << fmt.exponentBits()) - 1));
    Value inf = bb.select(
        bb.cmp(arith::CmpIPredicate::eq, mantissa, bb.constant(32, 0)),
        bb.constant(32, 0x7f800000), nanBits);
    magnitude = bb.select(top, inf, magnitude);
  } else {
    magnitude =
        bb.select(bb.cmp(arith::CmpIPredicate::eq, low7, bb.constant(32, 0x7f)),
                  nanBits, magnitude);
  }
  return bb.bitcast(bb.orI(sign, magnitude), b.getF32Type());
}

/// An f32 or f64 value to fp8 bits (i8): round to nearest even, saturate.
Value encodeFromFloat(BitBuilder &bb, Value x, const FP8Format &fmt) {
  PatternRewriter &b = bb.b;
  auto source = cast<FloatType>(getElementTypeOrSelf(x.getType()));
  unsigned w = source.getWidth();
  int sourceMantissa = source.getFPMantissaWidth() - 1;
  int sourceBias = w == 64 ? 1023 : 127;
  Value bits = bb.bitcast(x, b.getIntegerType(w));
  Value sign = bb.shr(bits, bb.constant(w, w - 1));
  Value abs = bb.andI(bits, (int64_t(1) << (w - 1)) - 1);
  int64_t infBits = ((int64_t(1) << (w - 1 - sourceMantissa)) - 1)
                    << sourceMantissa;
  Value isNaN = bb.cmp(arith::CmpIPredicate::ugt, abs, bb.constant(w, infBits));
  Value exponentField = bb.shr(abs, bb.constant(w, sourceMantissa));
  // value = mantissa * 2^(exponent - sourceMantissa), subnormals included.
  Value isNormal =
      bb.cmp(arith::CmpIPredicate::ne, exponentField, bb.constant(w, 0));
  Value mantissa =
      bb.orI(bb.andI(abs, (int64_t(1) << sourceMantissa) - 1),
             bb.select(isNormal, bb.constant(w, int64_t(1) << sourceMantissa),
                       bb.constant(w, 0)));
  Value exponent = bb.sub(bb.maxS(exponentField, bb.constant(w, 1)),
                          bb.constant(w, sourceBias));
  // Drop the bits below the result's ulp: the ulp of the value's binade, or
  // of the smallest normal binade for results that are subnormal. A shift
  // past sourceMantissa + 2 leaves less than half an ulp either way.
  Value belowMin = bb.maxS(bb.sub(bb.constant(w, fmt.minExponent()), exponent),
                           bb.constant(w, 0));
  Value shift = bb.minS(
      bb.add(bb.constant(w, sourceMantissa - fmt.mantissaBits), belowMin),
      bb.constant(w, sourceMantissa + 2));
  Value one = bb.constant(w, 1);
  Value half = bb.shl(one, bb.sub(shift, one));
  Value odd = bb.andI(bb.shr(mantissa, shift), 1);
  Value rounded =
      bb.shr(bb.add(bb.add(mantissa, bb.sub(half, one)), odd), shift);
  // Normal results: exponent field above the rounded significand (a carry
  // out of the significand moves to the next binade by itself); subnormal
  // results: the rounded significand alone (2^mantissaBits is the smallest
  // normal's encoding).
  Value normal =
      bb.sub(bb.add(bb.shl(bb.add(exponent, bb.constant(w, fmt.bias)),
                           bb.constant(w, fmt.mantissaBits)),
                    rounded),
             bb.constant(w, int64_t(1) << fmt.mantissaBits));
  Value encoded = bb.select(bb.cmp(arith::CmpIPredicate::sge, exponent,
                                   bb.constant(w, fmt.minExponent())),
                            normal, rounded);
  encoded = bb.minS(encoded, bb.constant(w, fmt.maxFinite));
  encoded = bb.select(isNaN, bb.constant(w, fmt.nan), encoded);
  encoded = bb.orI(encoded, bb.shl(sign, bb.constant(w, 7)));
  return arith::TruncIOp::create(b, bb.loc, bb.intType(8), encoded);
}

struct ExtFFromFP8 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<FP8Format> fmt =
        formatOf(getElementTypeOrSelf(op.getIn().getType()));
    if (!fmt)
      return failure();
    BitBuilder bb(rewriter, op.getLoc(), op.getIn().getType());
    Value bits = bb.reinterpret(op.getIn(), rewriter.getI8Type());
    Value wide = decodeToF32(bb, bits, *fmt);
    // Every fp8 value is exact in f16, bf16 and f64 too.
    auto out = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (out.getWidth() > 32)
      wide = arith::ExtFOp::create(rewriter, op.getLoc(), op.getType(), wide);
    else if (out.getWidth() < 32)
      wide = arith::TruncFOp::create(rewriter, op.getLoc(), op.getType(), wide);
    rewriter.replaceOp(op, wide);
    return success();
  }
};

struct TruncFToFP8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<FP8Format> fmt = formatOf(getElementTypeOrSelf(op.getType()));
    if (!fmt)
      return failure();
    Value in = op.getIn();
    auto source = cast<FloatType>(getElementTypeOrSelf(in.getType()));
    if (source.getWidth() < 32) // f16, bf16: widening to f32 is exact
      in = arith::ExtFOp::create(
          rewriter, op.getLoc(),
          withElement(in.getType(), rewriter.getF32Type()), in);
    BitBuilder bb(rewriter, op.getLoc(), in.getType());
    Value bits = encodeFromFloat(bb, in, *fmt);
    rewriter.replaceOp(
        op, bb.reinterpret(bits, getElementTypeOrSelf(op.getType())));
    return success();
  }
};

struct ConstantFP8 : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    if (!formatOf(element))
      return failure();
    Type i8 = rewriter.getI8Type();
    TypedAttr bits;
    if (auto f = dyn_cast<FloatAttr>(op.getValue()))
      bits = rewriter.getIntegerAttr(i8, f.getValue().bitcastToAPInt());
    else if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      bits = dense.bitcast(i8);
    else
      return failure();
    Value raw = arith::ConstantOp::create(rewriter, op.getLoc(), bits);
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(op, op.getType(),
                                                            raw);
    return success();
  }
};

struct ConvertFP8ToIntegerPass
    : tilegym::impl::ConvertFP8ToIntegerPassBase<ConvertFP8ToIntegerPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tilegym::populateFP8ToIntegerPatterns(patterns);
    // No folding: it would turn the i8 constants back into fp8 ones.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void tilegym::populateFP8ToIntegerPatterns(RewritePatternSet &patterns) {
  patterns.add<ExtFFromFP8, TruncFToFP8, ConstantFP8>(patterns.getContext());
}
