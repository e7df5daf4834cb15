//===- WarpSpecialize.cpp - producer and consumer warps -------------------===//
//
// A tilegpu.warp_specialize splits the block: the first tile.num_warps
// warps (whose thread indices the tiles' layouts use) run its consumer
// region, the warps after them its producer region. With register budgets
// each side starts by resizing its warps' registers (setmaxnreg: the
// producers give theirs back, then the consumers take them). The
// consumers' barriers become a named barrier of their threads, as the
// producers never reach them; their warpgroups' turns (tilegpu.turn_wait,
// tilegpu.turn_pass) a named barrier per warpgroup.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

LogicalResult KernelEmitter::expandWarpSpecialize(Operation *root) {
  SmallVector<tilegpu::WarpSpecializeOp> ops;
  root->walk([&](tilegpu::WarpSpecializeOp ws) { ops.push_back(ws); });
  for (tilegpu::WarpSpecializeOp ws : ops) {
    currentLoc = ws.getLoc();
    std::optional<int64_t> producerRegs = ws.getProducerRegisters();
    std::optional<int64_t> consumerRegs = ws.getConsumerRegisters();
    if (producerRegs && !target.wgmma)
      return fail(ws) << "resizes registers with setmaxnreg, which needs "
                         "sm_90a; the target is "
                      << target.chip;
    // The producer's thread issues TMA copies alone: a cp.async copy there
    // would leave the tile to one thread of a layout's many.
    WalkResult copies = ws.getProducer().walk([&](tilegpu::AsyncCopyOp copy) {
      if (copy.getTensorMap())
        return WalkResult::advance();
      fail(copy) << "is in a producer region, where one thread issues "
                    "copies: it must be the TMA's (tma(...))";
      return WalkResult::interrupt();
    });
    if (copies.wasInterrupted())
      return failure();
    int64_t consumerThreads = numWarps * kWarpSize;
    int64_t producerThreads = ws.getProducerWarps() * kWarpSize;
    // setmaxnreg needs the entry's register count fixed: without
    // .minnctapersm ptxas ignores it (C7508).
    if (producerRegs) {
      int64_t blocks = minBlocksPerSM();
      if (blocks < 1)
        return fail(ws) << "needs the kernel's blocks per SM "
                           "(tile.min_blocks_per_sm), which fix the registers "
                           "setmaxnreg moves";
      int64_t entry =
          tilegpu::getEntryRegisters(consumerThreads + producerThreads, blocks);
      int64_t asked =
          *consumerRegs * consumerThreads + *producerRegs * producerThreads;
      if (asked > entry * (consumerThreads + producerThreads))
        return fail(ws) << "asks " << *consumerRegs << " registers for each of "
                        << consumerThreads << " consumer threads and "
                        << *producerRegs << " for each of " << producerThreads
                        << " producer threads, more than the " << entry
                        << " each has at the entry with " << blocks
                        << " blocks per SM";
    }
    b.setInsertionPoint(ws);
    Value isProducer = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::uge, warpId, idx(numWarps));
    Value isConsumer = arith::XOrIOp::create(
        b, loc(), isProducer,
        arith::ConstantIntOp::create(b, loc(), b.getI1Type(), 1));
    auto side = [&](Value cond, Region &region, StringRef role,
                    NVVM::SetMaxRegisterAction action,
                    std::optional<int64_t> registers, bool oneThread) {
      auto branch = scf::IfOp::create(b, loc(), TypeRange{}, cond, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      if (registers)
        NVVM::SetMaxRegisterOp::create(b, loc(), *registers, action);
      Block *body = branch.thenBlock();
      if (oneThread) {
        // The producer's copies and waits are one thread's: the others of
        // its warps only lend their registers.
        auto first = scf::IfOp::create(
            b, loc(), TypeRange{},
            arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, threadId,
                                  idx(consumerThreads)),
            false);
        body = first.thenBlock();
      }
      body->getOperations().splice(body->getTerminator()->getIterator(),
                                   region.front().getOperations());
      branch->setAttr(tilegpu::kWarpRoleAttr, b.getStringAttr(role));
    };
    side(isProducer, ws.getProducer(), "producer",
         NVVM::SetMaxRegisterAction::decrease, producerRegs,
         /*oneThread=*/true);
    side(isConsumer, ws.getConsumer(), "consumer",
         NVVM::SetMaxRegisterAction::increase, consumerRegs,
         /*oneThread=*/false);
    ws.erase();
  }
  currentLoc.reset();
  return success();
}

