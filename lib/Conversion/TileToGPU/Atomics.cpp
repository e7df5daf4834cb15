//===- Atomics.cpp - tile atomics to per-element GPU atomics --------------===//
//
// Each element of an atomic's tile is one atomic instruction, issued by the
// thread and register holding the element's first copy: a replicated copy
// would apply it twice. All are relaxed at device scope (`.relaxed.gpu`).
// One `atom` does 32-bit add, signed max and min, exchange and
// compare-and-swap, f16 add, and bf16 add on sm_90; LLVM expands f32 max
// and min into a 32-bit compare-and-swap loop. The other 16-bit operations
// are a loop around `atom.cas.b16`: LLVM's expansion would swap the aligned
// 32-bit word holding the element, 2 bytes past the end of a view whose
// last element starts a word.
// The old values reach every copy of their element: register copies by
// renaming, lane and warp copies through shared memory.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/Combiners.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

/// LLVM's name of the device scope (PTX's `.gpu`).
static constexpr llvm::StringLiteral kDeviceScope = "device";

static Value fromBits(OpBuilder &b, Location loc, Value bits, Type type) {
  if (bits.getType() == type)
    return bits;
  return arith::BitcastOp::create(b, loc, type, bits);
}

/// `atom.relaxed.gpu.global.cas.b16`: the 16 bits at `ptr` become `desired`
/// if they are `expected`; the bits read.
static Value cas16(OpBuilder &b, Location loc, Value ptr, Value expected,
                   Value desired) {
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI16Type(), ValueRange{address, expected, desired},
             "atom.relaxed.gpu.global.cas.b16 $0, [$1], $2, $3;",
             "=h,l,h,h,~{memory}", /*has_side_effects=*/true,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// `update` applied atomically to the 16-bit element at `ptr`: read, update,
/// swap if unchanged, until the swap finds what was read; the old value.
/// Bits are compared, so a NaN read does not loop forever.
Value KernelEmitter::casLoop16(Value ptr, Type type,
                               function_ref<Value(Value)> update) {
  Type i16 = b.getI16Type();
  Value first = LLVM::LoadOp::create(b, loc(), i16, ptr, /*alignment=*/2);
  auto loop = scf::WhileOp::create(
      b, loc(), TypeRange{i16}, ValueRange{first},
      [&](OpBuilder &bb, Location l, ValueRange args) {
        Value expected = args[0];
        Value next =
            buildBitsOf(bb, l, update(fromBits(bb, l, expected, type)));
        Value seen = cas16(bb, l, ptr, expected, next);
        Value changed = arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ne,
                                              seen, expected);
        scf::ConditionOp::create(bb, l, changed, ValueRange{seen});
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        scf::YieldOp::create(bb, l, args);
      });
  return fromBits(b, loc(), loop.getResult(0), type);
}

/// One element's read-modify-write at `ptr`; the old value.
Value KernelEmitter::atomicAt(Value ptr, AtomicKind kind, Value value) {
  Type type = value.getType();
  bool isFloat = isa<FloatType>(type);
  auto rmw = [&](LLVM::AtomicBinOp op) -> Value {
    return LLVM::AtomicRMWOp::create(b, loc(), op, ptr, value,
                                     LLVM::AtomicOrdering::monotonic,
                                     kDeviceScope);
  };
  if (type.getIntOrFloatBitWidth() != 16) {
    switch (kind) {
    case AtomicKind::Add:
      return rmw(isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add);
    case AtomicKind::Max:
      return rmw(isFloat ? LLVM::AtomicBinOp::fmaximum
                         : LLVM::AtomicBinOp::max);
    case AtomicKind::Min:
      return rmw(isFloat ? LLVM::AtomicBinOp::fminimum
                         : LLVM::AtomicBinOp::min);
    case AtomicKind::Xchg:
      return rmw(LLVM::AtomicBinOp::xchg);
    }
  }
  if (kind == AtomicKind::Add &&
      (type.isF16() || (type.isBF16() && target.hopperOrLater)))
    return rmw(LLVM::AtomicBinOp::fadd);
  return casLoop16(ptr, type, [&](Value current) -> Value {
    switch (kind) {
    case AtomicKind::Add:
      return arith::AddFOp::create(b, loc(), current, value);
    case AtomicKind::Max:
      return arith::MaximumFOp::create(b, loc(), current, value);
    case AtomicKind::Min:
      return arith::MinimumFOp::create(b, loc(), current, value);
    case AtomicKind::Xchg:
      return value;
    }
    llvm_unreachable("unknown atomic kind");
  });
}

