//===- Pipeline.cpp - staged dot operands as rings of shared memory -------===//
//
// Turns the staging tilegpu-accelerate-dots decided (`tilegpu.stage` on
// loads, `tilegpu.dot` on dots) into shared-memory IR: each ring a
// `tilegpu.local_alloc`, each staged load a `tilegpu.async_copy` into its
// stage and a commit group, each loop the index of its current stage and a
// wait before the first access to it, and each dot a `tilegpu.mma` reading
// its staged operands from shared memory, with the waits for wgmma groups.
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "Pipeliner.h"

#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <map>

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINEPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

using namespace tilegym::tilegpu::pipeline;

/// The loop's ring size, its commit groups, and its first wgmma dot, whose
/// copies ahead go after its issue so that they overlap it. When that dot's
/// result only feeds itself in the next iteration (a matmul's accumulator)
/// and its lhs is staged (an A from registers must stay unchanged until
/// its group completes), its group may stay in flight until then.
LoopPlan Pipeliner::planLoop(scf::ForOp loop) {
  LoopPlan plan;
  for (auto &[number, ring] : rings)
    if (ring.loop == loop && ring.isWindow()) {
      plan.stages = ring.stage.getStages();
      ++plan.groups;
    }
  for (Operation &inner : *loop.getBody()) {
    auto dot = dyn_cast<DotOp>(inner);
    if (!dot || !wgmmaDots.contains(dot))
      continue;
    plan.firstWgmma = dot;
    auto acc = dyn_cast<BlockArgument>(dot.getAcc());
    std::optional<unsigned> yielded = onlyYielded(dot.getResult());
    plan.accInFlight = operandRing.count(dot.getLhs()) && acc &&
                       acc.getOwner() == loop.getBody() && acc.hasOneUse() &&
                       yielded && *yielded + 1 == acc.getArgNumber();
    plan.swapped = isSwappedWgmmaLayout(dot.getType().getEncoding());
    break;
  }
  return plan;
}

/// Each ring's buffer, at the kernel's entry in ring order: its stages of
/// the tile as stored (the load's last two dimensions).
void Pipeliner::allocate() {
  OpBuilder b(kernel.getContext());
  b.setInsertionPointToStart(&kernel.getBody().front());
  for (auto &[number, ring] : rings) {
    RankedTensorType type = ring.loads.front().getType();
    ArrayRef<int64_t> shape = type.getShape().take_back(2);
    SmallVector<int64_t> stored;
    if (ring.stage.getStages() > 1)
      stored.push_back(ring.stage.getStages());
    stored.append(shape.begin(), shape.end());
    auto memdesc =
        MemDescType::get(b.getContext(), stored, type.getElementType(),
                         ring.stage.getSwizzle(), ring.stage.getTransposed());
    ring.alloc = LocalAllocOp::create(b, ring.loads.front().getLoc(), memdesc);
  }
  // The TMA's rings: one mbarrier per stage, initialized before any copy and
  // visible to every thread after a barrier.
  bool anyTma = false;
  for (auto &[number, ring] : rings) {
    if (!ring.tensorMap)
      continue;
    Location loc = ring.loads.front().getLoc();
    ring.barriers = MBarrierAllocOp::create(
        b, loc, MBarriersType::get(b.getContext(), ring.stage.getStages()));
    MBarrierInitOp::create(b, loc, ring.barriers, IntegerAttr());
    anyTma = true;
  }
  if (anyTma)
    gpu::BarrierOp::create(b, kernel.getLoc());
}

/// Waits (with the TMA) for the fill of stage `stage` (i32) of `ring` whose
/// mbarrier phase has parity `phase` (i32).
void Pipeliner::waitForTma(OpBuilder &b, Location loc, Ring &ring, Value stage,
                           Value phase) {
  MBarrierWaitOp::create(b, loc, ring.barriers, stage, phase,
                         b.getI64IntegerAttr(*ring.tensorMap));
}

