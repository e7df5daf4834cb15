//===- SharedTiles.cpp - tiles in shared memory (tilegpu.memdesc) --------===//
//
// The ops on tiles in shared memory: a buffer at its bytes of the kernel's
// buffer (tilegpu-allocate-shared-memory), a stage of a ring, a tile seen
// transposed, cp.async copies into one, their commit groups and waits, and
// a tile read back into registers. A memdesc value is a pointer into
// shared memory and its type.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

SharedGeometry tilegym::detail::geometryOf(tilegpu::MemDescType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t rows = rank >= 2 ? shape[rank - 2] : 1, cols = shape[rank - 1];
  if (type.getTransposed())
    std::swap(rows, cols);
  if (type.getSwizzle() == 128)
    return {0, rows};
  return {
      tilegpu::getPaddedRowElements(cols, elementBytes(type.getElementType())),
      0};
}

LogicalResult KernelEmitter::emitSharedTileOp(Operation *op) {
  if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
    Value base =
        sharedScratch(op, tilegpu::getSharedTileBytes(alloc.getType()));
    if (!base)
      return failure();
    auto shared =
        op->getAttrOfType<tilegpu::SharedAllocationAttr>(tilegpu::kSharedAttr);
    if (alloc.getType().getSwizzle() == 128 &&
        shared.getOffset() % kSwizzleAtomBytes)
      return fail(op) << "is swizzled, so its bytes must start on a "
                      << kSwizzleAtomBytes << "-byte boundary, got offset "
                      << shared.getOffset();
    sharedTiles[alloc.getResult()] = base;
    sharedOffsets[alloc.getResult()] = idx(shared.getOffset());
    return success();
  }
  // A stage's address is the buffer's plus its offset in bytes, one add:
  // the ring's offset and the stage's.
  if (auto index = dyn_cast<tilegpu::MemDescIndexOp>(op)) {
    int64_t stageBytes = tilegpu::getSharedTileBytes(index.getType());
    Value offset = arith::AddIOp::create(
        b, loc(), sharedOffsets.lookup(index.getSource()),
        arith::MulIOp::create(b, loc(), scalars.lookup(index.getIndex()),
                              idx(stageBytes)));
    sharedTiles[index.getResult()] =
        elementPtr(LLVM::AddressOfOp::create(b, loc(), smem), b.getI8Type(),
                   offset, kShared);
    sharedOffsets[index.getResult()] = offset;
    return success();
  }
  if (auto trans = dyn_cast<tilegpu::MemDescTransOp>(op)) {
    sharedTiles[trans.getResult()] = sharedTiles.lookup(trans.getSource());
    sharedOffsets[trans.getResult()] = sharedOffsets.lookup(trans.getSource());
    return success();
  }
  if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
    auto type = cast<RankedTensorType>(copy.getLayout());
    Value base = sharedTiles.lookup(copy.getDest());
    emitAsyncCopy(
        copy.getView(), copy.getIndices(), type,
        RegMap(*copyLayouts.lookup(op), type.getShape()), [&] { return base; },
        geometryOf(copy.getDest().getType()), copy.getChained());
    return success();
  }
  if (isa<tilegpu::AsyncCommitGroupOp>(op)) {
    NVVM::CpAsyncCommitGroupOp::create(b, loc());
    return success();
  }
  if (auto wait = dyn_cast<tilegpu::AsyncWaitOp>(op)) {
    NVVM::CpAsyncWaitGroupOp::create(b, loc(), wait.getPending());
    return success();
  }
  if (isa<tilegpu::FenceAsyncSharedOp>(op)) {
    if (!target.hopperOrLater)
      return fail(op) << "is a proxy fence, which needs sm_90 or later; the "
                         "target is "
                      << target.chip;
    NVVM::FenceProxyOp::create(
        b, loc(), NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    return success();
  }
  auto load = cast<tilegpu::LocalLoadOp>(op);
  return emitLocalLoad(load);
}

/// Each thread reads its registers' elements: by runs of up to 16 bytes
/// along the last dimension (within one 16-byte unit of a padded or
/// swizzled row), element by element from a transposed tile, whose rows in
/// memory are the tile's columns.
LogicalResult KernelEmitter::emitLocalLoad(tilegpu::LocalLoadOp op) {
  tilegpu::MemDescType type = op.getSource().getType();
  SharedGeometry geometry = geometryOf(type);
  Value base = sharedTiles.lookup(op.getSource());
  RegMap map = regMap(op.getResult());
  Type elem = type.getElementType();
  int64_t bytes = elementBytes(elem);
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t width = type.getTransposed()
                      ? 1
                      : std::min<int64_t>(map.vectorWidth(), 16 / bytes);
  // The byte offset of element (row, col) of the stored tile; a run of
  // `width` starts at a multiple of `width`, so it stays in its unit.
  auto offsetOf = [&](Value row, Value col) -> Value {
    if (geometry.swizzledRows) {
      Value unitStart = swizzledOffset(geometry.swizzledRows, row, col, bytes);
      Value inUnit = arith::RemUIOp::create(b, loc(), col, idx(16 / bytes));
      return arith::AddIOp::create(
          b, loc(), unitStart,
          arith::MulIOp::create(b, loc(), inUnit, idx(bytes)));
    }
    Value lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), row, idx(geometry.stride)),
        col);
    return arith::MulIOp::create(b, loc(), lin, idx(bytes));
  };
  SmallVector<Value> regs(map.count);
  Type vecType = VectorType::get({width}, elem);
  for (int64_t i = 0; i < map.count; i += width) {
    if (map.isRegisterReplica(i))
      continue;
    SmallVector<Value> c = coordinates(map, i);
    Value row = rank >= 2 ? c[last - 1] : idx(0), col = c[last];
    if (type.getTransposed())
      std::swap(row, col);
    Value ptr = elementPtr(base, b.getI8Type(), offsetOf(row, col), kShared);
    if (width == 1) {
      regs[i] = LLVM::LoadOp::create(b, loc(), elem, ptr, bytes);
      continue;
    }
    Value vec = LLVM::LoadOp::create(b, loc(), vecType, ptr, width * bytes);
    for (int64_t k = 0; k < width; ++k)
      regs[i + k] = LLVM::ExtractElementOp::create(b, loc(), vec, i32(k));
  }
  // A replica register holds what its first copy holds.
  std::map<SmallVector<int64_t>, int64_t> first;
  for (int64_t i = 0; i < map.count; ++i) {
    auto [it, inserted] = first.try_emplace(map.offsets(i), i);
    if (!regs[i])
      regs[i] = regs[it->second];
  }
  tiles[op.getResult()] = regs;
  return success();
}

template <typename... OpTs>
static void addSharedTilePatterns(KernelEmitter &emitter,
                                  RewritePatternSet &patterns) {
  (addEmitPattern<OpTs>(
       patterns, emitter,
       [](KernelEmitter &e, OpTs op, ConversionPatternRewriter &) {
         return e.emitSharedTileOp(op);
       }),
   ...);
}

void tilegym::detail::populateSharedTilePatterns(KernelEmitter &emitter,
                                                 RewritePatternSet &patterns) {
  addSharedTilePatterns<tilegpu::LocalAllocOp, tilegpu::MemDescIndexOp,
                        tilegpu::MemDescTransOp, tilegpu::AsyncCopyOp,
                        tilegpu::AsyncCommitGroupOp, tilegpu::AsyncWaitOp,
                        tilegpu::LocalLoadOp, tilegpu::FenceAsyncSharedOp>(
      emitter, patterns);
}
