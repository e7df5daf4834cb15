//===- GenExpressions.cpp - expressions -----------------------------------===//
//
// Names, literals, unary, binary and conditional operators. Builtin calls
// are the builtin table's (Builtins.cpp).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include <limits>

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Val MLIRGenImpl::genExpr(const ExprAST &expr) {
  switch (expr.getKind()) {
  case ExprAST::Kind::IntLit:
    return Val{{}, Const::ofInt(cast<IntLitExprAST>(expr).getValue())};
  case ExprAST::Kind::FloatLit:
    return Val{{}, Const::ofFloat(cast<FloatLitExprAST>(expr).getValue())};
  case ExprAST::Kind::BoolLit:
    return Val{{}, Const::ofBool(cast<BoolLitExprAST>(expr).getValue())};
  case ExprAST::Kind::StringLit:
    error(expr.getLoc()) << "a string is only allowed as the text of 'print' "
                            "or the message of 'assert'";
    return Val::failure();
  case ExprAST::Kind::VarRef: {
    StringRef name = cast<VarRefExprAST>(expr).getName();
    if (Binding *b = lookup(name))
      return b->val;
    if (builtinScalarType(name))
      return Val{{}, Const::ofType(resolveType(name, expr.getLoc()))};
    error(expr.getLoc()) << "unknown name '" << name << "'";
    return Val::failure();
  }
  case ExprAST::Kind::Unary:
    return genUnary(cast<UnaryExprAST>(expr));
  case ExprAST::Kind::Binary:
    return genBinary(cast<BinaryExprAST>(expr));
  case ExprAST::Kind::Ternary:
    return genTernary(cast<TernaryExprAST>(expr));
  case ExprAST::Kind::Call: {
    auto &call = cast<CallExprAST>(expr);
    // (No function has a builtin's name: declareFunction refuses it.)
    if (const FunctionAST *fn = functions.lookup(call.getCallee());
        fn && !returnsValue(*fn)) {
      error(expr.getLoc()) << "'" << call.getCallee()
                           << "' returns no value; call it as a statement";
      return Val::failure();
    }
    if (const Builtin *b = lookupBuiltin(call.getCallee()); b && !b->hasValue) {
      error(expr.getLoc()) << "'" << call.getCallee()
                           << "' has no value; call it as a statement";
      return Val::failure();
    }
    return genCall(call);
  }
  case ExprAST::Kind::List:
    error(expr.getLoc()) << "a list is only allowed as a tile index, shape "
                            "or permutation argument";
    return Val::failure();
  }
  return Val::failure();
}

Val MLIRGenImpl::genUnary(const UnaryExprAST &expr) {
  Location loc = expr.getLoc();
  Val v = genExpr(expr.getOperand());
  if (v.failed())
    return v;
  if (v.isConst()) {
    const Const &c = *v.cst;
    if (expr.getOp() == UnaryOp::Not) {
      if (c.kind != Const::Kind::Bool) {
        error(loc) << "'!' needs a boolean, got " << kindName(c);
        return Val::failure();
      }
      return Val{{}, Const::ofBool(!c.b)};
    }
    if (expr.getOp() == UnaryOp::BitNot) {
      if (c.kind != Const::Kind::Int) {
        error(loc) << "'~' needs an integer, got " << kindName(c);
        return Val::failure();
      }
      return Val{{}, Const::ofInt(~c.i)};
    }
    if (c.kind == Const::Kind::Int) {
      if (c.i == std::numeric_limits<int64_t>::min()) {
        error(loc) << "integer overflow in a constant expression";
        return Val::failure();
      }
      return Val{{}, Const::ofInt(-c.i)};
    }
    if (c.kind == Const::Kind::Float)
      return Val{{}, Const::ofFloat(-c.f)};
    error(loc) << "'-' needs a number, got " << kindName(c);
    return Val::failure();
  }
  Type type = v.value.getType();
  Type element = elementTypeOf(type);
  if (expr.getOp() == UnaryOp::Not) {
    if (!element.isInteger(1)) {
      error(loc) << "'!' needs i1, got " << describe(type);
      return Val::failure();
    }
    return Val{
        arith::XOrIOp::create(builder, loc, v.value,
                              materialize(Const::ofBool(true), type, loc)),
        {}};
  }
  if (expr.getOp() == UnaryOp::BitNot) {
    if (!isIntegerLike(element)) {
      error(loc) << "'~' needs integers, got " << describe(type)
                 << (element.isInteger(1) ? "; use '!'" : "");
      return Val::failure();
    }
    return Val{arith::XOrIOp::create(builder, loc, v.value,
                                     materialize(Const::ofInt(-1), type, loc)),
               {}};
  }
  if (isa<FloatType>(element))
    return Val{arith::NegFOp::create(builder, loc, v.value), {}};
  if (element.isInteger(1) || isa<t::ViewType>(type)) {
    error(loc) << "'-' needs a number, got " << describe(type);
    return Val::failure();
  }
  return Val{arith::SubIOp::create(builder, loc,
                                   materialize(Const::ofInt(0), type, loc),
                                   v.value),
             {}};
}

