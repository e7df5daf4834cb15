//===- LegalizeDots.cpp - dot operand types the tensor cores take ---------===//
//
// wgmma multiplies fp8 operands from shared memory; mma.sync here takes
// 16-bit and tf32 ones. The operands of an fp8 dot that
// tilegpu-accelerate-dots did not make a wgmma widen to f16 exactly (an
// e4m3 or e5m2 value is an f16 value), so it runs on the f16 path with the
// fp8 dot's results; see the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPULEGALIZEDOTSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;

namespace {
struct TileGPULegalizeDotsPass
    : tilegpu::impl::TileGPULegalizeDotsPassBase<TileGPULegalizeDotsPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](tile::DotOp dot) {
      auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
      Type element = lhsType.getElementType();
      if (element.isF64()) {
        dot.emitError() << "f64 dot has no GPU path: the tensor cores take "
                           "f16, bf16, fp8 and f32 (as tf32) operands";
        return WalkResult::interrupt();
      }
      auto instruction =
          dot->getAttrOfType<tilegpu::DotInstructionAttr>(tilegpu::kDotAttr);
      if (!tile::isFP8(element) ||
          (instruction &&
           instruction.getValue() == tilegpu::DotInstruction::Wgmma))
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
                            "mma.sync";
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
