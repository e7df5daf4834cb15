//===- ConstantFolding.cpp - compile-time arithmetic ----------------------===//
//
// Operators on two constants fold to a constant, checked for overflow and
// division by zero as the compiler's own arithmetic (int64 and double).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

/// `x op y` if `op` is a comparison.
template <typename T>
static std::optional<bool> compareNumbers(BinaryOp op, T x, T y) {
  switch (op) {
  case BinaryOp::Eq:
    return x == y;
  case BinaryOp::Ne:
    return x != y;
  case BinaryOp::Lt:
    return x < y;
  case BinaryOp::Le:
    return x <= y;
  case BinaryOp::Gt:
    return x > y;
  case BinaryOp::Ge:
    return x >= y;
  default:
    return std::nullopt;
  }
}

std::optional<Const> MLIRGenImpl::foldBinary(BinaryOp op, const Const &a,
                                             const Const &b, Location loc) {
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    if (a.kind != Const::Kind::Bool || b.kind != Const::Kind::Bool) {
      error(loc) << "'" << stringifyBinaryOp(op) << "' needs booleans";
      return std::nullopt;
    }
    return Const::ofBool(op == BinaryOp::And ? (a.b && b.b) : (a.b || b.b));
  }
  if (a.kind == Const::Kind::Bool && b.kind == Const::Kind::Bool) {
    switch (op) {
    case BinaryOp::Eq:
      return Const::ofBool(a.b == b.b);
    case BinaryOp::Ne:
    case BinaryOp::BitXor:
      return Const::ofBool(a.b != b.b);
    case BinaryOp::BitAnd:
      return Const::ofBool(a.b && b.b);
    case BinaryOp::BitOr:
      return Const::ofBool(a.b || b.b);
    default:
      break;
    }
  }
  bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                 op == BinaryOp::BitXor || op == BinaryOp::Shl ||
                 op == BinaryOp::Shr;
  if (bitwise && (a.kind != Const::Kind::Int || b.kind != Const::Kind::Int)) {
    error(loc) << "'" << stringifyBinaryOp(op) << "' needs integers, got "
               << kindName(a) << " and " << kindName(b);
    return std::nullopt;
  }
  if (!a.isNumber() || !b.isNumber()) {
    error(loc) << "'" << stringifyBinaryOp(op) << "' cannot combine "
               << kindName(a) << " and " << kindName(b);
    return std::nullopt;
  }
  if (a.kind == Const::Kind::Int && b.kind == Const::Kind::Int) {
    int64_t x = a.i, y = b.i, r = 0;
    if (std::optional<bool> c = compareNumbers(op, x, y))
      return Const::ofBool(*c);
    bool overflow = false;
    switch (op) {
    case BinaryOp::Add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case BinaryOp::Sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case BinaryOp::Mul:
      overflow = __builtin_mul_overflow(x, y, &r);
      break;
    case BinaryOp::Div:
    case BinaryOp::Rem:
      if (y == 0) {
        error(loc) << "division by zero in a constant expression";
        return std::nullopt;
      }
      if (x == std::numeric_limits<int64_t>::min() && y == -1) {
        overflow = true;
        break;
      }
      r = op == BinaryOp::Div ? x / y : x % y;
      break;
    case BinaryOp::BitAnd:
      r = x & y;
      break;
    case BinaryOp::BitOr:
      r = x | y;
      break;
    case BinaryOp::BitXor:
      r = x ^ y;
      break;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
      // The compiler's integers are 64-bit; a shift past them is an error
      // here, where the same shift of an i32 tile gives 0 or the sign.
      if (y < 0 || y > 63) {
        error(loc) << "shift amount " << y
                   << " is out of range for a constant (0 to 63)";
        return std::nullopt;
      }
      if (op == BinaryOp::Shr) {
        r = x >> y;
        break;
      }
      r = int64_t(uint64_t(x) << y);
      overflow = (r >> y) != x;
      break;
    default:
      llvm_unreachable("comparisons, '@', '&&' and '||' are handled before");
    }
    if (overflow) {
      error(loc) << "integer overflow in a constant expression";
      return std::nullopt;
    }
    return Const::ofInt(r);
  }
  double x = a.asDouble(), y = b.asDouble();
  if (std::optional<bool> c = compareNumbers(op, x, y))
    return Const::ofBool(*c);
  switch (op) {
  case BinaryOp::Add:
    return Const::ofFloat(x + y);
  case BinaryOp::Sub:
    return Const::ofFloat(x - y);
  case BinaryOp::Mul:
    return Const::ofFloat(x * y);
  case BinaryOp::Div:
    return Const::ofFloat(x / y);
  case BinaryOp::Rem:
    return Const::ofFloat(std::fmod(x, y));
  default:
    llvm_unreachable("comparisons, '@', '&&' and '||' are handled before");
  }
}
