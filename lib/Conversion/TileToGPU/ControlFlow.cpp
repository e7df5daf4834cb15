//===- ControlFlow.cpp - loops and branches that carry tiles --------------===//
//
// scf.for, scf.while and scf.if whose iteration arguments or results are
// tiles become the same ops carrying the thread's registers: 16-bit floats
// as pairs in 32-bit registers (ptxas gives each 16-bit phi a register of
// its own), so a loop that loads its operands ahead keeps half as many
// live. The bodies move into the new ops and are lowered there, op by op.
// Loops and branches on scalars alone stay as they are; their bodies are
// lowered in place.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

SmallVector<Type> KernelEmitter::carriedTypes(Value v) {
  return threadTypes.carriedTypes(v.getType());
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> out;
  for (Value v : values) {
    auto tile = dyn_cast<RankedTensorType>(v.getType());
    if (!tile) {
      out.push_back(scalars.lookupOrDefault(v));
      continue;
    }
    const SmallVector<Value> &regs = tiles.lookup(v);
    if (!ThreadTypeConverter::packsPairs(tile, regs.size())) {
      llvm::append_range(out, regs);
      continue;
    }
    auto pairType = VectorType::get({2}, regs.front().getType());
    for (size_t i = 0; i < regs.size(); i += 2) {
      Value pair = LLVM::PoisonOp::create(b, loc(), pairType);
      for (int64_t j = 0; j < 2; ++j)
        pair =
            LLVM::InsertElementOp::create(b, loc(), pair, regs[i + j], i32(j));
      out.push_back(pair);
    }
  }
  return out;
}

void KernelEmitter::bindResults(ValueRange olds, ValueRange flat) {
  size_t pos = 0;
  for (Value old : olds) {
    auto tile = dyn_cast<RankedTensorType>(old.getType());
    if (!tile) {
      scalars.map(old, flat[pos++]);
      continue;
    }
    int64_t n = regMap(old).count;
    SmallVector<Value> regs;
    if (!ThreadTypeConverter::packsPairs(tile, n)) {
      regs.assign(flat.begin() + pos, flat.begin() + pos + n);
      pos += n;
    } else {
      for (int64_t i = 0; i < n; i += 2, ++pos)
        for (int64_t j = 0; j < 2; ++j)
          regs.push_back(
              LLVM::ExtractElementOp::create(b, loc(), flat[pos], i32(j)));
    }
    tiles[old] = std::move(regs);
  }
}

/// The loop's body moves into a loop over the carried registers, which it
/// unpacks first; its yield (lowered with it) packs them again.
LogicalResult KernelEmitter::emitFor(scf::ForOp op,
                                     ConversionPatternRewriter &rewriter) {
  SmallVector<Value> inits = flatten(op.getInitArgs());
  auto loop = scf::ForOp::create(b, loc(), scalars.lookup(op.getLowerBound()),
                                 scalars.lookup(op.getUpperBound()),
                                 scalars.lookup(op.getStep()), inits);
  // It carries tiles, so it has iter_args and comes without a yield: the
  // body's, lowered, is its terminator.
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToEnd(loop.getBody());
    bindResults(op.getRegionIterArgs(), loop.getRegionIterArgs());
  }
  TypeConverter::SignatureConversion body(op.getBody()->getNumArguments());
  body.remapInput(0, {loop.getInductionVar()});
  for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs()))
    body.remapInput(i + 1, threadValues(arg));
  Block *moved = rewriter.applySignatureConversion(op.getBody(), body);
  rewriter.mergeBlocks(moved, loop.getBody());
  bindResults(op.getResults(), loop.getResults());
  return success();
}

