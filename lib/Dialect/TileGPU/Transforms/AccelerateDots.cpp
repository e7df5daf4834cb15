//===- AccelerateDots.cpp - each dot's instruction and staged operands ----===//
//
// Which dot operands go by cp.async into rings of shared memory, and which
// dots run as wgmma, written as `tilegpu.stage` and `tilegpu.dot`
// attributes. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "llvm/ADT/MapVector.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUACCELERATEDOTSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

namespace {
/// A tile that may skip registers: its loads (before the loop, in stage
/// order, then the one ahead in the body) and the dot operand it becomes.
struct Candidate {
  SmallVector<LoadOp> loads;
  Value operand;
  scf::ForOp loop;
  int64_t stages;
  int64_t rows, cols, elementBytes; // of the tile as loaded
  bool readTransposed;              // the dot reads it through a transpose
  bool swizzled = false;            // for a wgmma dot
  bool storedTransposed = false;    // [K][N] kept as [N][K] (a tf32 B)

  /// A stage's bytes, as tilegpu-allocate-shared-memory places them.
  int64_t stageBytes() const {
    return getStageBytes(rows, cols, elementBytes, swizzled);
  }
  /// Whether it is staged once its dot's instruction is known: an fp8 tile
  /// only for wgmma (on mma.sync its dot takes it widened to f16 in
  /// registers, tilegpu-legalize-dots).
  bool staged() const { return elementBytes != 1 || swizzled; }
};

class DotAccelerator {
public:
  DotAccelerator(func::FuncOp kernel, bool wgmma, int64_t budget)
      : kernel(kernel), hasWgmma(wgmma), budget(budget) {
    if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      numWarps = w.getInt();
  }

  LogicalResult run(bool remarks);

private:
  func::FuncOp kernel;
  bool hasWgmma;
  int64_t budget;
  int64_t numWarps = 4;
  SmallVector<Candidate> candidates;

