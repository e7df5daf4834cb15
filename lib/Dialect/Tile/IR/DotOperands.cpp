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

DotOperandSource tilegym::tile::traceDotOperand(Value operand) {
  DotOperandSource source{operand, false};
  while (Operation *def = source.tile.getDefiningOp()) {
    if (!source.tile.hasOneUse())
      break;
    if (auto reshape = dyn_cast<ReshapeOp>(def)) {
      if (!dropsLeadingUnitDims(reshape))
        break;
      source.tile = reshape.getSource();
    } else if (auto permute = dyn_cast<PermuteOp>(def)) {
      if (permute.getPermutation() != ArrayRef<int64_t>{1, 0})
        break;
      source.transposed = !source.transposed;
      source.tile = permute.getSource();
    } else {
      break;
    }
  }
  return source;
}

std::optional<LoadWindow> tilegym::tile::getLoadWindow(scf::ForOp loop,
                                                       unsigned arg) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto args = loop.getRegionIterArgs();
  LoadWindow window;
  unsigned j = arg;
  while (true) {
    auto first = loop.getInitArgs()[j].getDefiningOp<LoadOp>();
    // A window visits each argument once: one that yields its arguments in
    // a cycle is none.
    if (!first || !first->hasOneUse() || !loop.getResult(j).use_empty() ||
        window.loads.size() == args.size())
      break;
    window.loads.push_back(first);
    window.values.append({first.getResult(), args[j], loop.getResult(j)});
    Value yielded = yield.getOperand(j);
    auto next = yielded.getDefiningOp<LoadOp>();
    if (next && next->getBlock() == loop.getBody() && next->hasOneUse()) {
      window.loads.push_back(next);
      window.values.push_back(next.getResult());
      break;
    }
    auto nextArg = dyn_cast<BlockArgument>(yielded);
    if (!nextArg || nextArg.getOwner() != loop.getBody() ||
        nextArg.getArgNumber() == 0 || !nextArg.hasOneUse())
      break;
    j = nextArg.getArgNumber() - 1; // past the induction variable
  }
  if (window.loads.size() < 2 ||
      window.loads.back()->getBlock() != loop.getBody())
    return std::nullopt;
  return window;
}

SmallVector<LoadOp> tilegym::tile::getStageableLoads(Value tile,
                                                     scf::ForOp loop) {
  if (auto arg = dyn_cast<BlockArgument>(tile)) {
    if (arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      return {};
    std::optional<LoadWindow> window =
        getLoadWindow(loop, arg.getArgNumber() - 1);
    return window ? window->loads : SmallVector<LoadOp>();
  }
  auto load = tile.getDefiningOp<LoadOp>();
  if (load && load->getBlock() == loop->getBlock() &&
      load->isBeforeInBlock(loop))
    return {load};
  return {};
}

StringRef tilegym::tile::getCoarseDotRounding(Operation *root, StringRef chip) {
  bool tf32 = false, fp8 = false;
  root->walk([&](DotOp dot) {
    Type element =
        cast<RankedTensorType>(dot.getLhs().getType()).getElementType();
    tf32 |= dot.getPrecision() == Precision::TF32 && element.isF32();
    fp8 |= isFP8(element);
  });
  if (tf32)
    return "tf32";
  if (fp8 && chip == "sm_90a")
    return "fp8-wgmma";
  return "";
}
