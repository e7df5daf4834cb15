//===- Partials.cpp - stream-K partial accumulators between blocks --------===//
//
// tilegpu.partial_store and tilegpu.partial_accumulate: the blocks that share
// a tile's iterations (tilegpu-stream-k) hand their accumulators to the block
// that finishes it through two zero-initialized globals of the kernel: the
// partials, a slot per block of the tile's f32 registers in thread order
// (slot + (chunk * threads + thread) * 16 bytes: every thread moves 16
// contiguous bytes and a warp 512, so each access is whole lines), and a
// flag per slot. The finishing block runs the same kernel with the same
// layout, so each of its threads reads back exactly the registers it holds,
// with no exchange between threads. Both go through the L2 (`.cg`): the L1
// is not coherent between SMs.
//
// The order (CUTLASS's generic barrier): the writer's threads store, fence
// at GPU scope and meet at a barrier; one thread then sets the flag with a
// release store. The reader's one thread spins on acquire loads of the flag,
// clears it (a slot is written once per launch, so the next launch finds it
// clear), and a barrier releases the others to load.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::detail;

namespace {
/// Bytes of one partial access: four f32 registers.
constexpr int64_t kChunkBytes = 16;
/// Chunks a reader loads before adding them: 32 registers in flight.
constexpr int64_t kLoadBatch = 8;

/// The kernel's partials and flags, and the bytes of one slot.
struct Workspace {
  Value partials, flags;
  int64_t slotBytes;
};
} // namespace

/// The registers a thread holds of `tile`, rounded up to whole chunks.
static int64_t chunkedRegisters(KernelEmitter &e, Value tile) {
  return llvm::alignTo(e.regMap(tile).count, kChunkBytes / 4);
}

/// The kernel's partials and flags for `op`'s tile, created by its first
/// partial op; null (after an error on `op`) where an earlier one gave them
/// another size.
static std::optional<Workspace> workspaceOf(KernelEmitter &e, Operation *op,
                                            int64_t slots) {
  std::string name = (e.kernel.getSymName() + "__partials").str();
  int64_t slotBytes =
      chunkedRegisters(e, op->getOperand(0)) * 4 * e.numWarps * kWarpSize;
  auto partials = e.gpuModule.lookupSymbol<LLVM::GlobalOp>(name);
  auto flags = e.gpuModule.lookupSymbol<LLVM::GlobalOp>(name + "_flags");
  if (!partials) {
    OpBuilder g(e.getContext());
    g.setInsertionPointToStart(e.gpuModule.getBody());
    auto zeroed = [&](StringRef symbol, int64_t bytes) {
      auto type = LLVM::LLVMArrayType::get(g.getI8Type(), bytes);
      auto global = LLVM::GlobalOp::create(
          g, op->getLoc(), type, /*isConstant=*/false, LLVM::Linkage::Internal,
          symbol, Attribute(), /*alignment=*/kChunkBytes, kGlobal);
      OpBuilder::InsertionGuard guard(g);
      g.createBlock(&global.getInitializerRegion());
      LLVM::ReturnOp::create(g, op->getLoc(),
                             LLVM::ZeroOp::create(g, op->getLoc(), type));
      return global;
    };
    partials = zeroed(name, slots * slotBytes);
    flags = zeroed(name + "_flags", slots * 4);
  } else if (partials.getType() !=
                 LLVM::LLVMArrayType::get(e.b.getI8Type(), slots * slotBytes) ||
             !flags) {
    e.fail(op) << "partials of one kernel must have one tile type and one "
                  "slot count";
    return std::nullopt;
  }
  auto address = [&](LLVM::GlobalOp global) -> Value {
    return LLVM::AddressOfOp::create(e.b, e.loc(), global);
  };
  return Workspace{address(partials), address(flags), slotBytes};
}

/// Where this thread's chunk `c` of slot `slot` starts.
static Value chunkPtr(KernelEmitter &e, const Workspace &w, Value slot,
                      int64_t c) {
  int64_t threads = e.numWarps * kWarpSize;
  Value offset = arith::AddIOp::create(
      e.b, e.loc(),
      arith::MulIOp::create(e.b, e.loc(), slot, e.idx(w.slotBytes)),
      arith::MulIOp::create(
          e.b, e.loc(),
          arith::AddIOp::create(e.b, e.loc(), e.threadId, e.idx(c * threads)),
          e.idx(kChunkBytes)));
  return e.elementPtr(w.partials, e.b.getI8Type(), offset, kGlobal);
}

static Value flagPtr(KernelEmitter &e, const Workspace &w, Value slot) {
  return e.elementPtr(w.flags, e.b.getI32Type(), slot, kGlobal);
}

/// Whether this is the block's first thread.
static Value firstThread(KernelEmitter &e) {
  return arith::CmpIOp::create(e.b, e.loc(), arith::CmpIPredicate::eq,
                               e.threadId, e.idx(0));
}

