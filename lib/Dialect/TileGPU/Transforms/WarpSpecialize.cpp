//===- WarpSpecialize.cpp - producer warps for the TMA's copies -----------===//
//
// Gives a kernel whose ring loop the TMA fills a warpgroup of producers:
// one of its threads issues every fill, waiting on an "empty" mbarrier per
// stage, while the consumer warps (the kernel's own, whose layouts the
// tiles use) only wait for "full" stages, run the dots and release each
// stage once the mma reading it has completed. The consumers lose the
// copies' issue and the two block-wide barriers per iteration that guarded
// the stages; the producers give their registers to the consumers
// (setmaxnreg), which is what lets an accumulator of 128x256 or
// attention's state stay in registers. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/DeadOps.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUWARPSPECIALIZEPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// One warpgroup of producers where they give their registers to the
/// consumers (setmaxnreg works on whole warpgroups); one warp where they
/// keep them.
constexpr int64_t kProducerWarpgroup = 4, kProducerWarp = 1;

/// The kernel's ring loop and what its producer needs.
struct RingLoop {
  scf::ForOp loop;
  SmallVector<AsyncCopyOp> copies; // the fills ahead, in body order
  int64_t stages = 0;
  /// Ops of the body before the loop that the copies' indices and the
  /// loop's bounds derive from (scalars), in program order.
  SetVector<Operation *> outerSlice;
  /// Ops of the loop's body the copies' indices derive from (scalars of
  /// the induction variable and the outer slice), in program order.
  SetVector<Operation *> innerSlice;
};

/// The register budgets of producers and consumers: together exactly the
/// registers the block has at the entry (`entry` per thread), the producers'
/// as few as make the consumers' a multiple of 8 (setmaxnreg's unit).
struct RegisterSplit {
  int64_t producer = 0, consumer = 0;
};
} // namespace

static RegisterSplit splitRegisters(int64_t entry, int64_t consumerThreads,
                                    int64_t producerThreads) {
  int64_t total = entry * (consumerThreads + producerThreads);
  for (int64_t p = 24; p <= entry; p += 8) {
    int64_t left = total - p * producerThreads;
    if (left % consumerThreads == 0 && (left / consumerThreads) % 8 == 0 &&
        left / consumerThreads <= 256)
      return {p, left / consumerThreads};
  }
  // No exact split: the consumers take what is left, in whole groups of 8.
  int64_t consumer = std::min<int64_t>(256, (total - 24 * producerThreads) /
                                                consumerThreads / 8 * 8);
  return {24, consumer};
}

/// Registers each consumer thread needs for the kernel's dots: accumulators
/// and register operands, all live at once, and 40 for addresses, indices
/// and the softmax's state.
static int64_t dotRegisters(func::FuncOp kernel, int64_t threads) {
  int64_t regs = 0;
  auto regsOf = [&](Value v) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return 0;
    return llvm::divideCeil(type.getNumElements() *
                                elementBytes(type.getElementType()),
                            4 * threads);
  };
  kernel.walk([&](MmaOp mma) {
    regs +=
        regsOf(mma.getResult()) + regsOf(mma.getLhs()) + regsOf(mma.getRhs());
  });
  return regs + 40;
}

/// The entry's allocations, initializations and barrier, which both sides
/// share: the leading ops of these kinds.
static bool isEntryOp(Operation &op) {
  return isa<LocalAllocOp, MBarrierAllocOp, MBarrierInitOp, gpu::BarrierOp>(op);
}

