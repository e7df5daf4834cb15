//===- Memory.cpp - tiles to and from global memory -----------------------===//
//
// Loads, stores and prefetches of tiles in views, the views' sizes, and the
// kernel's shared buffer as ops ask for their bytes of it.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

Value KernelEmitter::sharedScratch(Operation *op, int64_t bytes) {
  auto alloc =
      op->getAttrOfType<tilegpu::SharedAllocationAttr>(tilegpu::kSharedAttr);
  if (!alloc || alloc.getBytes() < bytes || !smem) {
    if (!allocationFailed)
      op->emitOpError() << "needs " << bytes << " bytes of shared memory but "
                        << "has " << (alloc ? alloc.getBytes() : 0)
                        << " in its '" << tilegpu::kSharedAttr
                        << "': run tilegpu-allocate-shared-memory first";
    allocationFailed = true;
    return {};
  }
  return elementPtr(LLVM::AddressOfOp::create(b, loc(), smem), b.getI8Type(),
                    idx(alloc.getOffset()), kShared);
}

Value KernelEmitter::elementPtr(Value base, Type elementType, Value offset,
                                unsigned space) {
  Value off = arith::IndexCastOp::create(b, loc(), b.getI64Type(), offset);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), space);
  return LLVM::GEPOp::create(b, loc(), ptrType, elementType, base,
                             ValueRange{off});
}

/// 0 <= c < size in every dimension, as one unsigned compare per dimension
/// (a negative c is a huge unsigned number; sizes are below 2^31).
Value KernelEmitter::inBounds(const ViewInfo &view, ArrayRef<Value> coords) {
  Value ok;
  for (auto [c, size] : llvm::zip(coords, view.sizes)) {
    Value lt =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, c, size);
    ok = ok ? Value(arith::AndIOp::create(b, loc(), ok, lt)) : lt;
  }
  return ok;
}

Value tilegym::detail::linearOffset(OpBuilder &b, Location loc,
                                    const ViewInfo &view,
                                    ArrayRef<Value> coords) {
  Value off;
  for (auto [c, stride] : llvm::zip(coords, view.strides)) {
    Value term = arith::MulIOp::create(b, loc, c, stride);
    off = off ? Value(arith::AddIOp::create(b, loc, off, term)) : term;
  }
  return off;
}

Value tilegym::detail::linearOffset(OpBuilder &b, Location loc,
                                    const ViewInfo &view,
                                    ArrayRef<int64_t> offsets) {
  Value off;
  for (auto [c, stride] : llvm::zip(offsets, view.strides)) {
    if (!c)
      continue;
    Value term = arith::MulIOp::create(
        b, loc, stride, arith::ConstantIndexOp::create(b, loc, c));
    off = off ? Value(arith::AddIOp::create(b, loc, off, term)) : term;
  }
  return off;
}

/// Element coordinates of a tile's first element from its tile index.
SmallVector<Value> KernelEmitter::tileOriginOf(ValueRange indices,
                                               RankedTensorType type) {
  SmallVector<Value> origin;
  for (auto [i, index] : llvm::enumerate(indices))
    origin.push_back(arith::MulIOp::create(b, loc(), scalars.lookup(index),
                                           idx(type.getDimSize(i))));
  return origin;
}

/// Whether the run of `width` elements at `coords` can move as one vector:
/// in bounds, and the view allows aligned `width`-vectors (ViewInfo). Runs
/// start at multiples of `width` along the last dimension by construction of
/// the layouts, so that alignment holds for every run once it holds for the
/// view.
Value KernelEmitter::vectorAccessOk(const ViewInfo &view,
                                    ArrayRef<Value> coords, int64_t width) {
  // Outer dimensions: 0 <= c < size; the last: 0 <= c <= size - width, whose
  // bound (and size >= width) the view computed once (ViewInfo::vector).
  int64_t last = coords.size() - 1;
  const ViewInfo::VectorAccess &vec = view.vector.find(width)->second;
  Value ok = arith::AndIOp::create(
      b, loc(), vec.ok,
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, coords[last],
                            vec.lastMax));
  for (int64_t d = 0; d < last; ++d)
    ok = arith::AndIOp::create(b, loc(), ok,
                               arith::CmpIOp::create(b, loc(),
                                                     arith::CmpIPredicate::ult,
                                                     coords[d], view.sizes[d]));
  return ok;
}

