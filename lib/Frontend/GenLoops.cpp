//===- GenLoops.cpp - for and while loops ---------------------------------===//
//
// A `for` becomes scf.for, carrying the vars its body assigns; one whose
// body may break or return becomes scf.while, so that it stops as soon as
// it does. A `while` is scf.while: the condition in the before region
// (with the break and return flags), the body in the after region.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

LogicalResult MLIRGenImpl::genFor(const ForStmtAST &stmt) {
  Location loc = stmt.getLoc();
  Value bounds[3];
  const ExprAST *exprs[3] = {&stmt.getLo(), &stmt.getHi(), &stmt.getStep()};
  for (int i = 0; i < 3; ++i) {
    Val v = genExpr(*exprs[i]);
    if (v.failed())
      return failure();
    bounds[i] = indexValue(v, exprs[i]->getLoc(), "loop bound");
    if (!bounds[i])
      return failure();
  }
  if (auto step = getConstantIntValue(bounds[2]); step && *step <= 0)
    return error(stmt.getStep().getLoc())
           << "loop step must be positive, got " << *step;
  // A loop that may stop early exits as soon as it does: scf.for cannot.
  unsigned jumps = jumpsOf(stmt.getBody());
  if (jumps & (kBreak | kReturn))
    return genForAsWhile(stmt, bounds[0], bounds[1], bounds[2]);

  llvm::StringSet<> locals;
  locals.insert(stmt.getInductionVar());
  locals.insert(kContinueFlag);
  llvm::SetVector<Binding *> carried;
  collectAssigned(stmt.getBody(), locals, carried);
  SmallVector<Value> inits;
  for (Binding *b : carried)
    inits.push_back(b->val.value);

  auto loop =
      scf::ForOp::create(builder, loc, bounds[0], bounds[1], bounds[2], inits);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  {
    Scope scope(*this);
    for (auto [b, arg] : llvm::zip(carried, loop.getRegionIterArgs()))
      b->val = Val{arg, {}};
    if (failed(declare(stmt.getInductionVar(), Val{loop.getInductionVar(), {}},
                       false, loc)) ||
        ((jumps & kContinue) && failed(declareFlag(kContinueFlag, loc))) ||
        failed(genBlock(stmt.getBody())))
      return failure();
    if (!carried.empty()) {
      SmallVector<Value> yields;
      for (Binding *b : carried)
        yields.push_back(b->val.value);
      scf::YieldOp::create(builder, loc, yields);
    }
  }
  for (auto [b, result] : llvm::zip(carried, loop.getResults()))
    b->val = Val{result, {}};
  return success();
}

/// `go && !break && !return`, with the flags in scope.
static Value andNoJump(OpBuilder &b, Location loc, Value go, Value taken) {
  if (!taken)
    return go;
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::AndIOp::create(b, loc, go,
                               arith::XOrIOp::create(b, loc, taken, yes));
}

LogicalResult MLIRGenImpl::genWhileLoop(Location loc, Stmts body,
                                        const WhileCounter *counter,
                                        function_ref<Value()> condition) {
  unsigned jumps = jumpsOf(body);
  Scope loopScope(*this);
  if ((jumps & kBreak) && failed(declareFlag(kBreakFlag, loc)))
    return failure();
  llvm::StringSet<> locals;
  locals.insert(kContinueFlag);
  if (counter)
    locals.insert(counter->name);
  llvm::SetVector<Binding *> carried;
  collectAssigned(body, locals, carried);
  // The counter first, then the vars the body assigns.
  SmallVector<Value> inits;
  if (counter)
    inits.push_back(counter->init);
  for (Binding *b : carried)
    inits.push_back(b->val.value);
  SmallVector<Type> types(ValueRange(inits).getTypes());
  SmallVector<Location> locs(inits.size(), loc);
  unsigned skip = counter ? 1 : 0;
  auto loop = scf::WhileOp::create(builder, loc, types, inits);
  OpBuilder::InsertionGuard guard(builder);
  // Each region's block binds the carried vars to its arguments.
  auto enter = [&](Region &region) {
    Block *block = builder.createBlock(&region, {}, types, locs);
    for (auto [b, arg] :
         llvm::zip(carried, block->getArguments().drop_front(skip)))
      b->val = Val{arg, {}};
    return block;
  };
  // Before: the condition on this iteration's values, and no break or
  // return taken.
  {
    Block *before = enter(loop.getBefore());
    Scope scope(*this);
    if (counter && failed(declare(counter->name,
                                  Val{before->getArgument(0), {}}, false, loc)))
      return failure();
    Value go = condition();
    if (!go)
      return failure();
    go =
        andNoJump(builder, loc, go, jumpTaken(jumps & (kBreak | kReturn), loc));
    scf::ConditionOp::create(builder, loc, go, before->getArguments());
  }
  // After: the body, then the counter's next value (continue skips only the
  // body's rest).
  {
    Block *after = enter(loop.getAfter());
    Scope scope(*this);
    Value iv = counter ? after->getArgument(0) : Value();
    if ((counter && failed(declare(counter->name, Val{iv, {}}, false, loc))) ||
        ((jumps & kContinue) && failed(declareFlag(kContinueFlag, loc))) ||
        failed(genBlock(body)))
      return failure();
    SmallVector<Value> yields;
    if (counter)
      yields.push_back(arith::AddIOp::create(builder, loc, iv, counter->step));
    for (Binding *b : carried)
      yields.push_back(b->val.value);
    scf::YieldOp::create(builder, loc, yields);
  }
  for (auto [b, result] :
       llvm::zip(carried, loop.getResults().drop_front(skip)))
    b->val = Val{result, {}};
  return success();
}

LogicalResult MLIRGenImpl::genForAsWhile(const ForStmtAST &stmt, Value lo,
                                         Value hi, Value step) {
  Location loc = stmt.getLoc();
  WhileCounter counter{stmt.getInductionVar(), lo, step};
  return genWhileLoop(loc, stmt.getBody(), &counter, [&]() -> Value {
    Value iv = lookup(stmt.getInductionVar())->val.value;
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, iv,
                                 hi);
  });
}

LogicalResult MLIRGenImpl::genWhile(const WhileStmtAST &stmt) {
  Location loc = stmt.getLoc();
  // A condition false at compile time skips the loop, body unchecked, as
  // `if false` does. It is evaluated once here, into a scratch block that
  // takes whatever ops a runtime condition builds with it.
  {
    Block scratch;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&scratch);
    Val cond = genExpr(stmt.getCond());
    if (cond.failed())
      return failure();
    if (cond.isConst() && cond.cst->kind == Const::Kind::Bool && !cond.cst->b)
      return success();
  }
  return genWhileLoop(loc, stmt.getBody(), nullptr, [&]() -> Value {
    Val cond = genExpr(stmt.getCond());
    if (cond.failed())
      return {};
    if (cond.isConst()) {
      if (cond.cst->kind != Const::Kind::Bool) {
        error(stmt.getCond().getLoc())
            << "while condition must be a boolean, got " << kindName(*cond.cst);
        return {};
      }
      return materialize(*cond.cst, builder.getI1Type(), loc);
    }
    if (!cond.value.getType().isInteger(1)) {
      error(stmt.getCond().getLoc())
          << "while condition must be a scalar i1, got "
          << describe(cond.value.getType());
      return {};
    }
    return cond.value;
  });
}
