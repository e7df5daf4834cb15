//===- Persistent.cpp - blocks that run tile after tile -------------------===//
//
// Makes a warp-specialized kernel persistent: the launch runs only as many
// blocks as the GPU holds at once, each of which walks the grid's tiles
// (its own index, then every launched block count further), so that its
// producer fills the next tile's stages while its consumers still run this
// tile's epilogue, which a block per tile leaves unhidden (the store of a
// 256x128 f32 accumulator is about a tenth of a 4096^3 matmul's tile).
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/DeadOps.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"
#include "tilegym/Dialect/TileGPU/Transforms/SpecializedRings.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUPERSISTENTPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// Rows of the grid (its y) a group of consecutive tiles spans: the blocks
/// running at once share the operand tiles of 8 rows and of the columns
/// they cover, rather than of one row and every column (Triton's grouped
/// order, GROUP_SIZE_M = 8).
constexpr int64_t kGroupRows = 8;

/// Shared memory the driver keeps per resident block (sm_80 and sm_90).
constexpr int64_t kReservedSharedBytes = 1024;

/// What tilegpu-warp-specialize built, as this pass rewrites it.
struct Specialized {
  WarpSpecializeOp ws;
  /// The producer's work, run where every map is active, and its loop of
  /// fills (its one iteration argument the fill count, from `stages - 1`).
  Block *producer = nullptr;
  scf::ForOp fills;
  int64_t stages = 0;
  /// The consumers' two versions of the body: on the mbarriers (then) and
  /// the kernel as it was (else).
  Block *consumer = nullptr, *plain = nullptr;
  /// In `consumer`: the ring loop, its full-stage mbarriers, the indices of
  /// its stage and phase among its iteration arguments; the fills before
  /// it and the waits for the stages after it.
  scf::ForOp ring;
  SmallVector<Value> full;
  unsigned stageArg = 0, phaseArg = 0;
  SmallVector<Operation *> prologue, drain;
  /// Waits for tiles copied once per tile before the loop (attention's Q,
  /// a one-stage ring): at parity 0, which a persistent block must flip
  /// from tile to tile.
  SmallVector<MBarrierWaitOp> onceWaits;
};

/// The grid's x, y, z sizes, its tile count, and the launched blocks' index
/// and count.
struct Grid {
  SmallVector<Value, 3> sizes;
  Value tiles, block, blocks;
  Value zero; // i32, the first fill count, stage and phase
};
} // namespace

/// The one op of `block` (a region without a terminator), if it is an
/// OpTy.
template <typename OpTy> static OpTy loneOp(Block &block) {
  return llvm::hasSingleElement(block) ? dyn_cast<OpTy>(block.front()) : OpTy();
}

