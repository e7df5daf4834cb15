//===- Contiguity.cpp - how integer tiles vary along their last dimension -===//
#include "tilegym/Dialect/Tile/IR/Contiguity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilegym::tile;

/// The walk follows the ops that compute coordinates; a longer chain is
/// Unknown rather than a deep recursion.
static constexpr int kMaxDepth = 32;

static int64_t lastDimSize(Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  if (!tile || tile.getRank() == 0)
    return 1;
  return tile.getShape().back();
}

static LastDimStride strideOf(Value v, int depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.getElementType().isSignlessInteger())
    return LastDimStride::Unknown;
  if (lastDimSize(type) == 1)
    return LastDimStride::Uniform;
  Operation *op = v.getDefiningOp();
  if (!op || depth > kMaxDepth)
    return LastDimStride::Unknown;
  if (isa<IotaOp>(op))
    return LastDimStride::Unit;
  if (isa<SplatOp>(op))
    return LastDimStride::Uniform;
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    return dense && dense.isSplat() ? LastDimStride::Uniform
                                    : LastDimStride::Unknown;
  }
  // A broadcast that keeps the last dimension keeps each row as it was; one
  // along it makes the rows uniform. A row-major reshape whose last
  // dimension divides the source's (kept, or split) makes neighbours of
  // neighbours.
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    int64_t from = lastDimSize(bcast.getSource().getType());
    if (from == 1)
      return LastDimStride::Uniform;
    return from == lastDimSize(type) ? strideOf(bcast.getSource(), depth + 1)
                                     : LastDimStride::Unknown;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    int64_t from = lastDimSize(reshape.getSource().getType());
    return from % lastDimSize(type) == 0
               ? strideOf(reshape.getSource(), depth + 1)
               : LastDimStride::Unknown;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    LastDimStride a = strideOf(op->getOperand(0), depth + 1);
    LastDimStride b = strideOf(op->getOperand(1), depth + 1);
    if (b == LastDimStride::Uniform &&
        (a == LastDimStride::Uniform || a == LastDimStride::Unit))
      return a;
    if (isa<arith::AddIOp>(op) && a == LastDimStride::Uniform &&
        b == LastDimStride::Unit)
      return LastDimStride::Unit;
    return LastDimStride::Unknown;
  }
  // A sign extension keeps consecutive values consecutive.
  if (isa<arith::ExtSIOp>(op))
    return strideOf(op->getOperand(0), depth + 1);
  // Any elementwise function of values constant along the row is constant
  // along it.
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      llvm::all_of(op->getOperands(), [&](Value operand) {
        return !isa<RankedTensorType>(operand.getType()) ||
               strideOf(operand, depth + 1) == LastDimStride::Uniform;
      }))
    return LastDimStride::Uniform;
  return LastDimStride::Unknown;
}

LastDimStride tilegym::tile::getLastDimStride(Value tile) {
  return strideOf(tile, 0);
}

bool tilegym::tile::areContiguousAlongLastDim(ValueRange indices) {
  if (indices.empty() ||
      getLastDimStride(indices.back()) != LastDimStride::Unit)
    return false;
  return llvm::all_of(indices.drop_back(), [](Value index) {
    return getLastDimStride(index) == LastDimStride::Uniform;
  });
}