/// The elements of an atomic on `view`: each register's first copy, in
/// bounds and masked in, runs `atomic` at its address; the others read 0.
/// Returns the old values in `result`'s layout, every copy of an element
/// holding its value.
SmallVector<Value> KernelEmitter::emitAtomicElements(
    Operation *op, Value viewValue, ValueRange indices, Value mask,
    Value result, function_ref<Value(Value ptr, int64_t reg)> atomic) {
  RegMap map = regMap(result);
  const ViewInfo &view = views[viewValue];
  Type elem = view.elementType;
  Value zero = arith::ConstantOp::create(b, loc(), b.getZeroAttr(elem));
  Value owner = ownsElements(map);
  int64_t replicaBits = 0;
  for (auto [j, bb] : llvm::enumerate(map.bits))
    if (map.replicates(bb))
      replicaBits |= int64_t(1) << j;
  SmallVector<Value> old(map.count);
  for (int64_t i = 0; i < map.count; ++i) {
    if (i & replicaBits)
      continue;
    SmallVector<Value> coords;
    Value ok = elementAt(view, indices, mask, i, coords);
    if (owner)
      ok = arith::AndIOp::create(b, loc(), ok, owner);
    auto branch = scf::IfOp::create(b, loc(), TypeRange{elem}, ok, true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(branch.thenBlock());
      Value ptr = elementPtr(view.base, elem,
                             linearOffset(b, loc(), view, coords), kGlobal);
      scf::YieldOp::create(b, loc(), ValueRange{atomic(ptr, i)});
      b.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(b, loc(), ValueRange{zero});
    }
    old[i] = branch.getResult(0);
  }
  for (int64_t i = 0; i < map.count; ++i)
    if (i & replicaBits)
      old[i] = old[i & ~replicaBits];
  // Copies in other lanes or warps read 0 so far: the owners' values go
  // through shared memory (its bytes planned by tilegpu::getScratch).
  if (owner && !result.use_empty())
    return throughShared(op, old, map, map, {});
  return old;
}

LogicalResult KernelEmitter::emitAtomicRMW(AtomicRMWOp op) {
  const SmallVector<Value> &values = tiles[op.getValue()];
  tiles[op.getResult()] =
      emitAtomicElements(op, op.getView(), op.getIndices(), op.getMask(),
                         op.getResult(), [&](Value ptr, int64_t i) {
                           return atomicAt(ptr, op.getKind(), values[i]);
                         });
  return failure(allocationFailed);
}

LogicalResult KernelEmitter::emitAtomicCAS(AtomicCASOp op) {
  Type type = op.getType().getElementType();
  const SmallVector<Value> &cmps = tiles[op.getCmp()];
  const SmallVector<Value> &values = tiles[op.getValue()];
  tiles[op.getResult()] = emitAtomicElements(
      op, op.getView(), op.getIndices(), op.getMask(), op.getResult(),
      [&](Value ptr, int64_t i) -> Value {
        Value expected = buildBitsOf(b, loc(), cmps[i]);
        Value desired = buildBitsOf(b, loc(), values[i]);
        if (type.getIntOrFloatBitWidth() == 16)
          return fromBits(b, loc(), cas16(b, loc(), ptr, expected, desired),
                          type);
        auto cas = LLVM::AtomicCmpXchgOp::create(
            b, loc(), ptr, expected, desired, LLVM::AtomicOrdering::monotonic,
            LLVM::AtomicOrdering::monotonic, kDeviceScope);
        Value seen = LLVM::ExtractValueOp::create(b, loc(), cas, 0);
        return fromBits(b, loc(), seen, type);
      });
  return failure(allocationFailed);
}

void tilegym::detail::populateAtomicPatterns(KernelEmitter &emitter,
                                             RewritePatternSet &patterns) {
  addEmitPattern<AtomicRMWOp, &KernelEmitter::emitAtomicRMW>(patterns, emitter);
  addEmitPattern<AtomicCASOp, &KernelEmitter::emitAtomicCAS>(patterns, emitter);
}
