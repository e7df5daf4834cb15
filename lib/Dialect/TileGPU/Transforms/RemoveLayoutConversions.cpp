//===- RemoveLayoutConversions.cpp - drop and hoist layout conversions ----===//
//
// Each `tilegpu.convert_layout` costs its tile's bytes of shared memory and
// two barriers. This pass removes those that nothing needs and hoists those
// that repeat a loop-invariant conversion every iteration; see the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// A warp's share of a row that a thread in `type`'s layout writes as
/// consecutive elements, with the lanes next to it, in bytes: the register
/// and lane bases that move along the last dimension only, as far as they
/// double without a gap.
int64_t rowSegmentBytes(RankedTensorType type) {
  DistributedLayoutAttr layout = getLayout(type);
  int64_t rank = type.getRank();
  if (!layout || rank == 0)
    return 0;
  LinearBases bases = layout.getLinearBases();
  ArrayRef<int64_t> shape = type.getShape();
  llvm::SmallDenseSet<int64_t> along;
  auto collect = [&](ArrayRef<Basis> list) {
    for (const Basis &basis : list) {
      bool onlyLast = true;
      for (int64_t d = 0; d + 1 < rank; ++d)
        onlyLast &= basis[d] == 0 || basis[d] >= shape[d];
      if (onlyLast && basis[rank - 1] < shape[rank - 1])
        along.insert(basis[rank - 1]);
    }
  };
  collect(getRegisterBits(bases, shape));
  collect(bases.lane);
  int64_t run = 1;
  while (along.contains(run))
    run *= 2;
  return run * elementBytes(type.getElementType());
}

/// Stores from a layout whose rows a warp writes in runs shorter than this
/// waste most of each 32-byte sector; a conversion before them pays.
constexpr int64_t kMinStoreSegmentBytes = 16;

struct Remover {
  func::FuncOp kernel;
  bool remarks;

  void foldChains();
  bool removeForward(ConvertLayoutOp convert);
  void hoistOutOfLoops();
  void run();
};

/// A conversion of a conversion converts the first source; a conversion
/// whose result nothing uses goes.
void Remover::foldChains() {
  SmallVector<ConvertLayoutOp> converts;
  kernel.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  for (ConvertLayoutOp op : converts) {
    if (auto inner = op.getSource().getDefiningOp<ConvertLayoutOp>())
      op.getSourceMutable().assign(inner.getSource());
    if (op.getSource().getType() == op.getType()) {
      op.getResult().replaceAllUsesWith(op.getSource());
      op.erase();
    }
  }
  // Inner conversions left without users, the last first.
  SmallVector<ConvertLayoutOp> dead;
  kernel.walk([&](ConvertLayoutOp op) {
    if (op.getResult().use_empty())
      dead.push_back(op);
  });
  for (ConvertLayoutOp op : llvm::reverse(dead))
    op.erase();
}

