//===- BuiltinsMath.cpp - math and reductions -----------------------------===//
//
// Elementwise math functions (a table: name, operand rule, the op built),
// reductions along an axis, and min/max of two operands.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

namespace {
/// An elementwise math function: its name, its number of operands, whether
/// integer operands are allowed (all operands share one element type), and
/// the ops it builds on operands of that type.
struct MathFunction {
  StringLiteral name;
  unsigned arity;
  bool acceptsIntegers;
  Value (*build)(OpBuilder &, Location, ArrayRef<Value>);
};

template <typename Op>
Value unary(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return Op::create(b, loc, x[0]);
}
template <typename Op>
Value binary(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return Op::create(b, loc, x[0], x[1]);
}

Value constantLike(OpBuilder &b, Location loc, Value like, double v) {
  Type type = like.getType();
  auto element = cast<FloatType>(elementTypeOf(type));
  return constantOf(b, loc, type, b.getFloatAttr(element, v));
}

Value buildAbs(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  if (isa<FloatType>(elementTypeOf(x[0].getType())))
    return math::AbsFOp::create(b, loc, x[0]);
  return math::AbsIOp::create(b, loc, x[0]);
}

/// 1 / (1 + exp(-x)): saturates to 0 and 1 without NaNs (exp(-x) overflows
/// to inf for very negative x, and 1 / inf is 0).
Value buildSigmoid(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  Value one = constantLike(b, loc, x[0], 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x[0]));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

Value buildFma(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return math::FmaOp::create(b, loc, x[0], x[1], x[2]);
}

/// min(max(x, lo), hi); a NaN x stays NaN, as in max and min.
Value buildClamp(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  if (isa<FloatType>(elementTypeOf(x[0].getType())))
    return arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, x[0], x[1]), x[2]);
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, x[0], x[1]), x[2]);
}

// clang-format off
const MathFunction kMathFunctions[] = {
    {"exp",     1, false, unary<math::ExpOp>},
    {"exp2",    1, false, unary<math::Exp2Op>},
    {"expm1",   1, false, unary<math::ExpM1Op>},
    {"log",     1, false, unary<math::LogOp>},
    {"log2",    1, false, unary<math::Log2Op>},
    {"log1p",   1, false, unary<math::Log1pOp>},
    {"sqrt",    1, false, unary<math::SqrtOp>},
    {"rsqrt",   1, false, unary<math::RsqrtOp>},
    {"sin",     1, false, unary<math::SinOp>},
    {"cos",     1, false, unary<math::CosOp>},
    {"tan",     1, false, unary<math::TanOp>},
    {"tanh",    1, false, unary<math::TanhOp>},
    {"erf",     1, false, unary<math::ErfOp>},
    {"sigmoid", 1, false, buildSigmoid},
    {"floor",   1, false, unary<math::FloorOp>},
    {"ceil",    1, false, unary<math::CeilOp>},
    {"round",   1, false, unary<math::RoundOp>},
    {"trunc",   1, false, unary<math::TruncOp>},
    {"abs",     1, true,  buildAbs},
    {"pow",     2, false, binary<math::PowFOp>},
    {"fma",     3, false, buildFma},
    {"clamp",   3, true,  buildClamp},
};
// clang-format on

const MathFunction *lookupMath(StringRef name) {
  for (const MathFunction &f : kMathFunctions)
    if (f.name == name)
      return &f;
  return nullptr;
}
} // namespace

bool tilegym::mlirgen::isMathFunction(StringRef name) {
  return lookupMath(name) != nullptr;
}