static LogicalResult emitPartialStore(KernelEmitter &e,
                                      tilegpu::PartialStoreOp op) {
  std::optional<Workspace> w = workspaceOf(e, op, op.getSlots());
  if (!w)
    return failure();
  Value slot = e.scalars.lookupOrDefault(op.getSlot());
  SmallVector<Value> regs = e.tiles.lookup(op.getValue());
  Value zero = arith::ConstantOp::create(e.b, e.loc(), e.b.getF32FloatAttr(0));
  regs.resize(chunkedRegisters(e, op.getValue()), zero);
  for (int64_t c = 0; c * 4 < (int64_t)regs.size(); ++c) {
    SmallVector<Value> operands{chunkPtr(e, *w, slot, c)};
    operands.append(regs.begin() + 4 * c, regs.begin() + 4 * c + 4);
    e.inlinePtx("st.global.cg.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f",
                operands);
  }
  e.inlinePtx("fence.acq_rel.gpu;", "", {});
  gpu::BarrierOp::create(e.b, e.loc());
  Value flag = flagPtr(e, *w, slot);
  e.emitIf(firstThread(e), [&] {
    e.inlinePtx("st.release.gpu.global.b32 [$0], 1;", "l", {flag});
  });
  return success();
}

static LogicalResult emitPartialAccumulate(KernelEmitter &e,
                                           tilegpu::PartialAccumulateOp op) {
  std::optional<Workspace> w = workspaceOf(e, op, op.getSlots());
  if (!w)
    return failure();
  Value slot = e.scalars.lookupOrDefault(op.getSlot());
  Value flag = flagPtr(e, *w, slot);
  Type i32 = e.b.getI32Type();
  e.emitIf(firstThread(e), [&] {
    // Spin until the writer's release; then clear the flag for the next
    // launch (each slot is written once per launch).
    scf::WhileOp::create(
        e.b, e.loc(), TypeRange{}, ValueRange{},
        [&](OpBuilder &bb, Location l, ValueRange) {
          auto seen = LLVM::InlineAsmOp::create(
              bb, l, i32, ValueRange{flag},
              "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l",
              /*has_side_effects=*/true, /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
              ArrayAttr());
          Value unset = arith::CmpIOp::create(
              bb, l, arith::CmpIPredicate::eq, seen.getResult(0),
              arith::ConstantIntOp::create(bb, l, i32, 0));
          scf::ConditionOp::create(bb, l, unset, ValueRange{});
        },
        [&](OpBuilder &bb, Location l, ValueRange) {
          scf::YieldOp::create(bb, l);
        });
    e.inlinePtx("st.relaxed.gpu.global.b32 [$0], 0;", "l", {flag});
  });
  gpu::BarrierOp::create(e.b, e.loc());
  SmallVector<Value> regs = e.tiles.lookup(op.getValue());
  Type f32 = e.b.getF32Type();
  auto four =
      LLVM::LLVMStructType::getLiteral(e.getContext(), {f32, f32, f32, f32});
  // Loads in batches ahead of their adds: one load's L2 latency (hundreds
  // of cycles) per batch rather than per chunk, for kLoadBatch chunks'
  // registers more.
  int64_t chunks = llvm::divideCeil(regs.size(), 4);
  for (int64_t first = 0; first < chunks; first += kLoadBatch) {
    SmallVector<Value> loads;
    for (int64_t c = first; c < std::min(chunks, first + kLoadBatch); ++c)
      loads.push_back(
          LLVM::InlineAsmOp::create(
              e.b, e.loc(), four, ValueRange{chunkPtr(e, *w, slot, c)},
              "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l",
              /*has_side_effects=*/true, /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
              ArrayAttr())
              .getResult(0));
    for (auto [n, load] : llvm::enumerate(loads))
      for (int64_t i = 0; i < 4; ++i) {
        int64_t r = 4 * (first + (int64_t)n) + i;
        if (r >= (int64_t)regs.size())
          break;
        Value part = LLVM::ExtractValueOp::create(e.b, e.loc(), load,
                                                  ArrayRef<int64_t>{i});
        regs[r] = arith::AddFOp::create(e.b, e.loc(), regs[r], part);
      }
  }
  e.tiles[op.getResult()] = regs;
  return success();
}

void tilegym::detail::populatePartialPatterns(KernelEmitter &emitter,
                                              RewritePatternSet &patterns) {
  addEmitPattern<tilegpu::PartialStoreOp>(
      patterns, emitter,
      [](KernelEmitter &e, tilegpu::PartialStoreOp op,
         ConversionPatternRewriter &) { return emitPartialStore(e, op); });
  addEmitPattern<tilegpu::PartialAccumulateOp>(
      patterns, emitter,
      [](KernelEmitter &e, tilegpu::PartialAccumulateOp op,
         ConversionPatternRewriter &) { return emitPartialAccumulate(e, op); });
}
