//===- TypeRules.cpp - the language's type rules --------------------------===//
//
// Constants take the type of the value they meet; index scalars meet i32
// and i64 implicitly, every other mix needs a cast; shapes broadcast as
// numpy's do, right-aligned.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

namespace tilegym::mlirgen {

StringRef kindName(const Const &c) {
  switch (c.kind) {
  case Const::Kind::Int:
    return "an integer constant";
  case Const::Kind::Float:
    return "a float constant";
  case Const::Kind::Bool:
    return "a boolean constant";
  case Const::Kind::Type:
    return "a type";
  }
  return "";
}

/// `f32`, `tensor<4x8xf32>` or `!tile.view<?xf32>` as the user would say it.
std::string describe(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tile = dyn_cast<RankedTensorType>(type)) {
    os << "tile [";
    llvm::interleaveComma(tile.getShape(), os);
    os << "] " << tile.getElementType();
  } else if (auto view = dyn_cast<t::ViewType>(type)) {
    os << "view<";
    for (int64_t d : view.getShape())
      os << (ShapedType::isDynamic(d) ? "?" : std::to_string(d)) << "x";
    os << view.getElementType() << ">";
  } else {
    os << type;
  }
  return s;
}

Type elementTypeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getElementType();
  return type;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getShape();
  return {};
}

bool isFloatLike(Type type) { return isa<FloatType>(elementTypeOf(type)); }

bool fitsSigned(int64_t value, unsigned width) {
  if (width >= 64)
    return true;
  int64_t limit = int64_t(1) << (width - 1);
  return value >= -limit && value < limit;
}

double saturate(FloatType type, double value) {
  if (!t::isFP8(type) || std::isnan(value))
    return value;
  double largest =
      APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
  return std::clamp(value, -largest, largest);
}

bool isIntegerLike(Type type) {
  Type element = elementTypeOf(type);
  return element.isIndex() ||
         (element.isSignlessInteger() && !element.isInteger(1));
}

Value constantOf(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tile, cast<Attribute>(scalar)));
  return arith::ConstantOp::create(b, loc, scalar);
}

} // namespace tilegym::mlirgen

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

Value MLIRGenImpl::materialize(const Const &c, Type type, Location loc) {
  Type element = elementTypeOf(type);
  auto splatIfTile = [&](TypedAttr scalar) {
    return constantOf(builder, loc, type, scalar);
  };
  switch (c.kind) {
  case Const::Kind::Type:
    error(loc) << "a type cannot be used as a value";
    return {};
  case Const::Kind::Bool:
    if (!element.isInteger(1)) {
      error(loc) << "boolean constant used where " << describe(type)
                 << " is expected";
      return {};
    }
    return splatIfTile(builder.getBoolAttr(c.b));
  case Const::Kind::Int:
  case Const::Kind::Float:
    if (auto ft = dyn_cast<FloatType>(element))
      return splatIfTile(builder.getFloatAttr(ft, saturate(ft, c.asDouble())));
    if (c.kind == Const::Kind::Float) {
      error(loc) << "float constant used where " << describe(type)
                 << " is expected; use cast";
      return {};
    }
    if (element.isInteger(1) && (c.i == 0 || c.i == 1))
      return splatIfTile(builder.getBoolAttr(c.i));
    if (element.isIndex())
      return splatIfTile(builder.getIntegerAttr(element, c.i));
    if (auto it = dyn_cast<IntegerType>(element); it && it.getWidth() > 1) {
      if (!fitsSigned(c.i, it.getWidth())) {
        error(loc) << "integer constant " << c.i << " does not fit in "
                   << describe(element);
        return {};
      }
      return splatIfTile(builder.getIntegerAttr(element, c.i));
    }
    error(loc) << "integer constant used where " << describe(type)
               << " is expected";
    return {};
  }
  return {};
}

Value MLIRGenImpl::materializeDefault(Val v, Location loc) {
  if (!v.isConst())
    return v.value;
  switch (v.cst->kind) {
  case Const::Kind::Int:
    return materialize(*v.cst, builder.getIndexType(), loc);
  case Const::Kind::Float:
    return materialize(*v.cst, defaultFloatType(), loc);
  case Const::Kind::Bool:
    return materialize(*v.cst, builder.getI1Type(), loc);
  case Const::Kind::Type:
    error(loc) << "a type cannot be used as a value";
    return {};
  }
  return {};
}