/// The parts of `ws` this pass rewrites, or why it does not have them.
static FailureOr<Specialized> match(WarpSpecializeOp ws, std::string &why) {
  Specialized s;
  s.ws = ws;
  auto produce = loneOp<scf::IfOp>(ws.getProducer().front());
  auto choose = loneOp<scf::IfOp>(ws.getConsumer().front());
  if (!produce || !choose || produce.elseBlock() || !choose.elseBlock()) {
    why = "its warp_specialize is not of the form tilegpu-warp-specialize "
          "builds";
    return failure();
  }
  s.producer = produce.thenBlock();
  s.consumer = choose.thenBlock();
  s.plain = choose.elseBlock();
  for (Operation &op : s.producer->without_terminator())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      s.fills = loop;
  if (!s.fills || s.fills.getNumRegionIterArgs() != 1) {
    why = "its producer has no loop of fills";
    return failure();
  }
  s.fills.walk([&](AsyncCopyOp copy) {
    auto index = copy.getDest().getDefiningOp<MemDescIndexOp>();
    auto alloc = index ? index.getSource().getDefiningOp<LocalAllocOp>()
                       : LocalAllocOp();
    if (alloc)
      s.stages = alloc.getType().getShape().front();
  });
  auto first = s.fills.getInitArgs()[0].getDefiningOp<arith::ConstantIntOp>();
  if (!s.stages || !first || first.value() != s.stages - 1) {
    why = "its producer's fills do not start at its rings' last stage";
    return failure();
  }

  // The consumers' ring loop: the one that releases stages.
  for (Operation &op : s.consumer->without_terminator()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    bool releases = false;
    loop.walk([&](MBarrierArriveOp) { releases = true; });
    if (!releases)
      continue;
    if (s.ring) {
      why = "its consumers release stages in two loops";
      return failure();
    }
    s.ring = loop;
  }
  if (!s.ring) {
    why = "its consumers have no loop that releases stages";
    return failure();
  }
  // Its waits for full stages, at the stage and phase it carries.
  std::optional<unsigned> stageArg, phaseArg;
  for (auto wait : s.ring.getBody()->getOps<MBarrierWaitOp>()) {
    auto stage = dyn_cast<BlockArgument>(wait.getBarrier());
    auto phase = dyn_cast<BlockArgument>(wait.getPhase());
    if (!stage || !phase || stage.getOwner() != s.ring.getBody() ||
        phase.getOwner() != s.ring.getBody() ||
        (stageArg && *stageArg != stage.getArgNumber()) ||
        (phaseArg && *phaseArg != phase.getArgNumber())) {
      why = "its ring loop's waits are not at the stage and phase it carries";
      return failure();
    }
    stageArg = stage.getArgNumber();
    phaseArg = phase.getArgNumber();
    if (!llvm::is_contained(s.full, wait.getBarriers()))
      s.full.push_back(wait.getBarriers());
  }
  if (!stageArg) {
    why = "its ring loop waits for no stage";
    return failure();
  }
  // Block arguments count the induction variable first.
  s.stageArg = *stageArg - 1;
  s.phaseArg = *phaseArg - 1;

  // Around the loop, only its rings' fills before it and their waits after
  // it, and tiles copied once before it (attention's Q) with their waits.
  auto isRing = [&](Value barriers) {
    return llvm::is_contained(s.full, barriers);
  };
  SmallVector<Value> once;
  WalkResult outside =
      s.consumer->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (s.ring->isAncestor(op))
          return WalkResult::skip();
        bool top = op->getBlock() == s.consumer;
        bool before = top && op->isBeforeInBlock(s.ring);
        if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
          if (!top || !before || !copy.getTensorMap())
            return WalkResult::interrupt();
          if (isRing(copy.getBarriers()))
            s.prologue.push_back(op);
          else
            once.push_back(copy.getBarriers());
        } else if (auto wait = dyn_cast<MBarrierWaitOp>(op)) {
          auto parity = wait.getPhase().getDefiningOp<arith::ConstantIntOp>();
          if (top && !before && isRing(wait.getBarriers()))
            s.drain.push_back(op);
          else if (top && before &&
                   llvm::is_contained(once, wait.getBarriers()) && parity &&
                   parity.value() == 0)
            s.onceWaits.push_back(wait);
          else
            return WalkResult::interrupt();
        } else if (top && isa<AsyncCommitGroupOp, AsyncWaitOp>(op)) {
          s.prologue.push_back(op);
        }
        return WalkResult::advance();
      });
  if (outside.wasInterrupted()) {
    why = "it copies tiles or waits for them outside its ring loop other "
          "than before it (once per tile) or after it (its rings' last "
          "fills)";
    return failure();
  }
  return s;
}

