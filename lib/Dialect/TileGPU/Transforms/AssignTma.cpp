//===- AssignTma.cpp - the staged loads the TMA copies --------------------===//
//
// Chooses, for each ring of staged dot operands, whether the TMA copies it:
// one thread issues a bulk tensor copy per 128-byte column block of a
// stage instead of every thread issuing 16-byte cp.async copies, which
// frees the other threads' issue slots and registers (addresses, bounds)
// for the dots. The decision is `tilegpu.tma` on the ring's loads and the
// kernel's `tilegpu.tensor_maps`; tilegpu-pipeline and the lowering follow
// it. The stores of a dot's results (epilogues) go the other way: the
// threads write the tile once to shared memory, and one thread stores it
// with bulk tensor copies, which clip it to the view, so no thread computes
// an address or a bound. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUASSIGNTMAPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

/// Why no tensor map can move tiles of `type` to or from `view`, or ""
/// when one can: the launch encodes maps from the kernel's parameters, and
/// a box has at most kMaxTensorMapRank dimensions of kMaxTensorMapBox.
static std::string whyNoTensorMap(func::FuncOp kernel, Value view,
                                  RankedTensorType type) {
  auto arg = dyn_cast<BlockArgument>(view);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return "its view is not a parameter of the kernel (the launch encodes "
           "tensor maps from parameters)";
  if (type.getRank() > kMaxTensorMapRank)
    return "its tile has more than " + std::to_string(kMaxTensorMapRank) +
           " dimensions";
  for (int64_t d : type.getShape().drop_back())
    if (d > kMaxTensorMapBox)
      return "its tile has a dimension of more than " +
             std::to_string(kMaxTensorMapBox) + " elements";
  return "";
}

/// Why the TMA cannot copy `load` (staged as `stage`), or "" when it can.
static std::string whyNotTma(func::FuncOp kernel, LoadOp load,
                             SharedStageAttr stage) {
  if (stage.getSwizzle() != 128)
    return "its stages have padded rows (swizzle = 0), which the TMA does "
           "not write";
  if (stage.getTransposed())
    return "its stages hold the tile transposed";
  if (std::string why = whyNoTensorMap(kernel, load.getView(), load.getType());
      !why.empty())
    return why;
  // Each stage's mbarrier counts the fills of that stage from the kernel's
  // start: a ring filled again each time round an outer loop would need
  // its phases carried round that loop. The loads before a window's loop
  // sit beside it, so they tell whether the loop is inside another.
  if (stage.getIndex() && load->getParentOfType<LoopLikeOpInterface>())
    return "it is filled inside a loop, once each time round it";
  return "";
}