/// The ring loop of `kernel`, or why it has none a producer can fill.
static FailureOr<RingLoop> findRingLoop(func::FuncOp kernel, std::string &why) {
  Block &body = kernel.getBody().front();
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](AsyncCopyOp copy) {
    auto loop = dyn_cast<scf::ForOp>(copy->getParentOp());
    if (loop && !llvm::is_contained(loops, loop))
      loops.push_back(loop);
  });
  if (loops.empty()) {
    why = "no loop refills rings of staged dot operands";
    return failure();
  }
  // A ring loop inside another loop has its fills before it in that loop
  // too.
  bool nestedLoops = llvm::any_of(loops, [&](scf::ForOp outer) {
    return llvm::any_of(loops, [&](scf::ForOp inner) {
      return outer->isProperAncestor(inner);
    });
  });
  if (nestedLoops) {
    why = "its ring loop is inside another loop or branch";
    return failure();
  }
  if (loops.size() > 1) {
    why = "more than one loop refills rings (one producer serves one loop)";
    return failure();
  }
  RingLoop ring;
  ring.loop = loops.front();
  if (ring.loop->getBlock() != &body) {
    why = "its ring loop is inside another loop or branch";
    return failure();
  }
  for (Operation &op : ring.loop.getBody()->without_terminator()) {
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      if (!copy.getTensorMap()) {
        why = "a ring of its loop is copied by cp.async, not the TMA";
        return failure();
      }
      auto index = copy.getDest().getDefiningOp<MemDescIndexOp>();
      auto alloc = index ? index.getSource().getDefiningOp<LocalAllocOp>()
                         : LocalAllocOp();
      auto bars = copy.getBarriers().getDefiningOp<MBarrierAllocOp>();
      if (!alloc || !bars || alloc->getBlock() != &body ||
          bars->getBlock() != &body || alloc.getType().getShape().size() < 3) {
        why = "a copy of its loop does not fill a stage of a ring allocated "
              "at the entry";
        return failure();
      }
      int64_t stages = alloc.getType().getShape().front();
      if (ring.stages && ring.stages != stages) {
        why = "the rings of its loop have different numbers of stages";
        return failure();
      }
      ring.stages = stages;
      ring.copies.push_back(copy);
    }
  }
  // Copies inside nested regions of the loop would not move to the
  // producer.
  WalkResult nested = ring.loop.getBody()->walk([&](Operation *op) {
    if (isa<AsyncCopyOp>(op) && op->getParentOp() != ring.loop)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (nested.wasInterrupted()) {
    why = "its loop's copies are nested in branches";
    return failure();
  }
  // A tile copied once (before the loop) on cp.async is waited for by the
  // loop's cp.async waits, which the consumers' loop drops.
  WalkResult onCpAsync = kernel.walk([&](AsyncCopyOp copy) {
    return copy.getTensorMap() ? WalkResult::advance()
                               : WalkResult::interrupt();
  });
  if (onCpAsync.wasInterrupted()) {
    why = "a tile it copies before its ring loop is on cp.async, whose wait "
          "is the loop's";
    return failure();
  }

  // The copies' indices: a function of the induction variable and of
  // scalars computed before the loop, free of effects.
  Value iv = ring.loop.getInductionVar();
  auto inLoop = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getParentOp() == ring.loop;
  };
  auto carried = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == ring.loop.getBody() && v != iv;
  };
  SetVector<Value> outerValues;
  for (Value v : {ring.loop.getLowerBound(), ring.loop.getUpperBound(),
                  ring.loop.getStep()})
    outerValues.insert(v);
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) {
    return op->getParentOp() == ring.loop;
  };
  for (AsyncCopyOp copy : ring.copies)
    for (Value index : copy.getIndices()) {
      if (carried(index)) {
        why = "the tile indices of a copy are carried by the loop";
        return failure();
      }
      if (inLoop(index))
        (void)getBackwardSlice(index.getDefiningOp(), &ring.innerSlice,
                               options);
      else if (index != iv)
        outerValues.insert(index);
    }
  for (Operation *op : ring.innerSlice) {
    if (!isMemoryEffectFree(op) || op->getNumRegions() ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<ShapedType>) ||
        llvm::any_of(op->getOperands(), carried)) {
      why = "the tile indices of a copy depend on more than the loop's "
            "induction variable and scalars computed before it";
      return failure();
    }
    for (Value v : op->getOperands())
      if (v != iv && !inLoop(v))
        outerValues.insert(v);
  }
  ring.innerSlice = topologicalSort(ring.innerSlice);
  // What they derive from before the loop: recomputed by the producer.
  BackwardSliceOptions outer;
  outer.inclusive = true;
  outer.omitBlockArguments = true;
  outer.filter = [&](Operation *op) {
    return op->getBlock() == &body && !isEntryOp(*op);
  };
  for (Value v : outerValues) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || isEntryOp(*def))
      continue;
    (void)getBackwardSlice(def, &ring.outerSlice, outer);
  }
  // Named after a read of memory where there is one: the tiles around it
  // (its coordinates) are only why it cannot be recomputed.
  auto unrecomputable = [](Operation *op) {
    return op->getNumRegions() ||
           llvm::any_of(op->getResultTypes(), llvm::IsaPred<ShapedType>);
  };
  auto culprit = llvm::find_if(
      ring.outerSlice, [](Operation *op) { return !isMemoryEffectFree(op); });
  if (culprit == ring.outerSlice.end())
    culprit = llvm::find_if(ring.outerSlice, unrecomputable);
  if (culprit != ring.outerSlice.end()) {
    why = "the loop's bounds or the copies' indices derive from '" +
          (*culprit)->getName().getStringRef().str() +
          "', which the producer cannot recompute";
    return failure();
  }
  ring.outerSlice = topologicalSort(ring.outerSlice);
  return ring;
}

