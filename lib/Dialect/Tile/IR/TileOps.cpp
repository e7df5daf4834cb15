//===- TileOps.cpp - tile dialect operations ------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tilegym::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                StringRef what) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range for "
                             << what << " of rank " << rank;
  return success();
}

static LogicalResult verifyGridAxis(Operation *op, int64_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError() << "grid axis must be 0, 1 or 2, got " << axis;
  return success();
}

static LogicalResult verifyStaticTile(Operation *op, RankedTensorType type,
                                      StringRef what) {
  if (!type.hasStaticShape())
    return op->emitOpError()
           << what << " must have a static shape, got " << type;
  std::string message;
  if (!checkTileShape(type.getShape(), message))
    return op->emitOpError() << what << ": " << message;
  return success();
}

/// A padding value must be a scalar of the tile's element type.
static LogicalResult verifyPadding(Operation *op, Attribute padding,
                                   Type elementType) {
  if (!padding)
    return success();
  auto typed = cast<TypedAttr>(padding);
  if (typed.getType() != elementType)
    return op->emitOpError() << "padding type " << typed.getType()
                             << " does not match element type " << elementType;
  return success();
}

/// Shared checks of load and store: rank, element type and index count.
static LogicalResult verifyTileAccess(Operation *op, ViewType view,
                                      RankedTensorType tile, size_t numIndices,
                                      StringRef what) {
  if (failed(verifyStaticTile(op, tile, what)))
    return failure();
  if (tile.getRank() != view.getRank())
    return op->emitOpError() << what << " rank " << tile.getRank()
                             << " does not match view rank " << view.getRank();
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError()
           << what << " element type " << tile.getElementType()
           << " does not match view element type " << view.getElementType();
  if (numIndices != static_cast<size_t>(view.getRank()))
    return op->emitOpError() << "expected " << view.getRank()
                             << " tile indices, got " << numIndices;
  return success();
}

/// Shared checks of gather and scatter: one coordinate tile per view dim,
/// each (and the mask) shaped like the data tile.
static LogicalResult verifyElementAccess(Operation *op, ViewType view,
                                         RankedTensorType tile,
                                         ValueRange indices, Value mask,
                                         StringRef what) {
  if (failed(verifyStaticTile(op, tile, what)))
    return failure();
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError()
           << what << " element type " << tile.getElementType()
           << " does not match view element type " << view.getElementType();
  if (indices.size() != static_cast<size_t>(view.getRank()))
    return op->emitOpError() << "expected " << view.getRank()
                             << " coordinate tiles, got " << indices.size();
  for (Value index : indices)
    if (cast<RankedTensorType>(index.getType()).getShape() != tile.getShape())
      return op->emitOpError() << "coordinate tile shape " << index.getType()
                               << " does not match " << what << " shape";
  if (mask &&
      cast<RankedTensorType>(mask.getType()).getShape() != tile.getShape())
    return op->emitOpError() << "mask shape " << mask.getType()
                             << " does not match " << what << " shape";
  return success();
}

//===----------------------------------------------------------------------===//
// Grid and view queries
//===----------------------------------------------------------------------===//

LogicalResult BlockIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumBlocksOp::verify() { return verifyGridAxis(*this, getAxis()); }

LogicalResult DimOp::verify() {
  return verifyAxis(*this, getAxis(), getView().getType().getRank(), "view");
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  int64_t size = getView().getType().getShape()[getAxis()];
  if (ShapedType::isDynamic(size))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), size);
}

/// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b.
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

OpFoldResult CdivOp::fold(FoldAdaptor adaptor) {
  // Only fold the well-defined case: lhs >= 0, rhs > 0.
  return constFoldBinaryOp<IntegerAttr, APInt, void>(
      adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (a.isNegative() || !b.isStrictlyPositive())
          return std::nullopt;
        return APInt(a.getBitWidth(),
                     ceilDiv(a.getSExtValue(), b.getSExtValue()));
      });
}

LogicalResult NumTilesOp::verify() {
  // The generated getter reads an I64Attr as unsigned: take the signed value.
  int64_t size = getTileSizeAttr().getInt();
  if (size <= 0)
    return emitOpError() << "tile size must be positive, got " << size;
  return verifyAxis(*this, getAxis(), getView().getType().getRank(), "view");
}

OpFoldResult NumTilesOp::fold(FoldAdaptor) {
  int64_t size = getView().getType().getShape()[getAxis()];
  if (ShapedType::isDynamic(size))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          ceilDiv(size, getTileSize()));
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  return verifyStaticTile(*this, getType(), "result");
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getValue())
    return {};
  return DenseElementsAttr::get(getType(), adaptor.getValue());
}

