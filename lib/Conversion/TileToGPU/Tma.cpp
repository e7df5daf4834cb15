//===- Tma.cpp - the TMA's bulk tensor copies, both ways ------------------===//
//
// Tiles the TMA moves (tilegpu-assign-tma): staged dot operands copied from
// a view into their stage, and a dot's results stored from shared memory
// into a view, one bulk tensor copy per 128-byte column block, issued by
// one thread through the tensor map the launch encoded. Where the view is
// not one the TMA can address (the map's `active` predicate is false), the
// threads' own copies or stores run instead.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

/// The tile's coordinates as the TMA counts them: innermost first, i32,
/// the innermost moved to column block `block` of `rowElements`.
static SmallVector<Value> boxCoordinates(OpBuilder &b, Location loc,
                                         ArrayRef<Value> origin, int64_t block,
                                         int64_t rowElements) {
  int64_t rank = origin.size();
  SmallVector<Value> coords;
  for (int64_t i = 0; i < rank; ++i) {
    Value c = origin[rank - 1 - i];
    if (i == 0 && block)
      c = arith::AddIOp::create(
          b, loc, c,
          arith::ConstantIndexOp::create(b, loc, block * rowElements));
    coords.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(), c));
  }
  return coords;
}

/// PTX operand placeholders `$first, ..., $(first + count - 1)`.
static std::string placeholders(int64_t first, int64_t count) {
  std::string text;
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", $" : "$") + std::to_string(first + i);
  return text;
}

/// One thread (where `issuer` holds; the thread running this where it is
/// null) announces the stage's bytes to its mbarrier, then copies each
/// 128-byte column block of the tile with one bulk tensor copy: the box of
/// the tensor map at the block's element coordinates (innermost first, as
/// the TMA counts them). Whatever of a box lies outside the view is filled
/// with zeros, and counts towards the bytes, as cp.async's zero fill does.
/// A multicast copy in a cluster of `n` blocks: block `r` copies the column
/// blocks `j` with `j mod n = r` into every block's stage (the same
/// offsets), completing every block's mbarrier; each block still announces
/// the whole tile.
void KernelEmitter::emitTmaCopy(tilegpu::AsyncCopyOp copy, Value barrier,
                                Value issuer) {
  auto type = cast<RankedTensorType>(copy.getLayout());
  const TensorMapParam &param = tensorMaps[*copy.getTensorMap()];
  int64_t rank = type.getRank(), bytes = elementBytes(type.getElementType());
  int64_t rows = rank >= 2 ? type.getDimSize(rank - 2) : 1;
  int64_t rowElements = 128 / bytes;
  int64_t blocks = type.getDimSize(rank - 1) / rowElements;
  int64_t tileBytes = type.getNumElements() * bytes;
  SmallVector<Value> origin = tileOriginOf(copy.getIndices(), type);
  Value dest = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(),
                                        sharedTiles.lookup(copy.getDest()));
  emitIf(issuer, [&] {
    inlinePtx("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r",
              {barrier, i32(tileBytes)});
    std::string ptx = "cp.async.bulk.tensor." + std::to_string(rank) +
                      "d.shared::cluster.global.mbarrier::complete_tx::"
                      "bytes [$0], [$1, {" +
                      placeholders(2, rank) + "}], [$" +
                      std::to_string(2 + rank) + "];";
    std::string constraints = "r,l";
    for (int64_t i = 0; i <= rank; ++i)
      constraints += ",r";
    auto copyBlock = [&](int64_t j, Value mask) {
      SmallVector<Value> operands{
          arith::AddIOp::create(b, loc(), dest, i32(j * rows * 128)),
          param.descriptor};
      llvm::append_range(operands,
                         boxCoordinates(b, loc(), origin, j, rowElements));
      operands.push_back(barrier);
      if (!mask)
        return inlinePtx(ptx, constraints, operands);
      operands.push_back(mask);
      std::string multicast = ptx;
      multicast.insert(multicast.find(" ["), ".multicast::cluster");
      multicast.insert(multicast.rfind(';'), ", $" + std::to_string(3 + rank));
      inlinePtx(multicast, constraints + ",h", operands);
    };
    if (!copy.getMulticast()) {
      for (int64_t j = 0; j < blocks; ++j)
        copyBlock(j, Value());
      return;
    }
    Value clusterBlocks = NVVM::ClusterDim::create(b, loc(), b.getI32Type());
    Value inCluster = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ugt,
                                            clusterBlocks, i32(1));
    auto branch = scf::IfOp::create(b, loc(), TypeRange{}, inCluster, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    Value clusterRank = NVVM::ClusterId::create(b, loc(), b.getI32Type());
    // Every block of the cluster: bits 0 to n - 1.
    Value mask = arith::TruncIOp::create(
        b, loc(), b.getI16Type(),
        arith::SubIOp::create(
            b, loc(), arith::ShLIOp::create(b, loc(), i32(1), clusterBlocks),
            i32(1)));
    for (int64_t j = 0; j < blocks; ++j)
      emitIf(arith::CmpIOp::create(
                 b, loc(), arith::CmpIPredicate::eq,
                 arith::RemUIOp::create(b, loc(), i32(j), clusterBlocks),
                 clusterRank),
             [&] { copyBlock(j, mask); });
    b.setInsertionPointToStart(branch.elseBlock());
    for (int64_t j = 0; j < blocks; ++j)
      copyBlock(j, Value());
  });
}