Val MLIRGenImpl::genBinary(const BinaryExprAST &expr) {
  Val lhs = genExpr(expr.getLHS());
  if (lhs.failed())
    return lhs;
  Val rhs = genExpr(expr.getRHS());
  if (rhs.failed())
    return rhs;
  return genBinaryOp(expr.getOp(), lhs, rhs, expr.getLoc());
}

Val MLIRGenImpl::genBinaryOp(BinaryOp op, Val lhs, Val rhs, Location loc) {
  if (lhs.isConst() && rhs.isConst()) {
    if (op == BinaryOp::MatMul) {
      error(loc) << "'@' needs 2-D tiles";
      return Val::failure();
    }
    if (auto c = foldBinary(op, *lhs.cst, *rhs.cst, loc))
      return Val{{}, *c};
    return Val::failure();
  }
  for (Val *v : {&lhs, &rhs})
    if (!v->isConst() && isa<t::ViewType>(v->value.getType())) {
      error(loc) << "'" << stringifyBinaryOp(op)
                 << "' cannot take a view; load a tile from it first";
      return Val::failure();
    }
  if (op == BinaryOp::MatMul) {
    if (lhs.isConst() || rhs.isConst()) {
      error(loc) << "'@' needs 2-D tiles";
      return Val::failure();
    }
    return genDot(lhs.value, rhs.value, Value(), loc);
  }

  Value a, b;
  if (failed(unify(lhs, rhs, loc, a, b)))
    return Val::failure();
  Type element = elementTypeOf(a.getType());
  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  auto need = [&](bool ok, StringRef what) {
    if (!ok)
      error(loc) << "'" << stringifyBinaryOp(op) << "' needs " << what
                 << ", got " << describe(a.getType());
    return ok;
  };
  Value r;
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    if (!need(!isBool, "numbers"))
      return Val::failure();
    if (isFloat) {
      if (op == BinaryOp::Add)
        r = arith::AddFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Sub)
        r = arith::SubFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Mul)
        r = arith::MulFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Div)
        r = arith::DivFOp::create(builder, loc, a, b);
      else
        r = arith::RemFOp::create(builder, loc, a, b);
    } else {
      if (op == BinaryOp::Add)
        r = arith::AddIOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Sub)
        r = arith::SubIOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Mul)
        r = arith::MulIOp::create(builder, loc, a, b);
      else
        r = genIntegerDivision(op == BinaryOp::Div, a, b, loc);
    }
    break;
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    if (!need(!isFloat, "integers or i1"))
      return Val::failure();
    if (op == BinaryOp::BitAnd)
      r = arith::AndIOp::create(builder, loc, a, b);
    else if (op == BinaryOp::BitOr)
      r = arith::OrIOp::create(builder, loc, a, b);
    else
      r = arith::XOrIOp::create(builder, loc, a, b);
    break;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (!need(!isFloat && !isBool, "integers"))
      return Val::failure();
    r = genShift(op == BinaryOp::Shl, a, b, loc);
    break;
  case BinaryOp::And:
  case BinaryOp::Or:
    if (!need(isBool, "i1 operands"))
      return Val::failure();
    if (op == BinaryOp::And)
      r = arith::AndIOp::create(builder, loc, a, b);
    else
      r = arith::OrIOp::create(builder, loc, a, b);
    break;
  default: { // comparisons
    if (isFloat) {
      arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
      switch (op) {
      case BinaryOp::Eq:
        p = arith::CmpFPredicate::OEQ;
        break;
      case BinaryOp::Ne:
        p = arith::CmpFPredicate::UNE;
        break;
      case BinaryOp::Lt:
        p = arith::CmpFPredicate::OLT;
        break;
      case BinaryOp::Le:
        p = arith::CmpFPredicate::OLE;
        break;
      case BinaryOp::Gt:
        p = arith::CmpFPredicate::OGT;
        break;
      default:
        p = arith::CmpFPredicate::OGE;
        break;
      }
      r = arith::CmpFOp::create(builder, loc, p, a, b);
    } else {
      arith::CmpIPredicate p = arith::CmpIPredicate::eq;
      switch (op) {
      case BinaryOp::Eq:
        p = arith::CmpIPredicate::eq;
        break;
      case BinaryOp::Ne:
        p = arith::CmpIPredicate::ne;
        break;
      case BinaryOp::Lt:
        p = arith::CmpIPredicate::slt;
        break;
      case BinaryOp::Le:
        p = arith::CmpIPredicate::sle;
        break;
      case BinaryOp::Gt:
        p = arith::CmpIPredicate::sgt;
        break;
      default:
        p = arith::CmpIPredicate::sge;
        break;
      }
      r = arith::CmpIOp::create(builder, loc, p, a, b);
    }
    break;
  }
  }
  return Val{r, {}};
}

