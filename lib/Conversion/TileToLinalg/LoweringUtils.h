//===- LoweringUtils.h - helpers of the TileToLinalg patterns ---*- C++ -*-===//
//
// What the TileToLinalg pattern files share: constants, tiles written in
// place, and the loop nests of the patterns that visit a tile element by
// element (gather, scatter, atomics, sort, print, assert).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_CONVERSION_TILETOLINALG_LOWERINGUTILS_H
#define TILEGYM_LIB_CONVERSION_TILETOLINALG_LOWERINGUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilegym::tolinalg {

using namespace mlir;

inline Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A tile that is only partly written in place (a load's window, a gather's
/// elements). bufferization.alloc_tensor, unlike tensor.empty, is never
/// merged by CSE, which would make two such tiles share one buffer and force
/// one-shot-bufferize into copies.
inline Value allocTile(OpBuilder &b, Location loc, RankedTensorType type) {
  return bufferization::AllocTensorOp::create(b, loc, type, ValueRange{});
}

/// The padding value of a load or gather: its `padding` attribute, or zero.
inline Value paddingValue(OpBuilder &b, Location loc, Attribute padding,
                          Type elementType) {
  auto value = padding ? cast<TypedAttr>(padding)
                       : cast<TypedAttr>(b.getZeroAttr(elementType));
  return arith::ConstantOp::create(b, loc, value);
}

/// Coordinates of element `ivs` of a gather/scatter in the view, and whether
/// that element may be accessed: unmasked and in bounds along every dim.
inline Value elementAccess(OpBuilder &b, Location loc, ValueRange dims,
                           ValueRange coordinateTiles, Value mask,
                           ValueRange ivs, SmallVectorImpl<Value> &coords) {
  Value ok =
      mask ? tensor::ExtractOp::create(b, loc, mask, ivs).getResult() : Value();
  for (auto [dim, tile] : llvm::zip_equal(dims, coordinateTiles)) {
    Value coord = arith::IndexCastOp::create(
        b, loc, b.getIndexType(), tensor::ExtractOp::create(b, loc, tile, ivs));
    // index_cast sign-extends, so a negative coordinate is a huge unsigned
    // value and one unsigned comparison checks both bounds.
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coord, dim);
    ok =
        ok ? arith::AndIOp::create(b, loc, ok, inBounds).getResult() : inBounds;
    coords.push_back(coord);
  }
  return ok;
}

inline SmallVector<Value> viewDims(OpBuilder &b, Location loc, Value memref) {
  SmallVector<Value> dims;
  for (int64_t d = 0, e = cast<MemRefType>(memref.getType()).getRank(); d < e;
       ++d)
    dims.push_back(memref::DimOp::create(b, loc, memref, d));
  return dims;
}

/// Loop bounds that visit every element of a tile.
inline void tileLoopBounds(OpBuilder &b, Location loc, RankedTensorType type,
                           SmallVectorImpl<Value> &lbs,
                           SmallVectorImpl<Value> &ubs,
                           SmallVectorImpl<Value> &steps) {
  Value zero = indexConstant(b, loc, 0);
  Value one = indexConstant(b, loc, 1);
  for (int64_t size : type.getShape()) {
    lbs.push_back(zero);
    ubs.push_back(indexConstant(b, loc, size));
    steps.push_back(one);
  }
}

/// A loop nest visiting every element of a tile of `type`, row-major,
/// carrying `iterArgs` (the body returns their next values).
inline scf::LoopNest
buildTileLoopNest(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange iterArgs,
                  function_ref<scf::ValueVector(OpBuilder &, Location,
                                                ValueRange, ValueRange)>
                      body) {
  SmallVector<Value> lbs, ubs, steps;
  tileLoopBounds(b, loc, type, lbs, ubs, steps);
  return scf::buildLoopNest(b, loc, lbs, ubs, steps, iterArgs, body);
}

/// The same without carried values.
inline void
buildTileLoopNest(OpBuilder &b, Location loc, RankedTensorType type,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  tileLoopBounds(b, loc, type, lbs, ubs, steps);
  scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
}

} // namespace tilegym::tolinalg

#endif // TILEGYM_LIB_CONVERSION_TILETOLINALG_LOWERINGUTILS_H