/// Barriers 0 and 1 are every thread's and the consumers'; warpgroup g's
/// turn is barrier kFirstTurnBarrier + g, completed by its own 128 threads
/// waiting and the 128 of the warpgroup passing it the turn arriving.
static constexpr int64_t kFirstTurnBarrier = 2;

LogicalResult KernelEmitter::emitTurnOp(Operation *op) {
  // The verifier keeps the op in a warp_specialize's consumer region, so
  // its warps are the kernel's first numWarps.
  int64_t groups = numWarps / 4;
  if (groups < 2 || numWarps % 4 || kFirstTurnBarrier + groups > 16)
    return fail(op) << "needs two or more whole consumer warpgroups (at most "
                    << 16 - kFirstTurnBarrier << "), the kernel has "
                    << numWarps << " consumer warps";
  Location l = op->getLoc();
  Value group = arith::IndexCastOp::create(
      b, l, b.getI32Type(), arith::DivUIOp::create(b, l, warpId, idx(4)));
  Value threads = i32(2 * 4 * kWarpSize);
  auto is = [&](int64_t g) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, group, i32(g));
  };
  if (auto wait = dyn_cast<tilegpu::TurnWaitOp>(op)) {
    auto sync = [&] {
      Value id = arith::AddIOp::create(b, l, group, i32(kFirstTurnBarrier));
      NVVM::BarrierOp::create(b, l, /*res=*/Type(), id, threads,
                              /*reductionOp=*/nullptr,
                              /*reductionPredicate=*/Value());
    };
    if (wait.getOnlyFirst())
      emitIf(is(0), sync);
    else
      sync();
    return success();
  }
  auto pass = cast<tilegpu::TurnPassOp>(op);
  Value last = is(groups - 1);
  auto arrive = [&] {
    Value next = arith::SelectOp::create(
        b, l, last, i32(0), arith::AddIOp::create(b, l, group, i32(1)));
    Value id = arith::AddIOp::create(b, l, next, i32(kFirstTurnBarrier));
    NVVM::BarrierArriveOp::create(b, l, id, threads);
  };
  if (pass.getOnlyLast())
    emitIf(last, arrive);
  else
    arrive();
  return success();
}

KernelEmitter::WarpRole KernelEmitter::roleOf(Operation *op) {
  for (Operation *p = op->getParentOp(); p && p != kernelFunc;
       p = p->getParentOp())
    if (auto r = p->getAttrOfType<StringAttr>(tilegpu::kWarpRoleAttr))
      return r.getValue() == "producer" ? WarpRole::Producer
                                        : WarpRole::Consumer;
  return WarpRole::All;
}

void KernelEmitter::nameConsumerBarriers(Operation *root) {
  SmallVector<gpu::BarrierOp> barriers;
  root->walk([&](gpu::BarrierOp barrier) {
    if (roleOf(barrier) == WarpRole::Consumer)
      barriers.push_back(barrier);
  });
  // Barrier 0 is every thread's (bar.sync 0 at the entry); 1 the
  // consumers', counting only their threads.
  for (gpu::BarrierOp barrier : barriers) {
    b.setInsertionPoint(barrier);
    NVVM::BarrierOp::create(
        b, barrier.getLoc(), /*res=*/Type(),
        arith::ConstantIntOp::create(b, barrier.getLoc(), b.getI32Type(), 1),
        arith::ConstantIntOp::create(b, barrier.getLoc(), b.getI32Type(),
                                     numWarps * kWarpSize),
        /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
    barrier.erase();
  }
}