Val MLIRGenImpl::genTernary(const TernaryExprAST &expr) {
  Location loc = expr.getLoc();
  Val cond = genExpr(expr.getCond());
  if (cond.failed())
    return cond;
  if (cond.isConst()) {
    if (cond.cst->kind != Const::Kind::Bool) {
      error(expr.getCond().getLoc())
          << "condition must be a boolean, got " << kindName(*cond.cst);
      return Val::failure();
    }
    return genExpr(cond.cst->b ? expr.getTrueValue() : expr.getFalseValue());
  }
  if (!cond.value.getType().isInteger(1)) {
    error(expr.getCond().getLoc())
        << "'?:' condition must be a scalar i1 (use where() for tiles), got "
        << describe(cond.value.getType());
    return Val::failure();
  }
  Val x = genExpr(expr.getTrueValue());
  if (x.failed())
    return x;
  Val y = genExpr(expr.getFalseValue());
  if (y.failed())
    return y;
  Value a, b;
  if (failed(unify(x, y, loc, a, b)))
    return Val::failure();
  return Val{arith::SelectOp::create(builder, loc, cond.value, a, b), {}};
}

/// Integer `/` and `%` truncate, as C does, and are defined everywhere:
/// x / 0 = 0 and x % 0 = x; MIN / -1 wraps to MIN and MIN % -1 = 0. The
/// hardware divides only by a divisor that is neither 0 nor -1 (x86 traps on
/// both, PTX leaves them unspecified); a constant divisor folds the guards
/// away.
Value MLIRGenImpl::genIntegerDivision(bool quotient, Value a, Value b,
                                      Location loc) {
  // A constant divisor other than 0 and -1 needs no guard (0 and -1 still
  // take the general path, which folds to the defined result).
  APInt divisor;
  Value scalar = b;
  if (auto splat = b.getDefiningOp<t::SplatOp>())
    scalar = splat.getOperand();
  if (matchPattern(scalar, m_ConstantInt(&divisor)) && !divisor.isZero() &&
      !divisor.isAllOnes()) {
    if (quotient)
      return arith::DivSIOp::create(builder, loc, a, b);
    return arith::RemSIOp::create(builder, loc, a, b);
  }
  Type type = a.getType();
  Value zero = materialize(Const::ofInt(0), type, loc);
  Value one = materialize(Const::ofInt(1), type, loc);
  Value minusOne = materialize(Const::ofInt(-1), type, loc);
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, x, y);
  };
  Value byZero = eq(b, zero), byMinusOne = eq(b, minusOne);
  Value safe = arith::SelectOp::create(
      builder, loc, arith::OrIOp::create(builder, loc, byZero, byMinusOne), one,
      b);
  if (!quotient) {
    Value r = arith::RemSIOp::create(builder, loc, a, safe);
    return arith::SelectOp::create(builder, loc, byZero, a, r);
  }
  Value q = arith::DivSIOp::create(builder, loc, a, safe);
  Value negated = arith::SubIOp::create(builder, loc, zero, a);
  q = arith::SelectOp::create(builder, loc, byMinusOne, negated, q);
  return arith::SelectOp::create(builder, loc, byZero, zero, q);
}

/// `x << n` and `x >> n` (arithmetic) are defined for every n, as the
/// hardware's are not (LLVM's shifts by the width or more are poison): a
/// shift by n < 0 or n >= the width gives what shifting one place at a time
/// would, 0 left, and 0 or -1 (the sign) right. A constant amount within
/// range needs no guard. Index scalars shift as i32, the width the GPU
/// computes them in, so that the CPU and the GPU agree.
Value MLIRGenImpl::genShift(bool left, Value a, Value n, Location loc) {
  Type type = a.getType();
  if (type.isIndex()) {
    Type i32 = builder.getI32Type();
    // A constant amount stays one (every amount out of range acts as 32).
    APInt constant;
    Value n32;
    if (matchPattern(n, m_ConstantInt(&constant))) {
      int64_t c = constant.getSExtValue();
      n32 = materialize(Const::ofInt(c < 0 || c > 32 ? 32 : c), i32, loc);
    } else {
      n32 = castTo(n, i32, loc);
    }
    return castTo(genShift(left, castTo(a, i32, loc), n32, loc), type, loc);
  }
  unsigned width = cast<IntegerType>(elementTypeOf(type)).getWidth();
  APInt amount;
  Value scalar = n;
  if (auto splat = n.getDefiningOp<t::SplatOp>())
    scalar = splat.getOperand();
  if (matchPattern(scalar, m_ConstantInt(&amount)) &&
      amount.getSExtValue() >= 0 && amount.getSExtValue() < width) {
    if (left)
      return arith::ShLIOp::create(builder, loc, a, n);
    return arith::ShRSIOp::create(builder, loc, a, n);
  }
  // Unsigned comparison: a negative n is a huge one.
  Value inRange =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, n,
                            materialize(Const::ofInt(width), type, loc));
  if (left) {
    Value zero = materialize(Const::ofInt(0), type, loc);
    Value safe = arith::SelectOp::create(builder, loc, inRange, n, zero);
    return arith::SelectOp::create(builder, loc, inRange,
                                   arith::ShLIOp::create(builder, loc, a, safe),
                                   zero);
  }
  // Out of range, shifting by width - 1 gives the sign in every bit.
  Value last = materialize(Const::ofInt(width - 1), type, loc);
  return arith::ShRSIOp::create(
      builder, loc, a, arith::SelectOp::create(builder, loc, inRange, n, last));
}
