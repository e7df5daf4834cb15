//===- Scan.cpp - running sums, products, maxima and minima ---------------===//
//
// A scan along an axis through shared memory, in any layout. The tile goes
// to shared memory row-major in 32-bit values (f16/bf16 as f32); each line
// (the elements along the axis at fixed other coordinates) is cut into
// segments, one per thread, as many as the block's threads allow per line;
// each thread scans its segment in order and writes the segment's total;
// then adds to its segment what the segments before it total; then every
// thread reads its elements back. For R lines of L elements on T threads:
// L / S steps per segment plus S - 1 totals, S = min(L, max(1, T / R)).
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/Combiners.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

LogicalResult KernelEmitter::emitScan(ScanOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  Type elem = type.getElementType();
  RegMap map = regMap(op.getSource());
  const SmallVector<Value> &in = tiles[op.getSource()];
  tilegpu::ScanGeometry g =
      tilegpu::getScanGeometry(type, op.getAxis(), numWarps * kWarpSize);
  Value buf = sharedScratch(op, g.bytes);
  if (!buf)
    return failure();
  Type wide = isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() < 32
                  ? Type(b.getF32Type())
                  : elem;
  ReduceKind kind = op.getKind();

  auto at = [&](Value base, Value offset) {
    return elementPtr(base, wide, offset, kShared);
  };
  Value totals = at(buf, idx(g.lines * g.length)); // after the tile

  // 1. The tile, row-major, each element written by its first copy.
  gpu::BarrierOp::create(b, loc());
  emitIf(ownsElements(map), [&] {
    for (int64_t i = 0; i < map.count; ++i)
      if (!map.isRegisterReplica(i))
        LLVM::StoreOp::create(
            b, loc(), toWide(in[i]),
            at(buf, rowMajorOffset(type.getShape(), coordinates(map, i))));
  });
  gpu::BarrierOp::create(b, loc());

  // Work item w: line w / S, segment w % S. A line's elements start at
  // (line / inner) * L * inner + line % inner and step by `inner`, the
  // product of the sizes after the axis.
  int64_t items = g.lines * g.segments, threads = numWarps * kWarpSize;
  int64_t seg = g.length / g.segments;
  auto forEachItem =
      [&](function_ref<void(Value w, Value s, Value first)> body) {
        for (int64_t k = 0; k < items; k += threads) {
          Value w = arith::AddIOp::create(b, loc(), threadId, idx(k));
          Value ok =
              k + threads > items
                  ? Value(arith::CmpIOp::create(
                        b, loc(), arith::CmpIPredicate::ult, w, idx(items)))
                  : Value();
          emitIf(ok, [&] {
            Value line = arith::DivUIOp::create(b, loc(), w, idx(g.segments));
            Value s = arith::RemUIOp::create(b, loc(), w, idx(g.segments));
            Value outer = arith::DivUIOp::create(b, loc(), line, idx(g.inner));
            Value within = arith::RemUIOp::create(b, loc(), line, idx(g.inner));
            Value first = arith::AddIOp::create(
                b, loc(),
                arith::AddIOp::create(
                    b, loc(),
                    arith::MulIOp::create(b, loc(), outer,
                                          idx(g.length * g.inner)),
                    within),
                arith::MulIOp::create(b, loc(), s, idx(seg * g.inner)));
            body(w, s, first);
          });
        }
      };
  Value identity =
      arith::ConstantOp::create(b, loc(), getReduceIdentity(kind, wide));

  // 2. Each segment scanned in order; its total to `totals`.
  forEachItem([&](Value w, Value, Value first) {
    auto loop = scf::ForOp::create(
        b, loc(), idx(0), idx(seg), idx(1), ValueRange{identity},
        [&](OpBuilder &, Location, Value e, ValueRange carried) {
          Value p =
              at(buf, arith::AddIOp::create(
                          b, loc(), first,
                          arith::MulIOp::create(b, loc(), e, idx(g.inner))));
          Value x = LLVM::LoadOp::create(b, loc(), wide, p);
          Value next = combine(kind, carried[0], x);
          LLVM::StoreOp::create(b, loc(), op.getExclusive() ? carried[0] : next,
                                p);
          scf::YieldOp::create(b, loc(), ValueRange{next});
        });
    LLVM::StoreOp::create(b, loc(), loop.getResult(0), at(totals, w));
  });
  gpu::BarrierOp::create(b, loc());

  // 3. The totals of the segments before each, combined into its elements.
  if (g.segments > 1) {
    forEachItem([&](Value w, Value s, Value first) {
      Value lineStart = arith::SubIOp::create(b, loc(), w, s);
      auto before = scf::ForOp::create(
          b, loc(), idx(0), s, idx(1), ValueRange{identity},
          [&](OpBuilder &, Location, Value j, ValueRange carried) {
            Value t = LLVM::LoadOp::create(
                b, loc(), wide,
                at(totals, arith::AddIOp::create(b, loc(), lineStart, j)));
            scf::YieldOp::create(b, loc(),
                                 ValueRange{combine(kind, carried[0], t)});
          });
      Value offset = before.getResult(0);
      scf::ForOp::create(
          b, loc(), idx(0), idx(seg), idx(1), ValueRange{},
          [&](OpBuilder &, Location, Value e, ValueRange) {
            Value p =
                at(buf, arith::AddIOp::create(
                            b, loc(), first,
                            arith::MulIOp::create(b, loc(), e, idx(g.inner))));
            Value x = LLVM::LoadOp::create(b, loc(), wide, p);
            LLVM::StoreOp::create(b, loc(), combine(kind, offset, x), p);
            scf::YieldOp::create(b, loc());
          });
    });
    gpu::BarrierOp::create(b, loc());
  }

  // 4. Every thread reads its elements.
  SmallVector<Value> out;
  for (int64_t i = 0; i < map.count; ++i)
    out.push_back(fromWide(
        LLVM::LoadOp::create(
            b, loc(), wide,
            at(buf, rowMajorOffset(type.getShape(), coordinates(map, i)))),
        elem));
  tiles[op.getResult()] = out;
  return success();
}

void tilegym::detail::populateScanPatterns(KernelEmitter &emitter,
                                           RewritePatternSet &patterns) {
  addEmitPattern<ScanOp, &KernelEmitter::emitScan>(patterns, emitter);
}
