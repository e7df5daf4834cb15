//===- PipelineLoads.cpp - load a loop's next tiles one iteration ahead ---===//
//
// The GPU backend waits for a load only where its data is first used, so a
// load issued one iteration early overlaps a whole iteration of work. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/Tile/Transforms/Passes.h"

#include "Effects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace tilegym::tile {
#define GEN_PASS_DEF_TILEPIPELINELOADSPASS
#include "tilegym/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilegym::tile

using namespace mlir;
using namespace tilegym::tile;

namespace {

/// A load to issue ahead and the pure ops of the loop body its operands
/// need, in body order.
struct AheadLoad {
  LoadOp load;
  SmallVector<Operation *> slice;
  int64_t depth; // iterations ahead
};

/// Collects into `slice` the body ops `v` depends on; false if `v` depends
/// on anything but the induction variable, values from outside the loop and
/// pure region-free ops.
bool collectSlice(Value v, scf::ForOp loop,
                  llvm::SetVector<Operation *> &slice) {
  Block *body = loop.getBody();
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() != body || arg == loop.getInductionVar();
  Operation *def = v.getDefiningOp();
  if (!loop->isProperAncestor(def))
    return true;
  if (def->getBlock() != body || !isPure(def) || def->getNumRegions())
    return false;
  if (slice.contains(def))
    return true;
  for (Value operand : def->getOperands())
    if (!collectSlice(operand, loop, slice))
      return false;
  slice.insert(def);
  return true;
}

/// The shared memory a loop's operand rings may take by default: what the
/// GPU backend gives them on every chip it targets (sm_80 has 163 KiB per
/// block).
constexpr int64_t kStageBudgetBytes = 160 * 1024;

/// Bytes each GPU thread holds of `tile`.
int64_t bytesPerThread(RankedTensorType tile, int64_t threads) {
  int64_t bits = tile.getNumElements() *
                 std::max<int64_t>(8, tile.getElementTypeBitWidth());
  return llvm::divideCeil(bits / 8, threads);
}

/// Clones `ahead`'s slice and load with the induction variable (`oldIv`,
/// and `newIv` if the loop was rebuilt) replaced by `iv`, at `b`'s insertion
/// point.
Value cloneAt(OpBuilder &b, const AheadLoad &ahead, Value oldIv, Value iv,
              Value newIv = {}) {
  IRMapping map;
  map.map(oldIv, iv);
  if (newIv)
    map.map(newIv, iv);
  for (Operation *op : ahead.slice)
    b.clone(*op, map);
  return b.clone(*ahead.load, map)->getResult(0);
}

/// Whether `load` is padded with zeros and feeds only a dot of the loop body
/// (through the views of followToDot, all in the body): what the GPU backend
/// keeps in shared memory.
bool onlyDotOperand(LoadOp load, Block *body) {
  if (!padsWithZeros(load))
    return false;
  std::optional<DotOperandUse> use = followToDot(load.getResult());
  return use && use->dot->getBlock() == body &&
         llvm::all_of(use->views, [&](Operation *view) {
           return view->getBlock() == body;
         });
}

/// The shared-memory stages of a loop's dot operands when neither the
/// kernel (`stages(n)`) nor the pipeline asks for a number. A loop with one
/// dot (a K loop: the operands' copy latency is all there is to hide) gets
/// 3, Triton's default on Hopper, while its operand rings fit in
/// kStageBudgetBytes; a loop with more than one dot (attention: the work
/// between the dots hides the copies, and a third stage costs blocks per
/// SM; bench/NOTES.md) gets 2.
int64_t defaultSharedStages(scf::ForOp loop, bool dotOperandsFree) {
  Block *body = loop.getBody();
  int64_t dots = llvm::range_size(body->getOps<DotOp>());
  if (!dotOperandsFree || dots != 1)
    return 2;
  int64_t stageBytes = 0;
  for (auto load : body->getOps<LoadOp>())
    if (onlyDotOperand(load, body)) {
      RankedTensorType type = load.getType();
      stageBytes += type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    }
  return 3 * stageBytes <= kStageBudgetBytes ? 3 : 2;
}

void pipeline(scf::ForOp loop, int64_t threads, int64_t maxBytes,
              bool dotOperandsFree, int64_t sharedStages) {
  Block *body = loop.getBody();
  if (maxBytes <= 0)
    return;
  for (Operation &op : body->without_terminator())
    if (mayWrite(&op))
      return;
  if (sharedStages <= 0)
    sharedStages = defaultSharedStages(loop, dotOperandsFree);
  SmallVector<AheadLoad> ahead;
  int64_t bytes = 0;
  for (auto load : body->getOps<LoadOp>()) {
    llvm::SetVector<Operation *> slice;
    if (!llvm::all_of(load->getOperands(),
                      [&](Value v) { return collectSlice(v, loop, slice); }))
      continue;
    bool shared = dotOperandsFree && onlyDotOperand(load, body);
    int64_t need = shared ? 0 : bytesPerThread(load.getType(), threads);
    if (bytes + need > maxBytes)
      continue;
    bytes += need;
    SmallVector<Operation *> ordered(slice.begin(), slice.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    int64_t depth = shared ? std::max<int64_t>(1, sharedStages - 1) : 1;
    ahead.push_back({load, std::move(ordered), depth});
  }
  if (ahead.empty())
    return;

  // A load `depth` iterations ahead carries a window of `depth` tiles: the
  // loop starts with those of its first `depth` iterations, each iteration
  // uses the window's first, loads the one `depth` iterations on and yields
  // the window shifted by one.
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value oldIv = loop.getInductionVar();
  // Iteration by iteration (all the loads of the first, then of the
  // second...), the order in which the body will need them; `firsts` is by
  // load, window after window, as the loop carries them.
  int64_t maxDepth = 0, total = 0;
  for (const AheadLoad &a : ahead) {
    maxDepth = std::max(maxDepth, a.depth);
    total += a.depth;
  }
  SmallVector<Value> firsts(total);
  for (int64_t j = 0; j < maxDepth; ++j) {
    Value iv = loop.getLowerBound();
    if (j)
      iv = arith::AddIOp::create(
          rewriter, loop.getLoc(), iv,
          arith::MulIOp::create(
              rewriter, loop.getLoc(), loop.getStep(),
              arith::ConstantIndexOp::create(rewriter, loop.getLoc(), j)));
    int64_t pos = 0;
    for (const AheadLoad &a : ahead) {
      if (j < a.depth)
        firsts[pos + j] = cloneAt(rewriter, a, oldIv, iv);
      pos += a.depth;
    }
  }

  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, firsts, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> carried) {
        auto newLoop =
            cast<scf::ForOp>(carried.front().getOwner()->getParentOp());
        Value iv = newLoop.getInductionVar();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(newLoop.getBody());
        SmallVector<Value> yields;
        size_t pos = 0;
        llvm::SmallDenseMap<int64_t, Value> ivAhead; // iv + depth * step
        // The body may not have moved into the new loop yet: its ops can
        // still use the old induction variable.
        for (const AheadLoad &a : ahead) {
          Value &next = ivAhead[a.depth];
          if (!next)
            next = arith::AddIOp::create(
                b, loc, iv,
                a.depth == 1
                    ? newLoop.getStep()
                    : Value(arith::MulIOp::create(
                          b, loc, newLoop.getStep(),
                          arith::ConstantIndexOp::create(b, loc, a.depth))));
          for (int64_t j = 1; j < a.depth; ++j)
            yields.push_back(carried[pos + j]);
          yields.push_back(cloneAt(b, a, oldIv, next, iv));
          pos += a.depth;
        }
        return yields;
      });
  if (failed(replaced))
    return;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  auto carried = newLoop.getRegionIterArgs().take_back(firsts.size());
  size_t pos = 0;
  for (AheadLoad &a : ahead) {
    rewriter.replaceAllUsesWith(a.load.getResult(), carried[pos]);
    rewriter.eraseOp(a.load);
    pos += a.depth;
  }
}

struct TilePipelineLoadsPass
    : tilegym::tile::impl::TilePipelineLoadsPassBase<TilePipelineLoadsPass> {
  using TilePipelineLoadsPassBase::TilePipelineLoadsPassBase;
  void runOnOperation() override {
    getOperation()->walk([&](Operation *kernel) {
      if (!kernel->hasAttr(kKernelAttr))
        return;
      int64_t warps = 4;
      if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
        warps = w.getInt();
      int64_t budget = maxBytesPerThread;
      if (auto b = kernel->getAttrOfType<IntegerAttr>(kPipelineBytesAttr))
        budget = b.getInt();
      int64_t stages = sharedMemoryStages;
      if (auto s = kernel->getAttrOfType<IntegerAttr>(kPipelineStagesAttr))
        stages = s.getInt();
      // Collected first: pipelining replaces each loop op.
      SmallVector<scf::ForOp> loops;
      kernel->walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        pipeline(loop, 32 * warps, budget, dotOperandsInSharedMemory, stages);
    });
  }
};

} // namespace
