//===- AssignTma.cpp - the staged loads the TMA copies --------------------===//
//
// Chooses, for each ring of staged dot operands, whether the TMA copies it:
// one thread issues a bulk tensor copy per 128-byte column block of a
// stage instead of every thread issuing 16-byte cp.async copies, which
// frees the other threads' issue slots and registers (addresses, bounds)
// for the dots. The decision is `tilegpu.tma` on the ring's loads and the
// kernel's `tilegpu.tensor_maps`; tilegpu-pipeline and the lowering follow
// it. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

#include <map>

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUASSIGNTMAPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

/// Why the TMA cannot copy `load` (staged as `stage`), or "" when it can.
static std::string whyNotTma(func::FuncOp kernel, LoadOp load,
                             SharedStageAttr stage) {
  if (stage.getSwizzle() != 128)
    return "its stages have padded rows (swizzle = 0), which the TMA does "
           "not write";
  if (stage.getTransposed())
    return "its stages hold the tile transposed";
  auto arg = dyn_cast<BlockArgument>(load.getView());
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return "its view is not a parameter of the kernel (the launch encodes "
           "tensor maps from parameters)";
  RankedTensorType type = load.getType();
  if (type.getRank() > kMaxTensorMapRank)
    return "its tile has more than " + std::to_string(kMaxTensorMapRank) +
           " dimensions";
  for (int64_t d : type.getShape().drop_back())
    if (d > kMaxTensorMapBox)
      return "its tile has a dimension of more than " +
             std::to_string(kMaxTensorMapBox) + " elements";
  // Each stage's mbarrier counts the fills of that stage from the kernel's
  // start: a ring filled again each time round an outer loop would need
  // its phases carried round that loop. The loads before a window's loop
  // sit beside it, so they tell whether the loop is inside another.
  if (stage.getIndex() && load->getParentOfType<LoopLikeOpInterface>())
    return "it is filled inside a loop, once each time round it";
  return "";
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
      SmallVector<int64_t> box(type.getShape());
      int64_t rowElements = 128 / elementBytes(type.getElementType());
      int64_t blocks = box.back() / rowElements;
      box.back() = rowElements;
      int64_t view =
          cast<BlockArgument>(loads.front().getView()).getArgNumber();
      auto map = TensorMapAttr::get(ctx, view, box);
      auto it = llvm::find(maps, map);
      int64_t index = it - maps.begin();
      if (it == maps.end())
        maps.push_back(map);
      for (LoadOp load : loads)
        load->setAttr(kTmaAttr,
                      IntegerAttr::get(IntegerType::get(ctx, 64), index));
      if (remarks) {
        std::string boxText;
        llvm::raw_string_ostream os(boxText);
        os << "[";
        llvm::interleaveComma(box, os);
        os << "]";
        loads.front()->emitRemark()
            << "ring " << ring << " is copied by the TMA: tensor map " << index
            << " of parameter " << view << ", " << blocks << " box"
            << (blocks > 1 ? "es" : "") << " of " << boxText
            << " a stage, falling back to cp.async where the view is not "
               "16-byte aligned";
      }
    }
    if (maps.empty())
      kernel->removeAttr(kTensorMapsAttr);
    else
      kernel->setAttr(kTensorMapsAttr, ArrayAttr::get(ctx, maps));
  }
};
} // namespace