/// Whether `v` is computed from a dot's result (through any ops on tiles,
/// loops and branches included): the store of it is a dot's epilogue.
static bool comesFromDot(Value v) {
  SmallVector<Value> work{v};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (isa<DotOp>(def))
      return true;
    if (def->getNumRegions() &&
        def->walk([](DotOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return true;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        work.push_back(operand);
  }
  return false;
}

/// Why the TMA cannot store `store`'s tile, or "" when it can.
static std::string whyNotTmaStore(func::FuncOp kernel, StoreOp store) {
  auto type = cast<RankedTensorType>(store.getValue().getType());
  if (std::string why = whyNoTensorMap(kernel, store.getView(), type);
      !why.empty())
    return why;
  if (type.getElementType().getIntOrFloatBitWidth() % 8)
    return "its elements are not whole bytes (a predicate is stored a byte "
           "an element by the threads)";
  int64_t bytes = elementBytes(type.getElementType());
  if ((type.getShape().back() * bytes) % 128)
    return "its rows are not a multiple of 128 bytes (the 128-byte "
           "swizzle's rows)";
  // Each column block a whole number of the swizzle's 1024-byte atoms.
  if ((type.getNumElements() / type.getShape().back()) % 8)
    return "its tile's rows are not a multiple of 8 (the 128-byte "
           "swizzle's atom)";
  return "";
}

/// The position of `map` in `maps`, appended if new.
static int64_t mapIndex(SmallVector<Attribute> &maps, TensorMapAttr map) {
  auto it = llvm::find(maps, map);
  int64_t index = it - maps.begin();
  if (it == maps.end())
    maps.push_back(map);
  return index;
}

static std::string boxText(ArrayRef<int64_t> box) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(box, os);
  os << "]";
  return text;
}

namespace {
struct TileGPUAssignTmaPass
    : tilegpu::impl::TileGPUAssignTmaPassBase<TileGPUAssignTmaPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    std::optional<unsigned> version = parseChipVersion(chip);
    if (!*isKernel || !version || *version < 90)
      return;
    // The loads of each ring, in ring order.
    std::map<int64_t, SmallVector<LoadOp>> rings;
    kernel.walk([&](LoadOp load) {
      if (auto stage = load->getAttrOfType<SharedStageAttr>(kStageAttr))
        rings[stage.getRing()].push_back(load);
    });
    MLIRContext *ctx = kernel.getContext();
    auto tmaAttr = kernel->getAttrOfType<IntegerAttr>(tile::kUseTmaAttr);
    bool off = tmaAttr && tmaAttr.getInt() == 0;
    SmallVector<Attribute> maps;
    for (auto &[ring, loads] : rings) {
      std::string why = !enable ? "the TMA is off (tilegpu-assign-tma "
                                  "enable=false)"
                        : off   ? "the TMA is off for this kernel (tile.tma "
                                  "= 0, --no-tma)"
                                : "";
      for (LoadOp load : loads)
        if (why.empty())
          why = whyNotTma(kernel, load,
                          load->getAttrOfType<SharedStageAttr>(kStageAttr));
      if (!why.empty()) {
        for (LoadOp load : loads)
          load->removeAttr(kTmaAttr);
        if (remarks)
          loads.front()->emitRemark()
              << "ring " << ring
              << " is copied by cp.async, not the TMA: " << why;
        continue;
      }
      RankedTensorType type = loads.front().getType();
      SmallVector<int64_t> box = getTensorMapBox(type);
      int64_t blocks = type.getShape().back() / box.back();
      int64_t view =
          cast<BlockArgument>(loads.front().getView()).getArgNumber();
      int64_t index = mapIndex(maps, TensorMapAttr::get(ctx, view, box));
      for (LoadOp load : loads)
        load->setAttr(kTmaAttr,
                      IntegerAttr::get(IntegerType::get(ctx, 64), index));
      if (remarks)
        loads.front()->emitRemark()
            << "ring " << ring << " is copied by the TMA: tensor map " << index
            << " of parameter " << view << ", " << blocks << " box"
            << (blocks > 1 ? "es" : "") << " of " << boxText(box)
            << " a stage, falling back to cp.async where the view is not "
               "16-byte aligned";
    }
    // Epilogues: the stores of what a dot computed.
    kernel.walk([&](StoreOp store) {
      store->removeAttr(kTmaAttr);
      if (!stores || !comesFromDot(store.getValue()))
        return;
      std::string why = !enable ? "the TMA is off (tilegpu-assign-tma "
                                  "enable=false)"
                        : off   ? "the TMA is off for this kernel (tile.tma "
                                  "= 0, --no-tma)"
                                : whyNotTmaStore(kernel, store);
      if (!why.empty()) {
        if (remarks)
          store->emitRemark() << "this store of a dot's result is not the "
                                 "TMA's: "
                              << why;
        return;
      }
      auto type = cast<RankedTensorType>(store.getValue().getType());
      SmallVector<int64_t> box = getTensorMapBox(type);
      int64_t blocks = type.getShape().back() / box.back();
      int64_t view = cast<BlockArgument>(store.getView()).getArgNumber();
      int64_t index = mapIndex(maps, TensorMapAttr::get(ctx, view, box));
      store->setAttr(kTmaAttr,
                     IntegerAttr::get(IntegerType::get(ctx, 64), index));
      if (remarks)
        store->emitRemark()
            << "this store of a dot's result is the TMA's: the tile written "
               "once to shared memory, then tensor map "
            << index << " of parameter " << view << ", " << blocks << " box"
            << (blocks > 1 ? "es" : "") << " of " << boxText(box)
            << ", falling back to the threads' stores where the view is not "
               "16-byte aligned";
    });
    if (maps.empty())
      kernel->removeAttr(kTensorMapsAttr);
    else
      kernel->setAttr(kTensorMapsAttr, ArrayAttr::get(ctx, maps));
  }
};
} // namespace