/// The coordinates of a run as seen by an edge (element by element) path:
/// the last one goes through an opaque copy (inline asm with side effects).
/// Without it LLVM merges the identical per-element coordinates of a load's
/// and a store's edge paths and hoists them to the kernel entry, where they
/// cost instructions and registers on the fast path.
SmallVector<Value> KernelEmitter::edgePathCoords(ArrayRef<Value> runStart) {
  SmallVector<Value> coords(runStart);
  Value c = arith::IndexCastOp::create(b, loc(), b.getI32Type(), coords.back());
  auto copy = LLVM::InlineAsmOp::create(
      b, loc(), b.getI32Type(), ValueRange{c}, "mov.u32 $0, $1;", "=r,r",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  coords.back() =
      arith::IndexCastOp::create(b, loc(), b.getIndexType(), copy.getResult(0));
  return coords;
}

/// One element of `view` at `coords` when `ok`, else `pad`.
Value KernelEmitter::guardedLoad(const ViewInfo &view, ArrayRef<Value> coords,
                                 Value ok, Value pad) {
  Type elem = view.elementType;
  auto branch = scf::IfOp::create(b, loc(), TypeRange{elem}, ok, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value p = elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                       kGlobal);
  scf::YieldOp::create(
      b, loc(),
      ValueRange{LLVM::LoadOp::create(b, loc(), elem, p, elementBytes(elem))});
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc(), pad);
  return branch.getResult(0);
}

/// Stores `value` to `view` at `coords` when `ok`.
void KernelEmitter::guardedStore(const ViewInfo &view, ArrayRef<Value> coords,
                                 Value ok, Value value) {
  Type elem = view.elementType;
  auto branch = scf::IfOp::create(b, loc(), TypeRange{}, ok, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value p = elementPtr(view.base, elem, linearOffset(b, loc(), view, coords),
                       kGlobal);
  LLVM::StoreOp::create(b, loc(), value, p, elementBytes(elem));
}

/// The runs of `width` registers of a thread's part of a tile at
/// `tileOrigin` in `view`: each run's first coordinates and address, and
/// whether every run can move as one vector (null when width is 1).
KernelEmitter::Runs KernelEmitter::tileRuns(const ViewInfo &view,
                                            const RegMap &map, int64_t width,
                                            ArrayRef<Value> tileOrigin) {
  Runs runs;
  for (int64_t i = 0; i < map.count; i += width) {
    SmallVector<Value> coords = coordinates(map, i);
    for (auto [c, origin] : llvm::zip(coords, tileOrigin))
      c = arith::AddIOp::create(b, loc(), c, origin);
    runs.ptrs.push_back(elementPtr(view.base, view.elementType,
                                   linearOffset(b, loc(), view, coords),
                                   kGlobal));
    if (width > 1) {
      Value fast = vectorAccessOk(view, coords, width);
      runs.allFast =
          runs.allFast
              ? Value(arith::AndIOp::create(b, loc(), runs.allFast, fast))
              : fast;
    }
    runs.coords.push_back(coords);
  }
  return runs;
}

/// A thread's registers go to and from memory by runs that are contiguous
/// along the last dimension. When every run of the thread's part of the tile
/// is in bounds and aligned, one branch takes all of them as vector accesses
/// (the common case: interior tiles); otherwise every element is accessed
/// alone, predicated on its bounds (edge tiles, unaligned views).
///
/// A load yields its runs as vectors and unpacks them only when the tile is
/// first used (unpackLoad): unpacking sub-word elements reads the loaded
/// register, and doing it right after the load would stall the thread there
/// instead of letting it issue its other loads first.
LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  RankedTensorType type = op.getType();
  RegMap map = regMap(op.getResult());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t rank = type.getRank(), last = rank - 1;
  int64_t bytes = elementBytes(elem);
  // Runs of contiguous registers, at most 16 bytes per access.
  int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
  Value pad = arith::ConstantOp::create(b, loc(),
                                        op.getPaddingAttr()
                                            ? op.getPaddingAttr()
                                            : TypedAttr(b.getZeroAttr(elem)));
  SmallVector<Value> tileOrigin = tileOriginOf(op.getIndices(), type);

  Runs runs = tileRuns(view, map, width, tileOrigin);

  // Element k of the run at `coords`: loaded when in bounds, else padding.
  auto loadElement = [&](ArrayRef<Value> coords, int64_t k) -> Value {
    SmallVector<Value> c(coords);
    c[last] = arith::AddIOp::create(b, loc(), coords[last], idx(k));
    return guardedLoad(view, c, inBounds(view, c), pad);
  };
  if (width == 1) {
    SmallVector<Value> regs;
    for (ArrayRef<Value> coords : runs.coords)
      regs.push_back(loadElement(coords, 0));
    tiles[op.getResult()] = regs;
    return success();
  }

  auto vecType = VectorType::get({width}, elem);
  loadRuns(op.getResult(), runs, vecType, [&](int64_t run) {
    SmallVector<Value> coords = edgePathCoords(runs.coords[run]);
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(b, loc(), vec, loadElement(coords, k),
                                          i32(k));
    return vec;
  });
  return success();
}

