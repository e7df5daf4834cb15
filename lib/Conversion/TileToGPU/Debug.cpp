//===- Debug.cpp - tile.print and tile.assert to CUDA's printf and assert -===//
//
// A print is one gpu.printf (CUDA's vprintf) per element a thread holds,
// from the thread and register holding the element's first copy, so that
// each element prints once; a tile-less print comes from thread 0 alone.
// An assert folds the condition's registers of each thread with `and` and
// becomes cf.assert, which the NVVM lowering makes a call of
// `__assertfail`: the thread whose elements fail stops the launch, and CUDA
// prints its block and thread with the message.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/DebugFormat.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

LogicalResult KernelEmitter::emitPrint(PrintOp op) {
  std::string format = printFormat(op);
  SmallVector<Value> block;
  for (auto axis : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    block.push_back(arith::IndexCastOp::create(
        b, loc(), b.getI32Type(), gpu::BlockIdOp::create(b, loc(), axis)));
  auto toI32 = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getI32Type(), v);
  };
  // The line of register `reg` of the tile (-1: none), at `coords`.
  auto printLine = [&](int64_t reg, ArrayRef<Value> coords) {
    SmallVector<Value> args(block);
    for (Value c : coords)
      args.push_back(toI32(c));
    for (Value v : op.getValues())
      args.push_back(printfArgument(b, loc(),
                                    isa<RankedTensorType>(v.getType())
                                        ? tiles[v][reg]
                                        : scalars.lookup(v)));
    gpu::PrintfOp::create(b, loc(), format, args);
  };
  auto tile = llvm::find_if(op.getValues(), [](Value v) {
    return isa<RankedTensorType>(v.getType());
  });
  if (tile == op.getValues().end()) {
    Value first = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        threadId, idx(0));
    emitIf(first, [&] { printLine(-1, {}); });
    return success();
  }
  RegMap map = regMap(*tile);
  Value owner = ownsElements(map);
  emitIf(owner, [&] {
    for (int64_t i = 0; i < map.count; ++i)
      if (!map.isRegisterReplica(i))
        printLine(i, coordinates(map, i));
  });
  return success();
}

LogicalResult KernelEmitter::emitAssert(AssertOp op) {
  Value holds;
  Value condition = op.getCondition();
  if (isa<RankedTensorType>(condition.getType())) {
    for (Value reg : tiles[condition])
      holds = holds ? arith::AndIOp::create(b, loc(), holds, reg) : reg;
  } else {
    holds = scalars.lookup(condition);
  }
  // __assertfail takes the file and line from a FileLineCol location, the
  // function's name from a name around it: the kernel's.
  Location where = loc();
  if (FileLineColLoc position = findSourcePosition(where))
    where = position;
  cf::AssertOp::create(
      b, NameLoc::get(b.getStringAttr(kernel.getSymName()), where), holds,
      assertMessage(op));
  return success();
}

void tilegym::detail::populateDebugPatterns(KernelEmitter &emitter,
                                            RewritePatternSet &patterns) {
  addEmitPattern<PrintOp, &KernelEmitter::emitPrint>(patterns, emitter);
  addEmitPattern<AssertOp, &KernelEmitter::emitAssert>(patterns, emitter);
}