/// Forward removal. The values the conversion's result reaches through
/// elementwise ops and broadcasts, taking their other operands from splats,
/// constants or conversions from the same layout, form a region that can
/// run in the source's layout instead; it may end only in stores that write
/// rows in runs of at least kMinStoreSegmentBytes there, in dot operands
/// (a dot reads its operands from any layout, except an accumulator-layout
/// lhs, which wgmma may read from registers), or in other conversions. Then
/// the region takes the source's layout and its entry conversions go.
bool Remover::removeForward(ConvertLayoutOp convert) {
  Attribute source = getLayout(convert.getSource().getType());
  llvm::SetVector<Value> region;
  llvm::SetVector<Operation *> entries, leaves;
  SmallVector<Value> worklist;
  auto add = [&](Value v) {
    if (region.insert(v))
      worklist.push_back(v);
  };
  entries.insert(convert);
  add(convert.getResult());
  auto operandOk = [&](Value operand) {
    if (region.contains(operand) || !isa<RankedTensorType>(operand.getType()))
      return true;
    Operation *def = operand.getDefiningOp();
    if (auto entry = dyn_cast_or_null<ConvertLayoutOp>(def)) {
      if (getLayout(entry.getSource().getType()) != source)
        return false;
      entries.insert(entry);
      add(operand);
      return true;
    }
    if (def &&
        (isa<tile::SplatOp>(def) ||
         (isa<arith::ConstantOp>(def) &&
          isa<DenseElementsAttr>(cast<arith::ConstantOp>(def).getValue())))) {
      leaves.insert(def);
      return true;
    }
    return false;
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    auto type = cast<RankedTensorType>(v.getType());
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tile::StoreOp>(user) && use.getOperandNumber() == 0) {
        if (rowSegmentBytes(withLayout(type, source)) < kMinStoreSegmentBytes)
          return false;
        continue;
      }
      if (isa<ConvertLayoutOp>(user))
        continue;
      if (isa<tile::DotOp>(user) && use.getOperandNumber() < 2) {
        if (isa<MmaLayoutAttr>(getLayout(type)))
          return false;
        continue;
      }
      bool elementwise = user->hasTrait<OpTrait::Elementwise>() &&
                         user->getNumResults() == 1 &&
                         isa<RankedTensorType>(user->getResult(0).getType());
      if (!elementwise && !isa<tile::BroadcastOp>(user))
        return false;
      for (Value operand : user->getOperands())
        if (!operandOk(operand))
          return false;
      add(user->getResult(0));
    }
  }
  if (remarks)
    for (Operation *entry : entries)
      entry->emitRemark() << "layout conversion removed: the ops after it run "
                             "in "
                          << source << " and the stores and dots take it";
  // Splats and constants used outside the region keep their layout there:
  // the region gets its own copy.
  OpBuilder b(kernel.getContext());
  for (Operation *leaf : leaves) {
    Value value = leaf->getResult(0);
    bool shared = llvm::any_of(value.getUsers(), [&](Operation *user) {
      return user->getNumResults() != 1 || !region.contains(user->getResult(0));
    });
    if (shared) {
      b.setInsertionPoint(leaf);
      Operation *copy = b.clone(*leaf);
      value.replaceUsesWithIf(copy->getResult(0), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        return user->getNumResults() == 1 &&
               region.contains(user->getResult(0));
      });
      leaf = copy;
      value = copy->getResult(0);
    }
    auto type = withLayout(cast<RankedTensorType>(value.getType()), source);
    value.setType(type);
    if (auto cst = dyn_cast<arith::ConstantOp>(leaf))
      cst.setValueAttr(cast<DenseElementsAttr>(cst.getValue()).reshape(type));
  }
  for (Value v : region)
    v.setType(withLayout(cast<RankedTensorType>(v.getType()), source));
  for (Operation *op : entries) {
    auto entry = cast<ConvertLayoutOp>(op);
    entry.getResult().replaceAllUsesWith(entry.getSource());
    entry.erase();
  }
  return true;
}

/// A conversion in a loop of a value defined outside it converts the same
/// tile every iteration: it moves before the loop (outermost first).
void Remover::hoistOutOfLoops() {
  SmallVector<ConvertLayoutOp> converts;
  kernel.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  for (ConvertLayoutOp op : converts) {
    Operation *target = nullptr;
    for (Operation *parent = op->getParentOp(); parent && parent != kernel;
         parent = parent->getParentOp()) {
      if (!isa<scf::ForOp>(parent))
        continue;
      if (parent->isAncestor(op.getSource().getParentBlock()->getParentOp()))
        break;
      target = parent;
    }
    if (!target)
      continue;
    op->moveBefore(target);
    if (remarks)
      op.emitRemark() << "layout conversion hoisted out of the loop: its "
                         "source is the same every iteration";
  }
}

void Remover::run() {
  foldChains();
  // Removing one conversion can give another a source it shares with its
  // region: go on until none goes.
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<ConvertLayoutOp> converts;
    kernel.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    for (ConvertLayoutOp op : converts) {
      if (removeForward(op)) {
        changed = true;
        break; // the walk's list may name erased conversions
      }
    }
  }
  foldChains();
  hoistOutOfLoops();
}

struct TileGPURemoveLayoutConversionsPass
    : tilegpu::impl::TileGPURemoveLayoutConversionsPassBase<
          TileGPURemoveLayoutConversionsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    if (!kernel->hasAttr("tile.kernel"))
      return;
    Remover{kernel, remarks}.run();
  }
};
} // namespace