void KernelEmitter::loadRuns(Value tile, const Runs &runs, VectorType vecType,
                             function_ref<Value(int64_t run)> slowRun) {
  int64_t bytes =
      vecType.getNumElements() * elementBytes(vecType.getElementType());
  SmallVector<Type> types(runs.ptrs.size(), vecType);
  auto branch = scf::IfOp::create(b, loc(), types, runs.allFast, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  SmallVector<Value> vecs;
  for (Value ptr : runs.ptrs)
    vecs.push_back(LLVM::LoadOp::create(b, loc(), vecType, ptr, bytes));
  scf::YieldOp::create(b, loc(), vecs);
  b.setInsertionPointToStart(branch.elseBlock());
  vecs.clear();
  for (int64_t run = 0, e = runs.ptrs.size(); run < e; ++run)
    vecs.push_back(slowRun(run));
  scf::YieldOp::create(b, loc(), vecs);
  pendingLoads[tile] = SmallVector<Value>(branch.getResults().begin(),
                                          branch.getResults().end());
}

void KernelEmitter::storeRuns(const Runs &runs, const RegMap &map,
                              ArrayRef<Value> regs, VectorType vecType,
                              function_ref<void()> slowPath) {
  int64_t width = vecType.getNumElements();
  int64_t bytes = width * elementBytes(vecType.getElementType());
  auto branch = scf::IfOp::create(b, loc(), TypeRange{}, runs.allFast, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  for (auto [run, ptr] : llvm::enumerate(runs.ptrs)) {
    if (map.isRegisterReplica(run * width))
      continue;
    Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
    for (int64_t k = 0; k < width; ++k)
      vec = LLVM::InsertElementOp::create(b, loc(), vec, regs[run * width + k],
                                          i32(k));
    LLVM::StoreOp::create(b, loc(), vec, ptr, bytes);
  }
  b.setInsertionPointToStart(branch.elseBlock());
  slowPath();
}

/// Before the first op after the load that uses the tile (directly or in
/// its regions) or that has regions (a loop or branch may use any tile
/// before it: each is unpacked once, outside). Several tiles unpacked
/// before one op go in the order of its operands, before an op with
/// regions in load order.
void KernelEmitter::unpackLoad(Value tile, ArrayRef<Value> runs) {
  Operation *load = tile.getDefiningOp();
  Block *block = load->getBlock();
  Operation *at = nullptr;
  for (Operation *user : tile.getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!at || inBlock->isBeforeInBlock(at))
      at = inBlock;
  }
  for (Operation *op = load->getNextNode(); op != at; op = op->getNextNode())
    if (op->getNumRegions() != 0) {
      at = op;
      break;
    }
  int64_t rank = 0;
  if (at->getNumRegions() == 0)
    rank = llvm::find(at->getOperands(), tile) - at->operand_begin();
  auto &before = unpackedBefore[at];
  auto pos = llvm::find_if(before, [&](auto &p) { return p.first > rank; });
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(pos == before.end() ? at : pos->second);
  currentLoc = at->getLoc();
  SmallVector<Value> regs;
  for (Value vec : runs) {
    int64_t width = cast<VectorType>(vec.getType()).getNumElements();
    for (int64_t k = 0; k < width; ++k)
      regs.push_back(LLVM::ExtractElementOp::create(b, loc(), vec, i32(k)));
  }
  before.insert(pos, {rank, regs.front().getDefiningOp()});
  tiles[tile] = regs;
}

/// A 16-bit tile in the mma accumulator layout (matmul's C in bf16, say)
/// holds pairs of columns per thread: stored as they are, each store is 4
/// bytes and a warp's store fills half of each 32-byte sector it touches.
/// The four lanes of a quad hold, in each group of 8 registers (bits: column
/// +1, row +8, column +8), rows r and r + 8 of 16 consecutive columns: a
/// 4x4 transpose of their 32-bit words (two rounds of shuffles) gives each
/// lane 8 consecutive columns of one row, one 16-byte store, and each
/// warp's store whole sectors. The shuffles run outside any branch (every
/// lane of the quad takes part); tiles not wholly in bounds or views not
/// aligned to 16 bytes take the element-by-element edge path.
bool KernelEmitter::emitQuadTransposedStore(StoreOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(op.getValue());
  const Layout &l = *map.layout;
  // Rows and columns are the last two dimensions; any before are unit
  // dimensions (an mma tile reshaped for a store into a batched view).
  int64_t rank = type.getRank(), R = rank - 2, C = rank - 1;
  if (rank < 2 || elementBytes(type.getElementType()) != 2 ||
      llvm::any_of(
          type.getShape().drop_back(2), [](int64_t s) { return s != 1; }))
    return false;
  // The mma accumulator's pattern: register bits column 1, row 8, column 8;
  // lane bits 0 and 1 columns 2 and 4.
  auto is = [&](const Basis &bb, int64_t d, int64_t v) {
    return map.wrapped(bb, d) == v && map.wrapped(bb, d == R ? C : R) == 0;
  };
  if (map.bits.size() < 3 || !is(map.bits[0], C, 1) || !is(map.bits[1], R, 8) ||
      !is(map.bits[2], C, 8) || l.lane.size() < 2 || !is(l.lane[0], C, 2) ||
      !is(l.lane[1], C, 4))
    return false;
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  const SmallVector<Value> &regs = tiles[op.getValue()];
  SmallVector<Value> tileOrigin = tileOriginOf(op.getIndices(), type);
  auto pairType = VectorType::get({2}, elem);
  Value quad = arith::IndexCastOp::create(
      b, loc(), b.getI32Type(),
      arith::RemUIOp::create(b, loc(), laneId, idx(4)));
  Value rowBit = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc(), quad, i32(1)), i32(0));
  Value groupBit = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc(), quad, i32(2)), i32(0));
  // Slots k0 < k1 differing in one bit swap that bit with the lane's: the
  // lane whose bit is set keeps k1 and receives its partner's k0.
  auto swapBit = [&](SmallVector<Value> &w, int64_t k0, int64_t k1,
                     Value laneBit, int64_t laneMask) {
    Value send = arith::SelectOp::create(b, loc(), laneBit, w[k0], w[k1]);
    Value got = gpu::ShuffleOp::create(b, loc(), send, i32(laneMask),
                                       i32(kWarpSize), gpu::ShuffleMode::XOR)
                    .getShuffleResult();
    w[k0] = arith::SelectOp::create(b, loc(), laneBit, got, w[k0]);
    w[k1] = arith::SelectOp::create(b, loc(), laneBit, w[k1], got);
  };
  SmallVector<Value> vecs, ptrs;
  Value allFast;
  for (int64_t i0 = 0; i0 < map.count; i0 += 8) {
    // Word k holds the pair at row +8 * (k & 1), column +8 * (k >> 1).
    SmallVector<Value> w;
    for (int64_t k = 0; k < 4; ++k) {
      int64_t i = i0 + 2 * (k & 1) + 4 * (k >> 1);
      Value pair = LLVM::PoisonOp::create(b, loc(), pairType);
      pair = LLVM::InsertElementOp::create(b, loc(), pair, regs[i], i32(0));
      pair = LLVM::InsertElementOp::create(b, loc(), pair, regs[i + 1], i32(1));
      w.push_back(LLVM::BitcastOp::create(b, loc(), b.getI32Type(), pair));
    }
    swapBit(w, 0, 1, rowBit, 1);
    swapBit(w, 2, 3, rowBit, 1);
    swapBit(w, 0, 2, groupBit, 2);
    swapBit(w, 1, 3, groupBit, 2);
    // Now word p is quad lane p's pair: 8 columns of this lane's row.
    Value vec =
        LLVM::PoisonOp::create(b, loc(), VectorType::get({4}, b.getI32Type()));
    for (int64_t p = 0; p < 4; ++p)
      vec = LLVM::InsertElementOp::create(b, loc(), vec, w[p], i32(p));
    vecs.push_back(vec);
    SmallVector<Value> coords = coordinates(map, i0);
    Value q = arith::IndexCastOp::create(b, loc(), b.getIndexType(), quad);
    Value row = arith::AddIOp::create(
        b, loc(), arith::AddIOp::create(b, loc(), coords[R], tileOrigin[R]),
        arith::MulIOp::create(
            b, loc(), arith::AndIOp::create(b, loc(), q, idx(1)), idx(8)));
    // The register's column has the quad's 2 * q in it; the lane's 16 bytes
    // start at the group's first column, + 8 for the odd group.
    Value col = arith::AddIOp::create(
        b, loc(),
        arith::SubIOp::create(
            b, loc(), arith::AddIOp::create(b, loc(), coords[C], tileOrigin[C]),
            arith::MulIOp::create(b, loc(), q, idx(2))),
        arith::MulIOp::create(
            b, loc(), arith::ShRUIOp::create(b, loc(), q, idx(1)), idx(8)));
    SmallVector<Value> at(tileOrigin.begin(), tileOrigin.begin() + R);
    at.append({row, col});
    Value fast = vectorAccessOk(view, at, 8);
    allFast =
        allFast ? Value(arith::AndIOp::create(b, loc(), allFast, fast)) : fast;
    ptrs.push_back(
        elementPtr(view.base, elem, linearOffset(b, loc(), view, at), kGlobal));
  }
  auto branch = scf::IfOp::create(b, loc(), TypeRange{}, allFast, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  for (auto [vec, ptr] : llvm::zip(vecs, ptrs))
    LLVM::StoreOp::create(b, loc(), vec, ptr, 16);
  // The edge path: each register pair (columns c, c + 1) element by element.
  b.setInsertionPointToStart(branch.elseBlock());
  SmallVector<SmallVector<Value>> runStarts;
  for (int64_t i = 0; i < map.count; i += 2) {
    SmallVector<Value> start = coordinates(map, i);
    for (auto [x, origin] : llvm::zip(start, tileOrigin))
      x = arith::AddIOp::create(b, loc(), x, origin);
    runStarts.push_back(start);
  }
  storeRunsByElement(view, /*map=*/nullptr, runStarts, regs, 2);
  return true;
}

