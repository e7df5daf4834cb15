//===- Multicast.cpp - block pairs sharing a ring by the TMA's multicast --===//
//
// Pairs the blocks of a warp-specialized kernel that differ only in their
// grid y into clusters of two, and has them share each ring whose tiles
// both load (tile indices and loop bounds not a function of block_id(1)):
// each block issues half of that ring's column blocks, multicast into both
// blocks' shared memory, so that the L2 delivers such a tile once per pair
// instead of once per block. A matmul whose tiles along M share B reads
// B's tiles from the L2 half as often; where B's rows start off the
// 128-byte lines (a row stride that is not a multiple of 128 bytes) each
// of its rows costs an extra sector, and the L2's bandwidth, not the
// tensor cores, bounds the loop. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUMULTICASTPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// The grid axis whose neighbouring blocks a cluster pairs: y, along which
/// tilegpu-persistent's walk steps from tile to tile within a group of
/// rows, so that consecutive tiles (a persistent cluster's two blocks) are
/// such a pair too.
constexpr int64_t kClusterAxis = 1;

} // namespace

/// Whether `values` derive from block_id(kClusterAxis): through the ops
/// that compute them and, for a loop's induction variable or iteration
/// argument, through the loop's bounds, initial and yielded values (not
/// through the rest of its body). A value an op with regions yields counts
/// as derived.
static bool dependOnClusterAxis(ValueRange values) {
  SmallVector<Value> work(values.begin(), values.end());
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop)
        continue; // the kernel's parameters: the same in every block
      work.append({loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
      if (arg != loop.getInductionVar()) {
        unsigned i = arg.getArgNumber() - 1;
        work.push_back(loop.getInitArgs()[i]);
        work.push_back(loop.getYieldedValues()[i]);
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto id = dyn_cast<tile::BlockIdOp>(def)) {
      if (id.getAxis() == kClusterAxis)
        return true;
      continue;
    }
    if (def->getNumRegions())
      return true;
    work.append(def->operand_begin(), def->operand_end());
  }
  return false;
}

/// Whether the consumers' loops run the same iterations in both blocks of
/// a pair: their bounds not a function of block_id(kClusterAxis).
static bool sameTripCounts(WarpSpecializeOp ws) {
  bool same = true;
  ws->walk([&](scf::ForOp loop) {
    if (dependOnClusterAxis(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
      same = false;
  });
  return same;
}

namespace {
struct TileGPUMulticastPass
    : tilegpu::impl::TileGPUMulticastPassBase<TileGPUMulticastPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kClusterAttr);
    if (!*isKernel || !asked || asked.getInt() <= 1)
      return;
    std::string why;
    WarpSpecializeOp ws = warpSpecializeOf(kernel);
    FailureOr<SmallVector<SpecializedRing>> rings = failure();
    if (asked.getInt() != kClusterBlocks)
      why = "clusters of " + std::to_string(asked.getInt()) +
            " blocks are not supported (2)";
    else if (!ws)
      why = "it is not warp-specialized (specialize(1)), whose producer "
            "multicasts";
    else
      rings = findSpecializedRings(ws, why);
    if (succeeded(rings) && !sameTripCounts(ws)) {
      why = "its loops' bounds depend on block_id(1), so the two blocks of a "
            "pair would fill their rings a different number of times";
      rings = failure();
    }
    SmallVector<SpecializedRing *> shared;
    if (succeeded(rings)) {
      for (SpecializedRing &ring : *rings)
        if (llvm::none_of(ring.copies, [](AsyncCopyOp copy) {
              return dependOnClusterAxis(copy.getIndices());
            }))
          shared.push_back(&ring);
      if (shared.empty())
        why = "the tile indices of every ring it fills depend on "
              "block_id(1): the blocks of a pair share no tile";
    }
    if (!why.empty()) {
      if (remarks)
        kernel.emitRemark() << "not clustered: " << why;
      return;
    }
    share(kernel, ws, shared);
    if (remarks)
      kernel.emitRemark()
          << "clustered: blocks in pairs along the grid's y (a persistent "
             "launch's x), "
          << shared.size() << " of its " << rings->size()
          << " ring(s) multicast, each block issuing half their column "
             "blocks into both; the consumers of both release those stages";
  }

  /// Marks the copies of `shared` multicast and their stages released by
  /// both blocks' consumers, and brackets the kernel with cluster barriers:
  /// before any block arrives at its pair's mbarriers or copies into its
  /// shared memory, both initialized them; before either exits, the other
  /// is done arriving at its mbarriers.
  void share(func::FuncOp kernel, WarpSpecializeOp ws,
             ArrayRef<SpecializedRing *> shared) {
    OpBuilder b(kernel.getContext());
    for (SpecializedRing *ring : shared) {
      for (AsyncCopyOp copy : ring->copies)
        copy.setMulticast(true);
      for (Operation *user : ring->empty.getUsers()) {
        // The consumer threads' arrivals become their warps'.
        if (auto init = dyn_cast<MBarrierInitOp>(user)) {
          init.setCount(init.getCount().value_or(1) / kWarpSize);
          init.setCluster(true);
        } else if (auto arrive = dyn_cast<MBarrierArriveOp>(user))
          arrive.setCluster(true);
      }
    }
    Operation *entryBarrier = nullptr;
    for (Operation *op = ws->getPrevNode(); op && !entryBarrier;
         op = op->getPrevNode())
      if (isa<gpu::BarrierOp>(op))
        entryBarrier = op;
    b.setInsertionPoint(ws);
    if (entryBarrier)
      b.setInsertionPointAfter(entryBarrier);
    ClusterBarrierOp::create(b, kernel.getLoc());
    b.setInsertionPoint(kernel.getBody().front().getTerminator());
    ClusterBarrierOp::create(b, kernel.getLoc());
    kernel->setAttr(kClusterAttr, b.getI64IntegerAttr(kClusterBlocks));
  }
};
} // namespace