LogicalResult ItemOp::verify() {
  auto type = cast<RankedTensorType>(getSource().getType());
  if (type.getNumElements() != 1)
    return emitOpError() << "source must have one element, got " << type;
  return success();
}

LogicalResult IotaOp::verify() {
  auto type = getType();
  if (failed(verifyStaticTile(*this, type, "result")))
    return failure();
  if (type.getRank() != 1)
    return emitOpError() << "result must be 1-D, got rank " << type.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  if (failed(verifyTileAccess(*this, getView().getType(), getType(),
                              getIndices().size(), "result")))
    return failure();
  return verifyPadding(*this, getPaddingAttr(), getType().getElementType());
}

LogicalResult StoreOp::verify() {
  return verifyTileAccess(*this, getView().getType(),
                          cast<RankedTensorType>(getValue().getType()),
                          getIndices().size(), "value");
}

LogicalResult PrefetchOp::verify() {
  int64_t rank = getView().getType().getRank();
  if (static_cast<int64_t>(getShape().size()) != rank)
    return emitOpError() << "shape has " << getShape().size()
                         << " entries but the view has rank " << rank;
  for (int64_t d : getShape())
    if (d <= 0)
      return emitOpError() << "tile sizes must be positive, got " << d;
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError() << "expected " << rank << " tile indices, got "
                         << getIndices().size();
  return success();
}

LogicalResult GatherOp::verify() {
  if (failed(verifyElementAccess(*this, getView().getType(), getType(),
                                 getIndices(), getMask(), "result")))
    return failure();
  return verifyPadding(*this, getPaddingAttr(), getType().getElementType());
}

LogicalResult ScatterOp::verify() {
  return verifyElementAccess(*this, getView().getType(),
                             cast<RankedTensorType>(getValue().getType()),
                             getIndices(), getMask(), "value");
}

/// Atomics take floats (add, max, min on their values; xchg and cas on
/// their bits) and integers other than i1: memory's atomic units are 16,
/// 32 and 64 bits, and an i1 view holds bytes.
static LogicalResult verifyAtomicElement(Operation *op, Type elem) {
  if (isa<FloatType>(elem) || (elem.isSignlessInteger() && !elem.isInteger(1)))
    return success();
  return op->emitOpError() << "atomics take float or integer elements other "
                              "than i1, got "
                           << elem;
}

LogicalResult AtomicRMWOp::verify() {
  RankedTensorType type = getType();
  if (failed(verifyElementAccess(*this, getView().getType(), type, getIndices(),
                                 getMask(), "value")))
    return failure();
  return verifyAtomicElement(*this, type.getElementType());
}

LogicalResult AtomicCASOp::verify() {
  RankedTensorType type = getType();
  if (failed(verifyElementAccess(*this, getView().getType(), type, getIndices(),
                                 getMask(), "value")))
    return failure();
  return verifyAtomicElement(*this, type.getElementType());
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto dst = getType();
  if (failed(verifyStaticTile(*this, dst, "result")))
    return failure();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type " << dst.getElementType()
                         << " does not match source element type "
                         << src.getElementType();
  if (src.getRank() != dst.getRank())
    return emitOpError() << "source rank " << src.getRank()
                         << " does not match result rank " << dst.getRank();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(src.getShape(), dst.getShape()))) {
    auto [from, to] = pair;
    if (from != to && from != 1)
      return emitOpError() << "cannot broadcast dimension " << i << " of size "
                           << from << " to " << to;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSource()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// broadcast(splat(x)) -> splat(x): a splat has every shape for free.
struct BroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSource().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getValue());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSource().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                             inner.getSource());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplat, BroadcastOfBroadcast>(context);
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto dst = getType();
  if (failed(verifyStaticTile(*this, dst, "result")))
    return failure();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type " << dst.getElementType()
                         << " does not match source element type "
                         << src.getElementType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "cannot reshape " << src.getNumElements()
                         << " elements into " << dst.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSource().getType() == getType())
    return getSource();
  // reshape(reshape(x)) -> reshape(x)
  if (auto inner = getSource().getDefiningOp<ReshapeOp>()) {
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSource()))
    return dense.reshape(getType());
  return {};
}

LogicalResult PermuteOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto dst = getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != src.getRank())
    return emitOpError() << "permutation has " << perm.size()
                         << " entries for a source of rank " << src.getRank();
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= src.getRank() || seen[p])
      return emitOpError() << "permutation must hold each of 0.."
                           << src.getRank() - 1 << " exactly once";
    seen[p] = true;
  }
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type " << dst.getElementType()
                         << " does not match source element type "
                         << src.getElementType();
  for (auto [i, p] : llvm::enumerate(perm))
    if (dst.getRank() != src.getRank() ||
        dst.getDimSize(i) != src.getDimSize(p))
      return emitOpError() << "result shape does not match the permuted "
                              "source shape";
  return success();
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getSource();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSource()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  // permute(permute(x, p), q) -> permute(x, p o q)
  if (auto inner = getSource().getDefiningOp<PermuteOp>()) {
    ArrayRef<int64_t> innerPerm = inner.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(innerPerm[p]);
    getSourceMutable().assign(inner.getSource());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  auto type = cast<RankedTensorType>(getSource().getType());
  if (failed(verifyAxis(*this, getAxis(), type.getRank(), "source")))
    return failure();
  if (type.getElementType().isInteger(1))
    return emitOpError() << "cannot scan an i1 tile";
  return success();
}