/// Stage `index` (i32) of `ring`; the ring itself when it has one stage.
Value Pipeliner::stageOf(OpBuilder &b, Location loc, Ring &ring, Value index) {
  if (ring.stage.getStages() == 1)
    return ring.alloc;
  MemDescType type = ring.alloc.getType();
  auto stageType = MemDescType::get(
      b.getContext(), type.getShape().drop_front(), type.getElementType(),
      type.getSwizzle(), type.getTransposed());
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  return MemDescIndexOp::create(b, loc, stageType, ring.alloc, i);
}

/// The layout of a copy into a transposed stage, one element per cp.async:
/// lanes 2 rows by 16 columns of the tile (a [K][N] B), so that a warp reads
/// 64 contiguous bytes of each of 2 rows, two cache lines a request, and
/// writes its 32 elements to 16 stored rows of the swizzled [N][K] stage,
/// two words of one 16-byte unit each (stored rows 8 apart share a swizzle
/// phase: a 2-way bank conflict). On an H100 this copies B faster than 4 rows
/// by 8 (no conflict, four lines a request) and 1 by 32 (one line, 4-way
/// conflicts): the global side bounds it (bench/NOTES.md). Warps go along K
/// first: a thread's elements then lie 16 columns apart (whole swizzle
/// groups of stored rows), so each destination and each source is the first
/// one's plus a constant.
static RankedTensorType transposingCopyLayout(RankedTensorType type,
                                              int64_t numWarps) {
  constexpr int64_t laneRows = 2, laneCols = kWarpSize / laneRows;
  int64_t rank = type.getRank();
  int64_t rows = type.getDimSize(rank - 2);
  int64_t warpsK = std::clamp<int64_t>(rows / laneRows, 1, numWarps);
  SmallVector<int64_t> perThread(rank, 1), lanes(rank, 1), warps(rank, 1);
  lanes[rank - 2] = laneRows;
  lanes[rank - 1] = laneCols;
  warps[rank - 2] = warpsK;
  warps[rank - 1] = numWarps / warpsK;
  return RankedTensorType::get(
      type.getShape(), type.getElementType(),
      BlockedLayoutAttr::get(type.getContext(), perThread, lanes, warps));
}

/// `load` as a copy into `stage` of its ring and one commit group; the
/// load goes.
void Pipeliner::copy(OpBuilder &b, LoadOp load, Ring &ring, Value stage) {
  Location loc = load.getLoc();
  Value dest = stageOf(b, loc, ring, stage);
  bool transposed = ring.stage.getTransposed();
  RankedTensorType layout =
      transposed ? transposingCopyLayout(load.getType(), numWarps)
                 : load.getType();
  Value barrier;
  if (ring.tensorMap)
    barrier =
        stage ? stage : arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  AsyncCopyOp::create(
      b, loc, load.getView(), load.getIndices(), dest, ring.barriers, barrier,
      TypeAttr::get(layout),
      chainCopyAddresses && !transposed ? b.getUnitAttr() : UnitAttr(),
      ring.tensorMap ? b.getI64IntegerAttr(*ring.tensorMap) : IntegerAttr());
  AsyncCommitGroupOp::create(b, loc);
}

/// `dot` as a tilegpu.mma: staged operands read from their ring's stage
/// `stage` (i32; null in a loop of one-stage rings), seen transposed where
/// their views transpose them; the views go.
MmaOp Pipeliner::rewriteDot(OpBuilder &b, DotOp dot, Value stage) {
  b.setInsertionPoint(dot);
  Location loc = dot.getLoc();
  Value operands[2] = {dot.getLhs(), dot.getRhs()};
  SmallVector<Operation *> deadViews;
  for (Value &operand : operands) {
    auto it = operandRing.find(operand);
    if (it == operandRing.end())
      continue;
    Ring &ring = *it->second;
    Value desc = stageOf(b, loc, ring, stage);
    if (ring.use.transposed) {
      auto type = cast<MemDescType>(desc.getType());
      ArrayRef<int64_t> s = type.getShape();
      desc = MemDescTransOp::create(
          b, loc,
          MemDescType::get(b.getContext(), {s[1], s[0]}, type.getElementType(),
                           type.getSwizzle(), true),
          desc);
    }
    operand = desc;
    llvm::append_range(deadViews, llvm::reverse(ring.use.views));
  }
  auto instr = dot->getAttrOfType<DotInstructionAttr>(kDotAttr);
  if (!instr)
    instr = DotInstructionAttr::get(b.getContext(), DotInstruction::MmaSync);
  auto mma = MmaOp::create(b, loc, dot.getType(), instr, operands[0],
                           operands[1], dot.getAcc(), dot.getPrecisionAttr());
  dot.replaceAllUsesWith(mma.getResult());
  dot.erase();
  for (Operation *view : deadViews)
    view->erase();
  return mma;
}

