//===- AssignLayouts.cpp - a distributed layout for every tile ------------===//
//
// Classes of tile values that must share a layout (union-find over the ops
// that tie them), then one layout per class, written into the tensor types'
// encodings. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/MathExtras.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUASSIGNLAYOUTSPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tilegpu;

namespace {
/// Blocked: 16 bytes of the narrowest view element type per thread along
/// the last dimension; lanes then warps fill the last dimension first.
/// Sized for the largest tile of its class, so that a tile is not covered
/// twice where its shape allows (replicated threads would load, copy and
/// store the same elements again).
BlockedLayoutAttr blockedLayout(MLIRContext *ctx, ArrayRef<int64_t> maxShape,
                                int64_t numWarps, int64_t minElementBytes) {
  int64_t rank = maxShape.size(), last = rank - 1;
  // A 0-d tile is one element held by every thread: no bases.
  SmallVector<int64_t> spt(rank, 1), tpw(rank, 1), wpb(rank, 1);
  if (rank > 0) {
    spt[last] = std::max<int64_t>(
        1, std::min<int64_t>(16 / minElementBytes, maxShape[last]));
    if (rank == 1) {
      tpw[0] = kWarpSize;
      wpb[0] = numWarps;
    } else {
      tpw[last] = std::min<int64_t>(
          kWarpSize, std::max<int64_t>(1, maxShape[last] / spt[last]));
      tpw[last - 1] = kWarpSize / tpw[last];
      wpb[last] = std::min<int64_t>(
          numWarps,
          std::max<int64_t>(1, maxShape[last] / (spt[last] * tpw[last])));
      wpb[last - 1] = numWarps / wpb[last];
    }
  }
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpb);
}

using Classes = llvm::EquivalenceClasses<Value>;
using ClassLeader = Classes::ECValue;

/// The largest shape of the tiles of a class, dimension by dimension. Its
/// tiles have one rank: only elementwise ops, loops, branches, broadcasts,
/// keepdims reductions, dots, gathers and scatters tie tiles together.
SmallVector<int64_t> classShape(const Classes &classes,
                                const ClassLeader &leader) {
  SmallVector<int64_t> shape;
  for (auto m = classes.member_begin(leader); m != classes.member_end(); ++m) {
    ArrayRef<int64_t> s = cast<RankedTensorType>((*m).getType()).getShape();
    if (shape.empty())
      shape.assign(s.begin(), s.end());
    for (auto [a, b] : llvm::zip(shape, s))
      a = std::max(a, b);
  }
  return shape;
}

/// Whether a class holds 2-D tiles whose every use is as a dot operand
/// (possibly carried through loops): those are blocked for their own element
/// type, as the dot's staging reads them.
bool onlyDotOperands(const Classes &classes, const ClassLeader &leader) {
  for (auto m = classes.member_begin(leader); m != classes.member_end(); ++m) {
    if (cast<RankedTensorType>((*m).getType()).getRank() != 2)
      return false;
    for (OpOperand &use : (*m).getUses()) {
      Operation *user = use.getOwner();
      bool operand =
          isa<scf::YieldOp, scf::ForOp, scf::WhileOp, scf::ConditionOp>(user) ||
          (isa<tile::DotOp>(user) && use.getOperandNumber() < 2);
      if (!operand)
        return false;
    }
  }
  return true;
}

struct LayoutAssigner {
  LayoutAssigner(func::FuncOp kernel, bool wgmmaAvailable)
      : kernel(kernel), wgmmaAvailable(wgmmaAvailable) {}

  func::FuncOp kernel;
  bool wgmmaAvailable;
  int64_t numWarps = 4;
  Classes classes;
  SmallVector<Value> tileValues;
  /// Why each mma class got its warps, for remarks.
  DenseMap<Value, std::string> mmaReasons;