/// Converts an element type implicitly where the language allows it: index
/// scalars meet i32 tiles (the type GPU index arithmetic uses).
Value MLIRGenImpl::convertScalarTo(Val v, Type element, Location loc) {
  if (v.isConst())
    return materialize(*v.cst, element, loc);
  Type have = elementTypeOf(v.value.getType());
  if (have == element)
    return v.value;
  if ((have.isIndex() && meetsIndex(element)) ||
      (meetsIndex(have) && element.isIndex()))
    return castTo(v.value, element, loc);
  error(loc) << "mixed element types " << have << " and " << element
             << "; use cast";
  return {};
}

/// Explicit conversion of a scalar or tile to another element type.
Value MLIRGenImpl::castTo(Value v, Type to, Location loc) {
  Type from = elementTypeOf(v.getType());
  if (from == to)
    return v;
  Type result = to;
  if (auto tile = dyn_cast<RankedTensorType>(v.getType()))
    result = tile.clone(to);
  auto fromF = dyn_cast<FloatType>(from);
  auto toF = dyn_cast<FloatType>(to);
  // fp8 meets integers and i1 through f32, whose conversions both backends
  // have (fp8 has no hardware integer conversions).
  if ((fromF && t::isFP8(fromF) && !toF) || (toF && t::isFP8(toF) && !fromF))
    return castTo(castTo(v, builder.getF32Type(), loc), to, loc);
  if (fromF && toF) {
    if (fromF.getWidth() == toF.getWidth()) // f16 <-> bf16 goes through f32
      return castTo(castTo(v, builder.getF32Type(), loc), to, loc);
    if (fromF.getWidth() < toF.getWidth())
      return arith::ExtFOp::create(builder, loc, result, v);
    if (t::isFP8(toF)) {
      // Conversions to fp8 saturate. convert-fp8-to-integer's truncf does,
      // but arith.truncf's folder keeps a constant infinity infinite (e5m2
      // has one): the clamp to the largest finite value, written out, makes
      // every folding agree. NaN passes (maximumf and minimumf propagate
      // it).
      double largest =
          APFloat::getLargest(toF.getFloatSemantics()).convertToDouble();
      Value high = materialize(Const::ofFloat(largest), v.getType(), loc);
      Value low = materialize(Const::ofFloat(-largest), v.getType(), loc);
      v = arith::MinimumFOp::create(
          builder, loc, arith::MaximumFOp::create(builder, loc, v, low), high);
    }
    return arith::TruncFOp::create(builder, loc, result, v);
  }
  if (fromF && to.isInteger(1))
    return arith::CmpFOp::create(
        builder, loc, arith::CmpFPredicate::UNE, v,
        materialize(Const::ofFloat(0), v.getType(), loc));
  if (from.isInteger(1) && toF)
    return arith::UIToFPOp::create(builder, loc, result, v);
  if (from.isInteger(1) && to.isIndex())
    return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(builder, loc, result, v);
  if (to.isInteger(1))
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne, v,
        materialize(Const::ofInt(0), v.getType(), loc));
  if (from.isIndex() || to.isIndex()) {
    if (toF) // index -> float goes through i32
      return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
    if (fromF)
      return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
    return arith::IndexCastOp::create(builder, loc, result, v);
  }
  if (!fromF && !toF) { // integers of two widths: sign-extend or wrap
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtSIOp::create(builder, loc, result, v);
    return arith::TruncIOp::create(builder, loc, result, v);
  }
  if (fromF)
    return arith::FPToSIOp::create(builder, loc, result, v);
  return arith::SIToFPOp::create(builder, loc, result, v);
}

std::optional<SmallVector<int64_t>>
MLIRGenImpl::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                             Location loc) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) {
      auto diag = error(loc) << "cannot broadcast shapes [";
      llvm::interleaveComma(a, diag);
      diag << "] and [";
      llvm::interleaveComma(b, diag);
      diag << "]: dimension " << i << " is " << x << " vs " << y;
      return std::nullopt;
    }
    out[i] = std::max(x, y);
  }
  return out;
}

