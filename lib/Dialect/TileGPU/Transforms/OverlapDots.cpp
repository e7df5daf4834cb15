//===- OverlapDots.cpp - a loop's last dot in flight under the next one's
//--===//
//
// FlashAttention-3's intra-warpgroup overlap, as a rewrite of any
// warp-specialized loop whose last wgmma dot only feeds the accumulator the
// loop carries (attention's P V): that dot is issued one iteration later,
// right after the next iteration's first dot (its Q K^T), and waited for
// only where the accumulator is next read (the rescale after the softmax).
// The tensor cores then run P V while the warps compute the softmax of the
// next scores, instead of idling through it: each iteration's waits let
// only the other dot's group run. The stages the deferred dot reads are
// released after its wait, one iteration later than before; the first
// iteration (no dot to defer into it) is peeled before the loop and the
// last deferred dot issued after it. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/DeadOps.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUOVERLAPDOTSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// A consumer loop and the dot it defers.
struct Overlap {
  scf::ForOp loop;
  MmaOp first;        // the body's first wgmma dot: the deferred one follows it
  MmaOp last;         // the deferred dot
  MmaWaitOp lastWait; // its wait, whose result only goes round the loop
  unsigned accArg = 0;
  /// The body's op before which the deferred dot is waited for: the first
  /// that reads the accumulator (the loop's terminator if none does).
  Operation *accRead = nullptr;
  /// The deferred dot's inputs computed in the body (tensors, stage
  /// indices), carried to the next iteration.
  SmallVector<Value> carried;
  /// The body's ops that release the stages the deferred dot reads.
  SmallVector<Operation *> releases;
};
} // namespace

static bool isWgmma(MmaOp mma) {
  return mma.getInstruction() == DotInstruction::Wgmma;
}

/// The body's op that is or holds `op`.
static Operation *topLevelIn(Block *body, Operation *op) {
  return body->findAncestorOpInBlock(*op);
}

/// Records in `o` what the deferred dot reads from the body: a tensor
/// computed there is carried; a stage (memdesc_index of a ring, possibly
/// transposed) is rebuilt from its index, which is carried. Fills `allocs`
/// with the rings read.
static LogicalResult collectInputs(Overlap &o,
                                   SmallVector<LocalAllocOp> &allocs) {
  SetVector<Value> carried;
  for (Value operand : o.last->getOperands()) {
    if (o.loop.isDefinedOutsideOfLoop(operand))
      continue;
    if (isa<RankedTensorType>(operand.getType())) {
      carried.insert(operand);
      continue;
    }
    Value v = operand;
    while (auto trans = v.getDefiningOp<MemDescTransOp>())
      v = trans.getSource();
    auto index = v.getDefiningOp<MemDescIndexOp>();
    if (!index || !o.loop.isDefinedOutsideOfLoop(index.getSource()))
      return failure();
    auto alloc = index.getSource().getDefiningOp<LocalAllocOp>();
    if (!alloc)
      return failure();
    allocs.push_back(alloc);
    if (!o.loop.isDefinedOutsideOfLoop(index.getIndex()))
      carried.insert(index.getIndex());
  }
  o.carried = carried.takeVector();
  return success();
}