/// The kernel's grid (its grid function's body, cloned at `b`), the tile
/// count, and the launched blocks' index and count.
static FailureOr<Grid> buildGrid(OpBuilder &b, func::FuncOp kernel,
                                 std::string &why) {
  auto symbol = kernel->getAttrOfType<FlatSymbolRefAttr>(tile::kGridFnAttr);
  auto module = kernel->getParentOfType<ModuleOp>();
  auto gridFn = symbol && module
                    ? module.lookupSymbol<func::FuncOp>(symbol.getAttr())
                    : func::FuncOp();
  if (!gridFn || gridFn.isExternal() ||
      gridFn.getFunctionType().getInputs() !=
          kernel.getFunctionType().getInputs() ||
      gridFn.getNumResults() != 3) {
    why = "its grid function is missing or does not take the kernel's "
          "parameters";
    return failure();
  }
  Block &body = gridFn.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!isMemoryEffectFree(&op) || op.getNumRegions()) {
      why = "its grid function's '" + op.getName().getStringRef().str() +
            "' cannot be recomputed in the kernel";
      return failure();
    }
  Location loc = kernel.getLoc();
  IRMapping map;
  for (auto [from, to] :
       llvm::zip(gridFn.getArguments(), kernel.getArguments()))
    map.map(from, to);
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  Grid grid;
  for (Value v : body.getTerminator()->getOperands()) {
    Value size = map.lookupOrDefault(v);
    if (!size.getType().isIndex())
      size = arith::IndexCastOp::create(b, loc, b.getIndexType(), size);
    grid.sizes.push_back(size);
  }
  grid.tiles = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, grid.sizes[0], grid.sizes[1]),
      grid.sizes[2]);
  grid.block = tile::BlockIdOp::create(b, loc, 0);
  grid.blocks = tile::NumBlocksOp::create(b, loc, 0);
  grid.zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  return grid;
}

/// The coordinates of tile `t` in the grid: z slowest; within a z, groups
/// of kGroupRows rows walked column by column.
static SmallVector<Value, 3> tileCoordinates(OpBuilder &b, Location loc,
                                             const Grid &grid, Value t) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value gx = grid.sizes[0], gy = grid.sizes[1];
  Value plane = arith::MulIOp::create(b, loc, gx, gy);
  Value z = arith::DivUIOp::create(b, loc, t, plane);
  Value r = arith::RemUIOp::create(b, loc, t, plane);
  Value inGroup = arith::MulIOp::create(b, loc, gx, idx(kGroupRows));
  Value firstRow = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, r, inGroup), idx(kGroupRows));
  Value rows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, gy, firstRow), idx(kGroupRows));
  Value w = arith::RemUIOp::create(b, loc, r, inGroup);
  Value y = arith::AddIOp::create(b, loc, firstRow,
                                  arith::RemUIOp::create(b, loc, w, rows));
  Value x = arith::DivUIOp::create(b, loc, w, rows);
  return {x, y, z};
}

/// `block`'s ops (but its terminator) moved into a new loop over the tiles
/// of the launched block, carrying `inits`; the user's block indices and
/// grid sizes inside it become the tile's and the grid's. Returns the loop,
/// its body's insertion point at the start.
static scf::ForOp wrapInTileLoop(OpBuilder &b, Block *block, const Grid &grid,
                                 ValueRange inits) {
  Location loc = block->getParentOp()->getLoc();
  b.setInsertionPoint(block->getTerminator());
  auto loop =
      scf::ForOp::create(b, loc, grid.block, grid.tiles, grid.blocks, inits);
  Block *body = loop.getBody();
  body->getOperations().splice(body->begin(), block->getOperations(),
                               block->begin(), loop->getIterator());
  b.setInsertionPointToStart(body);
  SmallVector<Value, 3> ids =
      tileCoordinates(b, loc, grid, loop.getInductionVar());
  loop.getBody()->walk([&](Operation *op) {
    if (auto id = dyn_cast<tile::BlockIdOp>(op)) {
      id.replaceAllUsesWith(ids[id.getAxis()]);
      id.erase();
    } else if (auto n = dyn_cast<tile::NumBlocksOp>(op)) {
      n.replaceAllUsesWith(grid.sizes[n.getAxis()]);
      n.erase();
    }
  });
  return loop;
}

/// The producer: its fills for every tile of the block, the fill count
/// carried from tile to tile; each tile's fills start at its loop's first
/// iteration (the fills before the loop were the consumers').
static void makeProducerPersistent(OpBuilder &b, Specialized &s,
                                   const Grid &grid) {
  Location loc = s.fills.getLoc();
  scf::ForOp tiles = wrapInTileLoop(b, s.producer, grid, ValueRange{grid.zero});
  // The fills copy for iteration `iv + (stages - 1) * step`: shifting the
  // loop back by as many makes its first fill the tile's first iteration's.
  b.setInsertionPoint(s.fills);
  Value ahead = arith::MulIOp::create(
      b, loc, s.fills.getStep(),
      arith::ConstantIndexOp::create(b, loc, s.stages - 1));
  s.fills.getLowerBoundMutable().set(
      arith::SubIOp::create(b, loc, s.fills.getLowerBound(), ahead));
  s.fills.getUpperBoundMutable().set(
      arith::SubIOp::create(b, loc, s.fills.getUpperBound(), ahead));
  s.fills.getInitArgsMutable()[0].set(tiles.getRegionIterArgs()[0]);
  b.setInsertionPointToEnd(tiles.getBody());
  scf::YieldOp::create(b, loc, s.fills.getResult(0));
  eraseDeadOps(tiles.getBody());
}

