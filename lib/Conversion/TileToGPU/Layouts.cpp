//===- Layouts.cpp - layouts of tiles and coordinates of registers --------===//
#include "KernelEmitter.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

namespace tilegym::detail {

Layout blockedLayout(ArrayRef<int64_t> maxShape, int64_t numWarps,
                     int64_t minElementBytes) {
  int64_t rank = maxShape.size(), last = rank - 1;
  if (rank == 0) {
    // A 0-d tile is one element, held by every thread (no basis vectors):
    // reductions to it already leave their result in all lanes and warps.
    Layout l;
    l.rank = 0;
    l.finish();
    return l;
  }
  SmallVector<int64_t> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[last] = std::max<int64_t>(
      1, std::min<int64_t>(16 / minElementBytes, maxShape[last]));
  if (rank == 1) {
    tpw[0] = kWarpSize;
    wpc[0] = numWarps;
  } else {
    tpw[last] = std::min<int64_t>(
        kWarpSize, std::max<int64_t>(1, maxShape[last] / spt[last]));
    tpw[last - 1] = kWarpSize / tpw[last];
    wpc[last] = std::min<int64_t>(
        numWarps,
        std::max<int64_t>(1, maxShape[last] / (spt[last] * tpw[last])));
    wpc[last - 1] = numWarps / wpc[last];
  }
  Layout l;
  l.rank = rank;
  for (int64_t d = rank - 1; d >= 0; --d) {
    for (int64_t v = 1; v < spt[d]; v *= 2)
      l.reg.push_back(Layout::unit(rank, d, v));
    for (int64_t v = 1; v < tpw[d]; v *= 2)
      l.lane.push_back(Layout::unit(rank, d, v * spt[d]));
    for (int64_t v = 1; v < wpc[d]; v *= 2)
      l.warp.push_back(Layout::unit(rank, d, v * spt[d] * tpw[d]));
  }
  l.finish();
  return l;
}

Layout mmaLayout(int64_t warpsM, int64_t warpsN) {
  Layout l;
  l.rank = 2;
  l.mma = true;
  l.warpsM = warpsM;
  l.warpsN = warpsN;
  l.reg = {Layout::unit(2, 1, 1), Layout::unit(2, 0, 8)};
  l.lane = {Layout::unit(2, 1, 2), Layout::unit(2, 1, 4), Layout::unit(2, 0, 1),
            Layout::unit(2, 0, 2), Layout::unit(2, 0, 4)};
  for (int64_t v = 1; v < warpsN; v *= 2)
    l.warp.push_back(Layout::unit(2, 1, 8 * v));
  for (int64_t v = 1; v < warpsM; v *= 2)
    l.warp.push_back(Layout::unit(2, 0, 16 * v));
  l.finish();
  return l;
}

} // namespace tilegym::detail

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

/// The largest shape of a class of 2-D tiles whose every use is as a dot
/// operand (possibly carried through loops), if it is one.
static std::optional<SmallVector<int64_t>>
dotOperandShape(const llvm::EquivalenceClasses<Value> &classes,
                const llvm::EquivalenceClasses<Value>::ECValue &leader) {
  SmallVector<int64_t> shape;
  for (auto m = classes.member_begin(leader); m != classes.member_end(); ++m) {
    auto type = cast<RankedTensorType>((*m).getType());
    if (type.getRank() != 2)
      return std::nullopt;
    for (OpOperand &use : (*m).getUses()) {
      Operation *user = use.getOwner();
      bool operand = isa<scf::YieldOp, scf::ForOp>(user) ||
                     (isa<DotOp>(user) && use.getOperandNumber() < 2);
      if (!operand)
        return std::nullopt;
    }
    if (shape.empty())
      shape.assign(type.getShape().begin(), type.getShape().end());
    for (auto [a, s] : llvm::zip(shape, type.getShape()))
      a = std::max(a, s);
  }
  return shape;
}

