//===- StreamK.cpp - the last waves of a persistent kernel split over K ---===//
//
// A persistent kernel's blocks run tiles in waves; where the tiles are not
// a multiple of the blocks, the last wave leaves SMs idle (512 tiles on 132
// SMs: 3.88 waves, the fourth 12% idle; 480 tiles: 3.64, 36% idle). Stream-K
// (Osama et al., CUTLASS's "DP + SK") runs whole tiles but for the last two
// waves' worth, whose iterations along K are cut into equal ranges, one per
// block: every block finishes at about the same time, and a tile cut
// between blocks is summed by the block holding its first iterations from
// the others' partial accumulators (tilegpu.partial_store and
// tilegpu.partial_accumulate). See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUSTREAMKPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// The SMs of the largest sm_90 part (GH100): a persistent launch has at
/// most this many times the blocks per SM, which is the partials' slots. A
/// launch with more blocks (a larger chip) runs every tile whole.
constexpr int64_t kMaxSMs = 144;
/// The most groups of blocks the cut tiles are dealt to (see Schedule).
constexpr int64_t kMaxGroups = 8;

/// What tilegpu-persistent built, as this pass rewrites it.
struct PersistentLoops {
  /// The producer's and the consumers' loops over the block's tiles.
  scf::ForOp producerTiles, consumerTiles;
  /// In them: the producer's loop of fills and the consumers' ring loop.
  scf::ForOp fills, ring;
  /// The ring's accumulator as the epilogue reads it: the wait for its
  /// last mma, or the loop's result.
  Value acc;
  /// The first op of the epilogue (after the release of the last stage) and
  /// the barrier that ends the tile.
  Operation *epilogue = nullptr, *tileEnd = nullptr;
};

/// A block's share of the tiles: whole tiles first (`dpUnits` of them, the
/// block's tiles among the first `dpTiles`), then its part of the remaining
/// tiles. Those are dealt to `groups` groups of blocks (cut tile c to group
/// c mod groups, block b to group b mod groups, at `position` b div
/// groups; `groups` divides both, so every group is alike); a group's tiles,
/// laid end to end, are cut into one range [lo, hi) of iterations per block of
/// it, `base` or `base + 1` (the first `extra` positions one more). The blocks
/// at one position of every group then run the same iterations of neighbouring
/// tiles at the same time, as a wave of whole tiles would, so that they share
/// what they load in the L2 (CUTLASS's stream-K groups).
/// `firstTile` is the first of its group's tiles the range meets.
struct Schedule {
  Value block, blocks, iters, dpTiles, dpUnits, groups, group, position, lo, hi,
      base, extra, firstTile, units;
};

/// One unit of work: a tile and its iterations [kb, ke); for a unit past
/// the whole tiles, `cutIndex` is its tile's index among the cut ones and
/// `groupTile` among its group's.
struct Unit {
  Value tile, kb, ke, cutIndex, groupTile;
};
} // namespace

/// The loop over the block's tiles in `block` (tilegpu-persistent's: from
/// block_id(0), by num_blocks(0)), or null.
static scf::ForOp tileLoopIn(Block *block) {
  for (auto loop : block->getOps<scf::ForOp>())
    if (loop.getLowerBound().getDefiningOp<tile::BlockIdOp>() &&
        loop.getStep().getDefiningOp<tile::NumBlocksOp>())
      return loop;
  return {};
}

