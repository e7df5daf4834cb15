//===- PingPong.cpp - consumer warpgroups taking turns on the tensor cores ===//
//
// In a warp-specialized attention the consumer warpgroups run the same
// loop: mma groups (S = Q K^T, and with tilegpu-overlap-dots the previous
// P V right after it) around a softmax on the FP32 and special-function
// units. Left alone, the warpgroups drift into step and issue their mmas
// together, then all sit in their softmax while the tensor cores idle.
// Taking turns to issue (FA3's ping-pong) keeps one warpgroup's mmas under
// the other's softmax. A turn covers issues only: a wait for an mma group
// inside it would hold the other warpgroup until the tensor cores finish,
// which serializes them. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUPINGPONGPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// Consecutive wgmma issues of one block: only ops without memory effects
/// (stage views, index arithmetic) between them, no wait.
struct IssueRun {
  MmaOp first, last;
  unsigned dots = 0;
};
} // namespace

/// Every run of wgmma issues under `region`, in program order.
static SmallVector<IssueRun> findIssueRuns(Region &region) {
  SmallVector<IssueRun> runs;
  region.walk<WalkOrder::PreOrder>([&](Block *block) {
    IssueRun run;
    for (Operation &op : *block) {
      auto mma = dyn_cast<MmaOp>(op);
      if (mma && mma.getInstruction() == DotInstruction::Wgmma) {
        if (!run.first)
          run.first = mma;
        run.last = mma;
        ++run.dots;
        continue;
      }
      if (op.getNumRegions() == 0 && isMemoryEffectFree(&op))
        continue;
      if (run.first)
        runs.push_back(run);
      run = IssueRun();
    }
    if (run.first)
      runs.push_back(run);
  });
  return runs;
}

namespace {
struct TileGPUPingPongPass
    : tilegpu::impl::TileGPUPingPongPassBase<TileGPUPingPongPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kOverlapAttr);
    if (!*isKernel || !asked || asked.getInt() < 2)
      return;
    auto refuse = [&](const Twine &why) {
      if (remarks)
        kernel.emitRemark() << "consumer warpgroups do not take turns: " << why;
    };
    WarpSpecializeOp ws = warpSpecializeOf(kernel);
    scf::IfOp choose = consumerBranchOf(ws);
    if (!choose)
      return refuse("it is not warp-specialized (specialize(1))");
    auto warps = kernel->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr);
    int64_t numWarps = warps ? warps.getInt() : 4;
    if (numWarps % 4 || numWarps / 4 < 2 || numWarps / 4 > 14)
      return refuse("its consumers are " + Twine(numWarps) +
                    " warps, not 2 to 14 whole warpgroups");
    // The branch on the mbarriers; the other is the kernel on cp.async,
    // whose loop waits for each dot where it is issued.
    Region &region = choose.getThenRegion();
    SmallVector<IssueRun> runs = findIssueRuns(region);
    bool deferred = llvm::any_of(runs, [](const IssueRun &run) {
      return run.dots >= 2 && isa<scf::ForOp>(run.first->getParentOp());
    });
    if (!deferred)
      return refuse("no loop of its consumers issues two wgmma dots with no "
                    "wait between (tilegpu-overlap-dots deferred none)");
    for (IssueRun &run : runs) {
      OpBuilder b(run.first);
      TurnWaitOp::create(b, run.first.getLoc(), /*onlyFirst=*/false);
      b.setInsertionPointAfter(run.last);
      TurnPassOp::create(b, run.last.getLoc(), /*onlyLast=*/false);
    }
    // The last warpgroup hands the first its first turn; the first takes
    // the one passed after the last turn, so each barrier completes as
    // often as it is arrived at.
    Block *block = &region.front();
    OpBuilder b = OpBuilder::atBlockBegin(block);
    TurnPassOp::create(b, choose.getLoc(), /*onlyLast=*/true);
    b.setInsertionPoint(block->getTerminator());
    TurnWaitOp::create(b, choose.getLoc(), /*onlyFirst=*/true);
    if (remarks)
      kernel.emitRemark()
          << "consumer warpgroups take turns issuing wgmma dots (ping-pong): "
          << numWarps / 4 << " warpgroups, " << runs.size()
          << " turn(s) in the code, each covering issues only, so one "
             "warpgroup's dots run under the others' work on their results";
  }
};
} // namespace