/// The consumers' loop: each fill ahead becomes the release of the stage it
/// would refill (every consumer thread arrives, after its own wait for the
/// mma that read it), from the second iteration on (the first refills a
/// stage nothing has read); the waits for cp.async groups, the fences and
/// the barriers that guarded the stages go.
static void rewriteConsumerLoop(scf::ForOp loop, ArrayRef<Value> empties,
                                MutableArrayRef<AsyncCopyOp> copies) {
  OpBuilder b(loop.getContext());
  for (auto [copy, empty] : llvm::zip(copies, empties)) {
    b.setInsertionPoint(copy);
    Location loc = copy.getLoc();
    Value notFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              loop.getInductionVar(), loop.getLowerBound());
    auto release = scf::IfOp::create(b, loc, TypeRange{}, notFirst, false);
    b.setInsertionPointToStart(release.thenBlock());
    MBarrierArriveOp::create(b, loc, empty, copy.getBarrier());
    copy.erase();
  }
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    if (isa<AsyncCommitGroupOp, AsyncWaitOp, FenceAsyncSharedOp,
            gpu::BarrierOp>(op))
      op.erase();
  // The stages' addresses the copies used.
  eraseDeadOps(loop.getBody());
}

/// The producer's loop: the ring loop's iterations, each waiting for the
/// stage of each copy to be released (parity ((f / S) & 1) ^ 1 for fill f:
/// a stage's first fill finds it free) and issuing the copy into it. Fill
/// `S - 1` is the first iteration's (the ones before it were issued before
/// the loop), as in the consumers' schedule.
static void buildProducerLoop(OpBuilder &b, RingLoop &ring,
                              ArrayRef<Value> empties, IRMapping &outer) {
  Location loc = ring.loop.getLoc();
  scf::ForOp loop = ring.loop;
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  Value first = i32(ring.stages - 1);
  auto producer = scf::ForOp::create(
      b, loc, outer.lookupOrDefault(loop.getLowerBound()),
      outer.lookupOrDefault(loop.getUpperBound()),
      outer.lookupOrDefault(loop.getStep()), ValueRange{first});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(producer.getBody());
  Value fill = producer.getRegionIterArg(0);
  Value stages = i32(ring.stages);
  Value slot = arith::RemUIOp::create(b, loc, fill, stages);
  Value parity = arith::XOrIOp::create(
      b, loc,
      arith::AndIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, fill, stages), i32(1)),
      i32(1));
  Value slotIndex = arith::IndexCastOp::create(b, loc, b.getIndexType(), slot);
  IRMapping inner = outer;
  inner.map(loop.getInductionVar(), producer.getInductionVar());
  for (auto [n, copy, empty] : llvm::enumerate(ring.copies, empties)) {
    MBarrierWaitOp::create(b, copy.getLoc(), empty, slot, parity,
                           /*tensorMap=*/nullptr);
    // The copies' indices, recomputed from the induction variable once the
    // first stage is free.
    if (n == 0)
      for (Operation *op : ring.innerSlice)
        b.clone(*op, inner);
    auto index = copy.getDest().getDefiningOp<MemDescIndexOp>();
    Value stage =
        MemDescIndexOp::create(b, copy.getLoc(), copy.getDest().getType(),
                               index.getSource(), slotIndex);
    auto issued = cast<AsyncCopyOp>(b.clone(*copy, inner));
    issued.getDestMutable().assign(stage);
    issued.getBarrierMutable().assign(slot);
  }
  scf::YieldOp::create(b, loc,
                       ValueRange{arith::AddIOp::create(b, loc, fill, i32(1))});
}