/// The consumers on the mbarriers: every tile of the block, their stage and
/// phase carried from tile to tile (and the parity of the tiles copied once
/// per tile, which flips each tile); without the fills before the loop (the
/// producer's now) and the waits after it (the producer issues no fill past
/// a tile's last iteration); the last iteration's stage released once its
/// mma has completed.
static void makeConsumerPersistent(OpBuilder &b, Specialized &s,
                                   const Grid &grid) {
  Location loc = s.ring.getLoc();
  for (Operation *op : llvm::concat<Operation *>(s.prologue, s.drain))
    op->erase();
  SmallVector<Value> inits(s.onceWaits.empty() ? 2 : 3, grid.zero);
  scf::ForOp tiles = wrapInTileLoop(b, s.consumer, grid, inits);
  s.ring.getInitArgsMutable()[s.stageArg].set(tiles.getRegionIterArgs()[0]);
  s.ring.getInitArgsMutable()[s.phaseArg].set(tiles.getRegionIterArgs()[1]);
  for (MBarrierWaitOp wait : s.onceWaits)
    wait.getPhaseMutable().set(tiles.getRegionIterArgs()[2]);

  // Where the loop's last mma has completed: the wait for the accumulator
  // it leaves in flight, or the loop's end.
  Operation *done = s.ring;
  for (Operation *op = s.ring->getNextNode(); op; op = op->getNextNode())
    if (auto wait = dyn_cast<MmaWaitOp>(op);
        wait && wait.getPending() == 0 &&
        llvm::any_of(wait.getOperands(), [&](Value v) {
          return v.getDefiningOp() == s.ring.getOperation();
        })) {
      done = op;
      break;
    }
  b.setInsertionPointAfter(done);
  Value ran =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            s.ring.getLowerBound(), s.ring.getUpperBound());
  auto release = scf::IfOp::create(b, loc, TypeRange{}, ran, false);
  b.setInsertionPointToStart(release.thenBlock());
  Value stages = arith::ConstantIntOp::create(b, loc, b.getI32Type(), s.stages);
  Value last = arith::RemUIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, s.ring.getResult(s.stageArg),
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), s.stages - 1)),
      stages);
  // One release per ring, as the loop's (at each block of a cluster
  // where the ring is shared).
  SmallVector<MBarrierArriveOp> releases;
  s.ring.walk([&](MBarrierArriveOp arrive) {
    if (llvm::none_of(releases, [&](MBarrierArriveOp r) {
          return r.getBarriers() == arrive.getBarriers();
        }))
      releases.push_back(arrive);
  });
  for (MBarrierArriveOp release : releases)
    MBarrierArriveOp::create(b, loc, release.getBarriers(), last,
                             release.getCluster());
  // Every consumer past this tile's epilogue before any reuses its
  // scratch.
  b.setInsertionPointToEnd(tiles.getBody());
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> next{s.ring.getResult(s.stageArg),
                          s.ring.getResult(s.phaseArg)};
  if (!s.onceWaits.empty())
    next.push_back(arith::XOrIOp::create(
        b, loc, tiles.getRegionIterArgs()[2],
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1)));
  scf::YieldOp::create(b, loc, next);
  eraseDeadOps(tiles.getBody());
}

