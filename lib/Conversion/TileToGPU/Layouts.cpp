//===- Layouts.cpp - tiles' layouts and coordinates of registers ---------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::loadLayouts(Operation *root) {
  // Every tile's layout is in its type (tilegpu-assign-layouts); values of
  // one layout share one Layout, and so its base coordinates.
  DenseMap<Attribute, const Layout *> byAttr;
  auto layoutFor = [&](Type t, Operation *op) -> FailureOr<const Layout *> {
    tilegpu::DistributedLayoutAttr attr = tilegpu::getLayout(t);
    if (!attr) {
      op->emitOpError() << "tile " << t
                        << " has no distributed layout; run "
                           "tilegpu-assign-layouts first";
      return failure();
    }
    const Layout *&layout = byAttr[attr];
    if (!layout) {
      tilegpu::LinearBases bases = attr.getLinearBases();
      if ((int64_t)bases.warp.size() > llvm::Log2_64(numWarps)) {
        op->emitOpError() << "layout " << attr
                          << " spreads over more than the kernel's " << numWarps
                          << " warps";
        return failure();
      }
      Layout l;
      static_cast<tilegpu::LinearBases &>(l) = std::move(bases);
      l.coverage = tilegpu::getCoverage(l);
      if (auto mma = dyn_cast<tilegpu::MmaLayoutAttr>(attr)) {
        l.mma = true;
        l.warpsM = mma.getWarpsM();
        l.warpsN = mma.getWarpsN();
      }
      layouts.push_back(std::move(l));
      layout = &layouts.back();
    }
    // Every register bit doubles what a thread holds: past the register
    // file, the lowering would unroll without bound.
    auto shape = cast<RankedTensorType>(t).getShape();
    int64_t bits = tilegpu::getRegisterBits(*layout, shape).size();
    if (bits > tilegpu::kMaxRegisterBits) {
      op->emitOpError() << "layout " << attr << " gives each thread 2^" << bits
                        << " elements of " << t << "; the GPU limit is "
                        << kMaxTileElementsPerThread
                        << " elements per thread per tile";
      return failure();
    }
    return layout;
  };
  auto load = [&](Value v, Operation *op) -> LogicalResult {
    if (isa<tilegpu::MemDescType>(v.getType()) &&
        (isa<BlockArgument>(v) || op->getNumRegions()))
      return op->emitOpError()
             << "carries a tile in shared memory (" << v.getType()
             << "), which the GPU backend does not "
                "support across loops and branches yet";
    if (!isa<RankedTensorType>(v.getType()))
      return success();
    FailureOr<const Layout *> layout = layoutFor(v.getType(), op);
    if (failed(layout))
      return failure();
    layoutOfValue[v] = *layout;
    return success();
  };
  WalkResult walk = root->walk([&](Operation *op) {
    if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
      FailureOr<const Layout *> layout = layoutFor(copy.getLayout(), op);
      if (failed(layout))
        return WalkResult::interrupt();
      copyLayouts[op] = *layout;
    }
    for (Value r : op->getResults())
      if (failed(load(r, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &blk : region)
        for (BlockArgument a : blk.getArguments())
          if (failed(load(a, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

ArrayRef<Value> KernelEmitter::baseCoords(const Layout &l) {
  auto it = bases.find(&l);
  if (it != bases.end())
    return it->second;
  // Computed at the kernel entry so every use dominates.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(warpId);
  SmallVector<Value> out(l.rank, idx(0));
  auto addBits = [&](Value id, ArrayRef<Basis> bits) {
    for (auto [j, bb] : llvm::enumerate(bits)) {
      Value bit = arith::AndIOp::create(
          b, loc(), arith::ShRUIOp::create(b, loc(), id, idx(j)), idx(1));
      for (int64_t d = 0; d < l.rank; ++d)
        if (bb[d])
          out[d] = arith::AddIOp::create(
              b, loc(), out[d],
              arith::MulIOp::create(b, loc(), bit, idx(bb[d])));
    }
  };
  addBits(laneId, l.lane);
  addBits(warpId, l.warp);
  return bases[&l] = out;
}

Value KernelEmitter::coordinate(const RegMap &map, int64_t d, int64_t off) {
  Value c =
      arith::AddIOp::create(b, loc(), baseCoords(*map.layout)[d], idx(off));
  if (map.wraps(d))
    c = arith::AndIOp::create(b, loc(), c, idx(map.shape[d] - 1));
  return c;
}

SmallVector<Value> KernelEmitter::coordinates(const RegMap &map, int64_t i) {
  SmallVector<int64_t> off = map.offsets(i);
  SmallVector<Value> c;
  for (int64_t d = 0; d < (int64_t)off.size(); ++d)
    c.push_back(coordinate(map, d, off[d]));
  return c;
}

Value KernelEmitter::ownsElements(const RegMap &map) {
  auto replicatingMask = [&](ArrayRef<Basis> bits) {
    int64_t mask = 0;
    for (auto [j, bb] : llvm::enumerate(bits))
      if (map.replicates(bb))
        mask |= int64_t(1) << j;
    return mask;
  };
  Value owner;
  for (auto [id, bits] :
       {std::pair<Value, ArrayRef<Basis>>{laneId, map.layout->lane},
        {warpId, map.layout->warp}}) {
    int64_t mask = replicatingMask(bits);
    // Warp bits past the layout's (a tile on fewer warps than the kernel
    // has) replicate too.
    if (id == warpId)
      mask |= (numWarps - 1) & ~((int64_t(1) << bits.size()) - 1);
    if (!mask)
      continue;
    Value first = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc(), id, idx(mask)), idx(0));
    owner = owner ? arith::AndIOp::create(b, loc(), owner, first) : first;
  }
  return owner;
}
