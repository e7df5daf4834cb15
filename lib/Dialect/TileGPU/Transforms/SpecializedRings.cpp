//===- SpecializedRings.cpp - the rings a warp_specialize's producer fills ===//
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilegym::tilegpu;

WarpSpecializeOp tilegym::tilegpu::warpSpecializeOf(func::FuncOp kernel) {
  WarpSpecializeOp ws;
  for (Operation &op : kernel.getBody().front())
    if (auto w = dyn_cast<WarpSpecializeOp>(op))
      ws = w;
  return ws;
}

scf::IfOp tilegym::tilegpu::consumerBranchOf(WarpSpecializeOp ws) {
  return ws ? dyn_cast<scf::IfOp>(ws.getConsumer().front().front())
            : scf::IfOp();
}

LocalAllocOp tilegym::tilegpu::ringOf(AsyncCopyOp copy) {
  auto index = copy.getDest().getDefiningOp<MemDescIndexOp>();
  return index ? index.getSource().getDefiningOp<LocalAllocOp>()
               : LocalAllocOp();
}

FailureOr<SmallVector<SpecializedRing>>
tilegym::tilegpu::findSpecializedRings(WarpSpecializeOp ws, std::string &why) {
  auto produce = dyn_cast<scf::IfOp>(ws.getProducer().front().front());
  scf::IfOp choose = consumerBranchOf(ws);
  if (!produce || !choose) {
    why = "its warp_specialize is not of the form tilegpu-warp-specialize "
          "builds";
    return failure();
  }
  SmallVector<SpecializedRing> rings;
  // The producer waits for each stage's release before its copy (the
  // stage's address and the tile's indices between them).
  WalkResult walk = produce.getThenRegion().walk([&](AsyncCopyOp copy) {
    MBarrierWaitOp wait;
    for (Operation *op = copy->getPrevNode(); op && !wait;
         op = op->getPrevNode()) {
      if (isa<AsyncCopyOp>(op))
        break;
      wait = dyn_cast<MBarrierWaitOp>(op);
    }
    LocalAllocOp alloc = ringOf(copy);
    if (!wait || !alloc)
      return WalkResult::interrupt();
    auto *ring = llvm::find_if(
        rings, [&](SpecializedRing &r) { return r.alloc == alloc; });
    if (ring == rings.end()) {
      rings.push_back({alloc, wait.getBarriers(), {}});
      ring = std::prev(rings.end());
    }
    if (ring->empty != wait.getBarriers())
      return WalkResult::interrupt();
    ring->copies.push_back(copy);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || rings.empty()) {
    why = "its producer's copies do not each follow the wait for their "
          "stage's release";
    return failure();
  }
  // The consumers' own fills (before their loop), on the mbarriers only:
  // the kernel as it was (the else branch) runs where a map is inactive.
  choose.getThenRegion().walk([&](AsyncCopyOp copy) {
    for (SpecializedRing &ring : rings)
      if (ringOf(copy) == ring.alloc)
        ring.copies.push_back(copy);
  });
  return rings;
}