Val MLIRGenImpl::genMath(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  const MathFunction &fn = *lookupMath(name);
  if (failed(checkArgs(call, fn.arity, fn.arity, {})))
    return Val::failure();
  SmallVector<Val> vals;
  for (const auto &arg : call.getArgs()) {
    Val v = genExpr(*arg);
    if (v.failed())
      return v;
    if (!v.isConst() && isa<t::ViewType>(v.value.getType())) {
      error(arg->getLoc()) << "'" << name
                           << "' cannot take a view; load a tile first";
      return Val::failure();
    }
    vals.push_back(v);
  }
  // Every operand to one element type and shape: the first two meet, then
  // each further one meets the result and the earlier ones follow its shape.
  SmallVector<Value> xs;
  if (vals.size() == 1) {
    Value x = materializeDefault(vals[0], loc);
    if (!x)
      return Val::failure();
    xs.push_back(x);
  } else {
    Value a, b;
    if (failed(unify(vals[0], vals[1], loc, a, b)))
      return Val::failure();
    xs = {a, b};
    for (size_t i = 2; i < vals.size(); ++i) {
      Val joined{xs[0], {}};
      Value c;
      if (failed(unify(joined, vals[i], loc, a, c)))
        return Val::failure();
      for (Value &x : xs)
        x = broadcastTo(x, shapeOf(a.getType()), loc);
      xs.push_back(c);
    }
  }
  Type type = xs[0].getType();
  Type element = elementTypeOf(type);
  bool isFloat = isa<FloatType>(element);
  if (element.isInteger(1) || (!isFloat && !fn.acceptsIntegers)) {
    error(loc) << "'" << name << "' needs "
               << (fn.acceptsIntegers ? "numbers" : "a float operand")
               << ", got " << describe(type)
               << (fn.acceptsIntegers ? "" : "; use cast");
    return Val::failure();
  }
  // f16, bf16 and fp8 compute in f32 and round once: the same result on the
  // CPU and the GPU, whose math library has f32 and f64 functions only.
  bool narrow = isFloat && cast<FloatType>(element).getWidth() < 32;
  if (narrow)
    for (Value &x : xs)
      x = castTo(x, builder.getF32Type(), loc);
  Value r = fn.build(builder, loc, xs);
  if (narrow)
    r = castTo(r, element, loc);
  return Val{r, {}};
}

/// sum, prod, any, all: one reduction each. `any` and `all` are max and min
/// of an i1 tile (or, and: both backends reduce i1 as unsigned).
Val MLIRGenImpl::genReduce(const CallExprAST &call) {
  StringRef name = call.getCallee();
  auto kind = llvm::StringSwitch<t::ReduceKind>(name)
                  .Case("prod", t::ReduceKind::Prod)
                  .Case("any", t::ReduceKind::Max)
                  .Case("all", t::ReduceKind::Min)
                  .Default(t::ReduceKind::Sum);
  return genReduce(call, kind);
}

std::optional<MLIRGenImpl::ReduceArgs>
MLIRGenImpl::reduceArgs(const CallExprAST &call, StringRef flag,
                        bool flagDefault) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (failed(checkArgs(call, 1, 1, {"axis", flag})))
    return std::nullopt;
  Value x = tileArg(*call.getArgs()[0], name, "its operand");
  if (!x)
    return std::nullopt;
  auto type = cast<RankedTensorType>(x.getType());
  const ExprAST *axisExpr = keyword(call, "axis");
  if (!axisExpr) {
    error(loc) << "'" << name << "' of a tile needs axis = <dim>";
    return std::nullopt;
  }
  std::optional<int64_t> axis = constInt(*axisExpr, "axis");
  if (!axis)
    return std::nullopt;
  if (*axis < 0)
    *axis += type.getRank();
  if (*axis < 0 || *axis >= type.getRank()) {
    error(axisExpr->getLoc())
        << "axis is out of range for a tile of rank " << type.getRank();
    return std::nullopt;
  }
  bool value = flagDefault;
  if (const ExprAST *k = keyword(call, flag)) {
    Val kv = genExpr(*k);
    if (kv.failed())
      return std::nullopt;
    if (!kv.isConst() || kv.cst->kind != Const::Kind::Bool) {
      error(k->getLoc()) << flag << " must be true or false";
      return std::nullopt;
    }
    value = kv.cst->b;
  }
  return ReduceArgs{x, *axis, value};
}

