//===- Sort.cpp - sorts and top-k along the last axis ---------------------===//
//
// A bitonic sorting network over each line, in shared memory, in any
// layout: the tile goes there row-major in 32-bit values (f16/bf16 as f32,
// exactly); each of the log2(n) (log2(n) + 1) / 2 stages compares and swaps
// the pairs of elements j apart, the block's threads sharing the pairs,
// between barriers; then every thread reads the first k of each line in
// the result's layout. Lines are powers of two long, as GPU tiles are. A
// sort that keeps indices moves each element's index (i32) along with it in
// a second array after the first, and compares ties by index.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/Combiners.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

LogicalResult KernelEmitter::emitSort(SortOp op) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  Type elem = srcType.getElementType();
  Type wide = isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() < 32
                  ? Type(b.getF32Type())
                  : elem;
  int64_t numel = srcType.getNumElements(), n = srcType.getShape().back();
  bool indices = op.getIndices();
  Type i32 = b.getI32Type();
  Value buf = sharedScratch(
      op, numel * (elementBytes(wide) + (indices ? elementBytes(i32) : 0)));
  if (!buf)
    return failure();

  auto at = [&](Value offset) {
    return elementPtr(buf, wide, offset, kShared);
  };
  // The indices' array, after the values'.
  Value indexBase = indices
                        ? elementPtr(buf, b.getI8Type(),
                                     idx(numel * elementBytes(wide)), kShared)
                        : Value();
  auto indexAt = [&](Value offset) {
    return elementPtr(indexBase, i32, offset, kShared);
  };

  RegMap src = regMap(op.getSource());
  const SmallVector<Value> &in = tiles[op.getSource()];
  gpu::BarrierOp::create(b, loc());
  emitIf(ownsElements(src), [&] {
    for (int64_t i = 0; i < src.count; ++i) {
      if (src.isRegisterReplica(i))
        continue;
      SmallVector<Value> coords = coordinates(src, i);
      Value offset = rowMajorOffset(srcType.getShape(), coords);
      LLVM::StoreOp::create(b, loc(), toWide(in[i]), at(offset));
      if (indices)
        LLVM::StoreOp::create(
            b, loc(), arith::IndexCastOp::create(b, loc(), i32, coords.back()),
            indexAt(offset));
    }
  });
  gpu::BarrierOp::create(b, loc());

  // Pair p of a stage: line p / (n / 2); within it, q = p % (n / 2) with a
  // 0 inserted at bit log2(j) is the lower index i, and i + j its partner.
  int64_t pairs = numel / 2, threads = numWarps * kWarpSize;
  int64_t rounds = (pairs + threads - 1) / threads;
  for (int64_t k = 2; k <= n; k *= 2) {
    for (int64_t j = k / 2; j >= 1; j /= 2) {
      int64_t logJ = llvm::Log2_64(j);
      auto body = [&](Value p) {
        Value line = arith::DivUIOp::create(b, loc(), p, idx(n / 2));
        Value q = arith::RemUIOp::create(b, loc(), p, idx(n / 2));
        Value high = arith::ShLIOp::create(
            b, loc(), arith::ShRUIOp::create(b, loc(), q, idx(logJ)),
            idx(logJ + 1));
        Value i = arith::OrIOp::create(
            b, loc(), high, arith::AndIOp::create(b, loc(), q, idx(j - 1)));
        Value base = arith::MulIOp::create(b, loc(), line, idx(n));
        Value oi = arith::AddIOp::create(b, loc(), base, i);
        Value ol = arith::AddIOp::create(
            b, loc(), base, arith::AddIOp::create(b, loc(), i, idx(j)));
        Value pi = at(oi), pl = at(ol);
        Value x = LLVM::LoadOp::create(b, loc(), wide, pi);
        Value y = LLVM::LoadOp::create(b, loc(), wide, pl);
        Value ix, iy;
        if (indices) {
          ix = LLVM::LoadOp::create(b, loc(), i32, indexAt(oi));
          iy = LLVM::LoadOp::create(b, loc(), i32, indexAt(ol));
        }
        // Up in blocks of k with bit k of i clear (flipped when descending):
        // the element that sorts above goes to the higher index.
        Value up = arith::CmpIOp::create(
            b, loc(),
            op.getDescending() ? arith::CmpIPredicate::ne
                               : arith::CmpIPredicate::eq,
            arith::AndIOp::create(b, loc(), i, idx(k)), idx(0));
        Value exchange = arith::SelectOp::create(
            b, loc(), up,
            buildEntrySortsAbove(b, loc(), x, ix, y, iy, op.getDescending()),
            buildEntrySortsAbove(b, loc(), y, iy, x, ix, op.getDescending()));
        LLVM::StoreOp::create(
            b, loc(), arith::SelectOp::create(b, loc(), exchange, y, x), pi);
        LLVM::StoreOp::create(
            b, loc(), arith::SelectOp::create(b, loc(), exchange, x, y), pl);
        if (indices) {
          LLVM::StoreOp::create(
              b, loc(), arith::SelectOp::create(b, loc(), exchange, iy, ix),
              indexAt(oi));
          LLVM::StoreOp::create(
              b, loc(), arith::SelectOp::create(b, loc(), exchange, ix, iy),
              indexAt(ol));
        }
      };
      scf::ForOp::create(
          b, loc(), idx(0), idx(rounds), idx(1), ValueRange{},
          [&](OpBuilder &, Location, Value r, ValueRange) {
            Value p = arith::AddIOp::create(
                b, loc(), threadId,
                arith::MulIOp::create(b, loc(), r, idx(threads)));
            Value ok =
                pairs % threads
                    ? Value(arith::CmpIOp::create(
                          b, loc(), arith::CmpIPredicate::ult, p, idx(pairs)))
                    : Value();
            emitIf(ok, [&] { body(p); });
            scf::YieldOp::create(b, loc());
          });
      gpu::BarrierOp::create(b, loc());
    }
  }

  // The first k of each line, in the result's layout.
  RegMap dst = regMap(op.getResult());
  SmallVector<Value> out;
  for (int64_t i = 0; i < dst.count; ++i) {
    Value offset = rowMajorOffset(srcType.getShape(), coordinates(dst, i));
    out.push_back(
        indices
            ? Value(LLVM::LoadOp::create(b, loc(), i32, indexAt(offset)))
            : fromWide(LLVM::LoadOp::create(b, loc(), wide, at(offset)), elem));
  }
  tiles[op.getResult()] = out;
  return success();
}

void tilegym::detail::populateSortPatterns(KernelEmitter &emitter,
                                           RewritePatternSet &patterns) {
  addEmitPattern<SortOp, &KernelEmitter::emitSort>(patterns, emitter);
}
