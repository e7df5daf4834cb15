//===- Sort.cpp - sorts and top-k along the last axis ---------------------===//
//
// A bitonic sorting network over each line, in shared memory, in any
// layout: the tile goes there row-major in 32-bit values (f16/bf16 as f32,
// exactly); each of the log2(n) (log2(n) + 1) / 2 stages compares and swaps
// the pairs of elements j apart, the block's threads sharing the pairs,
// between barriers; then every thread reads the first k of each line in
// the result's layout. Lines are powers of two long, as GPU tiles are.
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
  Value buf = sharedScratch(op, numel * elementBytes(wide));
  if (!buf)
    return failure();

  auto at = [&](Value offset) {
    return elementPtr(buf, wide, offset, kShared);
  };

  RegMap src = regMap(op.getSource());
  const SmallVector<Value> &in = tiles[op.getSource()];
  gpu::BarrierOp::create(b, loc());
  emitIf(ownsElements(src), [&] {
    for (int64_t i = 0; i < src.count; ++i)
      if (!src.isRegisterReplica(i))
        LLVM::StoreOp::create(
            b, loc(), toWide(in[i]),
            at(rowMajorOffset(srcType.getShape(), coordinates(src, i))));
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
        Value pi = at(arith::AddIOp::create(b, loc(), base, i));
        Value pl = at(arith::AddIOp::create(
            b, loc(), base, arith::AddIOp::create(b, loc(), i, idx(j))));
        Value x = LLVM::LoadOp::create(b, loc(), wide, pi);
        Value y = LLVM::LoadOp::create(b, loc(), wide, pl);
        // Up in blocks of k with bit k of i clear (flipped when descending):
        // the element that sorts above goes to the higher index.
        Value up = arith::CmpIOp::create(
            b, loc(),
            op.getDescending() ? arith::CmpIPredicate::ne
                               : arith::CmpIPredicate::eq,
            arith::AndIOp::create(b, loc(), i, idx(k)), idx(0));
        Value exchange = arith::SelectOp::create(
            b, loc(), up, buildSortsAbove(b, loc(), x, y),
            buildSortsAbove(b, loc(), y, x));
        LLVM::StoreOp::create(
            b, loc(), arith::SelectOp::create(b, loc(), exchange, y, x), pi);
        LLVM::StoreOp::create(
            b, loc(), arith::SelectOp::create(b, loc(), exchange, x, y), pl);
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
  for (int64_t i = 0; i < dst.count; ++i)
    out.push_back(fromWide(
        LLVM::LoadOp::create(
            b, loc(), wide,
            at(rowMajorOffset(srcType.getShape(), coordinates(dst, i)))),
        elem));
  tiles[op.getResult()] = out;
  return success();
}

void tilegym::detail::populateSortPatterns(KernelEmitter &emitter,
                                           RewritePatternSet &patterns) {
  addEmitPattern<SortOp, &KernelEmitter::emitSort>(patterns, emitter);
}
