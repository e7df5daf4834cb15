//===- Reduce.cpp - reductions and layout conversions of tiles ------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

//===----------------------------------------------------------------------===//
// Helpers for reductions
//===----------------------------------------------------------------------===//

/// Reductions and shuffles run on 32-bit values: f16/bf16/fp8 widen to f32
/// and i1 (unsigned) and i8 (signed) to i32, exactly. An i8 sum or product
/// in i32 truncates back to the 8-bit wrapped one.
Value KernelEmitter::toWide(Value v) {
  Type t = v.getType();
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc(), b.getF32Type(), v);
  if (t.isInteger(1))
    return arith::ExtUIOp::create(b, loc(), b.getI32Type(), v);
  if (t.isInteger(8))
    return arith::ExtSIOp::create(b, loc(), b.getI32Type(), v);
  return v;
}

Value KernelEmitter::fromWide(Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc(), type, v);
  return arith::TruncIOp::create(b, loc(), type, v);
}

Value KernelEmitter::combine(ReduceKind kind, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc(), x, y))
                   : Value(arith::AddIOp::create(b, loc(), x, y));
  case ReduceKind::Prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc(), x, y))
                   : Value(arith::MulIOp::create(b, loc(), x, y));
  case ReduceKind::Max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc(), x, y))
                   : Value(arith::MaxSIOp::create(b, loc(), x, y));
  case ReduceKind::Min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc(), x, y))
                   : Value(arith::MinSIOp::create(b, loc(), x, y));
  }
  llvm_unreachable("unknown reduction");
}

/// Combines `vals` as a balanced tree: depth log2 n instead of a chain of n
/// dependent instructions, for values that are all ready at once.
Value KernelEmitter::combineTree(ReduceKind kind, SmallVector<Value> vals) {
  while (vals.size() > 1) {
    SmallVector<Value> next;
    for (size_t k = 0; k + 1 < vals.size(); k += 2)
      next.push_back(combine(kind, vals[k], vals[k + 1]));
    if (vals.size() % 2)
      next.push_back(vals.back());
    vals = std::move(next);
  }
  return vals.front();
}

/// Whether `v`'s registers fill one after another as loads land: it is a
/// load, or elementwise math and broadcasts over one. (A dot's accumulator,
/// say, is ready all at once.)
static bool fillsInLoadOrder(Value v) {
  SmallVector<Value> work{v};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (isa<LoadOp, GatherOp>(op))
      return true;
    if (op->hasTrait<OpTrait::Elementwise>() || isa<BroadcastOp>(op))
      for (Value x : op->getOperands())
        if (isa<RankedTensorType>(x.getType()))
          work.push_back(x);
  }
  return false;
}

