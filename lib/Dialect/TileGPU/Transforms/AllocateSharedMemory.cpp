//===- AllocateSharedMemory.cpp - one buffer, bytes reused by liveness ----===//
//
// Places every user of a kernel's shared memory (rings of staged dot
// operands, the scratch of conversions, reductions and mma.sync dots) in
// one buffer, giving users that are never live at once the same bytes. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include <map>

namespace tilegym::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORYPASS
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tilegpu;

namespace {
/// Positions [first, last], inclusive.
using Interval = std::pair<int64_t, int64_t>;

/// One user of shared memory and where it lives, in the positions of the
/// kernel's ops in program order (pre-order): intervals, as a use in an
/// scf.if's else branch does not make a buffer live in its then branch.
struct Buffer {
  SmallVector<Operation *> ops; // what carries its tilegpu.shared
  int64_t bytes, alignment;
  SmallVector<Interval> live;
  std::string what;
  int64_t offset = -1;

  bool overlaps(const Buffer &o) const {
    for (auto [s, e] : live)
      for (auto [os, oe] : o.live)
        if (s <= oe && os <= e)
          return true;
    return false;
  }
};

class SharedMemoryAllocator {
public:
  SharedMemoryAllocator(func::FuncOp kernel) : kernel(kernel) {
    if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      numWarps = w.getInt();
  }
  LogicalResult run(StringRef chip, int64_t limit, bool remarks);

private:
  func::FuncOp kernel;
  int64_t numWarps = 4;
  DenseMap<Operation *, int64_t> position, lastPosition;
  SmallVector<Buffer> buffers;

  void number();
  /// Positions from `start` to `end` that lead to `use`: without the then
  /// branch of each scf.if whose else branch holds it (the two never both
  /// run).
  SmallVector<Interval> liveUntil(int64_t start, Operation *use, int64_t end);
  /// The last position of the outermost loop around `op`, or op's own.
  int64_t endOfOutermostLoop(Operation *op) {
    int64_t end = lastPosition.lookup(op);
    for (auto loop = op->getParentOfType<LoopLikeOpInterface>(); loop;
         loop = loop->getParentOfType<LoopLikeOpInterface>())
      end = lastPosition.lookup(loop);
    return end;
  }
  void collectAllocations();
  void collectScratch();
  void place();
};
} // namespace

/// A tilegpu.warp_specialize's producer region comes before its consumer
/// region (the op's region order): what the producers use (rings, their
/// mbarriers), the consumers use until the producers are done with it
/// (their waits for the last fills), so liveness over the consumers'
/// positions covers the producers' too.
void SharedMemoryAllocator::number() {
  int64_t next = 0;
  kernel.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = next++; });
  // Post-order: an op's last position is that of its last nested op.
  kernel.getBody().walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = position[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, lastPosition[&block.back()]);
    lastPosition[op] = last;
  });
}

SmallVector<Interval>
SharedMemoryAllocator::liveUntil(int64_t start, Operation *use, int64_t end) {
  SmallVector<Interval> holes;
  for (Operation *child = use; child->getParentOp() != kernel;
       child = child->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(child->getParentOp());
    if (branch && child->getParentRegion() == &branch.getElseRegion() &&
        !branch.getThenRegion().front().empty())
      holes.push_back(
          {position.lookup(&branch.getThenRegion().front().front()),
           lastPosition.lookup(&branch.getThenRegion().front().back())});
  }
  llvm::sort(holes);
  SmallVector<Interval> live;
  for (auto [first, last] : holes) {
    if (start <= std::min(first - 1, end))
      live.push_back({start, std::min(first - 1, end)});
    start = std::max(start, last + 1);
  }
  if (start <= end)
    live.push_back({start, end});
  return live;
}

/// A tilegpu.local_alloc lives until the last use of it or of a view of it
/// (the end of the outermost loop around that use: a ring filled inside an
/// outer loop is refilled each time round it). Asynchronous copies write
/// it without a barrier before them: it is live from the kernel's start.
void SharedMemoryAllocator::collectAllocations() {
  kernel.walk([&](LocalAllocOp alloc) {
    Buffer buffer;
    buffer.ops.push_back(alloc);
    buffer.bytes = llvm::alignTo(getSharedTileBytes(alloc.getType()), 16);
    buffer.alignment =
        alloc.getType().getSwizzle() == 128 ? kSwizzleAtomBytes : 16;
    buffer.live.push_back({0, position.lookup(alloc)});
    SmallVector<Value> work{alloc.getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        llvm::append_range(buffer.live,
                           liveUntil(0, user, endOfOutermostLoop(user)));
        if (isa<MemDescIndexOp, MemDescTransOp>(user))
          work.push_back(user->getResult(0));
      }
    }
    ArrayRef<int64_t> shape = alloc.getType().getShape();
    buffer.what = shape.size() > 2
                      ? "a ring of " + std::to_string(shape[0]) + " stages"
                      : std::string("a shared-memory tile");
    buffers.push_back(std::move(buffer));
  });
  // A ring's mbarriers: initialized at the kernel's start, live until their
  // last wait (after the ring's loop).
  kernel.walk([&](MBarrierAllocOp alloc) {
    Buffer buffer;
    buffer.ops.push_back(alloc);
    buffer.bytes = llvm::alignTo(8 * alloc.getType().getCount(), 16);
    buffer.alignment = 16;
    buffer.live.push_back({0, position.lookup(alloc)});
    for (Operation *user : alloc->getUsers())
      llvm::append_range(buffer.live,
                         liveUntil(0, user, endOfOutermostLoop(user)));
    buffer.what = std::to_string(alloc.getType().getCount()) + " mbarriers";
    buffers.push_back(std::move(buffer));
  });
}

