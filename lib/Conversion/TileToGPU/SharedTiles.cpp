//===- SharedTiles.cpp - tiles in shared memory (tilegpu.memdesc) --------===//
//
// The ops on tiles in shared memory: a buffer at its bytes of the kernel's
// buffer (tilegpu-allocate-shared-memory), a stage of a ring, a tile seen
// transposed, cp.async copies into one, their commit groups and waits, and
// a tile read back into registers. A memdesc value is its address in
// shared memory and its byte offset into the kernel's buffer.
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
  if (isa<tilegpu::TurnWaitOp, tilegpu::TurnPassOp>(op))
    return emitTurnOp(op);
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
  if (auto alloc = dyn_cast<tilegpu::MBarrierAllocOp>(op)) {
    Value base = sharedScratch(op, 8 * alloc.getType().getCount());
    if (!base)
      return failure();
    auto shared =
        op->getAttrOfType<tilegpu::SharedAllocationAttr>(tilegpu::kSharedAttr);
    sharedTiles[alloc.getResult()] = base;
    sharedOffsets[alloc.getResult()] = idx(shared.getOffset());
    return success();
  }
  if (auto init = dyn_cast<tilegpu::MBarrierInitOp>(op)) {
    if (!target.hopperOrLater)
      return fail(op) << "needs sm_90 or later; the target is " << target.chip;
    int64_t count = init.getBarriers().getType().getCount();
    int64_t arrivals = init.getCount().value_or(1);
    // With `cluster`, each block of the cluster arrives so many times (one
    // block without clusters).
    Value clusterArrivals =
        init.getCluster() ? arith::MulIOp::create(b, loc(), i32(arrivals),
                                                  NVVM::ClusterDim::create(
                                                      b, loc(), b.getI32Type()))
                                .getResult()
                          : Value();
    emitIf(arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, threadId,
                                 idx(0)),
           [&] {
             for (int64_t i = 0; i < count; ++i) {
               Value address = mbarrierAddress(init.getBarriers(), i32(i));
               if (clusterArrivals)
                 inlinePtx("mbarrier.init.shared::cta.b64 [$0], $1;", "r,r",
                           {address, clusterArrivals});
               else
                 inlinePtx("mbarrier.init.shared::cta.b64 [$0], " +
                               std::to_string(arrivals) + ";",
                           "r", {address});
             }
             // The async proxy (the TMA's complete_tx) sees them initialized.
             inlinePtx("fence.mbarrier_init.release.cluster;", "", {});
           });
    return success();
  }
  if (auto wait = dyn_cast<tilegpu::MBarrierWaitOp>(op)) {
    std::optional<uint64_t> m = wait.getTensorMap();
    if (m && *m >= tensorMaps.size())
      return fail(op) << "uses tensor map " << *m << " of "
                      << tensorMaps.size();
    Value address = mbarrierAddress(wait.getBarriers(), wait.getBarrier());
    // try_wait suspends the thread for a while inside the instruction; the
    // loop retries until the phase of this parity has completed. Labels in
    // a { } block are local to it, so the wait may be emitted many times.
    emitIf(m ? tensorMaps[*m].active : Value(), [&] {
      inlinePtx("{\n.reg .pred done;\nwait_phase:\n"
                "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
                "@!done bra wait_phase;\n}",
                "r,r", {address, scalars.lookup(wait.getPhase())});
    });
    return success();
  }
  if (auto arrive = dyn_cast<tilegpu::MBarrierArriveOp>(op)) {
    if (!target.hopperOrLater)
      return fail(op) << "needs sm_90 or later; the target is " << target.chip;
    Value address = mbarrierAddress(arrive.getBarriers(),
                                    scalars.lookup(arrive.getBarrier()));
    if (!arrive.getCluster()) {
      inlinePtx("mbarrier.arrive.shared::cta.b64 _, [$0];", "r", {address});
      return success();
    }
    // Once per warp and block of the cluster: the warp's threads meet, then
    // lane r arrives at the mbarrier at the same offset in block r (block
    // 0 alone without clusters). Every thread arriving at every block
    // costs a cluster-wide transaction per thread per stage, which holds
    // the consumers back far more than the shared ring saves.
    Value blocks = NVVM::ClusterDim::create(b, loc(), b.getI32Type());
    Value lane = arith::IndexCastOp::create(b, loc(), b.getI32Type(), laneId);
    inlinePtx("bar.warp.sync -1;", "", {});
    emitIf(arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, lane,
                                 blocks),
           [&] {
             inlinePtx("{\n.reg .b32 remote;\n"
                       "mapa.shared::cluster.u32 remote, $0, $1;\n"
                       "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}",
                       "r,r", {address, lane});
           });
    return success();
  }
  if (isa<tilegpu::ClusterBarrierOp>(op)) {
    if (!target.hopperOrLater)
      return fail(op) << "needs sm_90 or later; the target is " << target.chip;
    inlinePtx("barrier.cluster.arrive.release;\n"
              "barrier.cluster.wait.acquire;",
              "", {});
    return success();
  }
  if (auto active = dyn_cast<tilegpu::TensorMapActiveOp>(op)) {
    if (active.getTensorMap() >= tensorMaps.size())
      return fail(op) << "uses tensor map " << active.getTensorMap() << " of "
                      << tensorMaps.size();
    scalars.map(active.getResult(), tensorMaps[active.getTensorMap()].active);
    return success();
  }
  if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
    auto type = cast<RankedTensorType>(copy.getLayout());
    Value base = sharedTiles.lookup(copy.getDest());
    RegMap map(*copyLayouts.lookup(op), type.getShape());
    if (std::optional<uint64_t> m = copy.getTensorMap()) {
      if (*m >= tensorMaps.size())
        return fail(op) << "uses tensor map " << *m << " of "
                        << tensorMaps.size();
      // A producer warp's copy: its one thread issues it, the map known
      // active (the producer runs only then).
      if (role == WarpRole::Producer) {
        emitTmaCopy(copy,
                    mbarrierAddress(copy.getBarriers(),
                                    scalars.lookup(copy.getBarrier())),
                    /*issuer=*/Value());
        return success();
      }
      // The TMA where the launch encoded the map; else cp.async below.
      auto branch =
          scf::IfOp::create(b, loc(), TypeRange{}, tensorMaps[*m].active, true);
      b.setInsertionPointToStart(branch.thenBlock());
      emitTmaCopy(copy,
                  mbarrierAddress(copy.getBarriers(),
                                  scalars.lookup(copy.getBarrier())),
                  arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        threadId, idx(0)));
      b.setInsertionPointToStart(branch.elseBlock());
      emitAsyncCopy(
          copy.getView(), copy.getIndices(), type, map, [&] { return base; },
          geometryOf(copy.getDest().getType()), copy.getChained());
      b.setInsertionPointAfter(branch);
      return success();
    }
    if (copy.getDest().getType().getTransposed()) {
      emitTransposingCopy(copy.getView(), copy.getIndices(), type, map, base,
                          geometryOf(copy.getDest().getType()));
      return success();
    }
    emitAsyncCopy(
        copy.getView(), copy.getIndices(), type, map, [&] { return base; },
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
    if (geometry.swizzledRows)
      return swizzledElementOffset(geometry.swizzledRows, row, col, bytes);
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

Value KernelEmitter::mbarrierAddress(Value barriers, Value index) {
  Value base = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(),
                                        sharedTiles.lookup(barriers));
  return arith::AddIOp::create(b, loc(), base,
                               arith::MulIOp::create(b, loc(), index, i32(8)));
}

