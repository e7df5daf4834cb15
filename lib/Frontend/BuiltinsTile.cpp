//===- BuiltinsTile.cpp - tiles and their shapes --------------------------===//
//
// Builtins that make tiles (zeros, full, arange), combine them (dot, where)
// or change their shape (broadcast, reshape, permute, transpose,
// expand_dims).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

/// zeros(shape, type), full(shape, value, type).
Val MLIRGenImpl::genFill(const CallExprAST &call) {
  Location loc = call.getLoc();
  const ExprList &args = call.getArgs();
  bool isFull = call.getCallee() == "full";
  if (failed(checkArgs(call, isFull ? 3 : 2, isFull ? 3 : 2, {})))
    return Val::failure();
  auto shape = constIntList(*args[0], "shape");
  if (!shape || failed(checkShape(*shape, args[0]->getLoc())))
    return Val::failure();
  Type element = constType(*args.back(), "element type");
  if (!element)
    return Val::failure();
  auto type = RankedTensorType::get(*shape, element);
  if (!isFull)
    return Val{materialize(Const::ofInt(0), type, loc), {}};
  Val v = genExpr(*args[1]);
  if (v.failed())
    return v;
  if (v.isConst())
    return Val{materialize(*v.cst, type, loc), {}};
  if (isa<RankedTensorType, t::ViewType>(v.value.getType())) {
    error(args[1]->getLoc()) << "'full' expects a scalar value";
    return Val::failure();
  }
  Value s = convertScalarTo(v, element, args[1]->getLoc());
  if (!s)
    return Val::failure();
  return Val{t::SplatOp::create(builder, loc, type, s), {}};
}

/// arange(n): the i32 tile [0, 1, ..., n-1].
Val MLIRGenImpl::genArange(const CallExprAST &call) {
  Location loc = call.getLoc();
  const ExprList &args = call.getArgs();
  if (failed(checkArgs(call, 1, 1, {})))
    return Val::failure();
  std::optional<int64_t> n = constInt(*args[0], "arange size");
  if (!n)
    return Val::failure();
  if (*n <= 0) {
    error(args[0]->getLoc()) << "arange size must be positive, got " << *n;
    return Val::failure();
  }
  if (failed(checkShape({*n}, args[0]->getLoc())))
    return Val::failure();
  return Val{
      t::IotaOp::create(builder, loc,
                        RankedTensorType::get({*n}, builder.getI32Type())),
      {}};
}

/// dot(a, b[, acc]).
Val MLIRGenImpl::genDotCall(const CallExprAST &call) {
  StringRef name = call.getCallee();
  const ExprList &args = call.getArgs();
  if (failed(checkArgs(call, 2, 3, {})))
    return Val::failure();
  Value a = tileArg(*args[0], name, "lhs");
  Value b = a ? tileArg(*args[1], name, "rhs") : Value();
  if (!b)
    return Val::failure();
  Value acc;
  if (args.size() == 3 && !(acc = tileArg(*args[2], name, "accumulator")))
    return Val::failure();
  return genDot(a, b, acc, call.getLoc());
}

Val MLIRGenImpl::genDot(Value a, Value b, Value acc, Location loc) {
  auto at = dyn_cast<RankedTensorType>(a.getType());
  auto bt = dyn_cast<RankedTensorType>(b.getType());
  if (!at || !bt || at.getRank() != 2 || bt.getRank() != 2) {
    error(loc) << "dot needs 2-D tiles, got " << describe(a.getType())
               << " and " << describe(b.getType());
    return Val::failure();
  }
  if (at.getDimSize(1) != bt.getDimSize(0)) {
    error(loc) << "dot of " << describe(at) << " and " << describe(bt)
               << ": inner sizes " << at.getDimSize(1) << " and "
               << bt.getDimSize(0) << " differ";
    return Val::failure();
  }
  Type element = at.getElementType();
  if (element != bt.getElementType() ||
      !(element.isF16() || element.isBF16() || element.isF32() ||
        element.isF64() || t::isFP8(element))) {
    error(loc) << "dot needs two tiles of one float type (f16, bf16, f32, "
                  "f64, f8e4m3 or f8e5m2), got "
               << describe(at) << " and " << describe(bt);
    return Val::failure();
  }
  // f64 inputs accumulate in f64 (float64 references, CPU kernels); the
  // others in f32.
  auto accType =
      RankedTensorType::get({at.getDimSize(0), bt.getDimSize(1)},
                            element.isF64() ? element : defaultFloatType());
  if (!acc)
    acc = materialize(Const::ofFloat(0), accType, loc);
  else if (acc.getType() != accType) {
    error(loc) << "dot accumulator must be " << describe(accType) << ", got "
               << describe(acc.getType());
    return Val::failure();
  }
  // f64 products are exact in f64 (IEEE); the other inputs take the
  // default, which for f32 is tf32 and for f16/bf16 does not matter.
  if (element.isF64())
    return Val{t::DotOp::create(builder, loc, a, b, acc, t::Precision::IEEE),
               {}};
  return Val{t::DotOp::create(builder, loc, a, b, acc), {}};
}