  LogicalResult collect();
  void tie(Value a, Value b) {
    if (isa<RankedTensorType>(a.getType()) &&
        isa<RankedTensorType>(b.getType()))
      classes.unionSets(a, b);
  }
  bool mayRunAsWgmma(tile::DotOp dot, Value leader);
  bool mayRunSwapped(tile::DotOp dot, Value leader);
  Attribute mmaLayoutOf(const ClassLeader &leader);
  LogicalResult run(bool remarks);
  void insertConversions(bool remarks);
};

LogicalResult LayoutAssigner::collect() {
  // Tiles live in registers: a kernel takes them only through views.
  for (Type t : kernel.getArgumentTypes())
    if (isa<RankedTensorType>(t))
      return kernel.emitOpError()
             << "GPU kernels take views and scalars, not tiles: " << t;
  bool ok = true;
  auto addTile = [&](Value v, Operation *op) {
    auto tile = dyn_cast<RankedTensorType>(v.getType());
    if (!tile || !ok)
      return;
    for (int64_t s : tile.getShape())
      if (!llvm::isPowerOf2_64(s)) {
        op->emitOpError() << "GPU backend needs power-of-two tile sizes, got "
                          << tile;
        ok = false;
        return;
      }
    // Every element of a tile is a register of some thread: past the limit,
    // ptxas would spill most of them and the unrolled code would take
    // minutes to compile.
    int64_t threads = numWarps * kWarpSize;
    int64_t perThread = (tile.getNumElements() + threads - 1) / threads;
    if (perThread > kMaxTileElementsPerThread) {
      op->emitOpError() << tile << " needs " << perThread
                        << " registers per thread over " << numWarps
                        << " warps; the GPU limit is "
                        << kMaxTileElementsPerThread
                        << " elements per thread per tile: use a smaller "
                           "tile or more warps";
      ok = false;
      return;
    }
    classes.insert(v);
    tileValues.push_back(v);
  };
  kernel.walk([&](Operation *op) {
    for (Value r : op->getResults())
      addTile(r, op);
    for (Region &region : op->getRegions())
      for (Block &blk : region)
        for (BlockArgument a : blk.getArguments())
          addTile(a, op);
  });
  if (!ok)
    return failure();
  kernel.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1) {
      for (Value operand : op->getOperands())
        tie(operand, op->getResult(0));
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [init, arg, next, result] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     yield.getOperands(), loop.getResults())) {
        tie(init, arg);
        tie(arg, next);
        tie(next, result);
      }
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      // One layout through both regions: inits, the condition's block,
      // what it forwards (the body's block and the results), the yield.
      for (auto [init, arg, next] :
           llvm::zip(loop.getInits(), loop.getBeforeArguments(),
                     loop.getYieldOp().getOperands())) {
        tie(init, arg);
        tie(arg, next);
      }
      for (auto [forwarded, arg, result] :
           llvm::zip(loop.getConditionOp().getArgs(), loop.getAfterArguments(),
                     loop.getResults())) {
        tie(forwarded, arg);
        tie(arg, result);
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          for (auto [y, r] :
               llvm::zip(region->front().getTerminator()->getOperands(),
                         branch.getResults()))
            tie(y, r);
    } else if (auto bcast = dyn_cast<tile::BroadcastOp>(op)) {
      tie(bcast.getSource(), bcast.getResult());
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      if (reduce.getKeepDims())
        tie(reduce.getSource(), reduce.getResult());
    } else if (auto dot = dyn_cast<tile::DotOp>(op)) {
      tie(dot.getAcc(), dot.getResult());
    } else if (auto gather = dyn_cast<tile::GatherOp>(op)) {
      // Element i of the result is read at index element i: a thread holds
      // the same elements of each.
      for (Value index : gather.getIndices())
        tie(index, gather.getResult());
      if (Value mask = gather.getMask())
        tie(mask, gather.getResult());
    } else if (auto scatter = dyn_cast<tile::ScatterOp>(op)) {
      for (Value index : scatter.getIndices())
        tie(index, scatter.getValue());
      if (Value mask = scatter.getMask())
        tie(mask, scatter.getValue());
    } else if (auto scan = dyn_cast<tile::ScanOp>(op)) {
      tie(scan.getSource(), scan.getResult());
    } else if (isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op)) {
      // Every operand tile and the old values, element for element.
      for (Value operand : op->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          tie(operand, op->getResult(0));
    }
  });
  return success();
}

