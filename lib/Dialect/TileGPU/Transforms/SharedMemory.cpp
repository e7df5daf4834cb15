//===- SharedMemory.cpp - what each op of a GPU kernel stages -------------===//
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"
#include "tilegym/Dialect/Tile/IR/DotOperands.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

std::string tilegym::tilegpu::whyNotFP8WgmmaOperands(DotOp dot) {
  int64_t K = cast<RankedTensorType>(dot.getLhs().getType()).getDimSize(1);
  if (K % 128)
    return "an fp8 wgmma reads rows of 128 bytes: K must be a multiple of "
           "128, got " +
           std::to_string(K);
  if (traceDotOperand(dot.getLhs()).transposed ||
      !traceDotOperand(dot.getRhs()).transposed)
    return "an fp8 wgmma reads both operands K-major: A as loaded [M][K], "
           "B loaded [N][K] and transposed at the dot, each tile used by "
           "this dot alone";
  return "";
}

int64_t tilegym::tilegpu::getMaxSharedBytesPerBlock(unsigned version) {
  switch (version) {
  case 80:
  case 87:
    return 163 * 1024;
  case 90:
  case 100:
  case 101:
  case 103:
    return 227 * 1024;
  default:
    return 99 * 1024; // sm_86, sm_89, sm_120 and the unknown
  }
}

bool tilegym::tilegpu::movesNoData(RankedTensorType from, RankedTensorType to,
                                   ArrayRef<int64_t> permutation) {
  DistributedLayoutAttr layout = getLayout(from);
  if (!layout || !getLayout(to))
    return false;
  if (from.getShape() == to.getShape() &&
      (permutation.empty() ||
       llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))))
    return haveSamePlacement(from, to);
  LinearLayoutAttr derived =
      permutation.empty()
          ? getReshapedLayout(layout, from.getShape(), to.getShape())
          : getPermutedLayout(layout, from.getShape(), permutation);
  return derived && haveSamePlacement(to, withLayout(to, derived));
}

int64_t tilegym::tilegpu::getStageBytes(int64_t rows, int64_t cols,
                                        int64_t elementBytes, bool swizzled) {
  int64_t rowElements =
      swizzled ? cols : getPaddedRowElements(cols, elementBytes);
  return rows * rowElements * elementBytes;
}

int64_t tilegym::tilegpu::getMmaSyncOperandBytes(int64_t M, int64_t N,
                                                 int64_t K,
                                                 int64_t elementBytes, bool lhs,
                                                 bool rhs) {
  return (rhs ? getStageBytes(K, N, elementBytes, /*swizzled=*/false) : 0) +
         (lhs ? getStageBytes(M, K, elementBytes, /*swizzled=*/false) : 0);
}

int64_t tilegym::tilegpu::getStageBytes(RankedTensorType type, bool swizzled) {
  int64_t rank = type.getRank();
  int64_t rows = rank >= 2 ? type.getDimSize(rank - 2) : 1;
  int64_t cols = rank >= 1 ? type.getDimSize(rank - 1) : 1;
  return getStageBytes(rows, cols, elementBytes(type.getElementType()),
                       swizzled);
}

int64_t tilegym::tilegpu::getSharedTileBytes(MemDescType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size(), stages = 1;
  for (int64_t d : shape.drop_back(std::min<int64_t>(rank, 2)))
    stages *= d;
  int64_t rows = rank >= 2 ? shape[rank - 2] : 1, cols = shape[rank - 1];
  if (type.getTransposed())
    std::swap(rows, cols);
  return stages * getStageBytes(rows, cols, elementBytes(type.getElementType()),
                                type.getSwizzle() == 128);
}

/// Bytes of a tile written to shared memory element by element, row-major:
/// an i1 takes a byte.
static int64_t tileBytes(RankedTensorType type) {
  return type.getNumElements() * elementBytes(type.getElementType());
}

/// Reductions combine 32-bit values: f16/bf16 widen to f32, i1 to i32.
static int64_t wideBytes(Type type) {
  return std::max<int64_t>(4, elementBytes(type));
}

static Scratch reductionScratch(ReduceOp op, int64_t numWarps) {
  auto srcType = cast<RankedTensorType>(op.getSource().getType());
  DistributedLayoutAttr layout = getLayout(srcType);
  if (!layout)
    return {};
  int64_t axis = op.getAxis();
  SmallVector<int64_t> kept(srcType.getShape());
  kept[axis] = 1;
  Scratch s;
  s.what = "a reduction across warps";
  // Warps whose bits move along the axis combine their partials through
  // shared memory: each writes its own slice of numWarps, without a barrier
  // before outside loops.
  bool acrossWarps =
      llvm::any_of(layout.getLinearBases().warp, [&](const Basis &bb) {
        return bb[axis] != 0 && bb[axis] < srcType.getDimSize(axis);
      });
  if (acrossWarps) {
    int64_t numel = 1;
    for (int64_t d : kept)
      numel *= d;
    s.bytes = numWarps * numel * wideBytes(srcType.getElementType());
    s.writesWithoutBarrier = !op->getParentOfType<LoopLikeOpInterface>();
  }
  // Dropping the axis moves the result to its own layout, through shared
  // memory where that is not a renaming (after a barrier).
  auto resultType = cast<RankedTensorType>(op.getType());
  auto keptType = RankedTensorType::get(kept, resultType.getElementType(),
                                        srcType.getEncoding());
  if (!op.getKeepDims() && !movesNoData(keptType, resultType))
    s.bytes = std::max(s.bytes, tileBytes(resultType));
  return s;
}