  void consider(Value tile, scf::ForOp loop, SmallVector<LoadOp> loads);
  std::string whyNotWgmma(DotOp dot, Candidate *&lhs, Candidate *&rhs);
  std::string whyNotSwapped(DotOp dot, Candidate *lhs, Candidate *rhs);
  void accumulateInMma(DotOp dot);
  void markSwizzled();
  int64_t stagedBytes() const;
  int64_t mmaSyncScratchBytes();
};

/// `tile` (loaded by `loads`) is a candidate if it reaches a dot of
/// `loop`'s body only through views and its loads can be copied
/// asynchronously.
void DotAccelerator::consider(Value tile, scf::ForOp loop,
                              SmallVector<LoadOp> loads) {
  std::optional<DotOperandUse> use = followToDot(tile);
  if (!use || use->dot->getBlock() != loop.getBody() ||
      (use->operand == 0 && use->transposed))
    return;
  RankedTensorType type = loads.front().getType();
  int64_t rank = type.getRank();
  int64_t bytes = elementBytes(type.getElementType());
  bool fp8 = isFP8(type.getElementType());
  if ((bytes != 2 && bytes != 4 && !fp8) || rank < 2)
    return;
  for (LoadOp load : loads)
    if (!padsWithZeros(load) || !holdsSixteenByteRuns(load.getType()))
      return;
  int64_t stages = loads.size() == 1 ? 1 : loads.size();
  candidates.push_back({loads, use->dot->getOperand(use->operand), loop, stages,
                        type.getDimSize(rank - 2), type.getDimSize(rank - 1),
                        bytes, use->transposed});
}

/// Why a dot whose accumulator tilegpu-assign-layouts laid out for wgmma on
/// its transpose (a tf32 B [K][N] read from registers) cannot run so.
std::string DotAccelerator::whyNotSwapped(DotOp dot, Candidate *lhs,
                                          Candidate *rhs) {
  auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = dot.getType().getDimSize(1);
  if (!lhsType.getElementType().isF32() ||
      dot.getPrecision() != Precision::TF32)
    return "the transposed product is for tf32 operands";
  if (!fitsSwappedWgmmaShape(M, N, K, numWarps))
    return "the transposed product takes N a multiple of 64 per warpgroup, "
           "M a multiple of 8 up to 256 and K a multiple of 32";
  if (!lhs || !rhs)
    return "the transposed product reads both operands from shared memory; "
           "one is not staged there (a tile loaded ahead through the loop or "
           "once before it, zero-padded, in 16-byte runs, within the shared "
           "memory budget)";
  if (lhs == rhs || rhs->readTransposed)
    return "the transposed product reads its rhs as loaded, [K][N]";
  return "";
}

/// A dot that stays on mma.sync although its accumulator's class has the
/// swapped wgmma layout: it accumulates in an mma layout of its own, the
/// accumulator converted before it and its result back after it.
void DotAccelerator::accumulateInMma(DotOp dot) {
  RankedTensorType type = dot.getType();
  int64_t M = type.getDimSize(0), N = type.getDimSize(1);
  int64_t warpsM = std::min<int64_t>(numWarps, std::max<int64_t>(1, M / 16));
  int64_t warpsN = std::max<int64_t>(
      1, std::min<int64_t>(numWarps / warpsM, std::max<int64_t>(1, N / 8)));
  auto mma =
      withLayout(type, MmaLayoutAttr::get(kernel.getContext(), warpsM, warpsN));
  OpBuilder b(dot);
  Value acc = ConvertLayoutOp::create(b, dot.getLoc(), mma, dot.getAcc());
  dot.getAccMutable().set(acc);
  dot.getResult().setType(mma);
  b.setInsertionPointAfter(dot);
  auto back = ConvertLayoutOp::create(b, dot.getLoc(), type, dot.getResult());
  dot.getResult().replaceAllUsesExcept(back, back);
}

std::string DotAccelerator::whyNotWgmma(DotOp dot, Candidate *&lhs,
                                        Candidate *&rhs) {
  if (!hasWgmma)
    return "wgmma needs sm_90a";
  if (numWarps % 4)
    return "wgmma needs warpgroups, a multiple of 4 warps; the kernel has " +
           std::to_string(numWarps);
  auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = dot.getType().getDimSize(1), groups = numWarps / 4;
  int64_t bytes = elementBytes(lhsType.getElementType());
  bool tf32 = bytes == 4, fp8 = isFP8(lhsType.getElementType());
  if (tf32 && dot.getPrecision() != Precision::TF32)
    return "wgmma takes f32 operands only as tf32";
  if (bytes != 2 && !tf32 && !fp8)
    return "wgmma here takes 16-bit, fp8 or tf32 operands";
  for (Candidate &c : candidates) {
    if (c.operand == dot.getLhs())
      lhs = &c;
    if (c.operand == dot.getRhs())
      rhs = &c;
  }
  if (isSwappedWgmmaLayout(getLayout(dot.getType())))
    return whyNotSwapped(dot, lhs, rhs);
  if (M % (64 * groups) || N % 8 || N > 256)
    return "wgmma takes M a multiple of 64 per warpgroup and N a multiple "
           "of 8 up to 256";
  if (M / groups * N * K < 64 * 64 * 64)
    return "each warpgroup's share is less than a 64x64x64 product";
  // What kept tilegpu-assign-layouts from laying the accumulator out for
  // wgmma, said before the layout check it fails.
  if (fp8) {
    std::string why = whyNotFP8WgmmaOperands(dot);
    if (!why.empty())
      return why;
  }
  // Warps along M only, 16 rows each: warpgroup g owns rows 64g to 64g + 63
  // of each 64 x warpgroups (wgmma's D fragments are mma.sync's, stacked
  // along M). tilegpu-assign-layouts gives dots of wgmma's shapes that
  // layout.
  auto acc = dyn_cast_or_null<MmaLayoutAttr>(getLayout(dot.getType()));
  if (!acc || acc.getWarpsM() != numWarps)
    return "its accumulator's warps are not all along M";
  // An lhs in that layout already (FA3's P in P V) is wgmma's A from
  // registers: its fragments are mma.sync's A, warp by warp.
  bool lhsInRegisters = !lhs && getLayout(dot.getLhs().getType()) == acc;
  if ((tf32 || fp8) && !lhs)
    return (Twine(tf32 ? "a tf32" : "an fp8") +
            " wgmma reads its lhs from shared memory; it is not staged there")
        .str();
  if (!rhs)
    return "its rhs is not staged in shared memory (a tile loaded ahead "
           "through the loop or once before it, zero-padded, in 16-byte "
           "runs, within the shared memory budget)";
  if (!lhs && !lhsInRegisters)
    return "its lhs is neither staged in shared memory nor in the "
           "accumulator's layout";
  if (lhs == rhs)
    return "its lhs and rhs are one tile";
  // As stored: A [M][K]; B [N][K] when read through a transpose or when a
  // tf32 B (wgmma reads those only K-major) is copied transposed, else
  // [K][N].
  bool transposeB = tf32 && !rhs->readTransposed;
  if ((lhs && !fitsSwizzle128(lhs->rows, lhs->cols, bytes)) ||
      !(transposeB ? fitsSwizzle128(rhs->cols, rhs->rows, bytes)
                   : fitsSwizzle128(rhs->rows, rhs->cols, bytes)))
    return ("the 128-byte swizzle needs staged tiles of rows of 128 bytes (" +
            Twine(128 / bytes) + " elements), a multiple of 8 rows")
        .str();
  return "";
}

/// Marks the candidates the dots would read under the swizzle, as run()
/// decides it but without changing the IR: a dot laid out for the
/// transposed product that cannot run so counts as mma.sync (decided again
/// after its conversion it may run as wgmma, whose stages are no larger).
void DotAccelerator::markSwizzled() {
  for (Candidate &c : candidates)
    c.swizzled = false;
  kernel.walk([&](DotOp dot) {
    Candidate *lhs = nullptr, *rhs = nullptr;
    if (!whyNotWgmma(dot, lhs, rhs).empty())
      return;
    if (lhs)
      lhs->swizzled = true;
    rhs->swizzled = true;
  });
}

/// The bytes of the candidates' rings, as tilegpu-allocate-shared-memory
/// places them.
int64_t DotAccelerator::stagedBytes() const {
  int64_t bytes = 0;
  for (const Candidate &c : candidates)
    if (c.staged())
      bytes += c.stages * c.stageBytes();
  return bytes;
}

/// The shared memory that the mma.sync dots in loops take beside the
/// rings, with the candidates as they stand: tilegpu-allocate-shared-memory's
/// scratch for the operands not staged (getMmaSyncOperandBytes; a 16-bit
/// lhs that is its own A fragments takes none). fp8 operands run there
/// widened to f16.
int64_t DotAccelerator::mmaSyncScratchBytes() {
  int64_t total = 0;
  kernel.walk([&](DotOp dot) {
    Candidate *lhs = nullptr, *rhs = nullptr;
    if (!dot->getParentOfType<LoopLikeOpInterface>() ||
        whyNotWgmma(dot, lhs, rhs).empty())
      return;
    auto stagedOperand = [&](Value operand) {
      return llvm::any_of(candidates, [&](const Candidate &c) {
        return c.operand == operand && c.staged();
      });
    };
    auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
    Type elem = lhsType.getElementType();
    int64_t bytes = isFP8(elem) ? 2 : elementBytes(elem);
    int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
    int64_t N = dot.getType().getDimSize(1);
    total += getMmaSyncOperandBytes(
        M, N, K, bytes,
        !stagedOperand(dot.getLhs()) &&
            !isLhsItsOwnFragments(lhsType, dot.getType().getEncoding()),
        !stagedOperand(dot.getRhs()));
  });
  return total;
}

LogicalResult DotAccelerator::run(bool remarks) {
  // A decision made again replaces the old one.
  kernel.walk([](Operation *op) {
    op->removeAttr(kStageAttr);
    op->removeAttr(kDotAttr);
  });
  WalkResult layouts = kernel.walk([](DotOp dot) {
    if (getLayout(dot.getType()))
      return WalkResult::advance();
    dot.emitOpError() << "result " << dot.getType()
                      << " has no distributed layout; run "
                         "tilegpu-assign-layouts first";
    return WalkResult::interrupt();
  });
  if (layouts.wasInterrupted())
    return failure();

  // Windows the loops carry, then tiles loaded once before a loop.
  kernel.walk([&](scf::ForOp loop) {
    for (BlockArgument arg : loop.getRegionIterArgs())
      if (SmallVector<LoadOp> loads = getStageableLoads(arg, loop);
          !loads.empty())
        consider(arg, loop, loads);
  });
  kernel.walk([&](LoadOp load) {
    std::optional<DotOperandUse> use = followToDot(load.getResult());
    auto loop =
        use ? dyn_cast<scf::ForOp>(use->dot->getParentOp()) : scf::ForOp();
    if (loop && !getStageableLoads(load.getResult(), loop).empty())
      consider(load.getResult(), loop, {load});
  });
  // A loop's windows share one ring size: the wait at each iteration
  // counts the commit groups of the stages ahead.
  llvm::DenseMap<Operation *, int64_t> ringOf;
  llvm::erase_if(candidates, [&](const Candidate &c) {
    if (c.stages == 1)
      return false;
    return ringOf.try_emplace(c.loop, c.stages).first->second != c.stages;
  });
  // Drop candidates from the last until the stages fit, each counted at
  // the size it would take: a wgmma ring under the swizzle, unpadded. A
  // dropped operand may move its dot to mma.sync and its other operand to
  // padded rows, so the sizes are worked out again after each drop; an
  // mma.sync dot in a loop also takes shared memory beside the rings for
  // its operands left in registers.
  while (!candidates.empty()) {
    markSwizzled();
    if (stagedBytes() + mmaSyncScratchBytes() <= budget)
      break;
    candidates.pop_back();
  }
  for (Candidate &c : candidates)
    c.swizzled = false;

  MLIRContext *ctx = kernel.getContext();
  kernel.walk([&](DotOp dot) {
    Candidate *lhs = nullptr, *rhs = nullptr;
    bool swapped = isSwappedWgmmaLayout(getLayout(dot.getType()));
    std::string why = whyNotWgmma(dot, lhs, rhs);
    // A dot the transposed product cannot take accumulates in an mma layout
    // of its own, and is decided as such: the decision made again on the
    // converted IR is the same.
    std::string whyNotSwapped;
    if (swapped && !why.empty()) {
      whyNotSwapped = why;
      accumulateInMma(dot);
      swapped = false;
      lhs = rhs = nullptr;
      why = whyNotWgmma(dot, lhs, rhs);
    }
    bool transposeB = why.empty() && !swapped && !rhs->readTransposed &&
                      rhs->elementBytes == 4;
    if (remarks) {
      InFlightDiagnostic remark = dot.emitRemark();
      if (!why.empty())
        remark << "runs on mma.sync: " << why;
      else if (swapped)
        remark << "runs as wgmma on the transposed product (C^T = B^T A^T): "
                  "its tf32 rhs [K][N] goes from shared memory to registers "
                  "as wgmma's A";
      else
        remark << "runs as wgmma"
               << (transposeB ? "; its tf32 rhs is copied into K-major stages"
                              : "");
      if (!whyNotSwapped.empty())
        remark << "; its accumulator is converted to an mma layout and back, "
                  "since "
               << whyNotSwapped;
    }
    dot->setAttr(kDotAttr, DotInstructionAttr::get(
                               ctx, why.empty() ? DotInstruction::Wgmma
                                                : DotInstruction::MmaSync));
    if (!why.empty())
      return;
    // The transposed product reads its rhs by plain loads into registers,
    // from a stage under the swizzle as any wgmma operand's (the TMA writes
    // it; the swizzle keeps the loads free of bank conflicts).
    if (lhs)
      lhs->swizzled = true;
    rhs->swizzled = true;
    rhs->storedTransposed = transposeB;
  });
  llvm::erase_if(candidates, [](const Candidate &c) { return !c.staged(); });

  llvm::MapVector<Operation *, std::pair<int64_t, int64_t>> staged; // loop:
  // operands loaded in its body, their bytes
  llvm::DenseMap<Operation *, int64_t> loopStages;
  for (auto [ring, c] : llvm::enumerate(candidates)) {
    for (auto [i, load] : llvm::enumerate(c.loads)) {
      bool ahead = c.stages > 1 && i + 1 == c.loads.size();
      load->setAttr(
          kStageAttr,
          SharedStageAttr::get(ctx, ring, c.stages, c.swizzled ? 128 : 0,
                               ahead ? std::nullopt : std::optional<int64_t>(i),
                               c.storedTransposed));
    }
    auto &[operands, bytes] = staged[c.loop];
    int64_t &stages = loopStages[c.loop];
    stages = std::max(stages, c.stages);
    if (c.stages > 1) {
      ++operands;
      bytes += c.stages * c.stageBytes();
    }
  }
  if (remarks)
    for (auto &[loop, use] : staged)
      loop->emitRemark() << "dot operands staged in shared memory by "
                            "cp.async: "
                         << use.first << " in " << loopStages[loop]
                         << " stages (" << use.second << " bytes)";
  return success();
}

/// The scratch of the ops inside the kernel's loops (reductions, layout
/// conversions, scans, sorts): tilegpu-allocate-shared-memory places it
/// beside the rings, which live through their loops. Counted whole, as if
/// all were live at once.
static int64_t loopScratchBytes(func::FuncOp kernel) {
  auto warps = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
  int64_t numWarps = warps ? warps.getInt() : 4, bytes = 0;
  kernel.walk([&](Operation *op) {
    if (op->getParentOfType<LoopLikeOpInterface>())
      bytes += llvm::alignTo(getScratch(op, numWarps).bytes, 16);
  });
  return bytes;
}

struct TileGPUAccelerateDotsPass
    : tilegpu::impl::TileGPUAccelerateDotsPassBase<TileGPUAccelerateDotsPass> {
  using TileGPUAccelerateDotsPassBase::TileGPUAccelerateDotsPassBase;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    if (!*isKernel)
      return;
    int64_t budget = sharedMemoryBudget;
    if (budget == kChipStagingBudget) {
      budget =
          getStagingBudget(*parseChipVersion(chip)) - loopScratchBytes(kernel);
    } else if (budget < 0) {
      kernel.emitError() << "shared-memory-budget must be -1 (the chip's) or "
                            "not negative, got "
                         << budget;
      return signalPassFailure();
    }
    DotAccelerator accelerator(kernel, chip == "sm_90a", budget);
    if (failed(accelerator.run(remarks)))
      signalPassFailure();
  }
};
} // namespace