/// cumsum, cumprod, cummax, cummin (t, axis = k, exclusive = false): the
/// running combination along the axis, the same shape.
Val MLIRGenImpl::genScan(const CallExprAST &call) {
  StringRef name = call.getCallee();
  std::optional<ReduceArgs> args = reduceArgs(call, "exclusive", false);
  if (!args)
    return Val::failure();
  if (elementTypeOf(args->x.getType()).isInteger(1)) {
    error(call.getArgs()[0]->getLoc())
        << "'" << name << "' of an i1 tile; cast it to i32 first";
    return Val::failure();
  }
  t::ReduceKind kind = llvm::StringSwitch<t::ReduceKind>(name)
                           .Case("cumsum", t::ReduceKind::Sum)
                           .Case("cumprod", t::ReduceKind::Prod)
                           .Case("cummax", t::ReduceKind::Max)
                           .Default(t::ReduceKind::Min);
  return Val{t::ScanOp::create(builder, call.getLoc(), kind, args->x,
                               args->axis, args->keep),
             {}};
}

Val MLIRGenImpl::genReduce(const CallExprAST &call, t::ReduceKind kind) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  std::optional<ReduceArgs> args = reduceArgs(call);
  if (!args)
    return Val::failure();
  auto type = cast<RankedTensorType>(args->x.getType());
  bool isBool = type.getElementType().isInteger(1);
  bool logical = name == "any" || name == "all";
  if (logical != isBool) {
    if (logical)
      error(loc) << "'" << name << "' needs an i1 tile, got " << describe(type)
                 << "; compare it first";
    else
      error(loc) << "'" << name << "' cannot take an i1 tile; cast it first";
    return Val::failure();
  }
  return Val{reduce(kind, args->x, args->axis, args->keep, loc), {}};
}

Value MLIRGenImpl::reduce(t::ReduceKind kind, Value x, int64_t axis, bool keep,
                          Location loc) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  if (keep)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  auto result = RankedTensorType::get(shape, type.getElementType());
  return t::ReduceOp::create(builder, loc, result, kind, x, axis, keep);
}

/// argmax and argmin: the first index along the axis of the maximum
/// (minimum), as an i32 tile. Two reductions: the extreme m, then the least
/// index where the element equals m. max and min propagate NaN, so a NaN is
/// the extreme of its row and its first index is the answer, as in numpy.
Val MLIRGenImpl::genArgReduce(const CallExprAST &call) {
  Location loc = call.getLoc();
  bool isMax = call.getCallee() == "argmax";
  std::optional<ReduceArgs> args = reduceArgs(call);
  if (!args)
    return Val::failure();
  Value x = args->x;
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    error(loc) << "'" << call.getCallee()
               << "' cannot take an i1 tile; cast it first";
    return Val::failure();
  }
  int64_t axis = args->axis, n = type.getDimSize(axis);
  Value m = reduce(isMax ? t::ReduceKind::Max : t::ReduceKind::Min, x, axis,
                   /*keep=*/true, loc);
  m = broadcastTo(m, type.getShape(), loc);
  Value hit;
  if (isa<FloatType>(element)) {
    hit = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ, x, m);
    Value nanM =
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO, m, m);
    Value nanX =
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO, x, x);
    hit = arith::OrIOp::create(builder, loc, hit,
                               arith::AndIOp::create(builder, loc, nanM, nanX));
  } else {
    hit = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, x, m);
  }
  // Each element's index along the axis: an iota shaped [1, .., n, .., 1].
  Type i32 = builder.getI32Type();
  SmallVector<int64_t> iotaShape(type.getRank(), 1);
  iotaShape[axis] = n;
  Value index =
      t::IotaOp::create(builder, loc, RankedTensorType::get({n}, i32));
  if (type.getRank() > 1)
    index = t::ReshapeOp::create(builder, loc,
                                 RankedTensorType::get(iotaShape, i32), index);
  index = broadcastTo(index, type.getShape(), loc);
  Value past = materialize(Const::ofInt(n), type.clone(i32), loc);
  Value candidates = arith::SelectOp::create(builder, loc, hit, index, past);
  return Val{reduce(t::ReduceKind::Min, candidates, axis, args->keep, loc), {}};
}

