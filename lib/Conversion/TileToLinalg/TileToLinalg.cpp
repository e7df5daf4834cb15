//===- TileToLinalg.cpp - tile dialect to linalg/tensor/memref ------------===//
//
// The first step of the CPU backend. Tiles stay value-semantic tensors and
// become upstream linalg/tensor ops; views become strided memrefs that tiles
// enter and leave through bufferization.to_tensor / to_buffer, so that
// one-shot-bufferize sees the whole kernel. Copies are linalg.copy rather
// than memref.copy: a memref.copy between strided memrefs lowers to a call to
// `memrefCopy` from the MLIR runner libraries, which a JIT would then have to
// load, while linalg.copy lowers to plain loops.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/TileToLinalg/TileToLinalg.h"
#include "tilegym/Conversion/Passes.h"
#include "tilegym/Dialect/Tile/IR/Combiners.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "LoweringUtils.h"

namespace tilegym {
#define GEN_PASS_DEF_CONVERTTILETOLINALGPASS
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tolinalg;

/// A memref with dynamic strides and offset: a view's strides and offset are
/// runtime values, as it may be any strided slice of a larger tensor.
static MemRefType stridedMemRefType(ArrayRef<int64_t> shape, Type elementType) {
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(elementType.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

TileToLinalgTypeConverter::TileToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](ViewType view) -> Type {
    return stridedMemRefType(view.getShape(), view.getElementType());
  });
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

static Value fill(OpBuilder &b, Location loc, Value value, Value init) {
  return linalg::FillOp::create(b, loc, value, init).getResult(0);
}

namespace {
/// The part of the tile at tile index `indices` that lies inside the view:
/// where it starts in the view and in the tile, and its size, per dim.
struct TileWindow {
  SmallVector<OpFoldResult> viewOffsets, tileOffsets, sizes, strides;
};
} // namespace

/// The tile spans [idx * size, idx * size + size) along each dim; both ends
/// are clamped to [0, dim], so a tile partly or wholly outside the view
/// (a negative or too large index included) gives a partial or empty window
/// that never addresses memory outside the view.
static TileWindow computeWindow(OpBuilder &b, Location loc, Value memref,
                                ValueRange indices,
                                ArrayRef<int64_t> tileShape) {
  TileWindow window;
  Value zero = indexConstant(b, loc, 0);
  for (auto [d, index, size] : llvm::enumerate(indices, tileShape)) {
    Value dim = memref::DimOp::create(b, loc, memref, d);
    auto clamp = [&](Value v) -> Value {
      return arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, v, zero), dim);
    };
    Value tileSize = indexConstant(b, loc, size);
    Value begin = arith::MulIOp::create(b, loc, index, tileSize);
    Value end = arith::AddIOp::create(b, loc, begin, tileSize);
    Value start = clamp(begin);
    Value stop = clamp(end);
    window.viewOffsets.push_back(start);
    window.tileOffsets.push_back(
        arith::SubIOp::create(b, loc, start, begin).getResult());
    window.sizes.push_back(
        arith::SubIOp::create(b, loc, stop, start).getResult());
    window.strides.push_back(b.getIndexAttr(1));
  }
  return window;
}

/// Rounds f32 elements to tf32 (10 explicit mantissa bits) to nearest, ties
/// away from zero, as `cvt.rna.tf32.f32` does ahead of the tensor cores.
/// NaN is kept as is: the rounding carry could turn it into infinity.
static Value roundToTF32(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  auto body = [](OpBuilder &b, Location loc, ValueRange args) {
    Value x = args[0];
    Type i32 = b.getI32Type();
    Value bits = arith::BitcastOp::create(b, loc, i32, x);
    Value half = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0x1000));
    Value keep = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(static_cast<int32_t>(0xFFFFE000u)));
    Value rounded = arith::AndIOp::create(
        b, loc, arith::AddIOp::create(b, loc, bits, half), keep);
    Value y = arith::BitcastOp::create(b, loc, x.getType(), rounded);
    Value isNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    linalg::YieldOp::create(
        b, loc, ValueRange{arith::SelectOp::create(b, loc, isNan, x, y)});
  };
  return linalg::MapOp::create(b, loc, ValueRange{tile},
                               emptyLike(b, loc, type), body)
      ->getResult(0);
}