/// A dot's result stored by the TMA: every thread writes its elements once
/// into the store's scratch, laid out as the boxes the TMA reads (128-byte
/// column blocks of the tile's rows, each under the 128-byte swizzle, so
/// that the accumulator's 8-row fragments spread over the banks); after a
/// proxy fence and a barrier, one thread stores each column block with a
/// bulk tensor copy, which writes only what lies inside the view, and
/// waits until the copies have read the scratch (whose bytes later ops may
/// reuse; they begin with a barrier). Where the view is not one the TMA
/// can address, the threads store from registers.
LogicalResult KernelEmitter::emitTmaStore(StoreOp op, int64_t m) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  int64_t rank = type.getRank(), bytes = elementBytes(type.getElementType());
  auto maps = kernel->getAttrOfType<ArrayAttr>(tilegpu::kTensorMapsAttr);
  auto map = maps && m < int64_t(maps.size())
                 ? dyn_cast<tilegpu::TensorMapAttr>(maps[m])
                 : tilegpu::TensorMapAttr();
  SmallVector<int64_t> box = tilegpu::getTensorMapBox(type);
  if (!map || m >= int64_t(tensorMaps.size()) ||
      type.getElementType().getIntOrFloatBitWidth() % 8 ||
      tensorMaps[m].view != op.getView() ||
      map.getBox() != ArrayRef<int64_t>(box) ||
      (type.getShape().back() * bytes) % 128)
    return fail(op) << "stores through tensor map " << m
                    << ", which must be one of the kernel's, of this "
                       "parameter, with the box of the tile's 128-byte "
                       "column blocks of whole-byte elements";
  // Each column block starts on the swizzle's 1024-byte atom.
  int64_t rows = type.getNumElements() / type.getShape().back();
  if (rows % 8)
    return fail(op) << "stores a tile whose rows are not a multiple of 8 "
                       "through the TMA (the 128-byte swizzle's atom)";
  int64_t rowElements = box.back();
  int64_t blocks = type.getShape().back() / rowElements;
  Value scratch = sharedScratch(op, type.getNumElements() * bytes);
  if (!scratch)
    return failure();
  auto branch =
      scf::IfOp::create(b, loc(), TypeRange{}, tensorMaps[m].active, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  // Other warps may still read these bytes (a ring's last stage).
  gpu::BarrierOp::create(b, loc());
  RegMap regs = regMap(op.getValue());
  int64_t width = std::min<int64_t>(regs.vectorWidth(), 16 / bytes);
  const SmallVector<Value> &values = tiles[op.getValue()];
  auto vecType = VectorType::get({width}, type.getElementType());
  for (int64_t i = 0; i < regs.count; i += width) {
    if (regs.isRegisterReplica(i))
      continue;
    SmallVector<Value> coords = coordinates(regs, i);
    // The tile's rows are its dimensions before the last, row-major.
    Value row = idx(0);
    for (int64_t d = 0; d + 1 < rank; ++d)
      row = arith::AddIOp::create(
          b, loc(),
          arith::MulIOp::create(b, loc(), row, idx(type.getDimSize(d))),
          coords[d]);
    Value col = coords[rank - 1];
    Value offset = swizzledElementOffset(rows, row, col, bytes);
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(b, loc(), vec, values[i + k], i32(k));
    LLVM::StoreOp::create(b, loc(), vec,
                          elementPtr(scratch, b.getI8Type(), offset, kShared),
                          width * bytes);
  }
  NVVM::FenceProxyOp::create(
      b, loc(), NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b, loc());
  SmallVector<Value> origin = tileOriginOf(op.getIndices(), type);
  Value source = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), scratch);
  std::string ptx = "cp.async.bulk.tensor." + std::to_string(rank) +
                    "d.global.shared::cta.bulk_group [$0, {" +
                    placeholders(2, rank) + "}], [$1];";
  std::string constraints = "l,r";
  for (int64_t i = 0; i < rank; ++i)
    constraints += ",r";
  emitIf(arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, threadId,
                               idx(0)),
         [&] {
           for (int64_t j = 0; j < blocks; ++j) {
             SmallVector<Value> operands{
                 tensorMaps[m].descriptor,
                 arith::AddIOp::create(b, loc(), source, i32(j * rows * 128))};
             llvm::append_range(
                 operands, boxCoordinates(b, loc(), origin, j, rowElements));
             inlinePtx(ptx, constraints, operands);
           }
           inlinePtx("cp.async.bulk.commit_group;", "", {});
           inlinePtx("cp.async.bulk.wait_group.read 0;", "", {});
         });
  b.setInsertionPointToStart(branch.elseBlock());
  return emitRegisterStore(op);
}