/// Whether `v` is a zero constant (a splat of 0.0).
static bool isZero(Value v) {
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

static FailureOr<PersistentLoops> match(WarpSpecializeOp ws, std::string &why) {
  PersistentLoops p;
  Block &producer = ws.getProducer().front();
  auto produce =
      producer.empty() ? scf::IfOp() : dyn_cast<scf::IfOp>(producer.front());
  scf::IfOp choose = consumerBranchOf(ws);
  if (produce)
    p.producerTiles = tileLoopIn(produce.thenBlock());
  if (choose)
    p.consumerTiles = tileLoopIn(choose.thenBlock());
  if (!p.producerTiles || !p.consumerTiles) {
    why = "its tile loops are not of the form tilegpu-persistent builds";
    return failure();
  }
  for (auto loop : p.producerTiles.getBody()->getOps<scf::ForOp>())
    p.fills = loop;
  for (auto loop : p.consumerTiles.getBody()->getOps<scf::ForOp>()) {
    bool releases = false;
    loop.walk([&](MBarrierArriveOp) { releases = true; });
    if (releases)
      p.ring = loop;
  }
  if (!p.fills || !p.ring) {
    why = "its tile loops have no loop of fills or no ring loop";
    return failure();
  }

  // One accumulator, from zero, that only mmas add to: the sum of its
  // parts over any cut of the iterations is the whole.
  std::optional<unsigned> accArg;
  for (auto [i, arg] : llvm::enumerate(p.ring.getRegionIterArgs())) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    auto yielded = p.ring.getYieldedValues()[i].getDefiningOp<MmaOp>();
    if (accArg || !yielded || yielded.getAcc() != arg ||
        !isZero(p.ring.getInitArgs()[i]) || !arg.hasOneUse()) {
      why = "its ring loop carries tiles other than one accumulator from "
            "zero that only mmas add to";
      return failure();
    }
    accArg = i;
  }
  if (!accArg) {
    why = "its ring loop carries no accumulator";
    return failure();
  }
  p.acc = p.ring.getResult(*accArg);
  Operation *done = p.ring;
  if (p.acc.hasOneUse())
    if (auto wait = dyn_cast<MmaWaitOp>(*p.acc.getUsers().begin());
        wait && wait.getPending() == 0 &&
        wait->getBlock() == p.ring->getBlock()) {
      for (auto [operand, result] :
           llvm::zip(wait.getValues(), wait.getResults()))
        if (operand == p.acc)
          p.acc = result;
      done = wait;
    }
  // After it, tilegpu-persistent's release of the last stage (a branch of
  // arrivals, on its test that the loop ran), then the epilogue, then the
  // tile's barrier.
  Operation *next = done->getNextNode();
  for (Operation *op = next; op; op = op->getNextNode()) {
    auto release = dyn_cast<scf::IfOp>(op);
    bool arrivals = false;
    if (release)
      release.walk([&](MBarrierArriveOp) { arrivals = true; });
    if (arrivals) {
      next = op->getNextNode();
      break;
    }
  }
  Operation *end = p.consumerTiles.getBody()->getTerminator()->getPrevNode();
  if (!next || !isa_and_nonnull<gpu::BarrierOp>(end) || next == end) {
    why = "its consumers' tile has no epilogue before its barrier";
    return failure();
  }
  p.epilogue = next;
  p.tileEnd = end;
  for (Operation *op = p.epilogue; op != p.tileEnd; op = op->getNextNode())
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!p.consumerTiles.getBody()->findAncestorOpInBlock(*user) ||
            !p.consumerTiles.getBody()
                 ->findAncestorOpInBlock(*user)
                 ->isBeforeInBlock(p.tileEnd)) {
          why = "its epilogue's values are used after the tile";
          return failure();
        }
  for (Operation *user : p.acc.getUsers()) {
    Operation *top = p.consumerTiles.getBody()->findAncestorOpInBlock(*user);
    if (!top || top == p.tileEnd || top->isBeforeInBlock(p.epilogue)) {
      why = "its accumulator is read before the epilogue";
      return failure();
    }
  }
  return p;
}

/// `v` at `b`'s insertion point, before `loop`: itself where defined
/// outside the loop, else its computation cloned there (pure ops only, none
/// reading the loop's induction variable or iteration arguments).
static FailureOr<Value> hoist(OpBuilder &b, Value v, scf::ForOp loop,
                              IRMapping &map) {
  if (Value known = map.lookupOrNull(v))
    return known;
  if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
    return v;
  Operation *def = v.getDefiningOp();
  if (!def || !isMemoryEffectFree(def) || def->getNumRegions())
    return failure();
  for (Value operand : def->getOperands())
    if (failed(hoist(b, operand, loop, map)))
      return failure();
  b.clone(*def, map);
  return map.lookup(v);
}