/// Each element of runs of `width` registers (run j: registers j * width
/// onward, from `runStarts[j]` along the last dimension) stored alone where
/// it is in bounds: a store's edge path.
void KernelEmitter::storeRunsByElement(const ViewInfo &view, const RegMap *map,
                                       ArrayRef<SmallVector<Value>> runStarts,
                                       ArrayRef<Value> regs, int64_t width) {
  for (auto [run, runStart] : llvm::enumerate(runStarts)) {
    if (map && map->isRegisterReplica(run * width))
      continue;
    int64_t last = runStart.size() - 1;
    SmallVector<Value> coords =
        width > 1 ? edgePathCoords(runStart) : SmallVector<Value>(runStart);
    for (int64_t k = 0; k < width; ++k) {
      SmallVector<Value> c = coords;
      c[last] = arith::AddIOp::create(b, loc(), coords[last], idx(k));
      guardedStore(view, c, inBounds(view, c), regs[run * width + k]);
    }
  }
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  if (auto m = op->getAttrOfType<IntegerAttr>(tilegpu::kTmaAttr))
    return emitTmaStore(op, m.getInt());
  return emitRegisterStore(op);
}

LogicalResult KernelEmitter::emitRegisterStore(StoreOp op) {
  if (emitQuadTransposedStore(op))
    return success();
  auto type = cast<RankedTensorType>(op.getValue().getType());
  RegMap map = regMap(op.getValue());
  const ViewInfo &view = views[op.getView()];
  Type elem = type.getElementType();
  int64_t bytes = elementBytes(elem);
  // Runs of contiguous registers, at most 16 bytes per access.
  int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
  const SmallVector<Value> &regs = tiles[op.getValue()];
  SmallVector<Value> tileOrigin = tileOriginOf(op.getIndices(), type);

  Runs runs = tileRuns(view, map, width, tileOrigin);
  // A layout that covers more than its tile (a reduction's result over the
  // threads it reduced across) holds elements in several threads or
  // registers: only the first copy is stored, once.
  emitIf(ownsElements(map), [&] {
    if (width == 1) {
      storeRunsByElement(view, &map, runs.coords, regs, width);
      return;
    }
    storeRuns(runs, map, regs, VectorType::get({width}, elem), [&] {
      storeRunsByElement(view, &map, runs.coords, regs, width);
    });
  });
  return success();
}