/// Bytes into a swizzled stage of `swizzledRows` rows of element (row, col)
/// at the start of a 16-byte unit: the 128-byte column block, the row in
/// it, then the unit xor the row's position in its group of 8 (so that
/// wgmma's 8-row core matrices, and the copies, spread over all banks).
Value KernelEmitter::swizzledOffset(int64_t swizzledRows, Value row, Value col,
                                    int64_t bytes) {
  int64_t perRow = 128 / bytes, perUnit = 16 / bytes;
  Value block = arith::DivUIOp::create(b, loc(), col, idx(perRow));
  Value unit = arith::DivUIOp::create(
      b, loc(), arith::RemUIOp::create(b, loc(), col, idx(perRow)),
      idx(perUnit));
  Value swizzled = arith::XOrIOp::create(
      b, loc(), unit, arith::RemUIOp::create(b, loc(), row, idx(8)));
  Value line = arith::AddIOp::create(
      b, loc(), arith::MulIOp::create(b, loc(), block, idx(swizzledRows)), row);
  return arith::AddIOp::create(
      b, loc(), arith::MulIOp::create(b, loc(), line, idx(128)),
      arith::MulIOp::create(b, loc(), swizzled, idx(16)));
}

Value KernelEmitter::swizzledElementOffset(int64_t swizzledRows, Value row,
                                           Value col, int64_t bytes) {
  return arith::AddIOp::create(
      b, loc(), swizzledOffset(swizzledRows, row, col, bytes),
      arith::MulIOp::create(
          b, loc(), arith::RemUIOp::create(b, loc(), col, idx(16 / bytes)),
          idx(bytes)));
}