/// The iterations of `loop` (from its lower to its upper bound by its
/// step), at `b`, before `tiles`.
static FailureOr<Value> iterationsOf(OpBuilder &b, scf::ForOp loop,
                                     scf::ForOp tiles) {
  IRMapping map;
  FailureOr<Value> lb = hoist(b, loop.getLowerBound(), tiles, map);
  FailureOr<Value> ub = hoist(b, loop.getUpperBound(), tiles, map);
  FailureOr<Value> step = hoist(b, loop.getStep(), tiles, map);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  Location loc = loop.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, *ub, *lb), zero);
  return arith::CeilDivUIOp::create(b, loc, span, *step).getResult();
}

/// The block's share (see Schedule), at `b`, before `tiles`: stream-K
/// where the tiles pass a whole number of waves, the launch has no more
/// blocks than `slots` and a tile has 2 or more iterations; every tile
/// whole otherwise.
static Schedule buildSchedule(OpBuilder &b, Location loc, scf::ForOp tiles,
                              Value iters, int64_t slots) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto div = [&](Value x, Value y) -> Value {
    return arith::DivUIOp::create(b, loc, x, y);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, c, x, y);
  };
  auto andi = [&](Value x, Value y) -> Value {
    return arith::AndIOp::create(b, loc, x, y);
  };
  using P = arith::CmpIPredicate;
  Schedule s;
  s.block = tiles.getLowerBound();
  s.blocks = tiles.getStep();
  Value count = tiles.getUpperBound();
  s.iters = iters;
  // Each op is built in its own statement, so that the IR's order does not
  // hang on the order in which C++ evaluates a call's arguments.
  Value rem = arith::RemUIOp::create(b, loc, count, s.blocks);
  // A launch along x alone (the runtime's): blocks along y or z (a raw
  // launch of the whole grid) would share the partials' slots.
  Value blocksY = tile::NumBlocksOp::create(b, loc, 1);
  Value blocksZ = tile::NumBlocksOp::create(b, loc, 2);
  Value flatY = cmp(P::eq, blocksY, idx(1));
  Value flatZ = cmp(P::eq, blocksZ, idx(1));
  Value alongX = andi(flatY, flatZ);
  Value partialWave = cmp(P::ne, rem, idx(0));
  Value pastOneWave = cmp(P::ugt, count, s.blocks);
  Value cuttable = cmp(P::uge, iters, idx(2));
  Value enoughSlots = cmp(P::ule, s.blocks, idx(slots));
  Value split = andi(partialWave, pastOneWave);
  split = andi(split, cuttable);
  split = andi(split, enoughSlots);
  split = andi(split, alongX);
  // The last two waves' worth (the partial wave and the one before it):
  // each block then gets between one and two tiles of iterations, so that
  // a tile is cut between at most two blocks.
  Value lastTwoWaves = add(rem, s.blocks);
  Value cutTiles = select(split, lastTwoWaves, idx(0));
  s.dpTiles = sub(count, cutTiles);
  Value aheadOfBlock = sub(s.dpTiles, s.block);
  Value wholeLeft = arith::MaxSIOp::create(b, loc, aheadOfBlock, idx(0));
  s.dpUnits = arith::CeilDivUIOp::create(b, loc, wholeLeft, s.blocks);
  // The most groups, up to kMaxGroups, that divide both the blocks and the
  // cut tiles: every group then has the same blocks and tiles, so the
  // blocks at one position of every group run the same iterations at the
  // same time (with unequal groups their ranges drift apart along K), and
  // no block runs more iterations than with one group.
  s.groups = idx(1);
  for (int64_t g = 2; g <= kMaxGroups; ++g) {
    Value blocksLeft = arith::RemUIOp::create(b, loc, s.blocks, idx(g));
    Value tilesLeft = arith::RemUIOp::create(b, loc, cutTiles, idx(g));
    Value blocksEven = cmp(P::eq, blocksLeft, idx(0));
    Value tilesEven = cmp(P::eq, tilesLeft, idx(0));
    Value divides = andi(blocksEven, tilesEven);
    Value useG = andi(split, divides);
    s.groups = select(useG, idx(g), s.groups);
  }
  s.group = arith::RemUIOp::create(b, loc, s.block, s.groups);
  s.position = div(s.block, s.groups);
  // Each group's blocks and cut tiles, an equal share of both.
  Value groupBlocks = div(s.blocks, s.groups);
  Value groupTiles = div(cutTiles, s.groups);
  Value total = mul(groupTiles, iters);
  s.base = div(total, groupBlocks);
  s.extra = arith::RemUIOp::create(b, loc, total, groupBlocks);
  Value evenPart = mul(s.position, s.base);
  Value extrasBefore = arith::MinUIOp::create(b, loc, s.position, s.extra);
  s.lo = add(evenPart, extrasBefore);
  Value getsExtra = cmp(P::ult, s.position, s.extra);
  Value extraOne = select(getsExtra, idx(1), idx(0));
  Value loPlusBase = add(s.lo, s.base);
  s.hi = add(loPlusBase, extraOne);
  Value itersOr1 = arith::MaxUIOp::create(b, loc, iters, idx(1));
  Value last = sub(s.hi, idx(1));
  Value lastTile = div(last, itersOr1);
  s.firstTile = div(s.lo, itersOr1);
  Value tilesMet = sub(lastTile, s.firstTile);
  Value tilesMetAll = add(tilesMet, idx(1));
  Value hasRange = cmp(P::ugt, s.hi, s.lo);
  Value skUnits = select(hasRange, tilesMetAll, idx(0));
  s.units = add(s.dpUnits, skUnits);
  return s;
}