/// The loop's deferrable dot, or why it has none.
static FailureOr<Overlap> analyze(scf::ForOp loop, WarpSpecializeOp ws,
                                  std::string &why) {
  Overlap o;
  o.loop = loop;
  Block *body = loop.getBody();
  SmallVector<MmaOp> dots;
  bool nested = false;
  loop.walk([&](MmaOp mma) {
    if (!isWgmma(mma))
      return;
    if (mma->getBlock() != body)
      nested = true;
    dots.push_back(mma);
  });
  if (dots.size() < 2)
    return failure(); // nothing to overlap: not a candidate, no remark
  if (nested) {
    why = "a wgmma dot of its loop is under control flow";
    return failure();
  }
  o.first = dots.front();
  o.last = dots.back();
  if (o.first.isSwapped() || o.last.isSwapped()) {
    why = "a dot of its loop runs on the transposed product, which commits "
          "two groups";
    return failure();
  }
  // The last dot's result: waited for once, then only round the loop.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  if (o.last->hasOneUse())
    o.lastWait = dyn_cast<MmaWaitOp>(*o.last->getUsers().begin());
  if (!o.lastWait || o.lastWait.getPending() != 0 ||
      o.lastWait.getValues().size() != 1 || !o.lastWait->hasOneUse() ||
      *o.lastWait->getUsers().begin() != yield.getOperation()) {
    why = "its last dot's result is read in the body, not only carried "
          "round the loop";
    return failure();
  }
  o.accArg = o.lastWait->getUses().begin()->getOperandNumber();
  if (loop.walk([](MmaWaitOp wait) {
            return wait.getValues().empty() ? WalkResult::interrupt()
                                            : WalkResult::advance();
          })
          .wasInterrupted()) {
    why = "a wait of its loop names no dot";
    return failure();
  }
  SmallVector<LocalAllocOp> allocs;
  if (failed(collectInputs(o, allocs))) {
    why = "its last dot reads shared memory that is not a stage of a ring";
    return failure();
  }
  // Where the accumulator is read again: the deferred dot is waited for
  // there. Before the first dot, nothing would overlap it.
  Value acc = loop.getRegionIterArgs()[o.accArg];
  o.accRead = body->getTerminator();
  for (Operation &op : body->without_terminator()) {
    if (&op == o.last.getOperation() || &op == o.lastWait.getOperation())
      continue;
    bool reads = false;
    for (OpOperand &use : acc.getUses())
      if (op.isAncestor(use.getOwner()))
        reads = true;
    if (reads) {
      o.accRead = &op;
      break;
    }
  }
  if (!o.first->isBeforeInBlock(o.accRead)) {
    why = "its accumulator is read before its first dot";
    return failure();
  }
  // The releases of the rings the deferred dot reads.
  FailureOr<SmallVector<SpecializedRing>> rings = findSpecializedRings(ws, why);
  if (failed(rings))
    return failure();
  for (LocalAllocOp alloc : allocs) {
    auto *ring = llvm::find_if(
        *rings, [&](SpecializedRing &r) { return r.alloc == alloc; });
    if (ring == rings->end()) {
      why = "its last dot reads a ring the producer does not fill";
      return failure();
    }
    for (Operation *user : ring->empty.getUsers())
      if (isa<MBarrierArriveOp>(user) && loop->isAncestor(user)) {
        Operation *release = topLevelIn(body, user);
        if (!llvm::is_contained(o.releases, release))
          o.releases.push_back(release);
      }
  }
  return o;
}

/// `value` where the deferred dot is rebuilt: as mapped (a carried value
/// or the dot's operands seen already), defined outside the loop, or a
/// stage rebuilt from its mapped index.
static Value materialize(OpBuilder &b, Value value, LoopLikeOpInterface loop,
                         IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (loop.isDefinedOutsideOfLoop(value))
    return value;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    mapping.map(operand, materialize(b, operand, loop, mapping));
  return b.clone(*def, mapping)->getResult(0);
}

/// The deferred dot at `b`'s insertion point, on `inputs` for its carried
/// values; `loop` holds the body the dot was in.
static MmaOp issueDeferred(OpBuilder &b, Overlap &o, scf::ForOp loop,
                           ValueRange inputs) {
  IRMapping mapping;
  for (auto [value, input] : llvm::zip(o.carried, inputs))
    mapping.map(value, input);
  for (Value operand : o.last->getOperands())
    mapping.map(operand, materialize(b, operand, loop, mapping));
  return cast<MmaOp>(b.clone(*o.last, mapping));
}