LogicalResult SortOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getRank() == 0)
    return emitOpError() << "cannot sort a 0-D tile";
  if (src.getElementType().isInteger(1))
    return emitOpError() << "cannot sort an i1 tile";
  Type elem = getIndices() ? Type(IntegerType::get(getContext(), 32))
                           : src.getElementType();
  if (dst.getElementType() != elem || dst.getRank() != src.getRank() ||
      dst.getShape().drop_back() != src.getShape().drop_back())
    return emitOpError() << "result " << dst << " must be the source's "
                         << (getIndices() ? "shape with i32 elements" : "type")
                         << " but for its last size";
  int64_t k = dst.getShape().back(), n = src.getShape().back();
  // The bitonic network pairs elements by the bits of their index.
  if (!llvm::isPowerOf2_64(n))
    return emitOpError() << "sorts lines of a power-of-two length, got " << n;
  if (k < 1 || k > n)
    return emitOpError() << "keeps " << k << " elements of lines of " << n;
  return success();
}

LogicalResult ReduceOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto dst = getType();
  if (failed(verifyAxis(*this, getAxis(), src.getRank(), "source")))
    return failure();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type " << dst.getElementType()
                         << " does not match source element type "
                         << src.getElementType();
  if (getKind() == ReduceKind::Sum && src.getElementType().isInteger(1))
    return emitOpError() << "cannot sum an i1 tile";
  if (getKind() == ReduceKind::Prod && src.getElementType().isInteger(1))
    return emitOpError() << "cannot multiply an i1 tile";
  SmallVector<int64_t> expected(src.getShape());
  if (getKeepDims())
    expected[getAxis()] = 1;
  else
    expected.erase(expected.begin() + getAxis());
  if (dst.getShape() != ArrayRef<int64_t>(expected)) {
    auto diag = emitOpError() << "result shape must be [";
    llvm::interleaveComma(expected, diag);
    return diag << "]" << (getKeepDims() ? " with" : " without")
                << " keep_dims";
  }
  return success();
}

LogicalResult DotOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto acc = getType();
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2)
    return emitOpError() << "operands must be 2-D tiles";
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOpError() << "contraction sizes differ: lhs is "
                         << lhs.getDimSize(0) << "x" << lhs.getDimSize(1)
                         << ", rhs is " << rhs.getDimSize(0) << "x"
                         << rhs.getDimSize(1);
  if (acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError() << "accumulator must be " << lhs.getDimSize(0) << "x"
                         << rhs.getDimSize(1) << ", got " << acc.getDimSize(0)
                         << "x" << acc.getDimSize(1);
  Type in = lhs.getElementType();
  if (in != rhs.getElementType())
    return emitOpError() << "lhs and rhs element types differ: " << in << " vs "
                         << rhs.getElementType();
  if (in.isF64()) {
    // Float64 reference kernels: f64 products summed in f64.
    if (!acc.getElementType().isF64())
      return emitOpError() << "accumulator of f64 inputs must be f64, got "
                           << acc.getElementType();
    if (getPrecision() != Precision::IEEE)
      return emitOpError() << "precision applies to f32 inputs only";
    return success();
  }
  if (!in.isF16() && !in.isBF16() && !in.isF32() && !isFP8(in))
    return emitOpError() << "inputs must be f16, bf16, f32, f64, f8E4M3FN or "
                            "f8E5M2, got "
                         << in;
  if (!acc.getElementType().isF32())
    return emitOpError() << "accumulator must be f32, got "
                         << acc.getElementType();
  if (!in.isF32() && getPrecision() != Precision::TF32)
    return emitOpError() << "precision applies to f32 inputs only";
  return success();
}

LogicalResult PrintOp::verify() {
  // One tile per line: the elements of two tiles would pair up only in one
  // layout, which the GPU backend does not impose on a print's operands.
  if (llvm::count_if(getValues(), [](Value v) {
        return isa<RankedTensorType>(v.getType());
      }) > 1)
    return emitOpError() << "prints at most one tile";
  return success();
}

#define GET_OP_CLASSES
#include "tilegym/Dialect/Tile/IR/TileOps.cpp.inc"