/// Unit `u` of the block's share, at `b`.
static Unit unitAt(OpBuilder &b, Location loc, const Schedule &s, Value u) {
  using P = arith::CmpIPredicate;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value whole = arith::CmpIOp::create(b, loc, P::ult, u, s.dpUnits);
  Value dpTile = arith::AddIOp::create(
      b, loc, s.block, arith::MulIOp::create(b, loc, u, s.blocks));
  // Past the whole tiles: the j-th of its group's tiles the block's range
  // meets.
  Value j = arith::SubIOp::create(b, loc, u, s.dpUnits);
  Unit unit;
  unit.groupTile = arith::AddIOp::create(b, loc, s.firstTile, j);
  unit.cutIndex = arith::AddIOp::create(
      b, loc, s.group, arith::MulIOp::create(b, loc, s.groups, unit.groupTile));
  Value start = arith::MulIOp::create(b, loc, unit.groupTile, s.iters);
  Value skTile = arith::AddIOp::create(b, loc, s.dpTiles, unit.cutIndex);
  Value kb = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, s.lo, start), zero);
  Value ke = arith::MinSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, s.hi, start), s.iters);
  unit.tile = arith::SelectOp::create(b, loc, whole, dpTile, skTile);
  unit.kb = arith::SelectOp::create(b, loc, whole, zero, kb);
  unit.ke = arith::SelectOp::create(b, loc, whole, s.iters, ke);
  return unit;
}

/// `tiles` rebuilt as a loop over the block's units; its body sees the
/// unit's tile where it saw the tile index. Returns the new loop and the
/// unit (computed at the start of its body).
static std::pair<scf::ForOp, Unit> loopOverUnits(OpBuilder &b, scf::ForOp tiles,
                                                 const Schedule &s) {
  Location loc = tiles.getLoc();
  b.setInsertionPoint(tiles);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto units =
      scf::ForOp::create(b, loc, zero, s.units, one, tiles.getInitArgs());
  Block *body = units.getBody();
  // The builder gives a loop without iteration arguments its yield; the
  // tile loop's own comes with its body.
  if (!body->empty())
    body->back().erase();
  body->getOperations().splice(body->end(), tiles.getBody()->getOperations());
  b.setInsertionPointToStart(body);
  Unit unit = unitAt(b, loc, s, units.getInductionVar());
  tiles.getInductionVar().replaceAllUsesWith(unit.tile);
  for (auto [from, to] :
       llvm::zip(tiles.getRegionIterArgs(), units.getRegionIterArgs()))
    from.replaceAllUsesWith(to);
  tiles.replaceAllUsesWith(units.getResults());
  tiles.erase();
  return {units, unit};
}

