//===- PipelineChecks.cpp - what tilegpu-pipeline accepts -----------------===//
//
// The checks of tilegpu-pipeline before it rewrites anything: which loads
// form each ring, that each reaches a dot the ring can feed, what wgmma asks
// of its operands, and which rings the TMA copies. IR that breaks them
// (written by hand) is an error, not a miscompile.
//
//===----------------------------------------------------------------------===//
#include "Pipeliner.h"

#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;
using namespace tilegym::tilegpu::pipeline;

/// Each ring is either the window of loads ahead through a loop
/// (getLoadWindow) or one load before the loop; it must reach a dot of the
/// loop's body through views (followToDot). IR that breaks these (written
/// by hand) is an error here, not a miscompile.
LogicalResult Pipeliner::collectRings() {
  auto claim = [&](LoadOp first, Ring ring) -> LogicalResult {
    auto [it, inserted] = rings.try_emplace(ring.stage.getRing(), ring);
    if (!inserted)
      return fail(first) << "ring " << ring.stage.getRing()
                         << " is staged by more than one tile";
    return success();
  };
  // Windows: every load of one carries its ring, the ones before the loop
  // their stage.
  WalkResult windows = kernel.walk([&](scf::ForOp loop) {
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
      std::optional<LoadWindow> window = getLoadWindow(loop, i);
      // The tail of a longer window (its front fills stage 1 or later) is
      // that window's.
      SharedStageAttr stage =
          window ? stageAttrOf(window->loads.front()) : nullptr;
      if (!stage || stage.getIndex() != 0)
        continue;
      int64_t n = window->loads.size();
      for (auto [j, load] : llvm::enumerate(window->loads)) {
        SharedStageAttr s = stageAttrOf(load);
        bool ahead = int64_t(j) + 1 == n;
        if (!s || s.getRing() != stage.getRing() || s.getStages() != n ||
            s.getSwizzle() != stage.getSwizzle() ||
            s.getTransposed() != stage.getTransposed() ||
            s.getIndex() !=
                (ahead ? std::nullopt : std::optional<int64_t>(j))) {
          fail(load) << "a window of " << n - 1
                     << " loads ahead through its loop is one ring of " << n
                     << " stages: each load needs #tilegpu.stage<ring = "
                     << stage.getRing() << ", stages = " << n
                     << ", swizzle = " << stage.getSwizzle()
                     << (ahead ? "" : ", index = " + std::to_string(j))
                     << (stage.getTransposed() ? ", transposed = true" : "")
                     << ">";
          return WalkResult::interrupt();
        }
      }
      Ring ring;
      ring.loads = window->loads;
      for (Value v : window->values)
        if (auto arg = dyn_cast<BlockArgument>(v))
          ring.iterArgs.push_back(arg.getArgNumber() - 1);
      ring.tile = loop.getRegionIterArgs()[i];
      ring.loop = loop;
      ring.stage = stage;
      if (failed(claim(window->loads.front(), ring)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (windows.wasInterrupted())
    return failure();
  // One-stage rings and loads no ring claimed.
  WalkResult single = kernel.walk([&](LoadOp load) {
    SharedStageAttr stage = stageAttrOf(load);
    if (!stage)
      return WalkResult::advance();
    if (stage.getStages() != 1) {
      auto it = rings.find(stage.getRing());
      if (it == rings.end() || !llvm::is_contained(it->second.loads, load)) {
        fail(load) << "is staged in a ring of " << stage.getStages()
                   << " stages but is not part of a window of loads ahead "
                      "through a loop (tile-pipeline-loads)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    std::optional<DotOperandUse> use = followToDot(load.getResult());
    auto loop = use ? dyn_cast<scf::ForOp>(use->dot->getParentOp()) : nullptr;
    if (!loop || load->getBlock() != loop->getBlock() ||
        !load->isBeforeInBlock(loop)) {
      fail(load) << "is staged in a one-stage ring but does not reach a dot "
                    "in a loop after it through views";
      return WalkResult::interrupt();
    }
    Ring ring;
    ring.loads = {load};
    ring.tile = load.getResult();
    ring.loop = loop;
    ring.stage = stage;
    if (failed(claim(load, ring)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(single.wasInterrupted());
}

/// What each ring's tile becomes: a dot operand of its loop's body, which
/// cp.async can copy.
LogicalResult Pipeliner::checkRings() {
  llvm::DenseMap<Operation *, int64_t> ringSize;
  for (auto &[number, ring] : rings) {
    LoadOp first = ring.loads.front();
    RankedTensorType type = first.getType();
    std::optional<DotOperandUse> use = followToDot(ring.tile);
    int64_t bytes = elementBytes(type.getElementType());
    bool fp8 = isFP8(type.getElementType());
    if (!use || use->dot->getBlock() != ring.loop.getBody() ||
        (use->operand == 0 && use->transposed) || type.getRank() < 2 ||
        (bytes != 2 && bytes != 4 && !fp8))
      return fail(first) << "is staged but its tile does not reach a dot of "
                            "its loop's body as an operand of fp8, 16- or "
                            "32-bit elements through views (an lhs not "
                            "transposed)";
    if (fp8 && !isWgmma(use->dot))
      return fail(first) << "is an fp8 tile staged for a dot that is not a "
                            "wgmma: mma.sync takes fp8 operands widened to "
                            "f16 in registers";
    // A transposed stage is copied element by element in a layout of its
    // own (transposingCopyLayout), whatever the load's.
    for (LoadOp load : ring.loads)
      if (!padsWithZeros(load) || (!ring.stage.getTransposed() &&
                                   !holdsSixteenByteRuns(load.getType())))
        return fail(load) << "is staged but cp.async cannot copy it: it "
                             "must pad with zeros and its layout must give "
                             "each thread 16-byte runs";
    if (ring.stage.getTransposed() &&
        (bytes != 4 || use->operand != 1 || use->transposed))
      return fail(first) << "is staged transposed, which holds the rhs of a "
                            "tf32 dot K-major: it must be a 32-bit rhs read "
                            "as loaded, not through a transpose";
    if (ring.stage.getStages() > 1 &&
        ringSize.try_emplace(ring.loop, ring.stage.getStages()).first->second !=
            ring.stage.getStages())
      return fail(first) << "the windows of one loop must share one ring "
                            "size: the wait at each iteration counts the "
                            "stages ahead";
    ring.use = *use;
    operandRing[use->dot->getOperand(use->operand)] = &ring;
  }
  return success();
}

/// wgmma dots: the rhs staged with the swizzle, the lhs too or in the
/// accumulator's registers, and staged operands swizzled only for them.
LogicalResult Pipeliner::checkWgmmaDots() {
  DenseSet<const Ring *> swizzledFor;
  WalkResult dots = kernel.walk([&](DotOp dot) {
    if (!dot->hasAttr(kDotAttr) || !isWgmma(dot))
      return WalkResult::advance();
    auto swizzled = [&](Value v) -> const Ring * {
      auto it = operandRing.find(v);
      if (it == operandRing.end() || it->second->stage.getSwizzle() != 128)
        return nullptr;
      return it->second;
    };
    auto acc = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
    auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
    const Ring *lhs = swizzled(dot.getLhs()), *rhs = swizzled(dot.getRhs());
    bool tf32 = lhsType.getElementType().isF32() &&
                dot.getPrecision() == Precision::TF32;
    bool fp8 = isFP8(lhsType.getElementType());
    bool lhsInRegisters = !operandRing.count(dot.getLhs()) && acc &&
                          lhsType.getEncoding() == dot.getType().getEncoding();
    // The transposed product: a tf32 rhs [K][N] staged under the swizzle,
    // read into registers.
    bool swapped = isSwappedWgmmaLayout(dot.getType().getEncoding());
    std::string why;
    if (!wgmmaChip)
      why = "wgmma needs sm_90a";
    else if (swapped) {
      if (!tf32 ||
          !fitsSwappedWgmmaShape(lhsType.getDimSize(0),
                                 dot.getType().getDimSize(1),
                                 lhsType.getDimSize(1), numWarps) ||
          !lhs || !rhs || lhs == rhs || rhs->stage.getTransposed() ||
          rhs->use.transposed)
        why = "a wgmma on the transposed product (the swapped accumulator "
              "layout) needs tf32 operands, N a multiple of 64 per "
              "warpgroup, M a multiple of 8 up to 256, K of 32, its lhs "
              "and its rhs [K][N] staged with swizzle = 128";
    } else if (numWarps % 4 ||
               (elementBytes(lhsType.getElementType()) != 2 && !tf32 && !fp8) ||
               lhsType.getDimSize(0) % (16 * numWarps) ||
               dot.getType().getDimSize(1) % 8 ||
               dot.getType().getDimSize(1) > 256)
      why = "wgmma needs warpgroups, 16-bit, fp8 or tf32 operands, M a "
            "multiple of 64 per warpgroup and N a multiple of 8 up to 256";
    else if (!acc || acc.getWarpsM() != numWarps)
      why = "wgmma needs the accumulator in #tilegpu.mma with all warps "
            "along M";
    else if (!rhs || (!lhs && !lhsInRegisters) || lhs == rhs)
      why = "wgmma needs its rhs staged with swizzle = 128, and its lhs "
            "staged so too or in the accumulator's layout";
    else if (tf32 &&
             (!lhs || !(rhs->stage.getTransposed() || rhs->use.transposed)))
      why = "a tf32 wgmma reads both operands from shared memory, K-major: "
            "its lhs staged and its rhs staged transposed or read through a "
            "transpose";
    else if (fp8 && (!lhs || !rhs->use.transposed))
      why = "an fp8 wgmma reads both operands from shared memory, K-major: "
            "its lhs staged and its rhs read through a transpose";
    if (!why.empty()) {
      fail(dot) << "is marked " << dot->getAttr(kDotAttr) << " but " << why;
      return WalkResult::interrupt();
    }
    for (const Ring *r : {lhs, rhs})
      if (r)
        swizzledFor.insert(r);
    wgmmaDots.insert(dot);
    return WalkResult::advance();
  });
  if (dots.wasInterrupted())
    return failure();
  anyWgmma = !wgmmaDots.empty();
  for (auto &[number, ring] : rings) {
    LoadOp first = ring.loads.front();
    RankedTensorType type = first.getType();
    int64_t rank = type.getRank();
    int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
    if (ring.stage.getTransposed())
      std::swap(rows, cols);
    if (ring.stage.getSwizzle() != 128)
      continue;
    if (!swizzledFor.contains(&ring))
      return fail(first) << "is staged with swizzle = 128, the layout only "
                            "wgmma reads, but its dot does not run as wgmma";
    if (!fitsSwizzle128(rows, cols, elementBytes(type.getElementType())))
      return fail(first) << "is staged with swizzle = 128, which needs "
                            "stored rows of 128 bytes and a multiple of 8 "
                            "rows";
  }
  return success();
}

/// Rings the TMA copies: every load of one names one tensor map of the
/// kernel, and the stages have the layout the TMA writes.
LogicalResult Pipeliner::checkTma() {
  int64_t numMaps = getTensorMaps(kernel).size();
  for (auto &[number, ring] : rings) {
    auto mapOf = [](LoadOp load) -> std::optional<int64_t> {
      if (auto m = load->getAttrOfType<IntegerAttr>(kTmaAttr))
        return m.getInt();
      return std::nullopt;
    };
    std::optional<int64_t> map = mapOf(ring.loads.front());
    for (LoadOp load : ring.loads)
      if (mapOf(load) != map)
        return fail(load) << "is in ring " << number
                          << ", whose loads must all name one tensor map "
                             "(tilegpu.tma) or none";
    if (!map)
      continue;
    if (*map < 0 || *map >= numMaps)
      return fail(ring.loads.front())
             << "names tensor map " << *map
             << " but the kernel's tilegpu.tensor_maps has " << numMaps;
    if (ring.stage.getSwizzle() != 128 || ring.stage.getTransposed())
      return fail(ring.loads.front())
             << "is copied by the TMA, which writes stages with the 128-byte "
                "swizzle, not transposed";
    ring.tensorMap = map;
  }
  return success();
}