LogicalResult KernelEmitter::assignLayouts() {
  // Tiles live in registers: a kernel takes them only through views.
  for (Type t : kernel.getArgumentTypes())
    if (isa<RankedTensorType>(t))
      return kernel.emitOpError()
             << "GPU kernels take views and scalars, not tiles: " << t;
  // Union-find over tile values that must share a layout.
  llvm::EquivalenceClasses<Value> classes;
  SmallVector<Value> tileValues;
  bool ok = true;
  auto addTile = [&](Value v, Operation *op) {
    auto tile = dyn_cast<RankedTensorType>(v.getType());
    if (!tile)
      return;
    for (int64_t s : tile.getShape())
      if (!llvm::isPowerOf2_64(s)) {
        if (ok)
          op->emitOpError() << "GPU backend needs power-of-two tile sizes, "
                               "got "
                            << tile;
        ok = false;
        return;
      }
    // Every element of a tile is a register of some thread: past the limit,
    // ptxas would spill most of them and the unrolled code would take
    // minutes to compile.
    int64_t threads = numWarps * kWarpSize;
    int64_t perThread = (tile.getNumElements() + threads - 1) / threads;
    if (perThread > kMaxTileElementsPerThread) {
      if (ok)
        op->emitOpError() << tile << " needs " << perThread
                          << " registers per thread over " << numWarps
                          << " warps; the GPU limit is "
                          << kMaxTileElementsPerThread
                          << " elements per thread per tile: use a smaller "
                             "tile or more warps";
      ok = false;
      return;
    }
    classes.insert(v);
    tileValues.push_back(v);
  };
  auto tie = [&](Value a, Value b) {
    if (isa<RankedTensorType>(a.getType()) &&
        isa<RankedTensorType>(b.getType()))
      classes.unionSets(a, b);
  };
  DenseMap<Value, std::pair<int64_t, int64_t>> dotShapes; // mma classes
  llvm::DenseSet<Value> reducedValues;
  kernel.walk([&](Operation *op) {
    for (Value r : op->getResults())
      addTile(r, op);
    for (Region &region : op->getRegions())
      for (Block &blk : region)
        for (BlockArgument a : blk.getArguments())
          addTile(a, op);
  });
  if (!ok)
    return failure();
  kernel.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1) {
      for (Value operand : op->getOperands())
        tie(operand, op->getResult(0));
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [init, arg, next, result] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     yield.getOperands(), loop.getResults())) {
        tie(init, arg);
        tie(arg, next);
        tie(next, result);
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          for (auto [y, r] :
               llvm::zip(region->front().getTerminator()->getOperands(),
                         branch.getResults()))
            tie(y, r);
    } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      tie(bcast.getSource(), bcast.getResult());
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      reducedValues.insert(reduce.getSource());
      if (reduce.getKeepDims())
        tie(reduce.getSource(), reduce.getResult());
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      tie(dot.getAcc(), dot.getResult());
      dotShapes[dot.getResult()] = {dot.getType().getDimSize(0),
                                    dot.getType().getDimSize(1)};
    }
  });

  // Blocked families, one per rank, sized for the largest tile of the rank.
  int64_t minBytes = 4;
  for (Type t : kernel.getArgumentTypes())
    if (auto v = dyn_cast<ViewType>(t))
      minBytes = std::min<int64_t>(minBytes, elementBytes(v.getElementType()));
  std::map<int64_t, SmallVector<int64_t>> maxShapes;
  for (Value v : tileValues) {
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    auto &m = maxShapes[shape.size()];
    if (m.empty())
      m.assign(shape.begin(), shape.end());
    for (auto [a, s] : llvm::zip(m, shape))
      a = std::max(a, s);
  }
  std::map<int64_t, const Layout *> blocked;
  for (auto &[rank, shape] : maxShapes) {
    layouts.push_back(blockedLayout(shape, numWarps, minBytes));
    blocked[rank] = &layouts.back();
  }
  // A class holding a dot result takes the mma layout. When the class is
  // reduced, warps split M first, so that row reductions (attention scores)
  // stay within a warp; otherwise the split that loads the fewest operand
  // fragments per k step (ldmatrix.x4: one per 16 rows of A, one per 16
  // columns of B), more warps along M on a tie.
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    int64_t maxM = 0, maxN = 0;
    Location dotLoc = kernel.getLoc(); // The largest dot's, for errors.
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      if (auto s = dotShapes.find(*m); s != dotShapes.end()) {
        if (s->second.first * s->second.second >= maxM * maxN)
          if (Operation *def = m->getDefiningOp())
            dotLoc = def->getLoc();
        maxM = std::max(maxM, s->second.first);
        maxN = std::max(maxN, s->second.second);
      }
    const Layout *layout;
    if (maxM) {
      bool reduced = false;
      for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
        reduced |= reducedValues.contains(*m);
      int64_t warpsM =
          std::min<int64_t>(numWarps, std::max<int64_t>(1, maxM / 16));
      if (!reduced) {
        int64_t bestCost = INT64_MAX;
        for (int64_t wm = warpsM; wm >= 1; wm /= 2) {
          int64_t wn = numWarps / wm;
          if (maxN < 8 * wn)
            continue;
          int64_t cost =
              maxM / (16 * wm) + std::max<int64_t>(1, maxN / (16 * wn));
          if (cost < bestCost) {
            bestCost = cost;
            warpsM = wm;
          }
        }
      }
      int64_t warpsN = numWarps / warpsM;
      if (maxN < 8 * warpsN) {
        emitError(dotLoc) << "dot tile " << maxM << "x" << maxN
                          << " is too small for " << numWarps
                          << " warps; use fewer warps or a larger tile";
        return failure();
      }
      layouts.push_back(mmaLayout(warpsM, warpsN));
      layout = &layouts.back();
    } else if (auto shape = dotOperandShape(classes, **it)) {
      // Only staged into shared memory for a dot: blocked for its own shape,
      // so that a [128, 32] operand is not replicated over a layout sized
      // for [128, 128] (four threads loading and staging each element).
      auto type = cast<RankedTensorType>((*it)->getData().getType());
      layouts.push_back(
          blockedLayout(*shape, numWarps, elementBytes(type.getElementType())));
      layout = &layouts.back();
    } else {
      Value leader = (*it)->getData();
      layout = blocked.at(cast<RankedTensorType>(leader.getType()).getRank());
    }
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      layoutOfValue[*m] = layout;
  }
  return success();
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