/// Whether `dot` (its result in the class of `leader`) has the shapes
/// wgmma takes; tilegpu-accelerate-dots then marks it wgmma when its
/// operands can be staged in shared memory, which needs the accumulator's
/// warps along M.
bool LayoutAssigner::mayRunAsWgmma(tile::DotOp dot, Value leader) {
  if (!wgmmaAvailable || numWarps % 4)
    return false;
  auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = dot.getType().getDimSize(1);
  // An lhs in the accumulator's registers (FA3's P) is read from there;
  // staged operands need rows of 128 bytes for the 128-byte swizzle: K
  // for A, and N or K for a 16-bit B (N-major or K-major). A tf32 wgmma
  // reads both operands from shared memory, K-major (B copied transposed).
  bool lhsInRegisters = classes.isEquivalent(dot.getLhs(), leader);
  int64_t bytes = elementBytes(lhsType.getElementType());
  int64_t perRow = 128 / bytes;
  bool shapes = fitsWgmmaShape(M, N, K, numWarps);
  if (bytes == 4)
    return shapes && dot.getPrecision() == tile::Precision::TF32 &&
           !lhsInRegisters && K % perRow == 0;
  // fp8: wgmma reads both operands from shared memory, K-major, and
  // transposes neither, so B must reach the dot through a transpose.
  if (bytes == 1)
    return shapes && tile::isFP8(lhsType.getElementType()) && !lhsInRegisters &&
           whyNotFP8WgmmaOperands(dot).empty();
  return bytes == 2 && shapes && (lhsInRegisters || K % perRow == 0) &&
         (K % perRow == 0 || N % perRow == 0);
}

/// Whether tf32 `dot` may run as wgmma on its transpose, C^T = B^T A^T:
/// wgmma reads tf32 only K-major, and a B loaded [K][N] (N-major) is read
/// as the transposed product's A, from registers, which have no such rule.
/// Both operands must be tiles tilegpu-accelerate-dots can stage (loaded,
/// or carried through a loop as loads ahead), under the 128-byte swizzle:
/// A [M][K] (K a multiple of 32), B as loaded, [K][N]; N takes wgmma's M
/// (a multiple of 64 per warpgroup), M its N.
bool LayoutAssigner::mayRunSwapped(tile::DotOp dot, Value leader) {
  auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  if (!wgmmaAvailable || !loop || !lhsType.getElementType().isF32() ||
      dot.getPrecision() != tile::Precision::TF32 ||
      classes.isEquivalent(dot.getLhs(), leader))
    return false;
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = dot.getType().getDimSize(1);
  tile::DotOperandSource a = tile::traceDotOperand(dot.getLhs());
  tile::DotOperandSource b = tile::traceDotOperand(dot.getRhs());
  int64_t stagesA = tile::getStageableLoads(a.tile, loop).size();
  int64_t stagesB = tile::getStageableLoads(b.tile, loop).size();
  // Both rings within sm_90's staging budget: a dot left on mma.sync in this
  // layout converts its accumulator each iteration.
  int64_t bytes = stagesA * getStageBytes(M, K, 4, /*swizzled=*/true) +
                  stagesB * getStageBytes(K, N, 4, /*swizzled=*/true);
  return fitsSwappedWgmmaShape(M, N, K, numWarps) && !a.transposed &&
         !b.transposed && a.tile != b.tile && stagesA && stagesB &&
         bytes <= getStagingBudget(90);
}