/// Scratch lives while its op runs; one written without a barrier before
/// it, from the kernel's start.
void SharedMemoryAllocator::collectScratch() {
  kernel.walk([&](Operation *op) {
    Scratch s = getScratch(op, numWarps);
    if (!s.bytes)
      return;
    int64_t at = position.lookup(op);
    buffers.push_back({{op},
                       int64_t(llvm::alignTo(s.bytes, 16)),
                       s.alignment,
                       liveUntil(s.writesWithoutBarrier ? 0 : at, op, at),
                       s.what});
  });
}

/// Larger buffers first, each at the lowest aligned offset where it meets
/// no placed buffer live at the same time (Triton's allocation does the
/// same over its buffers' live ranges).
void SharedMemoryAllocator::place() {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](const Buffer *a, const Buffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<Buffer *> placed;
  for (Buffer *buffer : order) {
    SmallVector<std::pair<int64_t, int64_t>> taken; // [begin, end) in bytes
    for (Buffer *other : placed)
      if (other->overlaps(*buffer))
        taken.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + buffer->bytes <= begin)
        break;
      offset = std::max<int64_t>(offset, llvm::alignTo(end, buffer->alignment));
    }
    buffer->offset = offset;
    placed.push_back(buffer);
  }
}

LogicalResult SharedMemoryAllocator::run(StringRef chip, int64_t limit,
                                         bool remarks) {
  number();
  collectAllocations();
  collectScratch();
  place();
  int64_t total = 0;
  MLIRContext *ctx = kernel.getContext();
  for (Buffer &buffer : buffers) {
    total = std::max(total, buffer.offset + buffer.bytes);
    auto attr = SharedAllocationAttr::get(ctx, buffer.offset, buffer.bytes);
    for (Operation *op : buffer.ops)
      op->setAttr(kSharedAttr, attr);
  }
  total = llvm::alignTo(total, 16);
  if (total > limit) {
    InFlightDiagnostic diag =
        kernel.emitError()
        << "the kernel needs " << total
        << " bytes of shared memory per block, more "
        << "than the " << limit << " a block can have on " << chip
        << ": use smaller tiles, or fewer stages for the dot operands";
    SmallVector<Buffer *> largest;
    for (Buffer &buffer : buffers)
      largest.push_back(&buffer);
    llvm::stable_sort(largest, [](const Buffer *a, const Buffer *b) {
      return a->bytes > b->bytes;
    });
    for (Buffer *buffer : ArrayRef<Buffer *>(largest).take_front(3))
      diag.attachNote(buffer->ops.front()->getLoc())
          << buffer->bytes << " bytes here: " << buffer->what;
    return failure();
  }
  kernel->setAttr(kSharedMemoryAttr,
                  IntegerAttr::get(IntegerType::get(ctx, 64), total));
  if (remarks) {
    for (Buffer &buffer : buffers)
      buffer.ops.front()->emitRemark()
          << "shared memory: " << buffer.bytes << " bytes at offset "
          << buffer.offset << " for " << buffer.what;
    kernel.emitRemark() << "shared memory per block: " << total << " bytes, "
                        << (total > kStaticSharedBytesLimit ? "dynamic"
                                                            : "static");
  }
  return success();
}

namespace {
struct TileGPUAllocateSharedMemoryPass
    : tilegpu::impl::TileGPUAllocateSharedMemoryPassBase<
          TileGPUAllocateSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    FailureOr<bool> isKernel = isGpuKernelFor(kernel, chip);
    if (failed(isKernel))
      return signalPassFailure();
    if (!*isKernel)
      return;
    int64_t limit = getMaxSharedBytesPerBlock(*parseChipVersion(chip));
    if (failed(SharedMemoryAllocator(kernel).run(chip, limit, remarks)))
      signalPassFailure();
  }
};
} // namespace