//===----------------------------------------------------------------------===//
// Functions and grid queries
//===----------------------------------------------------------------------===//

namespace {
/// Converts view types in a function's signature; a kernel also gets its
/// kNumGridArgs trailing grid arguments.
struct FuncOpLowering : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    bool isKernel = op->hasAttr(kKernelAttr);
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    if (failed(getTypeConverter()->convertSignatureArgs(type.getInputs(),
                                                        signature)))
      return failure();
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return failure();
    if (isKernel)
      signature.addInputs(
          SmallVector<Type>(kNumGridArgs, rewriter.getIndexType()));

    if (!op.isExternal() &&
        !rewriter.applySignatureConversion(&op.getBody().front(), signature,
                                           getTypeConverter()))
      return failure();
    // setType also pads the argument attributes for the new arguments.
    rewriter.modifyOpInPlace(op, [&] {
      // Names, dimension names and defaults describe the tile signature,
      // which launches read before lowering; the memref one has no views.
      op->removeAttr(kParamNamesAttr);
      for (unsigned i = 0; i < op.getNumArguments(); ++i) {
        op.removeArgAttr(i, kDimNamesAttr);
        op.removeArgAttr(i, kDefaultAttr);
      }
      op.setType(
          rewriter.getFunctionType(signature.getConvertedTypes(), results));
      if (isKernel)
        op->setAttr(kGridArgsAttr, rewriter.getUnitAttr());
    });
    return success();
  }
};

/// Replaces a grid query by the trailing kernel argument at `offset + axis`.
template <typename OpTy, unsigned offset>
struct GridQueryLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The enclosing kernel is converted first (the driver visits parents
    // before their bodies), so its grid arguments exist.
    auto func = op->template getParentOfType<func::FuncOp>();
    if (!func || !func->hasAttr(kGridArgsAttr))
      return rewriter.notifyMatchFailure(op, "not inside a lowered kernel");
    Block &entry = func.getBody().front();
    rewriter.replaceOp(op,
                       entry.getArgument(entry.getNumArguments() -
                                         kNumGridArgs + offset + op.getAxis()));
    return success();
  }
};

struct DimOpLowering : OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<memref::DimOp>(op, adaptor.getView(),
                                               op.getAxis());
    return success();
  }
};

struct CdivOpLowering : OpConversionPattern<CdivOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CdivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::CeilDivSIOp>(op, adaptor.getLhs(),
                                                    adaptor.getRhs());
    return success();
  }
};

struct NumTilesOpLowering : OpConversionPattern<NumTilesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NumTilesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dim =
        memref::DimOp::create(rewriter, loc, adaptor.getView(), op.getAxis());
    rewriter.replaceOpWithNewOp<arith::CeilDivSIOp>(
        op, dim, indexConstant(rewriter, loc, op.getTileSize()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

/// The tile starts filled with the padding value; the in-bounds window of the
/// view is copied into its in-bounds part.
struct LoadOpLowering : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value view = adaptor.getView();
    TileWindow w = computeWindow(rewriter, loc, view, adaptor.getIndices(),
                                 type.getShape());
    Value pad =
        paddingValue(rewriter, loc, op.getPaddingAttr(), type.getElementType());
    Value tile = fill(rewriter, loc, pad, allocTile(rewriter, loc, type));
    Value window = memref::SubViewOp::create(rewriter, loc, view, w.viewOffsets,
                                             w.sizes, w.strides);
    auto windowType = cast<MemRefType>(window.getType());
    // One-shot-bufferize requires `restrict`. The tensor is only read, and
    // only by the copy right here, so windows of one view that alias (other
    // loads, stores to the same view) cannot reorder around it.
    Value source = bufferization::ToTensorOp::create(
        rewriter, loc,
        RankedTensorType::get(windowType.getShape(), type.getElementType()),
        window, /*restrict=*/true);
    Value dest = tensor::ExtractSliceOp::create(
        rewriter, loc, tile, w.tileOffsets, w.sizes, w.strides);
    Value copied =
        linalg::CopyOp::create(rewriter, loc, source, dest).getResult(0);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, copied, tile, w.tileOffsets, w.sizes, w.strides);
    return success();
  }
};