/// Splats a scalar, or right-aligns and stretches a tile, to `shape`.
Value MLIRGenImpl::broadcastTo(Value v, ArrayRef<int64_t> shape, Location loc) {
  Type element = elementTypeOf(v.getType());
  auto target = RankedTensorType::get(shape, element);
  if (v.getType() == target)
    return v;
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  if (!tile) {
    if (element.isIndex()) { // tiles of index do not exist: integers are i32
      v = castTo(v, builder.getI32Type(), loc);
      target = target.clone(builder.getI32Type());
    }
    return t::SplatOp::create(builder, loc, target, v);
  }
  if (static_cast<size_t>(tile.getRank()) < shape.size()) {
    SmallVector<int64_t> padded(shape.size() - tile.getRank(), 1);
    llvm::append_range(padded, tile.getShape());
    v = t::ReshapeOp::create(builder, loc,
                             RankedTensorType::get(padded, element), v);
  }
  if (v.getType() == target)
    return v;
  return t::BroadcastOp::create(builder, loc, target, v);
}

/// Brings two operands to one element type and one shape.
LogicalResult MLIRGenImpl::unify(Val &lhs, Val &rhs, Location loc, Value &a,
                                 Value &b) {
  for (Val *v : {&lhs, &rhs})
    if (!v->isConst() && isa<t::ViewType>(v->value.getType()))
      return error(loc) << "a view is not a value; load a tile from it first";
  // The element type comes from whichever side has one; constants adapt.
  Type element;
  if (!lhs.isConst() && !rhs.isConst()) {
    Type l = elementTypeOf(lhs.value.getType());
    Type r = elementTypeOf(rhs.value.getType());
    // An index scalar adapts to an i32 or i64 operand, never the other way
    // round for tiles (tiles of index do not exist).
    element = l;
    if (l != r) {
      bool lTile = isa<RankedTensorType>(lhs.value.getType());
      bool rTile = isa<RankedTensorType>(rhs.value.getType());
      if (l.isIndex() && meetsIndex(r))
        element = r;
      else if (!(r.isIndex() && meetsIndex(l)) || (rTile && !lTile)) {
        return error(loc) << "mixed element types: "
                          << describe(lhs.value.getType()) << " and "
                          << describe(rhs.value.getType()) << "; use cast";
      }
    }
  } else if (!lhs.isConst()) {
    element = elementTypeOf(lhs.value.getType());
  } else if (!rhs.isConst()) {
    element = elementTypeOf(rhs.value.getType());
  } else {
    Value l = materializeDefault(lhs, loc);
    Value r = materializeDefault(rhs, loc);
    if (!l || !r)
      return failure();
    lhs = Val{l, {}};
    rhs = Val{r, {}};
    return unify(lhs, rhs, loc, a, b);
  }
  a = convertScalarTo(lhs, element, loc);
  b = convertScalarTo(rhs, element, loc);
  if (!a || !b)
    return failure();
  auto shape = broadcastShapes(shapeOf(a.getType()), shapeOf(b.getType()), loc);
  if (!shape)
    return failure();
  if (!shape->empty() || isa<RankedTensorType>(a.getType()) ||
      isa<RankedTensorType>(b.getType())) {
    a = broadcastTo(a, *shape, loc);
    b = broadcastTo(b, *shape, loc);
  }
  return success();
}

Value MLIRGenImpl::indexValue(Val v, Location loc, StringRef what) {
  if (v.isConst()) {
    if (v.cst->kind != Const::Kind::Int) {
      error(loc) << what << " must be an integer, got " << kindName(*v.cst);
      return {};
    }
    return materialize(*v.cst, builder.getIndexType(), loc);
  }
  Type type = v.value.getType();
  if (type.isIndex())
    return v.value;
  if (isIntegerLike(type))
    return castTo(v.value, builder.getIndexType(), loc);
  error(loc) << what << " must be an integer scalar, got " << describe(type);
  return {};
}