/// A prefetch spreads the rows of its tile (the runs along the last
/// dimension, contiguous since the innermost stride is 1) over the threads;
/// a thread asks the L2 for its row's in-bounds part with one bulk prefetch,
/// trimmed inward to 16-byte boundaries (the instruction's alignment) so
/// that no byte outside the view is touched. Rows out of bounds, or less
/// than 16 aligned bytes long, are skipped: it is only a hint.
void KernelEmitter::emitPrefetch(PrefetchOp op) {
  if (!target.hopperOrLater)
    return;
  const ViewInfo &view = views[op.getView()];
  ArrayRef<int64_t> shape = op.getShape();
  int64_t last = shape.size() - 1;
  int64_t bytes = elementBytes(view.elementType);
  int64_t rows = 1;
  for (int64_t d = 0; d < last; ++d)
    rows *= shape[d];
  int64_t threads = numWarps * kWarpSize;
  SmallVector<Value> origin;
  for (auto [d, index] : llvm::enumerate(op.getIndices()))
    origin.push_back(
        arith::MulIOp::create(b, loc(), scalars.lookup(index), idx(shape[d])));
  auto ult = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, x, y);
  };
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI64Type(), v);
  };
  for (int64_t first = 0; first < rows; first += threads) {
    Value row = arith::AddIOp::create(b, loc(), threadId, idx(first));
    Value ok = first + threads > rows ? ult(row, idx(rows)) : Value();
    SmallVector<Value> coords(origin);
    // Row r's coordinates: r in mixed radix over the outer dimensions.
    int64_t inner = rows;
    for (int64_t d = 0; d < last; ++d) {
      inner /= shape[d];
      Value k = arith::RemUIOp::create(
          b, loc(), arith::DivUIOp::create(b, loc(), row, idx(inner)),
          idx(shape[d]));
      coords[d] = arith::AddIOp::create(b, loc(), origin[d], k);
    }
    Value in = inBounds(view, coords); // the last: its first column
    ok = ok ? Value(arith::AndIOp::create(b, loc(), ok, in)) : in;
    // The row's elements inside the view: min(size - col, width).
    Value count = arith::MinSIOp::create(
        b, loc(),
        arith::SubIOp::create(b, loc(), view.sizes[last], coords[last]),
        idx(shape[last]));
    Value start = LLVM::PtrToIntOp::create(
        b, loc(), b.getI64Type(),
        elementPtr(view.base, view.elementType,
                   linearOffset(b, loc(), view, coords), kGlobal));
    Value end = arith::AddIOp::create(
        b, loc(), start,
        arith::MulIOp::create(
            b, loc(),
            arith::IndexCastOp::create(b, loc(), b.getI64Type(), count),
            i64(bytes)));
    Value alignedStart = arith::AndIOp::create(
        b, loc(), arith::AddIOp::create(b, loc(), start, i64(15)), i64(~15));
    Value alignedEnd = arith::AndIOp::create(b, loc(), end, i64(~15));
    ok = arith::AndIOp::create(b, loc(), ok, ult(alignedStart, alignedEnd));
    auto branch = scf::IfOp::create(b, loc(), TypeRange{}, ok, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(branch.thenBlock());
    Value ptr = LLVM::IntToPtrOp::create(
        b, loc(), LLVM::LLVMPointerType::get(b.getContext(), kGlobal),
        alignedStart);
    Value size = arith::TruncIOp::create(
        b, loc(), b.getI32Type(),
        arith::SubIOp::create(b, loc(), alignedEnd, alignedStart));
    NVVM::CpAsyncBulkPrefetchOp::create(b, loc(), ptr, size, Value());
  }
}