/// The CPU has no use for an L2 hint: a prefetch goes away.
struct PrefetchOpLowering : OpConversionPattern<PrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// Only the in-bounds part of the tile is copied into the view.
struct StoreOpLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    Value view = adaptor.getView();
    TileWindow w = computeWindow(rewriter, loc, view, adaptor.getIndices(),
                                 type.getShape());
    auto part = tensor::ExtractSliceOp::create(
        rewriter, loc, adaptor.getValue(), w.tileOffsets, w.sizes, w.strides);
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc,
        stridedMemRefType(part.getType().getShape(), type.getElementType()),
        part, /*read_only=*/true);
    Value window = memref::SubViewOp::create(rewriter, loc, view, w.viewOffsets,
                                             w.sizes, w.strides);
    linalg::CopyOp::create(rewriter, loc, source, window);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tile construction and shapes
//===----------------------------------------------------------------------===//

struct SplatOpLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, fill(rewriter, loc, adaptor.getValue(),
                                emptyLike(rewriter, loc, op.getType())));
    return success();
  }
};

struct ItemOpLowering : OpConversionPattern<ItemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ItemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSource().getType());
    SmallVector<Value> zeros(type.getRank(),
                             indexConstant(rewriter, op.getLoc(), 0));
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, adaptor.getSource(),
                                                   zeros);
    return success();
  }
};

struct IotaOpLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    auto body = [&](OpBuilder &b, Location loc, ValueRange) {
      Value index = linalg::IndexOp::create(b, loc, 0);
      linalg::YieldOp::create(b, loc,
                              ValueRange{arith::IndexCastOp::create(
                                  b, loc, type.getElementType(), index)});
    };
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{type}, ValueRange{},
        ValueRange{emptyLike(rewriter, op.getLoc(), type)},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel}, body);
    return success();
  }
};

/// A generic whose input map reads index 0 along the stretched dims.
struct BroadcastOpLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto sourceType = cast<RankedTensorType>(op.getSource().getType());
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(sourceType.getDimSize(d) == type.getDimSize(d)
                          ? rewriter.getAffineDimExpr(d)
                          : rewriter.getAffineConstantExpr(0));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, exprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{type}, ValueRange{adaptor.getSource()},
        ValueRange{emptyLike(rewriter, op.getLoc(), type)}, maps, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, ValueRange{args[0]});
        });
    return success();
  }
};