/// `loop` runs iterations [kb, ke) of those it ran: its bounds moved, and
/// its tests of the first iteration (the induction variable against the
/// lower bound) and `others` (ops after it comparing its bounds) follow.
static void runIterations(OpBuilder &b, scf::ForOp loop, const Unit &unit,
                          Block *after) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value step = loop.getStep();
  Value from = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, unit.kb, step));
  Value to = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, unit.ke, step));
  Value iv = loop.getInductionVar();
  loop.getBody()->walk([&](arith::CmpIOp test) {
    for (OpOperand &operand : test->getOpOperands())
      if (operand.get() == lb && llvm::is_contained(test->getOperands(), iv))
        operand.set(from);
  });
  for (Operation &op : *after)
    if (auto test = dyn_cast<arith::CmpIOp>(op);
        test && loop->isBeforeInBlock(test) && test.getLhs() == lb &&
        test.getRhs() == ub) {
      test.getLhsMutable().set(from);
      test.getRhsMutable().set(to);
    }
  loop.getLowerBoundMutable().set(from);
  loop.getUpperBoundMutable().set(to);
}

/// The position in the block's group of the block that runs the group's
/// iteration `x`.
static Value positionOf(OpBuilder &b, Location loc, const Schedule &s,
                        Value x) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value longer = arith::AddIOp::create(b, loc, s.base, one);
  Value split = arith::MulIOp::create(b, loc, s.extra, longer);
  Value early = arith::DivUIOp::create(b, loc, x, longer);
  Value pastLonger = arith::SubIOp::create(b, loc, x, split);
  Value baseOr1 = arith::MaxUIOp::create(b, loc, s.base, one);
  Value shorter = arith::DivUIOp::create(b, loc, pastLonger, baseOr1);
  Value late = arith::AddIOp::create(b, loc, s.extra, shorter);
  Value inLonger =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, split);
  return arith::SelectOp::create(b, loc, inLonger, early, late);
}

/// The consumers' unit: a cut tile's accumulator handed over or summed, and
/// the epilogue run by the block that holds the tile's first iterations.
static void finishUnits(OpBuilder &b, PersistentLoops &p, const Schedule &s,
                        const Unit &unit, int64_t slots) {
  Location loc = p.ring.getLoc();
  using P = arith::CmpIPredicate;
  b.setInsertionPoint(p.epilogue);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value owner = arith::CmpIOp::create(b, loc, P::eq, unit.kb, zero);
  Value notFirst = arith::CmpIOp::create(b, loc, P::ne, unit.kb, zero);
  Value notLast = arith::CmpIOp::create(b, loc, P::ne, unit.ke, s.iters);
  Value cut = arith::OrIOp::create(b, loc, notFirst, notLast);
  Type type = p.acc.getType();
  auto ifCut = scf::IfOp::create(b, loc, TypeRange{type}, cut, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifCut.elseBlock());
    scf::YieldOp::create(b, loc, p.acc);
    b.setInsertionPointToStart(ifCut.thenBlock());
    auto ifOwner = scf::IfOp::create(b, loc, TypeRange{type}, owner, true);
    scf::YieldOp::create(b, loc, ifOwner.getResults());
    // Not the first iterations: hand the part to the tile's owner.
    b.setInsertionPointToStart(ifOwner.elseBlock());
    PartialStoreOp::create(b, loc, p.acc, s.block, slots);
    scf::YieldOp::create(b, loc, p.acc);
    // The first: add the parts of the blocks after it that ran the rest.
    b.setInsertionPointToStart(ifOwner.thenBlock());
    Value last = arith::SubIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, arith::AddIOp::create(b, loc, unit.groupTile, one),
            s.iters),
        one);
    Value lastPosition = positionOf(b, loc, s, last);
    Value firstWriter = arith::AddIOp::create(b, loc, s.position, one);
    Value pastLastWriter = arith::AddIOp::create(b, loc, lastPosition, one);
    auto parts = scf::ForOp::create(b, loc, firstWriter, pastLastWriter, one,
                                    ValueRange{p.acc});
    b.setInsertionPointToStart(parts.getBody());
    Value writer = arith::AddIOp::create(
        b, loc, s.group,
        arith::MulIOp::create(b, loc, s.groups, parts.getInductionVar()));
    Value sum = PartialAccumulateOp::create(
        b, loc, parts.getRegionIterArgs()[0], writer, slots);
    scf::YieldOp::create(b, loc, sum);
    b.setInsertionPointAfter(parts);
    scf::YieldOp::create(b, loc, parts.getResults());
  }
  Value acc = ifCut.getResult(0);
  // The epilogue, on the sum, only where the tile's owner runs it.
  auto ifOwner = scf::IfOp::create(b, loc, TypeRange{}, owner, false);
  Block *then = ifOwner.thenBlock();
  then->getOperations().splice(
      then->begin(), p.epilogue->getBlock()->getOperations(),
      p.epilogue->getIterator(), p.tileEnd->getIterator());
  p.acc.replaceUsesWithIf(
      acc, [&](OpOperand &use) { return ifOwner->isAncestor(use.getOwner()); });
}