Attribute LayoutAssigner::mmaLayoutOf(const ClassLeader &leader) {
  MLIRContext *ctx = kernel.getContext();
  int64_t maxM = 0, maxN = 0;
  bool reduced = false, wgmma = false, swapped = true;
  Value data = leader.getData();
  for (auto m = classes.member_begin(leader); m != classes.member_end(); ++m) {
    for (Operation *user : (*m).getUsers())
      if (auto reduce = dyn_cast<tile::ReduceOp>(user))
        reduced |= reduce.getSource() == *m;
    auto dot = (*m).getDefiningOp<tile::DotOp>();
    if (!dot)
      continue;
    int64_t rows = dot.getType().getDimSize(0),
            cols = dot.getType().getDimSize(1);
    maxM = std::max(maxM, rows);
    maxN = std::max(maxN, cols);
    wgmma |= mayRunAsWgmma(dot, data);
    swapped &= mayRunSwapped(dot, data);
  }
  if (!maxM)
    return Attribute();
  if (swapped) {
    mmaReasons[data] = "wgmma on the transposed product: a tf32 rhs "
                       "[K][N] is read from registers";
    return getSwappedWgmmaLayout(ctx, numWarps);
  }
  int64_t warpsM = std::min<int64_t>(numWarps, std::max<int64_t>(1, maxM / 16));
  std::string &reason = mmaReasons[data];
  if (wgmma) {
    warpsM = numWarps;
    reason = "warps along M: the dot may run as wgmma";
  } else if (reduced) {
    reason = "warps along M as far as its rows go: its rows are reduced, "
             "within a warp";
  } else {
    // The split that loads the fewest operand fragments per k step
    // (ldmatrix.x4: one per 16 rows of A, one per 16 columns of B), more
    // warps along M on a tie.
    int64_t bestCost = INT64_MAX;
    for (int64_t wm = warpsM; wm >= 1; wm /= 2) {
      int64_t wn = numWarps / wm;
      if (maxN < 8 * wn)
        continue;
      int64_t cost = maxM / (16 * wm) + std::max<int64_t>(1, maxN / (16 * wn));
      if (cost < bestCost) {
        bestCost = cost;
        warpsM = wm;
      }
    }
    reason = "the warp split loading the fewest operand fragments per k step";
  }
  int64_t warpsN = numWarps / warpsM;
  if (maxN < 8 * warpsN) {
    // A tile smaller than the kernel's warps cover (16 rows by 8 columns
    // each): as many warps as the tile takes, and the others hold copies
    // (the layout has fewer warp bits than the kernel; shared-memory writes
    // come from the first copy only).
    warpsN = std::max<int64_t>(1, std::min(warpsN, maxN / 8));
    reason += "; the tile takes " + std::to_string(warpsM * warpsN) + " of " +
              std::to_string(numWarps) + " warps, the others hold copies";
  }
  return Attribute(MmaLayoutAttr::get(ctx, warpsM, warpsN));
}

/// `value`'s type with `layout`; a tile constant's value follows its type.
void setLayout(Value value, Attribute layout) {
  auto type = withLayout(cast<RankedTensorType>(value.getType()), layout);
  value.setType(type);
  if (auto cst = value.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      cst.setValueAttr(dense.reshape(type));
}

/// The layout in which `op` (a reshape, a permutation or a reduction
/// dropping its axis) moves no data, from its source's: null for any other
/// op, or when there is none.
static Attribute derivedLayout(Operation *op) {
  auto sourceType = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    RankedTensorType from = sourceType(reshape.getSource());
    return getReshapedLayout(getLayout(from), from.getShape(),
                             reshape.getType().getShape());
  }
  if (auto permute = dyn_cast<tile::PermuteOp>(op)) {
    RankedTensorType from = sourceType(permute.getSource());
    return getPermutedLayout(getLayout(from), from.getShape(),
                             permute.getPermutation());
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    if (reduce.getKeepDims())
      return {};
    // The reduction leaves each result in the threads that held its row
    // (keeping the axis as a unit dimension); dropping that dimension is a
    // reshape.
    RankedTensorType from = sourceType(reduce.getSource());
    SmallVector<int64_t> kept(from.getShape());
    kept[reduce.getAxis()] = 1;
    return getReshapedLayout(getLayout(from), kept,
                             reduce.getType().getShape());
  }
  return {};
}