/// Any reshape is a collapse to 1-D followed by an expand (row-major order is
/// what both keep); rank-0 tiles reshape with an empty reassociation.
struct ReshapeOpLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto sourceType = cast<RankedTensorType>(op.getSource().getType());
    RankedTensorType type = op.getType();
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    auto allDims = [](int64_t rank) {
      return rank == 0 ? SmallVector<ReassociationIndices>{}
                       : SmallVector<ReassociationIndices>{
                             llvm::to_vector(llvm::seq<int64_t>(0, rank))};
    };
    Value flat = adaptor.getSource();
    if (sourceType.getRank() == 0)
      flat = tensor::ExpandShapeOp::create(rewriter, loc, flatType, flat,
                                           allDims(0));
    else if (sourceType.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flatType, flat,
                                             allDims(sourceType.getRank()));
    Value result = flat;
    if (type.getRank() == 0)
      result = tensor::CollapseShapeOp::create(rewriter, loc, type, flat,
                                               allDims(0));
    else if (type.getRank() > 1)
      result = tensor::ExpandShapeOp::create(rewriter, loc, type, flat,
                                             allDims(type.getRank()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PermuteOpLowering : OpConversionPattern<PermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getSource(),
        emptyLike(rewriter, op.getLoc(), op.getType()), op.getPermutation());
    rewriter.replaceOp(op, transpose->getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

/// The identity of a reduction: 0 for sums, 1 for products, -inf/+inf for
/// float max/min, the extreme value for integers (unsigned for i1, where max
/// is `or` and min is `and`).
/// Float max/min propagate NaN (maximumf/minimumf, not maxnumf/minnumf).
static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value lhs,
                     Value rhs) {
  Type type = lhs.getType();
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);
  switch (kind) {
  case ReduceKind::Sum:
    return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
  case ReduceKind::Prod:
    return isFloat ? arith::MulFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MulIOp::create(b, loc, lhs, rhs).getResult();
  case ReduceKind::Max:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    return isBool ? arith::MaxUIOp::create(b, loc, lhs, rhs).getResult()
                  : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
  case ReduceKind::Min:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    return isBool ? arith::MinUIOp::create(b, loc, lhs, rhs).getResult()
                  : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

/// A sort: the bitonic network (as the GPU runs it) over each line, the
/// tile carried through every loop; then the first k of each line.
struct SortOpLowering : OpConversionPattern<SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSource().getType());
    int64_t rank = type.getRank(), n = type.getShape().back();
    int64_t logN = llvm::Log2_64(n);
    Value c0 = indexConstant(rewriter, loc, 0);
    Value c1 = indexConstant(rewriter, loc, 1);
    bool descending = op.getDescending(), indices = op.getIndices();
    // The network carries the values and, for indices, each element's
    // index along the axis (i32), moved with it.
    SmallVector<Value> init{adaptor.getSource()};
    if (indices)
      init.push_back(tensor::GenerateOp::create(
          rewriter, loc, type.clone(rewriter.getI32Type()), ValueRange{},
          [&](OpBuilder &b, Location loc, ValueRange ivs) {
            tensor::YieldOp::create(
                b, loc,
                arith::IndexCastOp::create(b, loc, b.getI32Type(), ivs.back())
                    .getResult());
          }));
    // Stage (kk, t): blocks of k = 2^kk, partners j = 2^(kk - 1 - t) apart.
    auto stages = scf::ForOp::create(
        rewriter, loc, c1, indexConstant(rewriter, loc, logN + 1), c1, init,
        [&](OpBuilder &b, Location loc, Value kk, ValueRange outer) {
          auto steps = scf::ForOp::create(
              b, loc, c0, kk, c1, outer,
              [&](OpBuilder &b, Location loc, Value t, ValueRange inner) {
                Value k = arith::ShLIOp::create(b, loc, c1, kk);
                Value shift = arith::SubIOp::create(
                    b, loc, arith::SubIOp::create(b, loc, kk, c1), t);
                Value j = arith::ShLIOp::create(b, loc, c1, shift);
                scf::LoopNest nest = buildTileLoopNest(
                    b, loc, type, inner,
                    [&](OpBuilder &b, Location loc, ValueRange ivs,
                        ValueRange tiles) -> scf::ValueVector {
                      Value i = ivs.back();
                      Value l = arith::XOrIOp::create(b, loc, i, j);
                      // Each pair once: from its lower index.
                      Value ok = arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::ugt, l, i);
                      auto swap = scf::IfOp::create(
                          b, loc, ok,
                          [&](OpBuilder &b, Location loc) {
                            SmallVector<Value> at(ivs), partner(ivs);
                            partner.back() = l;
                            SmallVector<Value> xs, ys;
                            for (Value tile : tiles) {
                              xs.push_back(
                                  tensor::ExtractOp::create(b, loc, tile, at));
                              ys.push_back(tensor::ExtractOp::create(
                                  b, loc, tile, partner));
                            }
                            // Up in blocks with bit k clear (flipped when
                            // descending): the larger goes to l.
                            Value up = arith::CmpIOp::create(
                                b, loc,
                                descending ? arith::CmpIPredicate::ne
                                           : arith::CmpIPredicate::eq,
                                arith::AndIOp::create(b, loc, i, k), c0);
                            Value ix = indices ? xs[1] : Value();
                            Value iy = indices ? ys[1] : Value();
                            Value exchange = arith::SelectOp::create(
                                b, loc, up,
                                buildEntrySortsAbove(b, loc, xs[0], ix, ys[0],
                                                     iy, descending),
                                buildEntrySortsAbove(b, loc, ys[0], iy, xs[0],
                                                     ix, descending));
                            SmallVector<Value> results;
                            for (auto [tile, x, y] : llvm::zip(tiles, xs, ys)) {
                              Value lo = arith::SelectOp::create(
                                  b, loc, exchange, y, x);
                              Value hi = arith::SelectOp::create(
                                  b, loc, exchange, x, y);
                              Value r = tensor::InsertOp::create(b, loc, lo,
                                                                 tile, at);
                              results.push_back(tensor::InsertOp::create(
                                  b, loc, hi, r, partner));
                            }
                            scf::YieldOp::create(b, loc, results);
                          },
                          [&](OpBuilder &b, Location loc) {
                            scf::YieldOp::create(b, loc, tiles);
                          });
                      return scf::ValueVector(swap.getResults().begin(),
                                              swap.getResults().end());
                    });
                scf::YieldOp::create(b, loc, nest.results);
              });
          scf::YieldOp::create(b, loc, steps.getResults());
        });
    Value sorted = stages.getResult(indices ? 1 : 0);
    auto resultType = cast<RankedTensorType>(op.getType());
    if (resultType.getShape().back() != n) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
          strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d : resultType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      sorted = tensor::ExtractSliceOp::create(rewriter, loc, resultType, sorted,
                                              offsets, sizes, strides);
    }
    rewriter.replaceOp(op, sorted);
    return success();
  }
};

