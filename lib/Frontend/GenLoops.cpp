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

namespace {
/// The carried values of a loop lowered to scf.while, and the types and
/// locations of its blocks' arguments.
struct WhileCarried {
  llvm::SetVector<Binding *> vars;
  SmallVector<Value> inits;
  SmallVector<Type> types;
  SmallVector<Location> locs;
};
} // namespace

/// `go && !break && !return`, with the flags in scope.
static Value andNoJump(OpBuilder &b, Location loc, Value go, Value taken) {
  if (!taken)
    return go;
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::AndIOp::create(b, loc, go,
                               arith::XOrIOp::create(b, loc, taken, yes));
}

LogicalResult MLIRGenImpl::genForAsWhile(const ForStmtAST &stmt, Value lo,
                                         Value hi, Value step) {
  Location loc = stmt.getLoc();
  unsigned jumps = jumpsOf(stmt.getBody());
  Scope loopScope(*this);
  if ((jumps & kBreak) && failed(declareFlag(kBreakFlag, loc)))
    return failure();
  llvm::StringSet<> locals;
  locals.insert(stmt.getInductionVar());
  locals.insert(kContinueFlag);
  WhileCarried c;
  collectAssigned(stmt.getBody(), locals, c.vars);
  c.inits.push_back(lo);
  for (Binding *b : c.vars)
    c.inits.push_back(b->val.value);
  for (Value v : c.inits) {
    c.types.push_back(v.getType());
    c.locs.push_back(loc);
  }
  auto loop = scf::WhileOp::create(builder, loc, c.types, c.inits);
  OpBuilder::InsertionGuard guard(builder);
  // Before: iv < hi, and no break or return taken.
  Block *before = builder.createBlock(&loop.getBefore(), {}, c.types, c.locs);
  {
    Scope scope(*this);
    for (auto [b, arg] : llvm::zip(c.vars, before->getArguments().drop_front()))
      b->val = Val{arg, {}};
    Value go = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                     before->getArgument(0), hi);
    go =
        andNoJump(builder, loc, go, jumpTaken(jumps & (kBreak | kReturn), loc));
    scf::ConditionOp::create(builder, loc, go, before->getArguments());
  }
  // After: the body, then the next iv (continue skips only the body's rest).
  Block *after = builder.createBlock(&loop.getAfter(), {}, c.types, c.locs);
  {
    Scope scope(*this);
    for (auto [b, arg] : llvm::zip(c.vars, after->getArguments().drop_front()))
      b->val = Val{arg, {}};
    Value iv = after->getArgument(0);
    if (failed(declare(stmt.getInductionVar(), Val{iv, {}}, false, loc)) ||
        ((jumps & kContinue) && failed(declareFlag(kContinueFlag, loc))) ||
        failed(genBlock(stmt.getBody())))
      return failure();
    SmallVector<Value> yields{arith::AddIOp::create(builder, loc, iv, step)};
    for (Binding *b : c.vars)
      yields.push_back(b->val.value);
    scf::YieldOp::create(builder, loc, yields);
  }
  for (auto [b, result] : llvm::zip(c.vars, loop.getResults().drop_front()))
    b->val = Val{result, {}};
  return success();
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
  unsigned jumps = jumpsOf(stmt.getBody());
  Scope loopScope(*this);
  if ((jumps & kBreak) && failed(declareFlag(kBreakFlag, loc)))
    return failure();
  llvm::StringSet<> locals;
  locals.insert(kContinueFlag);
  WhileCarried c;
  collectAssigned(stmt.getBody(), locals, c.vars);
  for (Binding *b : c.vars) {
    c.inits.push_back(b->val.value);
    c.types.push_back(b->val.value.getType());
    c.locs.push_back(loc);
  }
  auto loop = scf::WhileOp::create(builder, loc, c.types, c.inits);
  OpBuilder::InsertionGuard guard(builder);
  // Before: the condition, evaluated on the carried values of this
  // iteration, and no break or return taken.
  Block *before = builder.createBlock(&loop.getBefore(), {}, c.types, c.locs);
  {
    Scope scope(*this);
    for (auto [b, arg] : llvm::zip(c.vars, before->getArguments()))
      b->val = Val{arg, {}};
    Val cond = genExpr(stmt.getCond());
    if (cond.failed())
      return failure();
    Value go;
    if (cond.isConst()) {
      if (cond.cst->kind != Const::Kind::Bool)
        return error(stmt.getCond().getLoc())
               << "while condition must be a boolean, got "
               << kindName(*cond.cst);
      go = materialize(*cond.cst, builder.getI1Type(), loc);
    } else if (!cond.value.getType().isInteger(1)) {
      return error(stmt.getCond().getLoc())
             << "while condition must be a scalar i1, got "
             << describe(cond.value.getType());
    } else {
      go = cond.value;
    }
    go =
        andNoJump(builder, loc, go, jumpTaken(jumps & (kBreak | kReturn), loc));
    scf::ConditionOp::create(builder, loc, go, before->getArguments());
  }
  Block *after = builder.createBlock(&loop.getAfter(), {}, c.types, c.locs);
  {
    Scope scope(*this);
    for (auto [b, arg] : llvm::zip(c.vars, after->getArguments()))
      b->val = Val{arg, {}};
    if (((jumps & kContinue) && failed(declareFlag(kContinueFlag, loc))) ||
        failed(genBlock(stmt.getBody())))
      return failure();
    SmallVector<Value> yields;
    for (Binding *b : c.vars)
      yields.push_back(b->val.value);
    scf::YieldOp::create(builder, loc, yields);
  }
  for (auto [b, result] : llvm::zip(c.vars, loop.getResults()))
    b->val = Val{result, {}};
  return success();
}