Val MLIRGenImpl::genWhere(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  Val c = genExpr(*call.getArgs()[0]);
  if (c.failed())
    return c;
  Value cond = materializeDefault(c, loc);
  if (!cond)
    return Val::failure();
  if (!elementTypeOf(cond.getType()).isInteger(1)) {
    error(call.getArgs()[0]->getLoc())
        << "where condition must be i1, got " << describe(cond.getType());
    return Val::failure();
  }
  Val a = genExpr(*call.getArgs()[1]);
  if (a.failed())
    return a;
  Val b = genExpr(*call.getArgs()[2]);
  if (b.failed())
    return b;
  Value x, y;
  if (failed(unify(a, b, loc, x, y)))
    return Val::failure();
  auto shape =
      broadcastShapes(shapeOf(cond.getType()), shapeOf(x.getType()), loc);
  if (!shape)
    return Val::failure();
  if (!shape->empty()) {
    cond = broadcastTo(cond, *shape, loc);
    x = broadcastTo(x, *shape, loc);
    y = broadcastTo(y, *shape, loc);
  }
  return Val{arith::SelectOp::create(builder, loc, cond, x, y), {}};
}

Val MLIRGenImpl::genShapeOp(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  bool unary = name == "transpose";
  if (failed(checkArgs(call, unary ? 1 : 2, unary ? 1 : 2, {})))
    return Val::failure();
  Value x = tileArg(*call.getArgs()[0], name, "its first argument");
  if (!x)
    return Val::failure();
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();

  if (name == "transpose") {
    if (type.getRank() != 2) {
      error(loc) << "transpose needs a 2-D tile, got " << describe(type)
                 << "; use permute";
      return Val::failure();
    }
    auto result = RankedTensorType::get(
        {type.getDimSize(1), type.getDimSize(0)}, element);
    return Val{
        t::PermuteOp::create(builder, loc, result, x, ArrayRef<int64_t>{1, 0}),
        {}};
  }
  if (name == "expand_dims") {
    std::optional<int64_t> axis = constInt(*call.getArgs()[1], "axis");
    if (!axis)
      return Val::failure();
    if (*axis < 0 || *axis > type.getRank()) {
      error(call.getArgs()[1]->getLoc()) << "expand_dims axis must be in 0.."
                                         << type.getRank() << ", got " << *axis;
      return Val::failure();
    }
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + *axis, 1);
    if (failed(checkShape(shape, loc)))
      return Val::failure();
    return Val{t::ReshapeOp::create(builder, loc,
                                    RankedTensorType::get(shape, element), x),
               {}};
  }
  auto list = constIntList(*call.getArgs()[1],
                           name == "permute" ? "permutation" : "shape");
  if (!list)
    return Val::failure();
  if (name == "permute") {
    SmallVector<bool> seen(type.getRank(), false);
    bool ok = static_cast<int64_t>(list->size()) == type.getRank();
    for (int64_t p : *list) {
      ok = ok && p >= 0 && p < type.getRank() && !seen[p];
      if (ok)
        seen[p] = true;
    }
    if (!ok) {
      error(call.getArgs()[1]->getLoc())
          << "permutation must hold each of 0.." << type.getRank() - 1
          << " exactly once";
      return Val::failure();
    }
    SmallVector<int64_t> shape;
    for (int64_t p : *list)
      shape.push_back(type.getDimSize(p));
    return Val{t::PermuteOp::create(builder, loc,
                                    RankedTensorType::get(shape, element), x,
                                    *list),
               {}};
  }
  if (failed(checkShape(*list, call.getArgs()[1]->getLoc())))
    return Val::failure();
  auto result = RankedTensorType::get(*list, element);
  if (name == "reshape") {
    if (result.getNumElements() != type.getNumElements()) {
      error(loc) << "cannot reshape " << describe(type) << " ("
                 << type.getNumElements() << " elements) to "
                 << describe(result) << " (" << result.getNumElements()
                 << " elements)";
      return Val::failure();
    }
    return Val{t::ReshapeOp::create(builder, loc, result, x), {}};
  }
  // broadcast
  auto shape = broadcastShapes(type.getShape(), *list, loc);
  if (!shape)
    return Val::failure();
  if (ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>(*list)) {
    error(loc) << "cannot broadcast " << describe(type) << " to "
               << describe(result);
    return Val::failure();
  }
  return Val{broadcastTo(x, *list, loc), {}};
}