/// A scan: a loop nest over the lines (every dimension but the axis), and
/// along each line an scf.for carrying the running value, in f32 for f16
/// and bf16 (each output rounded once).
struct ScanOpLowering : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    Type wide = isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() < 32
                    ? Type(rewriter.getF32Type())
                    : elem;
    int64_t axis = op.getAxis();
    ReduceKind kind = op.getKind();
    Value identity =
        arith::ConstantOp::create(rewriter, loc, getReduceIdentity(kind, wide));
    SmallVector<Value> lbs, ubs, steps;
    tileLoopBounds(rewriter, loc, type, lbs, ubs, steps);
    Value length = ubs[axis];
    lbs.erase(lbs.begin() + axis);
    ubs.erase(ubs.begin() + axis);
    steps.erase(steps.begin() + axis);
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    auto lineBody = [&](OpBuilder &b, Location loc, ValueRange lineIvs,
                        ValueRange iterArgs) -> scf::ValueVector {
      auto along = scf::ForOp::create(
          b, loc, zero, length, one, ValueRange{identity, iterArgs[0]},
          [&](OpBuilder &b, Location loc, Value e, ValueRange carried) {
            SmallVector<Value> ivs(lineIvs);
            ivs.insert(ivs.begin() + axis, e);
            Value x =
                tensor::ExtractOp::create(b, loc, adaptor.getSource(), ivs);
            if (wide != elem)
              x = arith::ExtFOp::create(b, loc, wide, x);
            Value next = combine(b, loc, kind, carried[0], x);
            Value out = op.getExclusive() ? carried[0] : next;
            if (wide != elem)
              out = arith::TruncFOp::create(b, loc, elem, out);
            Value tile = tensor::InsertOp::create(b, loc, out, carried[1], ivs);
            scf::YieldOp::create(b, loc, ValueRange{next, tile});
          });
      return {along.getResult(1)};
    };
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        ValueRange{allocTile(rewriter, loc, type)}, lineBody);
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

