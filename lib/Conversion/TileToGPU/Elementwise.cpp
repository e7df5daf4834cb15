//===- Elementwise.cpp - elementwise ops, constants and the grid's scalars ===//
//
// An elementwise op on tiles is the same op on each register (the layouts
// of its operands and result are one, tilegpu-assign-layouts sees to it);
// a splat or splat constant is the scalar in every register, an iota each
// register's coordinate, a broadcast a renaming of registers. The grid's
// scalars are gpu's ids and dimensions.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

/// An elementwise op on tiles becomes the same op on each register; scalar
/// operands (a select's condition) are shared by all registers.
LogicalResult KernelEmitter::emitElementwise(Operation *op) {
  int64_t count = regMap(op->getResult(0)).count;
  SmallVector<SmallVector<Value>> results(op->getNumResults());
  // exp and exp2 of f32 use the SFU's ex2.approx (relative error about
  // 2^-22), as Triton does, instead of libdevice's longer sequences;
  // precise math (kPreciseMathAttr) keeps libdevice's.
  auto preciseAttr = kernel->getAttrOfType<IntegerAttr>(kPreciseMathAttr);
  bool precise = preciseAttr && preciseAttr.getInt() == 1;
  bool isExp = isa<math::ExpOp>(op), isExp2 = isa<math::Exp2Op>(op);
  Type elementType =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if ((isExp || isExp2) && elementType.isF32() && !precise) {
    SmallVector<Value> regs;
    Value log2e = arith::ConstantOp::create(
        b, loc(), b.getF32FloatAttr(1.4426950408889634));
    for (Value x : tiles[op->getOperand(0)]) {
      if (isExp)
        x = arith::MulFOp::create(b, loc(), x, log2e);
      regs.push_back(LLVM::CallIntrinsicOp::create(
                         b, loc(), b.getF32Type(),
                         b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
                         ValueRange{x})
                         .getResult(0));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
  // f32 -> bf16/f16 truncation by pairs: one cvt.rn.{bf16,f16}x2.f32 per two
  // elements instead of one cvt each. The NVVM op, not a vector fptrunc:
  // LLVM splits the latter back into scalar cvts where the halves are used
  // apart (an edge path), and ptxas serializes every wgmma of a kernel
  // whose scalar cvts read accumulator registers (C7514: matmul writing
  // bf16 C ran at 0.65 of cuBLAS, bench/NOTES.md, experiments).
  if (auto trunc = dyn_cast<arith::TruncFOp>(op);
      trunc && count % 2 == 0 &&
      cast<RankedTensorType>(trunc.getIn().getType())
          .getElementType()
          .isF32() &&
      (elementType.isBF16() || elementType.isF16()) &&
      !trunc.getRoundingmodeAttr()) {
    auto pairOut = VectorType::get({2}, elementType);
    const SmallVector<Value> &in = tiles[trunc.getIn()];
    SmallVector<Value> regs;
    for (int64_t i = 0; i < count; i += 2) {
      // Element 0 is the low half: PTX's `b`, the op's src_lo.
      Value narrow = elementType.isBF16()
                         ? Value(NVVM::ConvertF32x2ToBF16x2Op::create(
                               b, loc(), pairOut, in[i + 1], in[i], Value(),
                               NVVM::FPRoundingMode::RN))
                         : Value(NVVM::ConvertF32x2ToF16x2Op::create(
                               b, loc(), pairOut, in[i + 1], in[i], Value(),
                               NVVM::FPRoundingMode::RN));
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), narrow, i32(0)));
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), narrow, i32(1)));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
  // f32 division uses div.full.f32 (2 ulp), as Triton does, instead of the
  // IEEE div.rn sequence (precise math keeps div.rn). A divisor shared by
  // several registers (a broadcast row sum, say) is inverted once and
  // multiplied: rcp + mul per element is within 2 ulp as well, and several
  // instructions shorter than div.full.
  if (isa<arith::DivFOp>(op) && elementType.isF32() && !precise) {
    const SmallVector<Value> &num = tiles[op->getOperand(0)];
    const SmallVector<Value> &den = tiles[op->getOperand(1)];
    DenseMap<Value, int> uses;
    for (Value y : den)
      ++uses[y];
    DenseMap<Value, Value> reciprocal;
    Value one = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(1.0));
    auto divFull = [&](Value x, Value y) -> Value {
      return LLVM::CallIntrinsicOp::create(
                 b, loc(), b.getF32Type(),
                 b.getStringAttr("llvm.nvvm.div.full"), ValueRange{x, y})
          .getResult(0);
    };
    SmallVector<Value> regs;
    for (auto [x, y] : llvm::zip(num, den)) {
      if (uses[y] < 2) {
        regs.push_back(divFull(x, y));
        continue;
      }
      Value &r = reciprocal[y];
      if (!r)
        r = divFull(one, y);
      regs.push_back(arith::MulFOp::create(b, loc(), x, r));
    }
    tiles[op->getResult(0)] = regs;
    return success();
  }
  for (int64_t i = 0; i < count; ++i) {
    OperationState state(loc(), op->getName());
    for (Value operand : op->getOperands()) {
      if (isa<RankedTensorType>(operand.getType()))
        state.addOperands(tiles[operand][i]);
      else
        state.addOperands(scalars.lookup(operand));
    }
    for (Type t : op->getResultTypes())
      state.addTypes(cast<RankedTensorType>(t).getElementType());
    state.addAttributes(op->getAttrs());
    Operation *scalarOp = b.create(state);
    for (auto [r, v] : llvm::zip(results, scalarOp->getResults()))
      r.push_back(v);
  }
  for (auto [old, regs] : llvm::zip(op->getResults(), results))
    tiles[old] = regs;
  return success();
}

