//===- DotOperands.cpp - tiles on their way to a dot ----------------------===//
#include "tilegym/Dialect/Tile/IR/DotOperands.h"

using namespace mlir;
using namespace tilegym::tile;

/// A reshape from [1, ..., 1, R, C] to [R, C].
static bool dropsLeadingUnitDims(ReshapeOp op) {
  auto from = cast<RankedTensorType>(op.getSource().getType()).getShape();
  auto to = cast<RankedTensorType>(op.getType()).getShape();
  return to.size() == 2 && from.size() >= 2 && from.take_back(2) == to &&
         llvm::all_of(from.drop_back(2), [](int64_t d) { return d == 1; });
}

bool tilegym::tile::padsWithZeros(LoadOp load) {
  auto pad = load.getPaddingAttr();
  if (!pad)
    return true;
  auto f = dyn_cast<FloatAttr>(pad);
  return f && f.getValue().isPosZero();
}

std::optional<DotOperandUse> tilegym::tile::followToDot(Value tile) {
  DotOperandUse use{{}, 0, false, {}};
  Value v = tile;
  while (v.hasOneUse()) {
    OpOperand &operand = *v.getUses().begin();
    Operation *user = operand.getOwner();
    if (auto dot = dyn_cast<DotOp>(user)) {
      if (operand.getOperandNumber() >= 2)
        return std::nullopt;
      use.dot = dot;
      use.operand = operand.getOperandNumber();
      return use;
    }
    if (auto reshape = dyn_cast<ReshapeOp>(user)) {
      if (!dropsLeadingUnitDims(reshape))
        return std::nullopt;
    } else if (auto permute = dyn_cast<PermuteOp>(user)) {
      if (permute.getPermutation() != ArrayRef<int64_t>{1, 0})
        return std::nullopt;
      use.transposed = !use.transposed;
    } else {
      return std::nullopt;
    }
    use.views.push_back(user);
    v = user->getResult(0);
  }
  return std::nullopt;
}