namespace {
struct TileGPUWarpSpecializePass
    : tilegpu::impl::TileGPUWarpSpecializePassBase<TileGPUWarpSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kSpecializeAttr);
    if (!*isKernel || !asked || asked.getInt() == 0)
      return;
    std::string why;
    auto warps = kernel->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr);
    int64_t numWarps = warps ? warps.getInt() : 4;
    if (chip != "sm_90a")
      why = "needs sm_90a (setmaxnreg), the target is " + chip;
    else if (numWarps % 4)
      why = "its " + std::to_string(numWarps) +
            " warps are not whole warpgroups, which setmaxnreg resizes";
    else if (numWarps + kProducerWarp > 32)
      why = "its " + std::to_string(numWarps) +
            " warps leave no room for a producer warp (32 warps a block)";
    FailureOr<RingLoop> ring = failure();
    if (why.empty())
      ring = findRingLoop(kernel, why);
    if (failed(ring)) {
      if (remarks)
        kernel.emitRemark() << "not warp-specialized: " << why;
      return;
    }
    specialize(kernel, *ring, numWarps);
  }

  void specialize(func::FuncOp kernel, RingLoop &ring, int64_t numWarps) {
    MLIRContext *ctx = kernel.getContext();
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    OpBuilder b(ctx);
    int64_t consumerThreads = numWarps * kWarpSize;
    auto entryWith = [&](int64_t producerWarps, int64_t blocks) {
      return getEntryRegisters(consumerThreads + producerWarps * kWarpSize,
                               blocks);
    };

    // The split: two blocks per SM where the consumers' dots fit the
    // registers a thread has at the entry, so that one block's prologue and
    // epilogue overlap the other's loop: with a warpgroup of producers
    // whose registers go to the consumers, else with one producer warp that
    // keeps its own (ptxas fits each instruction into the entry's
    // registers, not the consumers' larger budget: a 64-register wgmma
    // accumulator does not assemble under the 80 of two blocks of 384
    // threads). Else one block of a
    // warpgroup of producers, whose registers let the consumers hold
    // 256-row tiles. A kernel's own blocks per SM keep the warpgroup.
    auto minBlocks =
        kernel->getAttrOfType<IntegerAttr>(tile::kMinBlocksPerSMAttr);
    int64_t asked = minBlocks ? minBlocks.getInt() : 0;
    int64_t need = dotRegisters(kernel, consumerThreads);
    int64_t producerWarps = kProducerWarpgroup, blocks = asked;
    bool resize = true;
    if (asked <= 0) {
      blocks = 1;
      if (entryWith(kProducerWarpgroup, 2) >= need) {
        blocks = 2;
      } else if (entryWith(kProducerWarp, 2) >= need) {
        blocks = 2;
        producerWarps = kProducerWarp;
        resize = false;
      }
    }
    if (resize && numWarps + producerWarps > 32) {
      if (remarks)
        kernel.emitRemark() << "not warp-specialized: its " << numWarps
                            << " warps leave no room for a warpgroup of "
                               "producers (32 warps a block)";
      return;
    }
    int64_t producerThreads = producerWarps * kWarpSize;
    RegisterSplit split = resize
                              ? splitRegisters(entryWith(producerWarps, blocks),
                                               consumerThreads, producerThreads)
                              : RegisterSplit{};
    kernel->setAttr(tile::kMinBlocksPerSMAttr, b.getI64IntegerAttr(blocks));

    // The entry: rings, mbarriers, one empty mbarrier array per copied ring
    // (every consumer thread arrives), the barrier that publishes them.
    auto entryEnd = body.begin();
    while (entryEnd != body.end() && isEntryOp(*entryEnd))
      ++entryEnd;
    Operation *entryBarrier = nullptr;
    for (Operation &op : llvm::make_range(body.begin(), entryEnd))
      if (isa<gpu::BarrierOp>(op))
        entryBarrier = &op;
    b.setInsertionPoint(entryBarrier ? entryBarrier : &*entryEnd);
    SmallVector<Value> empties;
    for (AsyncCopyOp copy : ring.copies) {
      auto type = cast<MBarriersType>(copy.getBarriers().getType());
      Value empty = MBarrierAllocOp::create(b, loc, type);
      MBarrierInitOp::create(b, loc, empty,
                             b.getI64IntegerAttr(consumerThreads));
      empties.push_back(empty);
    }
    if (!entryBarrier)
      gpu::BarrierOp::create(b, loc);

    // Both sides run only where the launch encoded every map the kernel's
    // copies use (the loop's, and those of tiles copied once before it,
    // whose waits then need no cp.async group); elsewhere the consumers run
    // the kernel as it was (cp.async) and the producers idle.
    b.setInsertionPoint(&*entryEnd);
    Value allActive;
    SmallVector<int64_t> mapsUsed;
    kernel.walk([&](AsyncCopyOp copy) {
      if (copy.getTensorMap() &&
          !llvm::is_contained(mapsUsed, int64_t(*copy.getTensorMap())))
        mapsUsed.push_back(*copy.getTensorMap());
    });
    for (int64_t m : mapsUsed) {
      Value active = TensorMapActiveOp::create(b, loc, m);
      allActive =
          allActive
              ? arith::AndIOp::create(b, loc, allActive, active).getResult()
              : active;
    }
    auto ws = WarpSpecializeOp::create(
        b, loc, b.getI64IntegerAttr(producerWarps),
        resize ? b.getI64IntegerAttr(split.producer) : IntegerAttr(),
        resize ? b.getI64IntegerAttr(split.consumer) : IntegerAttr());
    Block *producer = b.createBlock(&ws.getProducer());
    Block *consumer = b.createBlock(&ws.getConsumer());

    // Consumers: the kernel's body after the entry, twice.
    b.setInsertionPointToStart(consumer);
    auto choice = scf::IfOp::create(b, loc, TypeRange{}, allActive, true);
    Block *plain = choice.elseBlock();
    plain->getOperations().splice(
        plain->getTerminator()->getIterator(), body.getOperations(),
        std::next(ws->getIterator()), std::prev(body.end()));
    IRMapping copied;
    b.setInsertionPointToStart(choice.thenBlock());
    for (Operation &op : plain->without_terminator())
      b.clone(op, copied);
    auto loop = cast<scf::ForOp>(copied.lookup(ring.loop.getOperation()));
    SmallVector<AsyncCopyOp> loopCopies;
    for (AsyncCopyOp copy : ring.copies)
      loopCopies.push_back(
          cast<AsyncCopyOp>(copied.lookup(copy.getOperation())));

    // Producers: the loop's bounds and the copies' indices recomputed, then
    // the fills.
    b.setInsertionPointToStart(producer);
    auto produce = scf::IfOp::create(b, loc, TypeRange{}, allActive, false);
    b.setInsertionPointToStart(produce.thenBlock());
    IRMapping outer;
    for (Operation *op : ring.outerSlice)
      b.clone(*op, outer);
    buildProducerLoop(b, ring, empties, outer);

    rewriteConsumerLoop(loop, empties, loopCopies);

    kernel->setAttr(kProducerWarpsAttr, b.getI64IntegerAttr(producerWarps));
    if (remarks) {
      InFlightDiagnostic remark = kernel.emitRemark();
      remark << "warp-specialized: " << producerWarps
             << " producer warp(s) issue the TMA's fills of "
             << ring.copies.size() << " ring(s) (" << ring.stages
             << " stages), the " << numWarps
             << " consumer warps release each stage after its mma; ";
      if (resize)
        remark << "registers " << split.consumer
               << " per consumer thread (its dots need about " << need << "), "
               << split.producer << " per producer thread, ";
      else
        remark << "every thread keeps the entry's "
               << entryWith(producerWarps, blocks)
               << " registers (its dots need about " << need << "), ";
      remark << blocks << " block(s) per SM";
    }
  }
};
} // namespace