/// Peels the loop's first iteration (without the deferred dot) before a
/// loop over the others that issues the last iteration's deferred dot
/// after its first, and the last deferred dot after the loop; all under a
/// test that the loop runs at all.
static void overlap(Overlap &o) {
  scf::ForOp loop = o.loop;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  auto guard =
      scf::IfOp::create(b, loc, loop.getResultTypes(), runs, /*else=*/true);
  for (Block *block : {guard.thenBlock(), guard.elseBlock()})
    if (!block->empty())
      block->getTerminator()->erase();
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, loop.getInitArgs());

  // The first iteration, its last dot left for the loop's.
  b.setInsertionPointToStart(guard.thenBlock());
  IRMapping peeled;
  peeled.map(loop.getInductionVar(), lb);
  peeled.map(loop.getRegionIterArgs(), loop.getInitArgs());
  for (Operation &op : body->without_terminator())
    if (&op != o.last.getOperation() && &op != o.lastWait.getOperation())
      b.clone(op, peeled);
  SmallVector<Value> inits;
  for (auto [i, value] : llvm::enumerate(yield.getOperands()))
    inits.push_back(i == o.accArg ? loop.getInitArgs()[i]
                                  : peeled.lookupOrDefault(value));
  for (Value value : o.carried)
    inits.push_back(peeled.lookupOrDefault(value));

  // The other iterations: the body moved into a loop that carries the
  // deferred dot's inputs.
  Value next = arith::AddIOp::create(b, loc, lb, step);
  auto rest = scf::ForOp::create(b, loc, next, ub, step, inits);
  Block *restBody = rest.getBody();
  if (!restBody->empty())
    restBody->getTerminator()->erase();
  restBody->getOperations().splice(restBody->end(), body->getOperations());
  loop.getInductionVar().replaceAllUsesWith(rest.getInductionVar());
  unsigned numResults = loop.getNumResults();
  for (unsigned i = 0; i < numResults; ++i)
    loop.getRegionIterArgs()[i].replaceAllUsesWith(rest.getRegionIterArgs()[i]);
  ValueRange carriedArgs = rest.getRegionIterArgs().drop_front(numResults);
  Value acc = rest.getRegionIterArgs()[o.accArg];
  for (Value &value : o.carried)
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == body)
      value = rest.getBody()->getArgument(arg.getArgNumber());

  // The last iteration's deferred dot, issued after this one's first, and
  // its wait where the accumulator is read.
  b.setInsertionPointAfter(o.first);
  MmaOp deferred = issueDeferred(b, o, rest, carriedArgs);
  b.setInsertionPoint(o.accRead);
  auto wait = MmaWaitOp::create(b, loc, 0, ValueRange{deferred.getResult()});
  // The waits in between for groups committed before it now let it run.
  for (Operation *op = deferred->getNextNode(); op != wait;
       op = op->getNextNode())
    if (auto inner = dyn_cast<MmaWaitOp>(op);
        inner && llvm::none_of(inner.getValues(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def && def->getBlock() == restBody &&
                 deferred->isBeforeInBlock(def);
        }))
      inner.setPending(inner.getPending() + 1);
  // The stages it read are free once it has completed.
  Operation *after = wait;
  for (Operation *release : o.releases)
    if (release->isBeforeInBlock(wait)) {
      release->moveAfter(after);
      after = release;
    }

  // This iteration's deferred dot's inputs go round; the accumulator's
  // iteration argument only passes through.
  SmallVector<Value> yielded(yield.getOperands());
  yielded[o.accArg] = acc;
  yielded.append(o.carried.begin(), o.carried.end());
  b.setInsertionPoint(yield);
  auto restYield = scf::YieldOp::create(b, loc, yielded);
  yield.erase();

  // The last deferred dot, after the loop.
  b.setInsertionPointAfter(rest);
  MmaOp last =
      issueDeferred(b, o, rest, rest.getResults().drop_front(numResults));
  auto lastWait = MmaWaitOp::create(b, loc, 0, ValueRange{last.getResult()});
  SmallVector<Value> results(rest.getResults().take_front(numResults));
  results[o.accArg] = lastWait.getResult(0);
  scf::YieldOp::create(b, loc, results);

  o.lastWait.erase();
  o.last.erase();
  acc.replaceUsesWithIf(wait.getResult(0), [&](OpOperand &use) {
    return use.getOwner() != restYield.getOperation() ||
           use.getOperandNumber() != o.accArg;
  });
  // The stage the deferred dot read in this iteration, now rebuilt above.
  eraseDeadOps(restBody);
  // What follows the wait without needing it (the softmax's row sums) runs
  // before it, while the deferred dot does.
  DenseSet<Operation *> afterWait;
  for (Operation *op = wait->getNextNode(), *next;
       op != restYield.getOperation(); op = next) {
    next = op->getNextNode();
    bool needsWait =
        op->getNumRegions() || !isMemoryEffectFree(op) ||
        llvm::any_of(op->getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def && (def == wait.getOperation() || afterWait.contains(def));
        });
    if (needsWait)
      afterWait.insert(op);
    else
      op->moveBefore(wait);
  }
  loop.replaceAllUsesWith(guard.getResults());
  loop.erase();
}