Val MLIRGenImpl::genMinMax(const CallExprAST &call) {
  Location loc = call.getLoc();
  bool isMax = call.getCallee() == "max";
  // max(t, axis = k) reduces; max(a, b) is elementwise.
  if (call.getArgs().size() == 1)
    return genReduce(call, isMax ? t::ReduceKind::Max : t::ReduceKind::Min);
  if (failed(checkArgs(call, 2, 2, {})))
    return Val::failure();
  Val a = genExpr(*call.getArgs()[0]);
  if (a.failed())
    return a;
  Val b = genExpr(*call.getArgs()[1]);
  if (b.failed())
    return b;
  if (a.isConst() && b.isConst()) {
    if (!a.cst->isNumber() || !b.cst->isNumber()) {
      error(loc) << "'" << call.getCallee() << "' needs numbers";
      return Val::failure();
    }
    bool pickA = isMax ? a.cst->asDouble() >= b.cst->asDouble()
                       : a.cst->asDouble() <= b.cst->asDouble();
    return pickA ? a : b;
  }
  Value x, y;
  if (failed(unify(a, b, loc, x, y)))
    return Val::failure();
  Type element = elementTypeOf(x.getType());
  if (element.isInteger(1)) {
    error(loc) << "'" << call.getCallee() << "' needs numbers, got i1";
    return Val::failure();
  }
  Value r;
  if (isa<FloatType>(element))
    r = isMax ? Value(arith::MaximumFOp::create(builder, loc, x, y))
              : Value(arith::MinimumFOp::create(builder, loc, x, y));
  else
    r = isMax ? Value(arith::MaxSIOp::create(builder, loc, x, y))
              : Value(arith::MinSIOp::create(builder, loc, x, y));
  return Val{r, {}};
}

/// sort(t, descending = false): each line along the last axis sorted;
/// topk(t, k): its k largest, descending. argsort and argtopk: the same
/// elements' indices along the axis (i32), ties in index order.
Val MLIRGenImpl::genSort(const CallExprAST &call) {
  StringRef name = call.getCallee();
  bool isTopK = name.ends_with("topk");
  bool indices = name.starts_with("arg");
  if (failed(checkArgs(call, isTopK ? 2 : 1, isTopK ? 2 : 1,
                       isTopK ? ArrayRef<StringRef>{}
                              : ArrayRef<StringRef>{"descending"})))
    return Val::failure();
  Value x = tileArg(*call.getArgs()[0], name, "its operand");
  if (!x)
    return Val::failure();
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getRank() == 0 || type.getElementType().isInteger(1)) {
    error(call.getArgs()[0]->getLoc())
        << "'" << name << "' takes a tile of rank 1 or more of numbers, got "
        << describe(type);
    return Val::failure();
  }
  int64_t n = type.getShape().back();
  if (!llvm::isPowerOf2_64(n)) {
    error(call.getArgs()[0]->getLoc())
        << "'" << name << "' sorts lines of a power-of-two length, got " << n;
    return Val::failure();
  }
  bool descending = isTopK;
  int64_t k = n;
  if (isTopK) {
    std::optional<int64_t> kv = constInt(*call.getArgs()[1], "k");
    if (!kv)
      return Val::failure();
    if (*kv < 1 || *kv > n) {
      error(call.getArgs()[1]->getLoc())
          << "k must be from 1 to the line's length " << n << ", got " << *kv;
      return Val::failure();
    }
    k = *kv;
  } else if (const ExprAST *d = keyword(call, "descending")) {
    Val dv = genExpr(*d);
    if (dv.failed())
      return Val::failure();
    if (!dv.isConst() || dv.cst->kind != Const::Kind::Bool) {
      error(d->getLoc()) << "descending must be true or false";
      return Val::failure();
    }
    descending = dv.cst->b;
  }
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = k;
  Type elem = indices ? builder.getI32Type() : type.getElementType();
  auto op = t::SortOp::create(builder, call.getLoc(),
                              RankedTensorType::get(shape, elem), x);
  if (descending)
    op.setDescending(true);
  if (indices)
    op.setIndices(true);
  return Val{op, {}};
}
