//===- ElementAccess.cpp - gather, scatter and atomics to loop nests ------===//
//
// Ops that address memory element by element, at coordinates held in
// tiles: each becomes a loop nest over the tile, one scf.if per element
// checking its mask and bounds around a memref access. Atomics are LLVM's
// atomicrmw and cmpxchg (relaxed) at the element's address: blocks of the
// CPU JIT run on several threads.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/TileToLinalg/TileToLinalg.h"
#include "tilegym/Dialect/Tile/IR/Combiners.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "LoweringUtils.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tolinalg;

namespace {
/// A loop nest over a result of `type`: each element's `access` (a load, an
/// atomic) under an scf.if that checks the mask and the bounds; an element
/// masked off or out of bounds is `fallback` (zero when null).
using ElementBuilder = function_ref<Value(OpBuilder &, Location, ValueRange ivs,
                                          ValueRange coords)>;
static Value elementResultNest(OpBuilder &builder, Location loc,
                               RankedTensorType type, Value view,
                               ValueRange indices, Value mask,
                               Attribute fallback, ElementBuilder access) {
  SmallVector<Value> dims = viewDims(builder, loc, view);
  Value otherwise = paddingValue(builder, loc, fallback, type.getElementType());
  auto body = [&](OpBuilder &b, Location loc, ValueRange ivs,
                  ValueRange iterArgs) -> scf::ValueVector {
    SmallVector<Value> coords;
    Value ok = elementAccess(b, loc, dims, indices, mask, ivs, coords);
    auto element = scf::IfOp::create(
        b, loc, ok,
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, ValueRange{access(b, loc, ivs, coords)});
        },
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, ValueRange{otherwise});
        });
    return {tensor::InsertOp::create(b, loc, element.getResult(0), iterArgs[0],
                                     ivs)};
  };
  scf::LoopNest nest = buildTileLoopNest(
      builder, loc, type, ValueRange{allocTile(builder, loc, type)}, body);
  return nest.results.front();
}

/// Each element loaded under the mask and bounds check, or the padding.
struct GatherOpLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value view = adaptor.getView();
    rewriter.replaceOp(
        op,
        elementResultNest(
            rewriter, op.getLoc(), op.getType(), view, adaptor.getIndices(),
            adaptor.getMask(), op.getPaddingAttr(),
            [&](OpBuilder &b, Location loc, ValueRange, ValueRange coords) {
              return memref::LoadOp::create(b, loc, view, coords).getResult();
            }));
    return success();
  }
};

/// A loop nest over the value; each element is stored under an scf.if that
/// checks the mask and the bounds.
struct ScatterOpLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    Value view = adaptor.getView();
    SmallVector<Value> dims = viewDims(rewriter, loc, view);
    buildTileLoopNest(
        rewriter, loc, type, [&](OpBuilder &b, Location loc, ValueRange ivs) {
          SmallVector<Value> coords;
          Value ok = elementAccess(b, loc, dims, adaptor.getIndices(),
                                   adaptor.getMask(), ivs, coords);
          scf::IfOp::create(b, loc, ok, [&](OpBuilder &b, Location loc) {
            Value element =
                tensor::ExtractOp::create(b, loc, adaptor.getValue(), ivs);
            memref::StoreOp::create(b, loc, element, view, coords);
            scf::YieldOp::create(b, loc);
          });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The address of `view[coords]` as an LLVM pointer: the atomics are
/// LLVM's own (memref.generic_atomic_rmw, the only compare-and-swap memref
/// has, holds a region one-shot-bufferize rejects).
static Value elementAddress(OpBuilder &b, Location loc, Value view,
                            ValueRange coords) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value offset = meta.getOffset();
  for (auto [c, stride] : llvm::zip_equal(coords, meta.getStrides()))
    offset = arith::AddIOp::create(b, loc, offset,
                                   arith::MulIOp::create(b, loc, c, stride));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, meta.getBaseBuffer());
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value address = arith::IndexCastOp::create(b, loc, i64, base);
  Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
  return LLVM::GEPOp::create(
      b, loc, ptrType, cast<MemRefType>(view.getType()).getElementType(), ptr,
      ValueRange{arith::IndexCastOp::create(b, loc, i64, offset).getResult()});
}

/// One element's read-modify-write, relaxed (LLVM's monotonic), as the GPU
/// backend emits it: float max and min propagate NaN (fmaximum, fminimum).
static Value atomicElement(OpBuilder &b, Location loc, AtomicKind kind,
                           Value value, Value ptr) {
  bool isFloat = isa<FloatType>(value.getType());
  LLVM::AtomicBinOp op = LLVM::AtomicBinOp::xchg;
  switch (kind) {
  case AtomicKind::Add:
    op = isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
    break;
  case AtomicKind::Max:
    op = isFloat ? LLVM::AtomicBinOp::fmaximum : LLVM::AtomicBinOp::max;
    break;
  case AtomicKind::Min:
    op = isFloat ? LLVM::AtomicBinOp::fminimum : LLVM::AtomicBinOp::min;
    break;
  case AtomicKind::Xchg:
    break;
  }
  return LLVM::AtomicRMWOp::create(b, loc, op, ptr, value,
                                   LLVM::AtomicOrdering::monotonic);
}

struct AtomicRMWOpLowering : OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value view = adaptor.getView();
    rewriter.replaceOp(
        op,
        elementResultNest(
            rewriter, op.getLoc(), op.getType(), view, adaptor.getIndices(),
            adaptor.getMask(), Attribute(),
            [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange coords) {
              Value value =
                  tensor::ExtractOp::create(b, loc, adaptor.getValue(), ivs);
              return atomicElement(b, loc, op.getKind(), value,
                                   elementAddress(b, loc, view, coords));
            }));
    return success();
  }
};

/// Compare-and-swap of the elements' bits.
struct AtomicCASOpLowering : OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value view = adaptor.getView();
    rewriter.replaceOp(
        op,
        elementResultNest(
            rewriter, op.getLoc(), op.getType(), view, adaptor.getIndices(),
            adaptor.getMask(), Attribute(),
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange coords) -> Value {
              Value cmp =
                  tensor::ExtractOp::create(b, loc, adaptor.getCmp(), ivs);
              Value value =
                  tensor::ExtractOp::create(b, loc, adaptor.getValue(), ivs);
              auto cas = LLVM::AtomicCmpXchgOp::create(
                  b, loc, elementAddress(b, loc, view, coords),
                  buildBitsOf(b, loc, cmp), buildBitsOf(b, loc, value),
                  LLVM::AtomicOrdering::monotonic,
                  LLVM::AtomicOrdering::monotonic);
              Value seen = LLVM::ExtractValueOp::create(b, loc, cas, 0);
              if (seen.getType() == value.getType())
                return seen;
              return arith::BitcastOp::create(b, loc, value.getType(), seen);
            }));
    return success();
  }
};
} // namespace

void tilegym::populateElementAccessPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<GatherOpLowering, ScatterOpLowering, AtomicRMWOpLowering,
               AtomicCASOpLowering>(typeConverter, patterns.getContext());
}
