//===- LegalizeDots.cpp - dot operand types the tensor cores take ---------===//
//
// wgmma multiplies fp8 operands from shared memory; mma.sync here takes
// 16-bit and tf32 ones. The operands of an fp8 dot that will not run as
// wgmma widen to f16 exactly (an e4m3 or e5m2 value is an f16 value), so
// it runs on the f16 path with the fp8 dot's results. The pass runs twice:
// before the loads are pipelined, judging from the dot's shapes and
// operands, and after tilegpu-accelerate-dots, from its decision; see the
// pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPULEGALIZEDOTSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;

namespace {
/// Why fp8 `dot` cannot run as wgmma on `chip`, judged before layouts and
/// staging; empty when it may: sm_90a, wgmma's shapes, K a multiple of 128
/// (stored rows of 128 bytes under the swizzle), A loaded [M][K] and B
/// loaded [N][K] and read through a transpose (wgmma reads fp8 only
/// K-major). tilegpu-accelerate-dots decides; a dot it then leaves on
/// mma.sync is widened by the second run.
std::string whyNotFP8Wgmma(tile::DotOp dot, StringRef chip, int64_t numWarps) {
  auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = dot.getType().getDimSize(1);
  if (chip != "sm_90a")
    return "fp8 wgmma needs sm_90a";
  if (!tilegpu::fitsWgmmaShape(M, N, K, numWarps))
    return "wgmma needs whole warpgroups, M a multiple of 64 per "
           "warpgroup, N a multiple of 8 up to 256 and a 64x64x64 product "
           "per warpgroup";
  std::string why = tilegpu::whyNotFP8WgmmaOperands(dot);
  if (!why.empty())
    return why;
  // Staged by cp.async: both must be tiles loaded from views.
  for (Value operand : {dot.getLhs(), dot.getRhs()})
    if (!tile::traceDotOperand(operand).tile.getDefiningOp<tile::LoadOp>())
      return "an fp8 wgmma reads its operands from shared memory: both must "
             "be tiles loaded from views";
  return "";
}

struct TileGPULegalizeDotsPass
    : tilegpu::impl::TileGPULegalizeDotsPassBase<TileGPULegalizeDotsPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t numWarps = 4;
    if (auto w =
            getOperation()->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr))
      numWarps = w.getInt();
    WalkResult result = getOperation().walk([&](tile::DotOp dot) {
      auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
      Type element = lhsType.getElementType();
      if (element.isF64()) {
        dot.emitError() << "f64 dot has no GPU path: the tensor cores take "
                           "f16, bf16, fp8 and f32 (as tf32) operands";
        return WalkResult::interrupt();
      }
      if (!tile::isFP8(element))
        return WalkResult::advance();
      auto instruction =
          dot->getAttrOfType<tilegpu::DotInstructionAttr>(tilegpu::kDotAttr);
      // After tilegpu-accelerate-dots its decision; before it, whether the
      // dot may run as wgmma.
      std::string why =
          !instruction ? whyNotFP8Wgmma(dot, chip, numWarps)
          : instruction.getValue() == tilegpu::DotInstruction::Wgmma
              ? ""
              : "tilegpu-accelerate-dots left it on mma.sync";
      if (why.empty())
        return WalkResult::advance();
      OpBuilder b(dot);
      auto widen = [&](Value v) -> Value {
        // The widened tile keeps the tile's layout (tensor encoding).
        auto type = cast<RankedTensorType>(v.getType());
        return arith::ExtFOp::create(b, dot.getLoc(),
                                     type.clone(b.getF16Type()), v);
      };
      Value lhs = widen(dot.getLhs()), rhs = widen(dot.getRhs());
      dot.getLhsMutable().set(lhs);
      dot.getRhsMutable().set(rhs);
      if (remarks)
        dot.emitRemark() << "fp8 (" << element
                         << ") operands widened to f16, exactly, for "
                            "mma.sync: "
                         << why;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