namespace {
/// Any other op on tiles: an elementwise one, or an error. Below every
/// op's own pattern.
class ElementwisePattern : public ConversionPattern {
public:
  ElementwisePattern(KernelEmitter &emitter)
      : ConversionPattern(emitter.typeConverter(), MatchAnyOpTypeTag(),
                          /*benefit=*/0, emitter.getContext()),
        emitter(emitter) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    return emitter.lower(op, operands, rewriter, [&]() -> LogicalResult {
      if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() != 0)
        return emitter.emitElementwise(op);
      return emitter.fail(op) << "on tiles is not supported by the GPU backend";
    });
  }

private:
  KernelEmitter &emitter;
};
} // namespace

void tilegym::detail::populateElementwisePatterns(KernelEmitter &emitter,
                                                  RewritePatternSet &patterns) {
  // Every thread holds the one element of the tile (each layout bit wraps
  // around a size of 1): its register 0.
  addEmitPattern<ItemOp>(
      patterns, emitter,
      [](KernelEmitter &e, ItemOp op, ConversionPatternRewriter &) {
        e.scalars.map(op.getResult(), e.tiles[op.getSource()].front());
        return success();
      });

  patterns.add<ElementwisePattern>(emitter);
  addEmitPattern<SplatOp>(
      patterns, emitter,
      [](KernelEmitter &e, SplatOp op, ConversionPatternRewriter &) {
        e.tiles[op.getResult()] = SmallVector<Value>(
            e.regMap(op.getResult()).count, e.scalars.lookup(op.getValue()));
        return success();
      });
  // Reached for tile constants only: scalar ones stay as they are.
  addEmitPattern<arith::ConstantOp>(
      patterns, emitter,
      [](KernelEmitter &e, arith::ConstantOp op,
         ConversionPatternRewriter &) -> LogicalResult {
        auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
        if (!dense)
          return e.fail(op) << "non-splat tile constants are not supported "
                               "by the GPU backend yet";
        Value v = arith::ConstantOp::create(
            e.b, e.loc(), cast<TypedAttr>(dense.getSplatValue<Attribute>()));
        e.tiles[op.getResult()] =
            SmallVector<Value>(e.regMap(op.getResult()).count, v);
        return success();
      });
  addEmitPattern<IotaOp>(
      patterns, emitter,
      [](KernelEmitter &e, IotaOp op, ConversionPatternRewriter &) {
        RegMap map = e.regMap(op.getResult());
        SmallVector<Value> regs;
        for (int64_t i = 0; i < map.count; ++i)
          regs.push_back(arith::IndexCastOp::create(
              e.b, e.loc(), e.b.getI32Type(), e.coordinates(map, i)[0]));
        e.tiles[op.getResult()] = regs;
        return success();
      });
  // Same layout: the register of the source at the same offsets, where a
  // stretched dimension (size 1) is at offset 0.
  addEmitPattern<BroadcastOp>(
      patterns, emitter,
      [](KernelEmitter &e, BroadcastOp op, ConversionPatternRewriter &) {
        RegMap src = e.regMap(op.getSource()), dst = e.regMap(op.getResult());
        std::map<SmallVector<int64_t>, int64_t> byOffsets;
        for (int64_t i = src.count - 1; i >= 0; --i)
          byOffsets[src.offsets(i)] = i;
        const SmallVector<Value> &in = e.tiles[op.getSource()];
        SmallVector<Value> out;
        for (int64_t i = 0; i < dst.count; ++i) {
          SmallVector<int64_t> off = dst.offsets(i);
          for (int64_t d = 0; d < (int64_t)off.size(); ++d)
            if (src.shape[d] == 1)
              off[d] = 0;
          out.push_back(in[byOffsets.at(off)]);
        }
        e.tiles[op.getResult()] = out;
        return success();
      });
  addEmitPattern<BlockIdOp>(
      patterns, emitter,
      [](KernelEmitter &e, BlockIdOp op, ConversionPatternRewriter &) {
        e.scalars.map(
            op.getResult(),
            (Value)gpu::BlockIdOp::create(
                e.b, e.loc(), static_cast<gpu::Dimension>(op.getAxis())));
        return success();
      });
  addEmitPattern<NumBlocksOp>(
      patterns, emitter,
      [](KernelEmitter &e, NumBlocksOp op, ConversionPatternRewriter &) {
        e.scalars.map(
            op.getResult(),
            (Value)gpu::GridDimOp::create(
                e.b, e.loc(), static_cast<gpu::Dimension>(op.getAxis())));
        return success();
      });
  addEmitPattern<CdivOp>(
      patterns, emitter,
      [](KernelEmitter &e, CdivOp op, ConversionPatternRewriter &) {
        e.scalars.map(op.getResult(),
                      (Value)arith::CeilDivSIOp::create(
                          e.b, e.loc(), e.scalars.lookup(op.getLhs()),
                          e.scalars.lookup(op.getRhs())));
        return success();
      });
}
