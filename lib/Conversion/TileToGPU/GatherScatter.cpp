//===- GatherScatter.cpp - tiles at element coordinates of views ----------===//
//
// Gathers and scatters: each element of a tile at coordinates that are
// themselves tiles. Accessed element by element, each guarded by its
// bounds and its mask, unless the coordinates are a window along the last
// dimension (tile::areContiguousAlongLastDim: `load_at` and `store_at` with a
// shape, an embedding row at a loaded index). Then each thread's run of
// contiguous registers is contiguous in memory, and when every run is
// aligned, in bounds and masked in, one branch moves them all as vectors;
// the start of a window is data, so that is decided at run time.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/Contiguity.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

int64_t KernelEmitter::elementAccessWidth(Operation *op, const RegMap &map,
                                          Type elem, ValueRange indices) {
  int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / elementBytes(elem));
  if (width <= 1 || !areContiguousAlongLastDim(indices))
    return 1;
  if (remarks)
    emitRemark(op->getLoc())
        << op->getName() << " of a window: runs of " << width
        << " elements contiguous along the last dimension, accessed as "
        << width * elementBytes(elem)
        << "-byte vectors when every run is aligned and in bounds at run time";
  return width;
}

KernelEmitter::Runs KernelEmitter::windowRuns(const ViewInfo &view,
                                              const RegMap &map, int64_t width,
                                              ValueRange indices, Value mask) {
  Runs runs;
  int64_t last = indices.size() - 1;
  for (int64_t i = 0; i < map.count; i += width) {
    SmallVector<Value> coords;
    for (Value index : indices)
      coords.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                  tiles[index][i]));
    // A window starts anywhere: the view's w-vectors are aligned at
    // multiples of w (ViewInfo::vector), so the run must start at one.
    Value aligned = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc(), coords[last], idx(width - 1)), idx(0));
    Value fast = arith::AndIOp::create(
        b, loc(), vectorAccessOk(view, coords, width), aligned);
    if (mask)
      for (int64_t k = 0; k < width; ++k)
        fast = arith::AndIOp::create(b, loc(), fast, tiles[mask][i + k]);
    runs.allFast =
        runs.allFast
            ? Value(arith::AndIOp::create(b, loc(), runs.allFast, fast))
            : fast;
    runs.ptrs.push_back(elementPtr(view.base, view.elementType,
                                   linearOffset(b, loc(), view, coords),
                                   kGlobal));
    runs.coords.push_back(coords);
  }
  return runs;
}

LogicalResult KernelEmitter::emitGather(GatherOp op) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(op.getResult());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  Value pad = arith::ConstantOp::create(b, loc(),
                                        op.getPaddingAttr()
                                            ? op.getPaddingAttr()
                                            : TypedAttr(b.getZeroAttr(elem)));
  // Register `i` alone: loaded when in bounds and masked in, else padding.
  auto loadElement = [&](int64_t i) {
    SmallVector<Value> coords;
    Value ok = elementAt(view, op.getIndices(), op.getMask(), i, coords);
    return guardedLoad(view, coords, ok, pad);
  };
  int64_t width = elementAccessWidth(op, map, elem, op.getIndices());
  if (width == 1) {
    SmallVector<Value> regs;
    for (int64_t i = 0; i < map.count; ++i)
      regs.push_back(loadElement(i));
    tiles[op.getResult()] = regs;
    return success();
  }

  Runs runs = windowRuns(view, map, width, op.getIndices(), op.getMask());
  auto vecType = VectorType::get({width}, elem);
  loadRuns(op.getResult(), runs, vecType, [&](int64_t run) {
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(b, loc(), vec,
                                          loadElement(run * width + k), i32(k));
    return vec;
  });
  return success();
}

LogicalResult KernelEmitter::emitScatter(ScatterOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(op.getValue());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  const SmallVector<Value> &regs = tiles[op.getValue()];
  // Register `i` alone, when in bounds and masked in.
  auto storeElement = [&](int64_t i) {
    SmallVector<Value> coords;
    Value ok = elementAt(view, op.getIndices(), op.getMask(), i, coords);
    guardedStore(view, coords, ok, regs[i]);
  };
  int64_t width = elementAccessWidth(op, map, elem, op.getIndices());
  // Each element's first copy only, as emitStore.
  emitIf(ownsElements(map), [&] {
    if (width == 1) {
      for (int64_t i = 0; i < map.count; ++i)
        if (!map.isRegisterReplica(i))
          storeElement(i);
      return;
    }
    Runs runs = windowRuns(view, map, width, op.getIndices(), op.getMask());
    storeRuns(runs, map, regs, VectorType::get({width}, elem), [&] {
      for (int64_t i = 0; i < map.count; ++i)
        if (!map.isRegisterReplica(i))
          storeElement(i);
    });
  });
  return success();
}

void tilegym::detail::populateGatherScatterPatterns(
    KernelEmitter &emitter, RewritePatternSet &patterns) {
  addEmitPattern<GatherOp, &KernelEmitter::emitGather>(patterns, emitter);
  addEmitPattern<ScatterOp, &KernelEmitter::emitScatter>(patterns, emitter);
}