/// Both regions move into a loop whose blocks take the carried registers;
/// each unpacks them first, and the condition and yield (lowered with them)
/// pack them again.
LogicalResult KernelEmitter::emitWhile(scf::WhileOp op,
                                       ConversionPatternRewriter &rewriter) {
  SmallVector<Value> inits = flatten(op.getInits());
  auto flatTypes = [&](ValueRange values) {
    SmallVector<Type> types;
    for (Value v : values)
      llvm::append_range(types, carriedTypes(v));
    return types;
  };
  SmallVector<Type> beforeTypes = flatTypes(op.getBeforeArguments());
  // The results are what the condition forwards: the after block's types.
  SmallVector<Type> afterTypes = flatTypes(op.getAfterArguments());
  auto loop = scf::WhileOp::create(b, loc(), afterTypes, inits);
  auto moveRegion = [&](Region &from, Region &to, ArrayRef<Type> types) {
    OpBuilder::InsertionGuard g(b);
    SmallVector<Location> locs(types.size(), loc());
    Block *block = b.createBlock(&to, {}, types, locs);
    Block *old = &from.front();
    bindResults(old->getArguments(), block->getArguments());
    TypeConverter::SignatureConversion conversion(old->getNumArguments());
    for (auto [i, arg] : llvm::enumerate(old->getArguments()))
      conversion.remapInput(i, threadValues(arg));
    Block *moved = rewriter.applySignatureConversion(old, conversion);
    rewriter.mergeBlocks(moved, block);
  };
  moveRegion(op.getBefore(), loop.getBefore(), beforeTypes);
  moveRegion(op.getAfter(), loop.getAfter(), afterTypes);
  bindResults(op.getResults(), loop.getResults());
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op,
                                    ConversionPatternRewriter &rewriter) {
  SmallVector<Type> types;
  for (Value r : op.getResults())
    llvm::append_range(types, carriedTypes(r));
  bool withElse = !op.getElseRegion().empty();
  auto branch = scf::IfOp::create(b, loc(), types,
                                  scalars.lookup(op.getCondition()), withElse);
  // With results, its blocks come without yields: the regions' own,
  // lowered, end them.
  rewriter.mergeBlocks(&op.getThenRegion().front(), branch.thenBlock());
  if (withElse)
    rewriter.mergeBlocks(&op.getElseRegion().front(), branch.elseBlock());
  bindResults(op.getResults(), branch.getResults());
  return success();
}

void tilegym::detail::populateControlFlowPatterns(KernelEmitter &emitter,
                                                  RewritePatternSet &patterns) {
  addEmitPattern<scf::ForOp>(
      patterns, emitter,
      [](KernelEmitter &e, scf::ForOp op, ConversionPatternRewriter &rewriter) {
        return e.emitFor(op, rewriter);
      });
  addEmitPattern<scf::WhileOp>(patterns, emitter,
                               [](KernelEmitter &e, scf::WhileOp op,
                                  ConversionPatternRewriter &rewriter) {
                                 return e.emitWhile(op, rewriter);
                               });
  addEmitPattern<scf::ConditionOp>(
      patterns, emitter,
      [](KernelEmitter &e, scf::ConditionOp op, ConversionPatternRewriter &) {
        scf::ConditionOp::create(e.b, e.loc(),
                                 e.scalars.lookupOrDefault(op.getCondition()),
                                 e.flatten(op.getArgs()));
        return success();
      });
  addEmitPattern<scf::IfOp>(
      patterns, emitter,
      [](KernelEmitter &e, scf::IfOp op, ConversionPatternRewriter &rewriter) {
        return e.emitIf(op, rewriter);
      });
  addEmitPattern<scf::YieldOp>(
      patterns, emitter,
      [](KernelEmitter &e, scf::YieldOp op, ConversionPatternRewriter &) {
        scf::YieldOp::create(e.b, e.loc(), e.flatten(op.getOperands()));
        return success();
      });
  addEmitPattern<func::ReturnOp>(
      patterns, emitter,
      [](KernelEmitter &e, func::ReturnOp, ConversionPatternRewriter &) {
        gpu::ReturnOp::create(e.b, e.kernel.getLoc());
        return success();
      });
}