/// Reduces along the op's axis into `kept` (the source shape with the axis
/// at size 1, same layout). Bits that move along the axis within the tile
/// are reduced over: register bits within the thread, lane bits with xor
/// shuffles, warp bits through shared memory. Bits that only replicate
/// (they move by the tile's size or more) are not, so nothing counts twice.
SmallVector<Value> KernelEmitter::emitReduceKeepDims(ReduceOp op,
                                                     const RegMap &src,
                                                     const RegMap &dst) {
  const Layout &l = *src.layout;
  int64_t axis = op.getAxis();
  ReduceKind kind = op.getKind();
  const SmallVector<Value> &in = tiles[op.getSource()];
  Type elem = cast<RankedTensorType>(op.getSource().getType()).getElementType();
  auto along = [&](const Basis &bb) { return src.wrapped(bb, axis) != 0; };

  // 1. Within the thread: the destination register with the same offsets
  // off the axis takes every source register whose replicating bits are 0.
  std::map<SmallVector<int64_t>, int64_t> dstByOffsets;
  for (int64_t o = dst.count - 1; o >= 0; --o)
    dstByOffsets[dst.offsets(o)] = o;
  std::map<int64_t, SmallVector<Value>> terms;
  for (int64_t i = 0; i < src.count; ++i) {
    bool replica = false;
    for (auto [j, bb] : llvm::enumerate(src.bits))
      if ((i >> j & 1) && !along(bb) &&
          llvm::all_of(llvm::seq<int64_t>(0, l.rank),
                       [&](int64_t d) { return src.wrapped(bb, d) == 0; }))
        replica = true;
    if (replica)
      continue;
    SmallVector<int64_t> off = src.offsets(i);
    off[axis] = 0;
    int64_t o = dstByOffsets.at(off);
    terms[o].push_back(toWide(in[i]));
  }
  // Over loaded values, a chain in register order, which is load order:
  // each step needs one more run, so the reduction proceeds while later
  // loads are still in flight, where a tree waits for all of them (softmax
  // bf16 rows of 16384: bench/NOTES.md, experiments). Values
  // ready at once take the shallower tree.
  bool chain = fillsInLoadOrder(op.getSource());
  std::map<int64_t, Value> partial;
  for (auto &[o, vals] : terms) {
    if (!chain) {
      partial[o] = combineTree(kind, vals);
      continue;
    }
    Value v = vals.front();
    for (Value x : ArrayRef<Value>(vals).drop_front())
      v = combine(kind, v, x);
    partial[o] = v;
  }

  // 2. Across the lanes whose bits move along the axis.
  for (auto &[o, v] : partial)
    for (auto [j, bb] : llvm::enumerate(l.lane))
      if (along(bb)) {
        auto shuffle =
            gpu::ShuffleOp::create(b, loc(), v, i32(int64_t(1) << j),
                                   i32(kWarpSize), gpu::ShuffleMode::XOR);
        v = combine(kind, v, shuffle.getShuffleResult());
      }

  // 3. Across the warps whose bits move along the axis: every warp writes
  // its partials to its own slice of shared memory, then each thread
  // combines the slices of the warps that differ from its own in those bits
  // only, in a fixed order.
  int64_t axisWarpMask = 0;
  for (auto [j, bb] : llvm::enumerate(l.warp))
    if (along(bb))
      axisWarpMask |= int64_t(1) << j;
  if (axisWarpMask) {
    Type wide = partial.begin()->second.getType();
    int64_t numel = 1;
    for (int64_t s : dst.shape)
      numel *= s;
    int64_t wbytes = elementBytes(wide);
    // A slice of its own: only a loop's next iteration can overwrite it
    // while slower warps still read it.
    if (loopDepth > 0)
      gpu::BarrierOp::create(b, loc());
    Value buf = sharedScratch(op, numWarps * numel * wbytes);
    if (!buf)
      return {};
    auto slot = [&](Value warp, int64_t o) {
      SmallVector<Value> c = coordinates(dst, o);
      Value lin = idx(0);
      for (int64_t d = 0; d < l.rank; ++d)
        lin = arith::AddIOp::create(
            b, loc(), arith::MulIOp::create(b, loc(), lin, idx(dst.shape[d])),
            c[d]);
      return arith::AddIOp::create(
          b, loc(), arith::MulIOp::create(b, loc(), warp, idx(numel)), lin);
    };
    for (auto &[o, v] : partial)
      LLVM::StoreOp::create(b, loc(), v,
                            elementPtr(buf, wide, slot(warpId, o), kShared));
    gpu::BarrierOp::create(b, loc());
    Value others = arith::AndIOp::create(b, loc(), warpId, idx(~axisWarpMask));
    for (auto &[o, v] : partial) {
      SmallVector<Value> slices;
      for (int64_t w = 0; w < numWarps; ++w) {
        if ((w & ~axisWarpMask) != 0)
          continue; // enumerate the subsets of the axis bits only
        Value warp = arith::OrIOp::create(b, loc(), others, idx(w));
        slices.push_back(LLVM::LoadOp::create(
            b, loc(), wide, elementPtr(buf, wide, slot(warp, o), kShared)));
      }
      v = combineTree(kind, slices);
    }
  }

  // Destination registers that differ only in replicating bits hold the
  // same element: give each the partial of its representative.
  SmallVector<Value> out(dst.count);
  for (int64_t i = 0; i < dst.count; ++i) {
    auto it = partial.find(i);
    if (it == partial.end())
      it = partial.find(dstByOffsets.at(dst.offsets(i)));
    out[i] = fromWide(it->second, elem);
  }
  return out;
}