namespace {
struct TileGPUStreamKPass
    : tilegpu::impl::TileGPUStreamKPassBase<TileGPUStreamKPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kPersistentAttr);
    if (!asked || asked.getInt() != 2)
      return;
    auto resident = kernel->getAttrOfType<IntegerAttr>(kPersistentAttr);
    auto cluster = kernel->getAttrOfType<IntegerAttr>(kClusterAttr);
    std::string why;
    FailureOr<PersistentLoops> p = failure();
    if (!resident)
      why = "it is not persistent (tilegpu-persistent says why)";
    else if (cluster && cluster.getInt() > 1)
      why = "its blocks share tiles in clusters, which must run the same "
            "iterations";
    else if (WarpSpecializeOp ws = warpSpecializeOf(kernel))
      p = match(ws, why);
    else
      why = "it is not warp-specialized";
    OpBuilder b(kernel.getContext());
    FailureOr<Value> producerIters = failure(), consumerIters = failure();
    if (succeeded(p)) {
      b.setInsertionPoint(p->producerTiles);
      producerIters = iterationsOf(b, p->fills, p->producerTiles);
      b.setInsertionPoint(p->consumerTiles);
      consumerIters = iterationsOf(b, p->ring, p->consumerTiles);
      if (failed(producerIters) || failed(consumerIters))
        why = "its ring loop's iterations depend on the tile";
    }
    if (failed(consumerIters) || failed(producerIters)) {
      if (remarks)
        kernel.emitRemark() << "not stream-K: " << why;
      return;
    }
    int64_t slots = kMaxSMs * resident.getInt();
    Location loc = kernel.getLoc();

    // Each side builds its own schedule from its own loop's trip count, in
    // its own region: values computed once above the warp_specialize would
    // stay live through the whole kernel in the producer's few registers
    // (setmaxnreg), and the arithmetic is some tens of scalar ops per block,
    // run once per block.
    b.setInsertionPoint(p->producerTiles);
    Schedule ps =
        buildSchedule(b, loc, p->producerTiles, *producerIters, slots);
    auto [producerUnits, producerUnit] = loopOverUnits(b, p->producerTiles, ps);
    runIterations(b, p->fills, producerUnit, producerUnits.getBody());

    b.setInsertionPoint(p->consumerTiles);
    Schedule cs =
        buildSchedule(b, loc, p->consumerTiles, *consumerIters, slots);
    auto [consumerUnits, consumerUnit] = loopOverUnits(b, p->consumerTiles, cs);
    runIterations(b, p->ring, consumerUnit, consumerUnits.getBody());
    finishUnits(b, *p, cs, consumerUnit, slots);

    if (remarks)
      kernel.emitRemark()
          << "stream-K: where the tiles are not a whole number of waves, "
             "the last two waves' tiles are cut along K into one equal range "
             "of iterations per block, in the most groups up to "
          << kMaxGroups
          << " dividing both the blocks and the cut tiles, whose blocks run "
             "the same iterations together; a cut "
             "tile's first block sums the others' parts (partials of "
          << slots << " slots, one per block of a launch on up to " << kMaxSMs
          << " SMs)";
  }
};
} // namespace
