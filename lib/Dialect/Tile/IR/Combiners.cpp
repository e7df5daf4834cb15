//===- Combiners.cpp - what reductions, scans and sorts combine -----------===//
#include "tilegym/Dialect/Tile/IR/Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilegym::tile;

TypedAttr tilegym::tile::getReduceIdentity(ReduceKind kind, Type type) {
  Builder b(type.getContext());
  if (kind == ReduceKind::Sum)
    return cast<TypedAttr>(b.getZeroAttr(type));
  if (kind == ReduceKind::Prod)
    return isa<FloatType>(type) ? TypedAttr(b.getFloatAttr(type, 1.0))
                                : TypedAttr(b.getIntegerAttr(type, 1));
  bool isMax = kind == ReduceKind::Max;
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.getFloatAttr(
        type, APFloat::getInf(floatType.getFloatSemantics(), isMax));
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 1)
    return b.getIntegerAttr(type, APInt(1, isMax ? 0 : 1));
  return b.getIntegerAttr(type, isMax ? APInt::getSignedMinValue(width)
                                      : APInt::getSignedMaxValue(width));
}

Value tilegym::tile::buildSortsAbove(OpBuilder &b, Location loc, Value x,
                                     Value y) {
  if (!isa<FloatType>(x.getType()))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, y);
  Value greater =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  Value xNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value yNumber =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, y, y);
  return arith::OrIOp::create(b, loc, greater,
                              arith::AndIOp::create(b, loc, xNaN, yNumber));
}

Value tilegym::tile::buildEntrySortsAbove(OpBuilder &b, Location loc, Value x,
                                          Value ix, Value y, Value iy,
                                          bool descending) {
  if (!ix)
    return buildSortsAbove(b, loc, x, y);
  Value above = buildSortsAbove(b, loc, x, y);
  Value below = buildSortsAbove(b, loc, y, x);
  Value tie =
      arith::XOrIOp::create(b, loc, arith::OrIOp::create(b, loc, above, below),
                            arith::ConstantIntOp::create(b, loc, 1, 1));
  // Ascending puts what sorts above last, descending first: the lower index
  // of a tie sorts below in the one, above in the other.
  Value byIndex = arith::CmpIOp::create(b, loc,
                                        descending ? arith::CmpIPredicate::slt
                                                   : arith::CmpIPredicate::sgt,
                                        ix, iy);
  return arith::OrIOp::create(b, loc, above,
                              arith::AndIOp::create(b, loc, tie, byIndex));
}

Value tilegym::tile::buildBitsOf(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (!isa<FloatType>(type))
    return v;
  return arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), v);
}