/// linalg.reduce into a tile filled with the identity; keep_dims expands the
/// reduced axis back as a unit dim.
struct ReduceOpLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto sourceType = cast<RankedTensorType>(op.getSource().getType());
    Type elementType = sourceType.getElementType();
    int64_t axis = op.getAxis();
    ReduceKind kind = op.getKind();
    SmallVector<int64_t> reducedShape(sourceType.getShape());
    reducedShape.erase(reducedShape.begin() + axis);
    auto reducedType = RankedTensorType::get(reducedShape, elementType);
    Value identity = arith::ConstantOp::create(
        rewriter, loc, getReduceIdentity(kind, elementType));
    Value init =
        fill(rewriter, loc, identity, emptyLike(rewriter, loc, reducedType));
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{adaptor.getSource()}, ValueRange{init},
        ArrayRef<int64_t>{axis},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(
              b, loc, ValueRange{combine(b, loc, kind, args[0], args[1])});
        });
    Value result = reduce->getResult(0);
    if (op.getKeepDims()) {
      std::optional<SmallVector<ReassociationIndices>> reassociation =
          getReassociationIndicesForReshape(reducedType, op.getType());
      if (!reassociation)
        return rewriter.notifyMatchFailure(op, "cannot expand reduced axis");
      result = tensor::ExpandShapeOp::create(rewriter, loc, op.getType(),
                                             result, *reassociation);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// linalg.matmul accumulating into acc; it extends f16/bf16 inputs to f32
/// itself, which is exact, as the tensor cores' products are.
struct DotOpLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs();
    Value rhs = adaptor.getRhs();
    if (cast<RankedTensorType>(lhs.getType()).getElementType().isF32() &&
        op.getPrecision() == Precision::TF32) {
      lhs = roundToTF32(rewriter, loc, lhs);
      rhs = roundToTF32(rewriter, loc, rhs);
    }
    rewriter.replaceOpWithNewOp<linalg::MatmulOp>(op, ValueRange{lhs, rhs},
                                                  ValueRange{adaptor.getAcc()});
    return success();
  }
};
} // namespace

void tilegym::populateTileToLinalgPatterns(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, GridQueryLowering<BlockIdOp, 0>,
               GridQueryLowering<NumBlocksOp, 3>, DimOpLowering, CdivOpLowering,
               NumTilesOpLowering, LoadOpLowering, PrefetchOpLowering,
               StoreOpLowering, SplatOpLowering, ItemOpLowering, IotaOpLowering,
               BroadcastOpLowering, ReshapeOpLowering, PermuteOpLowering,
               ReduceOpLowering, ScanOpLowering, SortOpLowering, DotOpLowering>(
      typeConverter, patterns.getContext());
  populateElementAccessPatterns(typeConverter, patterns);
  populateDebugPatterns(typeConverter, patterns);
}

void tilegym::configureTileToLinalgTarget(ConversionTarget &target,
                                          const TypeConverter &typeConverter) {
  target.addIllegalDialect<TileDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return typeConverter.isSignatureLegal(op.getFunctionType()) &&
           (!op->hasAttr(kKernelAttr) || op->hasAttr(kGridArgsAttr));
  });
}

namespace {
struct ConvertTileToLinalgPass
    : tilegym::impl::ConvertTileToLinalgPassBase<ConvertTileToLinalgPass> {
  void runOnOperation() override {
    TileToLinalgTypeConverter typeConverter;
    // Programs name tile kernels for launches, which read them before
    // lowering; the lowered kernels are no longer tile kernels.
    getOperation()->removeAttr(kProgramsAttr);
    RewritePatternSet patterns(&getContext());
    populateTileToLinalgPatterns(typeConverter, patterns);
    ConversionTarget target(getContext());
    configureTileToLinalgTarget(target, typeConverter);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