LogicalResult KernelEmitter::emitReduce(ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  SmallVector<int64_t> keptShape(srcType.getShape());
  keptShape[op.getAxis()] = 1;
  RegMap src = regMap(op.getSource());
  RegMap kept(*src.layout, keptShape);
  SmallVector<Value> regs = emitReduceKeepDims(op, src, kept);
  if (allocationFailed)
    return failure();
  // Dropping the axis: a renaming where the result's layout is the kept
  // tile's bases without it, a conversion otherwise.
  if (!op.getKeepDims() &&
      !tilegpu::movesNoData(RankedTensorType::get(keptShape,
                                                  op.getType().getElementType(),
                                                  srcType.getEncoding()),
                            op.getType()))
    regs = convertLayout(op, regs, kept, regMap(op.getResult()), {});
  tiles[op.getResult()] = regs;
  return failure(allocationFailed);
}

/// A reshape moves no data where the result's layout places every element
/// where the source's does; an iota reshaped to one non-unit dimension
/// ([N] to [1, N] or [N, 1]) is its coordinate along it, computed in the
/// result's layout: no trip through shared memory (a column index, every
/// iteration of a loop); anything else is a layout conversion.
LogicalResult KernelEmitter::emitReshape(ReshapeOp op) {
  RegMap dst = regMap(op.getResult());
  auto from = cast<RankedTensorType>(op.getSource().getType());
  if (tilegpu::movesNoData(from, op.getType())) {
    sameRegisters(op.getResult(), op.getSource());
    return success();
  }
  auto shape = op.getType().getShape();
  if (op.getSource().getDefiningOp<IotaOp>() &&
      llvm::count_if(shape, [](int64_t d) { return d != 1; }) == 1) {
    int64_t dim =
        llvm::find_if(shape, [](int64_t d) { return d != 1; }) - shape.begin();
    SmallVector<Value> regs;
    for (int64_t i = 0; i < dst.count; ++i)
      regs.push_back(arith::IndexCastOp::create(b, loc(), b.getI32Type(),
                                                coordinates(dst, i)[dim]));
    tiles[op.getResult()] = regs;
    return success();
  }
  tiles[op.getResult()] =
      convertLayout(op, tiles[op.getSource()], regMap(op.getSource()), dst, {});
  return failure(allocationFailed);
}

/// Moves a tile between layouts (a reshape, a permutation, a change of
/// rank or of layout family). Where both place every element in the same
/// register of the same thread, this is a renaming; otherwise the tile goes
/// through shared memory, row-major in the source shape.
SmallVector<Value> KernelEmitter::convertLayout(Operation *owner,
                                                ArrayRef<Value> regs,
                                                const RegMap &src,
                                                const RegMap &dst,
                                                ArrayRef<int64_t> perm) {
  // Same placement: every lane, warp and register bit moves the same
  // non-unit dimensions (in order) by the same amount.
  auto nonUnit = [](const RegMap &m) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < (int64_t)m.shape.size(); ++d)
      if (m.shape[d] != 1)
        dims.push_back(d);
    return dims;
  };
  SmallVector<int64_t> a = nonUnit(src), c = nonUnit(dst);
  bool identityPerm =
      perm.empty() || llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
  auto sameBits = [&](ArrayRef<Basis> x, const RegMap &mx, ArrayRef<Basis> y,
                      const RegMap &my) {
    if (x.size() != y.size())
      return false;
    for (auto [bx, by] : llvm::zip(x, y)) {
      for (auto [dx, dy] : llvm::zip(a, c))
        if (mx.wrapped(bx, dx) != my.wrapped(by, dy))
          return false;
    }
    return true;
  };
  if (identityPerm && a.size() == c.size() &&
      llvm::all_of(llvm::zip(a, c),
                   [&](auto p) {
                     return src.shape[std::get<0>(p)] ==
                            dst.shape[std::get<1>(p)];
                   }) &&
      sameBits(src.bits, src, dst.bits, dst) &&
      sameBits(src.layout->lane, src, dst.layout->lane, dst) &&
      sameBits(src.layout->warp, src, dst.layout->warp, dst))
    return SmallVector<Value>(regs);
  return throughShared(owner, regs, src, dst, perm);
}