/// Reshapes, permutations and reductions dropping their axis give their
/// results in the layout that moves no data (derivedLayout); where the
/// result's class has another layout, an explicit `tilegpu.convert_layout`
/// moves the tile there, for tilegpu-remove-layout-conversions to remove
/// where it can. Where no such layout exists, the op keeps its class's
/// layout and moves the data itself. A reshaped iota keeps it too: it is
/// computed in any layout from its coordinates.
void LayoutAssigner::insertConversions(bool remarks) {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<tile::ReshapeOp, tile::PermuteOp, tile::ReduceOp>(op))
      ops.push_back(op);
  });
  OpBuilder b(kernel.getContext());
  for (Operation *op : ops) {
    if (isa<tile::ReshapeOp>(op) &&
        op->getOperand(0).getDefiningOp<tile::IotaOp>())
      continue;
    Attribute derived = derivedLayout(op);
    Value result = op->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    RankedTensorType freeType = derived ? withLayout(type, derived) : type;
    if (!derived || haveSamePlacement(freeType, type))
      continue;
    result.setType(freeType);
    b.setInsertionPointAfter(op);
    auto convert = ConvertLayoutOp::create(b, op->getLoc(), type, result);
    result.replaceAllUsesExcept(convert.getResult(), convert);
    if (remarks)
      convert.emitRemark() << "layout conversion of " << op->getName()
                           << "'s result from " << derived << " to "
                           << getLayout(type);
  }
}

LogicalResult LayoutAssigner::run(bool remarks) {
  if (auto w = kernel->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr))
    numWarps = w.getInt();
  if (failed(collect()))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  // Blocked layouts take 16 bytes of the narrowest view element type per
  // thread.
  int64_t minBytes = 4;
  for (Type t : kernel.getArgumentTypes())
    if (auto v = dyn_cast<tile::ViewType>(t))
      minBytes = std::min<int64_t>(minBytes, elementBytes(v.getElementType()));

  DenseMap<Value, Attribute> layoutOf;
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    Attribute layout = mmaLayoutOf(**it);
    if (!layout) {
      Type elem =
          cast<RankedTensorType>((*it)->getData().getType()).getElementType();
      int64_t bytes =
          onlyDotOperands(classes, **it) ? elementBytes(elem) : minBytes;
      layout = blockedLayout(ctx, classShape(classes, **it), numWarps, bytes);
    }
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      layoutOf[*m] = layout;
  }
  for (Value v : tileValues)
    setLayout(v, layoutOf.lookup(v));
  insertConversions(remarks);

  if (!remarks)
    return success();
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      load.emitRemark() << "load in " << getLayout(load.getType());
    } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
      store.emitRemark() << "store from "
                         << getLayout(store.getValue().getType());
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      reduce.emitRemark() << "reduction of "
                          << getLayout(reduce.getSource().getType()) << " to "
                          << getLayout(reduce.getType());
    } else if (auto dot = dyn_cast<tile::DotOp>(op)) {
      Value leader = classes.getLeaderValue(dot.getResult());
      dot.emitRemark() << "dot accumulating in " << getLayout(dot.getType())
                       << " (" << mmaReasons.lookup(leader) << "), operands in "
                       << getLayout(dot.getLhs().getType()) << " and "
                       << getLayout(dot.getRhs().getType());
    }
  });
  return success();
}

struct TileGPUAssignLayoutsPass
    : tilegpu::impl::TileGPUAssignLayoutsPassBase<TileGPUAssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    if (!*isKernel)
      return;
    LayoutAssigner assigner(kernel, chip == "sm_90a");
    if (failed(assigner.run(remarks)))
      signalPassFailure();
  }
};
} // namespace