/// Whether registers at static offsets `to` lie at a fixed distance from
/// those at `from` along every dimension: their offsets differ only along
/// dimensions that do not wrap.
static bool fixedDistance(const RegMap &map, ArrayRef<int64_t> from,
                          ArrayRef<int64_t> to) {
  for (auto [d, o] : llvm::enumerate(to))
    if (o != from[d] && map.wraps(d))
      return false;
  return true;
}

/// Whether the tile of `type` at `origin` lies wholly in `view`: its first
/// and last elements do.
Value KernelEmitter::tileInBounds(const ViewInfo &view, ArrayRef<Value> origin,
                                  RankedTensorType type) {
  SmallVector<Value> end;
  for (auto [d, o] : llvm::enumerate(origin))
    end.push_back(
        arith::AddIOp::create(b, loc(), o, idx(type.getDimSize(d) - 1)));
  return arith::AndIOp::create(b, loc(), inBounds(view, origin),
                               inBounds(view, end));
}

/// Copies a thread's part of the tile of `type` (its registers in `map`) at
/// tile indices `indices` of `viewValue` into the shared-memory tile at
/// `base()` (built after the tile's origin) with cp.async, 16 bytes per run: a
/// run partly or wholly out of bounds copies only its in-bounds prefix (the
/// rest is zero-filled, no global access). Views that do not allow aligned
/// 16-byte accesses take the synchronous path, element by element.
void KernelEmitter::emitAsyncCopy(Value viewValue, ValueRange indices,
                                  RankedTensorType type, const RegMap &map,
                                  function_ref<Value()> makeBase,
                                  SharedGeometry geometry, bool chained) {
  const ViewInfo &view = views[viewValue];
  Type elem = type.getElementType();
  int64_t bytes = elementBytes(elem);
  int64_t width = 16 / bytes;
  SmallVector<Value> origin = tileOriginOf(indices, type);
  Value base = makeBase();
  int64_t rank = type.getRank(), last = rank - 1;
  struct Run {
    Value dst;
    SmallVector<Value> local, global; // coordinates in the tile, in the view
    SmallVector<int64_t> offsets;     // the static part of `local`
  };
  SmallVector<Run> runs;
  for (int64_t i = 0; i < map.count; i += width) {
    if (map.isRegisterReplica(i))
      continue;
    // Leading dimensions are units: rows and columns are the last two.
    SmallVector<Value> local = coordinates(map, i);
    SmallVector<int64_t> offsets = map.offsets(i);
    Value dst;
    // Chained: a run at a fixed distance from the first, whose distance the
    // swizzle keeps (whole groups of 8 rows, whole 128-byte column blocks),
    // is the first run's destination plus a constant, which ptxas folds
    // into the cp.async's immediate offset.
    std::optional<int64_t> distance;
    if (chained && !runs.empty() &&
        fixedDistance(map, runs.front().offsets, offsets)) {
      int64_t dr = offsets[last - 1] - runs.front().offsets[last - 1];
      int64_t dc = offsets[last] - runs.front().offsets[last];
      if (!geometry.swizzledRows)
        distance = (dr * geometry.stride + dc) * bytes;
      else if (dr % 8 == 0 && dc % (128 / bytes) == 0)
        distance = (dc / (128 / bytes) * geometry.swizzledRows + dr) * 128;
    }
    if (distance) {
      dst =
          elementPtr(runs.front().dst, b.getI8Type(), idx(*distance), kShared);
    } else if (geometry.swizzledRows) {
      dst = elementPtr(base, b.getI8Type(),
                       swizzledOffset(geometry.swizzledRows, local[last - 1],
                                      local[last], bytes),
                       kShared);
    } else {
      Value lin =
          arith::AddIOp::create(b, loc(),
                                arith::MulIOp::create(b, loc(), local[last - 1],
                                                      idx(geometry.stride)),
                                local[last]);
      dst = elementPtr(base, elem, lin, kShared);
    }
    SmallVector<Value> global;
    for (auto [c, o] : llvm::zip(local, origin))
      global.push_back(arith::AddIOp::create(b, loc(), c, o));
    runs.push_back({dst, local, global, offsets});
  }

  // Only the thread holding the first copy of a run copies it: two copies
  // in flight to one address would race, and read global memory twice.
  emitIf(ownsElements(map), [&] {
    auto branch = scf::IfOp::create(b, loc(), TypeRange{},
                                    view.vector.find(width)->second.ok, true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(branch.thenBlock());
      // A tile wholly in bounds (interior tiles): each run is the tile's
      // address plus the run's offset in it, which does not change from one
      // iteration to the next, and copies 16 bytes.
      auto interior = scf::IfOp::create(b, loc(), TypeRange{},
                                        tileInBounds(view, origin, type), true);
      b.setInsertionPointToStart(interior.thenBlock());
      // Direct: each run is the tile's address plus the run's offset in
      // it. Chained: the previous run's plus a uniform step (the distance of
      // their static offsets times the view's strides).
      Value tile = elementPtr(view.base, elem,
                              linearOffset(b, loc(), view, origin), kGlobal);
      const Run *prev = nullptr;
      Value src;
      for (const Run &run : runs) {
        if (chained && prev && fixedDistance(map, prev->offsets, run.offsets)) {
          SmallVector<int64_t> delta;
          for (auto [to, from] : llvm::zip(run.offsets, prev->offsets))
            delta.push_back(to - from);
          if (Value step = linearOffset(b, loc(), view, delta))
            src = elementPtr(src, elem, step, kGlobal);
        } else {
          src = elementPtr(tile, elem, linearOffset(b, loc(), view, run.local),
                           kGlobal);
        }
        NVVM::CpAsyncOp::create(b, loc(), run.dst, src, 16,
                                NVVM::LoadCacheModifierKind::CG, Value());
        prev = &run;
      }
      b.setInsertionPointToStart(interior.elseBlock());
      for (auto &[dst, local, coords, offsets] : runs) {
        // The row in bounds: every dimension but the last.
        Value rowOk = inBounds(view, ArrayRef<Value>(coords).drop_back());
        Value left =
            arith::SubIOp::create(b, loc(), view.sizes[last], coords[last]);
        left = arith::MaxSIOp::create(
            b, loc(), arith::MinSIOp::create(b, loc(), left, idx(width)),
            idx(0));
        left = arith::SelectOp::create(b, loc(), rowOk, left, idx(0));
        Value any = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne,
                                          left, idx(0));
        Value src = arith::SelectOp::create(
            b, loc(), any,
            elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                       kGlobal),
            view.base);
        Value srcBytes = arith::IndexCastOp::create(
            b, loc(), b.getI32Type(),
            arith::MulIOp::create(b, loc(), left, idx(bytes)));
        NVVM::CpAsyncOp::create(b, loc(), dst, src, 16,
                                NVVM::LoadCacheModifierKind::CG, srcBytes);
      }
      b.setInsertionPointToStart(branch.elseBlock());
      Value zero = arith::ConstantOp::create(b, loc(), b.getZeroAttr(elem));
      for (auto &[dst, local, runStart, offsets] : runs) {
        SmallVector<Value> coords = edgePathCoords(runStart);
        for (int64_t k = 0; k < width; ++k) {
          SmallVector<Value> c(coords);
          c[last] = arith::AddIOp::create(b, loc(), c[last], idx(k));
          Value v = guardedLoad(view, c, inBounds(view, c), zero);
          LLVM::StoreOp::create(b, loc(), v,
                                elementPtr(dst, elem, idx(k), kShared), bytes);
        }
      }
    }
  });
}