/// The loop without the iteration arguments of its windows (in shared
/// memory now), carrying the index of its current stage instead; the
/// copies ahead into the stage after the window's last, a wait before the
/// first access to a stage, and the waits for its wgmma groups.
void Pipeliner::rewriteLoop(scf::ForOp loop, SmallVector<Ring *> loopRings) {
  LoopPlan plan = planLoop(loop);
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Location loc = loop.getLoc();

  // 1. The loop without the windows' arguments, and the stage index.
  llvm::SmallDenseSet<unsigned> dropped;
  for (Ring *ring : loopRings)
    dropped.insert(ring->iterArgs.begin(), ring->iterArgs.end());
  SmallVector<Value> inits;
  SmallVector<unsigned> kept;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (!dropped.contains(i)) {
      inits.push_back(init);
      kept.push_back(i);
    }
  bool carriesStage = plan.stages > 1;
  // With the TMA, the parity of the mbarrier phase the current stage's fill
  // completes: it flips each time the stage index wraps round the ring.
  SmallVector<Ring *> tmaWindows, tmaSingles;
  for (Ring *ring : loopRings)
    if (ring->tensorMap)
      (ring->isWindow() ? tmaWindows : tmaSingles).push_back(ring);
  bool carriesPhase = carriesStage && !tmaWindows.empty();
  b.setInsertionPoint(loop);
  // A tile loaded once before the loop by the TMA: waited for here.
  for (Ring *ring : tmaSingles) {
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    waitForTma(b, loc, *ring, zero, zero);
  }
  if (carriesStage)
    inits.push_back(arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  if (carriesPhase)
    inits.push_back(arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  auto newLoop =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *body = newLoop.getBody();
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  body->getOperations().splice(body->end(), loop.getBody()->getOperations());
  loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());
  for (auto [j, i] : llvm::enumerate(kept)) {
    loop.getRegionIterArgs()[i].replaceAllUsesWith(
        newLoop.getRegionIterArgs()[j]);
    loop.getResult(i).replaceAllUsesWith(newLoop.getResult(j));
  }
  unsigned numCarried = newLoop.getNumRegionIterArgs();
  Value stage = carriesStage
                    ? newLoop.getRegionIterArgs()[numCarried - 1 - carriesPhase]
                    : Value();
  Value phase = carriesPhase ? newLoop.getRegionIterArgs().back() : Value();
  auto oldYield = cast<scf::YieldOp>(body->getTerminator());
  b.setInsertionPoint(oldYield);
  SmallVector<Value> yields;
  for (unsigned i : kept)
    yields.push_back(oldYield.getOperand(i));
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  auto stageAhead = [&](int64_t ahead) -> Value {
    return arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, stage, i32(ahead)),
        i32(plan.stages));
  };
  if (carriesStage)
    yields.push_back(stageAhead(1));
  if (carriesPhase)
    yields.push_back(arith::XOrIOp::create(
        b, loc, phase,
        arith::ExtUIOp::create(b, loc, b.getI32Type(),
                               arith::CmpIOp::create(b, loc,
                                                     arith::CmpIPredicate::eq,
                                                     yields.back(), i32(0)))));
  auto yield = scf::YieldOp::create(b, oldYield.getLoc(), yields);
  oldYield.erase();

  // 2. Where the body first reads or refills a stage: every thread's copies
  // for this iteration are complete (the groups of the stages after it may
  // still be in flight) and visible (to wgmma's async proxy too), and
  // every thread is past the last iteration's reads of the stage refilled.
  // The body's loads ahead, in program order, and those held back.
  DenseSet<Operation *> isBodyLoad, deferred;
  for (Ring *ring : loopRings)
    if (LoadOp load = ring->bodyLoad())
      isBodyLoad.insert(load);
  SmallVector<Operation *> bodyLoads;
  for (Operation &op : *body)
    if (isBodyLoad.contains(&op)) {
      bodyLoads.push_back(&op);
      if (plan.firstWgmma && op.isBeforeInBlock(plan.firstWgmma))
        deferred.insert(&op);
    }
  auto ringOf = [&](Operation *load) -> Ring & {
    return **llvm::find_if(
        loopRings, [&](Ring *ring) { return ring->bodyLoad() == load; });
  };
  for (Operation &op : *body) {
    auto dot = dyn_cast<DotOp>(op);
    bool readsStage = dot && (operandRing.count(dot.getLhs()) ||
                              operandRing.count(dot.getRhs()));
    bool refills = isBodyLoad.contains(&op) && !deferred.contains(&op);
    if (!readsStage && !refills)
      continue;
    b.setInsertionPoint(&op);
    AsyncWaitOp::create(b, loc,
                        std::max<int64_t>(0, plan.stages - 2) * plan.groups);
    for (Ring *ring : tmaWindows)
      waitForTma(b, loc, *ring, stage, phase);
    if (anyWgmma)
      FenceAsyncSharedOp::create(b, loc);
    gpu::BarrierOp::create(b, loc);
    break;
  }

  // 3. The copies ahead not held back, where their loads were.
  for (Operation *load : bodyLoads) {
    if (deferred.contains(load))
      continue;
    b.setInsertionPoint(load);
    copy(b, cast<LoadOp>(load), ringOf(load), stageAhead(plan.stages - 1));
  }

  // 4. The dots, and the waits for their wgmma groups. The first wgmma dot
  // issues the held-back copies right after it, so that they overlap it.
  // When the last iteration's group may still be in flight, every copy of
  // the body (held back or written after the dot) refills the stage that
  // group reads: each warpgroup waits for its own group, and a barrier
  // makes the copies wait for every warpgroup's, not only the copier's.
  SmallVector<DotOp> dots;
  for (Operation &op : *body)
    if (auto dot = dyn_cast<DotOp>(op))
      dots.push_back(dot);
  SmallVector<Value> waitAtYield;
  for (DotOp dot : dots) {
    bool wgmma = wgmmaDots.contains(dot);
    bool first = dot == plan.firstWgmma;
    std::optional<unsigned> yielded = onlyYielded(dot.getResult());
    MmaOp mma = rewriteDot(b, dot, stage);
    if (!wgmma)
      continue;
    // The transposed product commits two groups, each half of K, and
    // waits for all but its first before loading the second half's
    // registers; its first half's registers are the last iteration's
    // first group's: it waits for that group (all but the last one).
    if (first && plan.accInFlight && plan.swapped) {
      b.setInsertionPoint(mma);
      MmaWaitOp::create(b, loc, 1, ValueRange{});
    }
    b.setInsertionPointAfter(mma);
    if (first && plan.accInFlight) {
      if (!plan.swapped)
        MmaWaitOp::create(b, loc, 1, ValueRange{});
      if (!bodyLoads.empty())
        gpu::BarrierOp::create(b, loc);
    }
    if (first)
      for (Operation *load : bodyLoads)
        if (deferred.contains(load))
          copy(b, cast<LoadOp>(load), ringOf(load),
               stageAhead(plan.stages - 1));
    if (first && plan.accInFlight)
      continue;
    // A later dot whose result is only yielded (attention's P V into its
    // accumulator) is waited for at the end of the body: what comes
    // between runs while its group does.
    if (!first && yielded) {
      waitAtYield.push_back(mma.getResult());
      continue;
    }
    auto wait = MmaWaitOp::create(b, loc, 0, ValueRange{mma.getResult()});
    mma.getResult().replaceAllUsesExcept(wait.getResult(0), wait);
  }
  if (!waitAtYield.empty()) {
    b.setInsertionPoint(yield);
    auto wait = MmaWaitOp::create(b, loc, 0, waitAtYield);
    for (auto [v, r] : llvm::zip(waitAtYield, wait.getResults()))
      v.replaceAllUsesExcept(r, wait);
  }
  for (Operation *load : bodyLoads)
    load->erase();

  // 5. After the loop: every copy complete, and the accumulator's group
  // left in flight.
  b.setInsertionPointAfter(newLoop);
  AsyncWaitOp::create(b, loc, 0);
  // The TMA's fills of the stages ahead that no iteration read (the last
  // stages - 1), so that no copy is in flight into bytes the kernel may
  // reuse: stage (s + j) % stages, of parity p, flipped past the wrap.
  if (carriesPhase) {
    Value lastStage = newLoop.getResult(numCarried - 2);
    Value lastPhase = newLoop.getResult(numCarried - 1);
    for (int64_t j = 0; j + 1 < plan.stages; ++j) {
      Value sum = arith::AddIOp::create(b, loc, lastStage, i32(j));
      Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          sum, i32(plan.stages));
      Value s = arith::RemUIOp::create(b, loc, sum, i32(plan.stages));
      Value p = arith::XOrIOp::create(
          b, loc, lastPhase,
          arith::ExtUIOp::create(b, loc, b.getI32Type(), wraps));
      for (Ring *ring : tmaWindows)
        waitForTma(b, loc, *ring, s, p);
    }
  }
  if (plan.accInFlight) {
    // The result the first wgmma dot's value leaves the loop as.
    for (OpOperand &use : yield->getOpOperands()) {
      auto mma = use.get().getDefiningOp<MmaOp>();
      if (!mma || mma->getBlock() != body ||
          mma.getInstruction() != DotInstruction::Wgmma)
        continue;
      Value result = newLoop.getResult(use.getOperandNumber());
      auto wait = MmaWaitOp::create(b, loc, 0, ValueRange{result});
      result.replaceAllUsesExcept(wait.getResult(0), wait);
      break;
    }
  }
  loop.erase();
}

