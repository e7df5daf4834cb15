//===- HoistLoads.cpp - move tile loads next to their operands ------------===//
//
// The GPU backend turns each load into memory requests a thread issues and
// only waits for at the first use of the data; loads placed early overlap
// their latencies. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/Tile/Transforms/Passes.h"

#include "Effects.h"

namespace tilegym::tile {
#define GEN_PASS_DEF_TILEHOISTLOADSPASS
#include "tilegym/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilegym::tile

using namespace mlir;
using namespace tilegym::tile;

static void hoistLoadsIn(Block &block) {
  // The op after which a load may go: the last write seen so far (null: the
  // start of the block).
  Operation *lastWrite = nullptr;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        hoistLoadsIn(nested);
    if (!isa<LoadOp, GatherOp>(op)) {
      if (mayWrite(&op))
        lastWrite = &op;
      continue;
    }
    Operation *after = lastWrite;
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &block)
        continue;
      if (!after || after->isBeforeInBlock(def))
        after = def;
    }
    // After the loads already hoisted to that point, so that loads keep
    // their order (reads commute; the order only keeps the IR readable).
    Operation *pos = after ? after->getNextNode() : &block.front();
    while (pos != &op && isa<LoadOp, GatherOp>(pos))
      pos = pos->getNextNode();
    if (pos != &op)
      op.moveBefore(pos);
  }
}

namespace {
struct TileHoistLoadsPass
    : tilegym::tile::impl::TileHoistLoadsPassBase<TileHoistLoadsPass> {
  void runOnOperation() override {
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        hoistLoadsIn(block);
  }
};
} // namespace