Value KernelEmitter::rowMajorOffset(ArrayRef<int64_t> shape,
                                    ArrayRef<Value> coords) {
  Value lin = idx(0);
  for (auto [s, c] : llvm::zip(shape, coords))
    lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), lin, idx(s)), c);
  return lin;
}

/// Each element of `regs` (in `src`) goes to shared memory, row-major in the
/// source shape, written once by the thread and register holding its first
/// copy; then every thread reads its elements in `dst`.
SmallVector<Value> KernelEmitter::throughShared(Operation *owner,
                                                ArrayRef<Value> regs,
                                                const RegMap &src,
                                                const RegMap &dst,
                                                ArrayRef<int64_t> perm) {
  Type elem = regs.front().getType();
  Type stored = elem.isInteger(1) ? b.getI8Type() : elem;
  int64_t bytes = elementBytes(stored);
  int64_t numel = 1;
  for (int64_t s : src.shape)
    numel *= s;
  if (remarks)
    emitRemark(loc()) << "layout conversion of a tile of " << numel
                      << " elements through " << numel * bytes
                      << " bytes of shared memory";
  Value buf = sharedScratch(owner, numel * bytes);
  if (!buf)
    return SmallVector<Value>(regs);
  gpu::BarrierOp::create(b, loc());
  emitIf(ownsElements(src), [&] {
    for (int64_t i = 0; i < src.count; ++i) {
      if (src.isRegisterReplica(i))
        continue;
      Value v = regs[i];
      if (elem.isInteger(1))
        v = arith::ExtUIOp::create(b, loc(), stored, v);
      LLVM::StoreOp::create(
          b, loc(), v,
          elementPtr(buf, stored,
                     rowMajorOffset(src.shape, coordinates(src, i)), kShared));
    }
  });
  gpu::BarrierOp::create(b, loc());
  SmallVector<Value> out;
  for (int64_t i = 0; i < dst.count; ++i) {
    SmallVector<Value> dc = coordinates(dst, i);
    SmallVector<Value> sc = dc;
    if (!perm.empty())
      for (auto [j, p] : llvm::enumerate(perm))
        sc[p] = dc[j];
    Value lin = perm.empty() ? rowMajorOffset(dst.shape, dc)
                             : rowMajorOffset(src.shape, sc);
    Value v = LLVM::LoadOp::create(b, loc(), stored,
                                   elementPtr(buf, stored, lin, kShared));
    if (elem.isInteger(1))
      v = arith::TruncIOp::create(b, loc(), elem, v);
    out.push_back(v);
  }
  return out;
}

void tilegym::detail::populateReducePatterns(KernelEmitter &emitter,
                                             RewritePatternSet &patterns) {
  addEmitPattern<ReduceOp, &KernelEmitter::emitReduce>(patterns, emitter);
  addEmitPattern<ReshapeOp, &KernelEmitter::emitReshape>(patterns, emitter);
  addEmitPattern<tilegpu::ConvertLayoutOp>(
      patterns, emitter,
      [](KernelEmitter &e, tilegpu::ConvertLayoutOp op,
         ConversionPatternRewriter &) -> LogicalResult {
        if (tilegpu::movesNoData(op.getSource().getType(), op.getType())) {
          e.sameRegisters(op.getResult(), op.getSource());
          return success();
        }
        e.tiles[op.getResult()] = e.convertLayout(op, e.tiles[op.getSource()],
                                                  e.regMap(op.getSource()),
                                                  e.regMap(op.getResult()), {});
        return failure(e.allocationFailed);
      });
  addEmitPattern<PermuteOp>(
      patterns, emitter,
      [](KernelEmitter &e, PermuteOp op,
         ConversionPatternRewriter &) -> LogicalResult {
        auto from = cast<RankedTensorType>(op.getSource().getType());
        if (tilegpu::movesNoData(from, op.getType(), op.getPermutation())) {
          e.sameRegisters(op.getResult(), op.getSource());
          return success();
        }
        e.tiles[op.getResult()] = e.convertLayout(
            op, e.tiles[op.getSource()], e.regMap(op.getSource()),
            e.regMap(op.getResult()), op.getPermutation());
        return failure(e.allocationFailed);
      });
}