LogicalResult Pipeliner::run() {
  if (failed(collectRings()) || failed(checkRings()) ||
      failed(checkWgmmaDots()) || failed(checkTma()))
    return failure();
  allocate();
  // Loads before the loops: copies into their stages.
  for (auto &[number, ring] : rings) {
    OpBuilder b(ring.loads.front());
    for (auto [j, load] : llvm::enumerate(ring.loads)) {
      if (load == ring.bodyLoad())
        continue;
      b.setInsertionPoint(load);
      copy(b, load, ring,
           ring.stage.getStages() == 1
               ? Value()
               : arith::ConstantIntOp::create(b, load.getLoc(), b.getI32Type(),
                                              j));
    }
  }
  // Loops, innermost first: a loop's rewrite moves the ops of its body.
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    for (auto &[number, ring] : rings)
      if (ring.loop == loop) {
        loops.push_back(loop);
        break;
      }
  });
  for (scf::ForOp loop : loops) {
    SmallVector<Ring *> loopRings;
    for (auto &[number, ring] : rings)
      if (ring.loop == loop)
        loopRings.push_back(&ring);
    rewriteLoop(loop, loopRings);
  }
  for (auto &[number, ring] : rings)
    for (LoadOp load : ring.loads)
      if (load != ring.bodyLoad()) {
        assert(load->use_empty() && "a staged load is still used");
        load->erase();
      }
  // Every other dot, on registers.
  SmallVector<DotOp> rest;
  kernel.walk([&](DotOp dot) { rest.push_back(dot); });
  OpBuilder b(kernel.getContext());
  for (DotOp dot : rest)
    rewriteDot(b, dot, Value());
  return success();
}

namespace {
struct TileGPUPipelinePass
    : tilegpu::impl::TileGPUPipelinePassBase<TileGPUPipelinePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    if (!*isKernel)
      return;
    auto marked = kernel->getAttrOfType<BoolAttr>(kChainCopyAddressesAttr);
    bool chained = chainCopyAddresses || (marked && marked.getValue());
    if (failed(Pipeliner(kernel, chip == "sm_90a", chained).run()))
      signalPassFailure();
  }
};
} // namespace