/// Register `i`'s element of a gather or scatter: its coordinates (from the
/// index tiles) into `coords`, and whether it is accessed (in bounds and,
/// with a mask, masked in).
Value KernelEmitter::elementAt(const ViewInfo &view, ValueRange indices,
                               Value mask, int64_t i,
                               SmallVector<Value> &coords) {
  for (Value index : indices)
    coords.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                tiles[index][i]));
  Value ok = inBounds(view, coords);
  if (mask)
    ok = arith::AndIOp::create(b, loc(), ok, tiles[mask][i]);
  return ok;
}

void tilegym::detail::populateMemoryPatterns(KernelEmitter &emitter,
                                             RewritePatternSet &patterns) {
  addEmitPattern<LoadOp, &KernelEmitter::emitLoad>(patterns, emitter);
  addEmitPattern<StoreOp, &KernelEmitter::emitStore>(patterns, emitter);
  addEmitPattern<PrefetchOp>(
      patterns, emitter,
      [](KernelEmitter &e, PrefetchOp op, ConversionPatternRewriter &) {
        e.emitPrefetch(op);
        return success();
      });
  addEmitPattern<DimOp>(
      patterns, emitter,
      [](KernelEmitter &e, DimOp op, ConversionPatternRewriter &) {
        e.scalars.map(op.getResult(),
                      e.views[op.getView()].sizes[op.getAxis()]);
        return success();
      });
  addEmitPattern<NumTilesOp>(
      patterns, emitter,
      [](KernelEmitter &e, NumTilesOp op, ConversionPatternRewriter &) {
        e.scalars.map(op.getResult(),
                      (Value)arith::CeilDivSIOp::create(
                          e.b, e.loc(),
                          e.views[op.getView()].sizes[op.getAxis()],
                          e.idx(op.getTileSize())));
        return success();
      });
}
