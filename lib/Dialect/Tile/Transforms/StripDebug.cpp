//===- StripDebug.cpp - compile debug ops out of release kernels ----------===//
//
// tile.print and tile.assert stay only in functions marked tile.debug = 1.
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilegym::tile {
#define GEN_PASS_DEF_TILESTRIPDEBUGPASS
#include "tilegym/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilegym::tile

using namespace mlir;
using namespace tilegym::tile;

/// Whether the function around `op` asks for its debug ops.
static bool keepsDebugOps(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return false;
  auto debug = func->getAttrOfType<IntegerAttr>(kDebugAttr);
  return debug && debug.getInt() == 1;
}

namespace {
struct TileStripDebugPass
    : tilegym::tile::impl::TileStripDebugPassBase<TileStripDebugPass> {
  void runOnOperation() override {
    SmallVector<Operation *> erased;
    getOperation()->walk([&](Operation *op) {
      if (isa<PrintOp, AssertOp>(op) && !keepsDebugOps(op))
        erased.push_back(op);
    });
    for (Operation *op : erased)
      op->erase();
  }
};
} // namespace
