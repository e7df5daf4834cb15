//===- PingPong.cpp - consumer warpgroups taking turns --------------------===//
//
// In a warp-specialized attention the consumer warpgroups run the same
// loop: two mma groups (S = Q K^T, O += P V) around a softmax on the FP32
// and special-function units. Left alone, the warpgroups drift into step
// and issue their mmas together, then all sit in their softmax while the
// tensor cores idle. Taking turns (FA3's ping-pong) keeps one warpgroup's
// mmas under the others' softmax. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUPINGPONGPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

/// The consumers' loop whose body issues two or more mma groups directly,
/// or null; `mmas` gets them in order.
static scf::ForOp findTurnLoop(WarpSpecializeOp ws,
                               SmallVectorImpl<MmaOp> &mmas) {
  scf::ForOp found;
  ws.getConsumer().walk([&](scf::ForOp loop) {
    SmallVector<MmaOp> inBody;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto mma = dyn_cast<MmaOp>(op))
        inBody.push_back(mma);
    if (inBody.size() >= 2 && !found) {
      found = loop;
      mmas.assign(inBody.begin(), inBody.end());
    }
  });
  return found;
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
    if (!*isKernel)
      return;
    WarpSpecializeOp ws;
    kernel.walk([&](WarpSpecializeOp w) { ws = w; });
    if (!ws)
      return;
    auto warps = kernel->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr);
    int64_t groups = (warps ? warps.getInt() : 4) / 4;
    SmallVector<MmaOp> mmas;
    scf::ForOp loop;
    std::string why;
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kPingPongAttr);
    if (asked && asked.getInt() == 0)
      why = "not asked (ping_pong(0))";
    else if (groups < 2)
      why = "its consumers are one warpgroup";
    else if (!(loop = findTurnLoop(ws, mmas)))
      why = "no loop of its consumers issues two mma groups";
    if (!loop) {
      if (remarks)
        kernel.emitRemark() << "consumer warpgroups do not take turns: " << why;
      return;
    }
    OpBuilder b(loop);
    TurnWaitOp::create(b, loop.getLoc(), /*except_first=*/true);
    b.setInsertionPointAfter(loop);
    TurnPassOp::create(b, loop.getLoc(), /*except_last=*/true);
    b.setInsertionPointAfter(mmas.front());
    TurnPassOp::create(b, mmas.front().getLoc(), /*except_last=*/false);
    b.setInsertionPoint(mmas.back());
    TurnWaitOp::create(b, mmas.back().getLoc(), /*except_first=*/false);
    if (remarks)
      kernel.emitRemark() << "consumer warpgroups take turns (ping-pong): "
                          << groups
                          << " warpgroups, each turn the loop's last mma "
                             "group and the next iteration's first";
  }
};
} // namespace