namespace {
struct TileGPUOverlapDotsPass
    : tilegpu::impl::TileGPUOverlapDotsPassBase<TileGPUOverlapDotsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kOverlapAttr);
    if (!*isKernel || !asked || asked.getInt() < 1)
      return;
    WarpSpecializeOp ws = warpSpecializeOf(kernel);
    scf::IfOp choose = consumerBranchOf(ws);
    if (!choose) {
      if (remarks)
        kernel.emitRemark() << "dots not overlapped: it is not "
                               "warp-specialized (specialize(1)), whose "
                               "producer lets a stage outlive its iteration";
      return;
    }
    // The consumers' loops on the mbarriers (the else branch is the kernel
    // as it was, on cp.async, which stays as it is).
    SmallVector<scf::ForOp> loops;
    choose.getThenRegion().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      loops.push_back(loop);
      return WalkResult::skip();
    });
    // A kernel that will be persistent keeps each loop's last dot waited
    // for inside it, as its tile loop expects. One whose rings and
    // epilogue cannot fit apart will not be (tilegpu-persistent refuses
    // it), so asking for both must not cost it the overlap.
    auto persistent = kernel->getAttrOfType<IntegerAttr>(tile::kPersistentAttr);
    bool persistenceFits =
        persistent && persistent.getInt() >= 1 &&
        getPersistentSharedBytes(kernel) <=
            getMaxSharedBytesPerBlock(*parseChipVersion(chip));
    bool candidate = false;
    for (scf::ForOp loop : loops) {
      std::string why;
      FailureOr<Overlap> o = analyze(loop, ws, why);
      candidate |= succeeded(o) || !why.empty();
      if (succeeded(o) && persistenceFits) {
        why = "it asks to be persistent, whose tile loop expects the "
              "loop's last dot waited for inside it";
        o = failure();
      }
      if (failed(o)) {
        if (remarks && !why.empty())
          loop.emitRemark() << "dots not overlapped: " << why;
        continue;
      }
      overlap(*o);
      if (remarks)
        kernel.emitRemark()
            << "dots overlapped: the loop's last dot is issued in the next "
               "iteration after its first and waited for where its "
               "accumulator is read, so the tensor cores run it under the "
               "work in between; "
            << o->carried.size() << " of its inputs carried, "
            << o->releases.size() << " release(s) of its stages moved after "
            << "that wait, the first iteration peeled";
    }
    if (!candidate && remarks)
      kernel.emitRemark() << "dots not overlapped: no loop of its consumers "
                             "has two or more wgmma dots";
  }
};
} // namespace