/// Copies a thread's elements of the tile of `type` (its registers in `map`)
/// at tile indices `indices` of `viewValue` into a transposed swizzled
/// stage at `base`, whose stored rows are the tile's columns (a [K][N] B
/// held [N][K], K-major, as a tf32 wgmma reads it): one 4-byte cp.async per
/// element, since no copy narrower than 16 bytes moves runs across rows.
/// An element out of bounds reads nothing and is zero-filled.
void KernelEmitter::emitTransposingCopy(Value viewValue, ValueRange indices,
                                        RankedTensorType type,
                                        const RegMap &map, Value base,
                                        SharedGeometry geometry) {
  const ViewInfo &view = views[viewValue];
  Type elem = type.getElementType();
  int64_t bytes = elementBytes(elem);
  SmallVector<Value> origin = tileOriginOf(indices, type);
  int64_t rank = type.getRank(), last = rank - 1;
  struct Element {
    Value dst;
    SmallVector<Value> local, global;
    SmallVector<int64_t> offsets;
  };
  SmallVector<Element> elements;
  int64_t perRow = 128 / bytes;
  for (int64_t i = 0; i < map.count; ++i) {
    if (map.isRegisterReplica(i))
      continue;
    SmallVector<Value> local = coordinates(map, i);
    SmallVector<int64_t> offsets = map.offsets(i);
    // Stored row: the tile's column; stored column: the tile's row. An
    // element whole swizzle groups (8 stored rows, 128-byte column blocks)
    // from the first is the first's destination plus a constant.
    Value dst;
    if (!elements.empty() &&
        fixedDistance(map, elements.front().offsets, offsets)) {
      int64_t dr = offsets[last] - elements.front().offsets[last];
      int64_t dc = offsets[last - 1] - elements.front().offsets[last - 1];
      if (dr % 8 == 0 && dc % perRow == 0)
        dst = elementPtr(elements.front().dst, b.getI8Type(),
                         idx((dc / perRow * geometry.swizzledRows + dr) * 128),
                         kShared);
    }
    if (!dst) {
      Value row = local[last], col = local[last - 1];
      dst = elementPtr(
          base, b.getI8Type(),
          swizzledElementOffset(geometry.swizzledRows, row, col, bytes),
          kShared);
    }
    SmallVector<Value> global;
    for (auto [c, o] : llvm::zip(local, origin))
      global.push_back(arith::AddIOp::create(b, loc(), c, o));
    elements.push_back({dst, local, global, offsets});
  }
  emitIf(ownsElements(map), [&] {
    // A tile wholly in bounds: each source is the previous one plus the
    // constant distance of their coordinates (a uniform step), where no
    // coordinate between them wraps.
    auto interior = scf::IfOp::create(b, loc(), TypeRange{},
                                      tileInBounds(view, origin, type), true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(interior.thenBlock());
    Value tile = elementPtr(view.base, elem,
                            linearOffset(b, loc(), view, origin), kGlobal);
    const Element *prev = nullptr;
    Value src;
    for (const Element &e : elements) {
      SmallVector<int64_t> delta;
      if (prev)
        for (auto [to, from] : llvm::zip(e.offsets, prev->offsets))
          delta.push_back(to - from);
      if (prev && fixedDistance(map, prev->offsets, e.offsets)) {
        if (Value distance = linearOffset(b, loc(), view, delta))
          src = elementPtr(src, elem, distance, kGlobal);
      } else {
        src = elementPtr(tile, elem, linearOffset(b, loc(), view, e.local),
                         kGlobal);
      }
      NVVM::CpAsyncOp::create(b, loc(), e.dst, src, bytes,
                              NVVM::LoadCacheModifierKind::CA, Value());
      prev = &e;
    }
    b.setInsertionPointToStart(interior.elseBlock());
    for (const Element &e : elements) {
      Value ok = inBounds(view, e.global);
      Value src = arith::SelectOp::create(
          b, loc(), ok,
          elementPtr(view.base, elem, linearOffset(b, loc(), view, e.global),
                     kGlobal),
          view.base);
      Value srcBytes =
          arith::SelectOp::create(b, loc(), ok, i32(bytes), i32(0));
      NVVM::CpAsyncOp::create(b, loc(), e.dst, src, bytes,
                              NVVM::LoadCacheModifierKind::CA, srcBytes);
    }
  });
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
  addSharedTilePatterns<tilegpu::LocalAllocOp, tilegpu::MBarrierAllocOp,
                        tilegpu::MBarrierInitOp, tilegpu::MBarrierWaitOp,
                        tilegpu::MBarrierArriveOp, tilegpu::TensorMapActiveOp,
                        tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp,
                        tilegpu::AsyncCopyOp, tilegpu::AsyncCommitGroupOp,
                        tilegpu::AsyncWaitOp, tilegpu::LocalLoadOp,
                        tilegpu::FenceAsyncSharedOp, tilegpu::ClusterBarrierOp,
                        tilegpu::TurnWaitOp, tilegpu::TurnPassOp>(emitter,
                                                                  patterns);
}