/// An mma.sync dot stages its operands in registers into shared memory,
/// rows padded for ldmatrix, between two barriers; a 16-bit lhs in the
/// accumulator's own mma layout with all warps along M is its own A
/// fragments.
static Scratch dotScratch(MmaOp op) {
  if (op.getInstruction() == DotInstruction::Wgmma)
    return {};
  Scratch s;
  s.what = "the operands of an mma.sync dot";
  s.bytes = getMmaSyncOperandBytes(
      op.getM(), op.getN(), op.getK(), elementBytes(op.getOperandElementType()),
      isa<RankedTensorType>(op.getLhs().getType()) &&
          !op.isLhsItsOwnFragments(),
      isa<RankedTensorType>(op.getRhs().getType()));
  return s;
}

ScanGeometry tilegym::tilegpu::getScanGeometry(RankedTensorType type,
                                               int64_t axis, int64_t threads) {
  ScanGeometry g;
  g.length = type.getDimSize(axis);
  g.lines = type.getNumElements() / g.length;
  g.inner = 1;
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    g.inner *= type.getDimSize(d);
  g.segments = std::min(g.length, std::max<int64_t>(1, threads / g.lines));
  g.bytes = (type.getNumElements() + g.lines * g.segments) *
            wideBytes(type.getElementType());
  return g;
}

Scratch tilegym::tilegpu::getScratch(Operation *op, int64_t numWarps) {
  Scratch conversion;
  conversion.what = "a layout conversion";
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    if (!movesNoData(convert.getSource().getType(), convert.getType()))
      conversion.bytes = tileBytes(convert.getType());
    return conversion;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    auto from = cast<RankedTensorType>(reshape.getSource().getType());
    ArrayRef<int64_t> shape = reshape.getType().getShape();
    // A reshaped iota to one non-unit dimension is recomputed in the
    // result's layout.
    bool iota = reshape.getSource().getDefiningOp<IotaOp>() &&
                llvm::count_if(shape, [](int64_t d) { return d != 1; }) == 1;
    if (!iota && !movesNoData(from, reshape.getType()))
      conversion.bytes = tileBytes(reshape.getType());
    return conversion;
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    auto from = cast<RankedTensorType>(permute.getSource().getType());
    if (!movesNoData(from, permute.getType(), permute.getPermutation()))
      conversion.bytes = tileBytes(permute.getType());
    return conversion;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reductionScratch(reduce, numWarps);
  if (auto sort = dyn_cast<SortOp>(op)) {
    auto type = cast<RankedTensorType>(sort.getSource().getType());
    Scratch s;
    s.what = "a sort";
    // The values, then (argsort, top-k indices) each one's i32 index.
    s.bytes = type.getNumElements() *
              (wideBytes(type.getElementType()) + (sort.getIndices() ? 4 : 0));
    return s;
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    Scratch s;
    s.what = "a scan";
    s.bytes = getScanGeometry(cast<RankedTensorType>(scan.getType()),
                              scan.getAxis(), numWarps * kWarpSize)
                  .bytes;
    return s;
  }
  // An atomic's old values, where used, reach the copies of each element in
  // other threads through shared memory.
  if (isa<AtomicRMWOp, AtomicCASOp>(op) && !op->use_empty()) {
    Scratch s;
    s.what = "the old values of an atomic";
    s.bytes = tileBytes(cast<RankedTensorType>(op->getResult(0).getType()));
    return s;
  }
  if (auto dot = dyn_cast<MmaOp>(op))
    return dotScratch(dot);
  // A store the TMA makes (tilegpu-assign-tma): the tile in 128-byte
  // swizzled column blocks, which the bulk copies read.
  if (auto store = dyn_cast<StoreOp>(op); store && op->hasAttr(kTmaAttr)) {
    auto type = cast<RankedTensorType>(store.getValue().getType());
    Scratch s;
    s.what = "a TMA store's tile";
    s.bytes = type.getNumElements() * elementBytes(type.getElementType());
    s.alignment = kSwizzleAtomBytes;
    return s;
  }
  return {};
}

int64_t tilegym::tilegpu::getPersistentSharedBytes(Operation *kernel) {
  auto warps = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
  int64_t numWarps = warps ? warps.getInt() : 4;
  int64_t fixed = 0, scratch = 0;
  kernel->walk([&](Operation *op) {
    // Each buffer on its own 1 KiB: the allocator places the swizzled
    // ones on 1024-byte atoms around the small ones.
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      fixed +=
          llvm::alignTo(getSharedTileBytes(alloc.getType()), kSwizzleAtomBytes);
    else if (auto bars = dyn_cast<MBarrierAllocOp>(op))
      fixed += llvm::alignTo(8 * bars.getType().getCount(), kSwizzleAtomBytes);
    else
      scratch = std::max<int64_t>(
          scratch,
          llvm::alignTo(getScratch(op, numWarps).bytes, kSwizzleAtomBytes));
  });
  return fixed + scratch;
}