/// The kernel as it was, where a map is not active: every tile of the
/// block, each past a barrier (its fills of the next tile's first stages
/// overwrite what slower warps may still read), its copies all cp.async.
/// Its stages and phases start from 0 each tile, which the TMA's mbarriers
/// would not (a ring gets K + S - 1 fills a tile, a once-copied tile one),
/// and the maps that are active (the others' made it take this branch)
/// would still complete them: the copies drop the TMA, and the waits on
/// its mbarriers go, leaving the cp.async groups, waits and barriers the
/// kernel has for a view the TMA cannot address.
static void makePlainPersistent(OpBuilder &b, Specialized &s,
                                const Grid &grid) {
  scf::ForOp tiles = wrapInTileLoop(b, s.plain, grid, ValueRange{});
  b.setInsertionPoint(tiles.getBody()->getTerminator());
  gpu::BarrierOp::create(b, tiles.getLoc());
  SmallVector<Operation *> waits;
  tiles.walk([&](Operation *op) {
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      copy.getBarriersMutable().clear();
      copy.getBarrierMutable().clear();
      copy.removeTensorMapAttr();
    } else if (auto wait = dyn_cast<MBarrierWaitOp>(op);
               wait && wait.getTensorMap()) {
      waits.push_back(op);
    }
  });
  for (Operation *wait : waits)
    wait->erase();
  eraseDeadOps(tiles.getBody());
}

namespace {
struct TileGPUPersistentPass
    : tilegpu::impl::TileGPUPersistentPassBase<TileGPUPersistentPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    auto asked = kernel->getAttrOfType<IntegerAttr>(tile::kPersistentAttr);
    if (!*isKernel || !asked || asked.getInt() == 0)
      return;
    std::string why;
    FailureOr<Specialized> s = failure();
    WarpSpecializeOp ws = warpSpecializeOf(kernel);
    int64_t limit = getMaxSharedBytesPerBlock(*parseChipVersion(chip));
    int64_t bytes = getPersistentSharedBytes(kernel);
    // The shared memory first: tilegpu-overlap-dots overlaps the dots of a
    // kernel that cannot fit (its loop then no longer matches), and this is
    // the reason it is not persistent.
    if (!ws)
      why = "it is not warp-specialized (specialize(1)), whose producer "
            "runs into the next tile";
    else if (bytes > limit)
      why = "its rings and its epilogue's scratch, apart, need about " +
            std::to_string(bytes) + " bytes of shared memory, more than the " +
            std::to_string(limit) + " a block has";
    else
      s = match(ws, why);
    auto blocks = kernel->getAttrOfType<IntegerAttr>(tile::kMinBlocksPerSMAttr);
    if (succeeded(s) && (!blocks || blocks.getInt() < 1)) {
      why = "its blocks per SM are not fixed (tile.min_blocks_per_sm)";
      s = failure();
    }
    OpBuilder b(kernel.getContext());
    FailureOr<Grid> grid = failure();
    if (succeeded(s)) {
      b.setInsertionPoint(ws);
      grid = buildGrid(b, kernel, why);
    }
    if (failed(grid)) {
      if (remarks)
        kernel.emitRemark() << "not persistent: " << why;
      return;
    }
    makeProducerPersistent(b, *s, *grid);
    makeConsumerPersistent(b, *s, *grid);
    makePlainPersistent(b, *s, *grid);
    // The blocks an SM runs at once: as many as ptxas fits the registers of
    // (tile.min_blocks_per_sm) and the SM's shared memory holds (it has
    // 1 KiB more than a block may take, and keeps 1 KiB per block). A
    // launch of more would leave blocks waiting for others' whole lists of
    // tiles.
    int64_t resident = std::max<int64_t>(
        1,
        std::min<int64_t>(blocks.getInt(), (limit + kReservedSharedBytes) /
                                               (bytes + kReservedSharedBytes)));
    kernel->setAttr(kPersistentAttr, b.getI64IntegerAttr(resident));
    if (remarks)
      kernel.emitRemark()
          << "persistent: " << resident
          << " block(s) per SM, each running the grid's tiles in turn (groups "
             "of "
          << kGroupRows
          << " rows, column by column); the producer fills the next tile's "
             "stages while the consumers store this one's ("
          << bytes << " bytes of shared memory: the epilogue's apart from the "
          << "rings)";
  }
};
} // namespace
