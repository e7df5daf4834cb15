//===- GenStatements.cpp - statements -------------------------------------===//
//
// let, var, const, assignment, if, and the jumps (break, continue, return).
// Vars assigned in a branch are yielded from scf.if; loops are
// GenLoops.cpp's.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

unsigned tilegym::mlirgen::jumpsOf(const StmtAST &stmt) {
  switch (stmt.getKind()) {
  case StmtAST::Kind::Return:
    return kReturn;
  case StmtAST::Kind::Break:
    return kBreak;
  case StmtAST::Kind::Continue:
    return kContinue;
  case StmtAST::Kind::If: {
    auto &branch = cast<IfStmtAST>(stmt);
    unsigned jumps = jumpsOf(branch.getThenBody());
    if (const StmtList *elseBody = branch.getElseBody())
      jumps |= jumpsOf(*elseBody);
    return jumps;
  }
  case StmtAST::Kind::For:
    return jumpsOf(cast<ForStmtAST>(stmt).getBody()) & kReturn;
  case StmtAST::Kind::While:
    return jumpsOf(cast<WhileStmtAST>(stmt).getBody()) & kReturn;
  default:
    return 0;
  }
}

unsigned tilegym::mlirgen::jumpsOf(ArrayRef<std::unique_ptr<StmtAST>> stmts) {
  unsigned jumps = 0;
  for (const auto &stmt : stmts)
    jumps |= jumpsOf(*stmt);
  return jumps;
}

static StringRef spelling(const StmtAST &jump) {
  switch (jump.getKind()) {
  case StmtAST::Kind::Break:
    return "break";
  case StmtAST::Kind::Continue:
    return "continue";
  default:
    return "return";
  }
}

LogicalResult MLIRGenImpl::genBlock(Stmts stmts, bool kernelBody) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    const StmtAST &stmt = *stmts[i];
    if (isa<ReturnStmtAST, JumpStmtAST>(&stmt)) {
      if (i + 1 != stmts.size())
        return error(stmt.getLoc())
               << "unreachable code after '" << spelling(stmt) << "'";
      if (auto *ret = dyn_cast<ReturnStmtAST>(&stmt)) {
        // A function's return, its last statement, is genUserCall's.
        if (!callStack.empty())
          return error(stmt.getLoc())
                 << "a function returns only at its end: this 'return' "
                    "is not the last statement of '"
                 << callStack.back().fn->getName() << "'";
        if (ret->getValue())
          return error(ret->getValue()->getLoc())
                 << "a kernel returns no value";
      }
      if (kernelBody && isa<ReturnStmtAST>(&stmt))
        return success(); // the kernel ends here anyway
      return genJump(stmt);
    }
    if (failed(genStmt(stmt)))
      return failure();
    // What follows a statement that may jump runs only if it did not.
    if (i + 1 < stmts.size())
      if (Value taken = jumpTaken(jumpsOf(stmt), stmt.getLoc()))
        return genBranches(taken, stmt.getLoc(), {}, stmts.drop_front(i + 1));
  }
  return success();
}

LogicalResult MLIRGenImpl::declareFlag(StringRef name, Location loc) {
  Value no = materialize(Const::ofBool(false), builder.getI1Type(), loc);
  return declare(name, Val{no, {}}, /*isVar=*/true, loc);
}

Value MLIRGenImpl::jumpTaken(unsigned jumps, Location loc) {
  Value taken;
  for (auto [jump, name] :
       {std::pair{kBreak, kBreakFlag}, std::pair{kContinue, kContinueFlag},
        std::pair{kReturn, kReturnFlag}}) {
    Binding *b = (jumps & jump) ? lookup(name) : nullptr;
    if (!b)
      continue;
    taken = taken
                ? Value(arith::OrIOp::create(builder, loc, taken, b->val.value))
                : b->val.value;
  }
  return taken;
}

LogicalResult MLIRGenImpl::genJump(const StmtAST &stmt) {
  StringRef flag = stmt.getKind() == StmtAST::Kind::Break      ? kBreakFlag
                   : stmt.getKind() == StmtAST::Kind::Continue ? kContinueFlag
                                                               : kReturnFlag;
  Binding *b = lookup(flag);
  if (!b)
    return error(stmt.getLoc())
           << "'" << spelling(stmt) << "' is only allowed inside a loop";
  b->val = Val{
      materialize(Const::ofBool(true), builder.getI1Type(), stmt.getLoc()), {}};
  return success();
}

LogicalResult MLIRGenImpl::genStmt(const StmtAST &stmt) {
  switch (stmt.getKind()) {
  case StmtAST::Kind::Let:
  case StmtAST::Kind::Var: {
    bool isVar = isa<VarStmtAST>(&stmt);
    const ExprAST &init = isVar ? cast<VarStmtAST>(stmt).getValue()
                                : cast<LetStmtAST>(stmt).getValue();
    StringRef name = isVar ? cast<VarStmtAST>(stmt).getName()
                           : cast<LetStmtAST>(stmt).getName();
    Val v = genExpr(init);
    if (v.failed())
      return failure();
    if (v.isConst() && v.cst->kind == Const::Kind::Type)
      return error(init.getLoc())
             << "cannot bind a type to '" << name << "'; use const";
    if (isVar && v.isConst()) // a var needs a type that assignments keep
      v = Val{materializeDefault(v, init.getLoc()), {}};
    if (!v.isConst() && isa<t::ViewType>(v.value.getType()) && isVar)
      return error(init.getLoc()) << "a view cannot be bound to a var";
    return declare(name, v, isVar, stmt.getLoc());
  }
  case StmtAST::Kind::Const:
    return genConstDecl(cast<ConstStmtAST>(stmt).getDecl());
  case StmtAST::Kind::Assign:
    return genAssign(cast<AssignStmtAST>(stmt));
  case StmtAST::Kind::For:
    return genFor(cast<ForStmtAST>(stmt));
  case StmtAST::Kind::While:
    return genWhile(cast<WhileStmtAST>(stmt));
  case StmtAST::Kind::If:
    return genIf(cast<IfStmtAST>(stmt));
  case StmtAST::Kind::Expr: {
    // Stores and prefetches produce no value: only a statement calls them.
    const ExprAST &expr = cast<ExprStmtAST>(stmt).getExpr();
    unsigned before = numErrors;
    if (auto *call = dyn_cast<CallExprAST>(&expr))
      (void)genCall(*call);
    else
      (void)genExpr(expr);
    return failure(numErrors != before);
  }
  case StmtAST::Kind::Return:
  case StmtAST::Kind::Break:
  case StmtAST::Kind::Continue:
    break; // handled by genBlock
  }
  return success();
}

LogicalResult MLIRGenImpl::genAssign(const AssignStmtAST &stmt) {
  Binding *b = lookup(stmt.getName());
  if (!b)
    return error(stmt.getLoc())
           << "assignment to undeclared name '" << stmt.getName() << "'";
  if (!b->isVar)
    return error(stmt.getLoc())
           << "cannot assign to '" << stmt.getName() << "': it is not a var";
  Val v = genExpr(stmt.getValue());
  if (v.failed())
    return failure();
  Type want = b->val.value.getType();
  Value value;
  if (v.isConst()) {
    if (isa<RankedTensorType>(want))
      return error(stmt.getValue().getLoc())
             << "cannot assign a scalar constant to var '" << stmt.getName()
             << "' of type " << describe(want);
    value = materialize(*v.cst, want, stmt.getValue().getLoc());
  } else {
    value = v.value;
  }
  if (!value)
    return failure();
  if (value.getType() != want)
    return error(stmt.getValue().getLoc())
           << "cannot assign " << describe(value.getType()) << " to var '"
           << stmt.getName() << "' of type " << describe(want)
           << "; a var keeps its type and shape";
  b->val = Val{value, {}};
  return success();
}

/// Collects the vars declared outside `stmts` that `stmts` assign: they are
/// what a loop carries or an `if` yields. A jump assigns its flag; a nested
/// loop's own break and continue flags are its locals.
void MLIRGenImpl::collectAssigned(Stmts stmts, llvm::StringSet<> &locals,
                                  llvm::SetVector<Binding *> &out) {
  for (const auto &stmt : stmts) {
    if (auto *let = dyn_cast<LetStmtAST>(stmt.get()))
      locals.insert(let->getName());
    else if (auto *var = dyn_cast<VarStmtAST>(stmt.get()))
      locals.insert(var->getName());
    else if (auto *c = dyn_cast<ConstStmtAST>(stmt.get()))
      locals.insert(c->getDecl().getName());
    else if (isa<AssignStmtAST, JumpStmtAST, ReturnStmtAST>(stmt.get())) {
      StringRef name;
      if (auto *assign = dyn_cast<AssignStmtAST>(stmt.get()))
        name = assign->getName();
      else
        name = stmt->getKind() == StmtAST::Kind::Break      ? kBreakFlag
               : stmt->getKind() == StmtAST::Kind::Continue ? kContinueFlag
                                                            : kReturnFlag;
      if (locals.contains(name))
        continue;
      if (Binding *b = lookup(name); b && b->isVar)
        out.insert(b);
    } else if (auto *loop = dyn_cast<ForStmtAST>(stmt.get())) {
      llvm::StringSet<> inner = locals;
      inner.insert(loop->getInductionVar());
      inner.insert(kBreakFlag);
      inner.insert(kContinueFlag);
      collectAssigned(loop->getBody(), inner, out);
    } else if (auto *loop = dyn_cast<WhileStmtAST>(stmt.get())) {
      llvm::StringSet<> inner = locals;
      inner.insert(kBreakFlag);
      inner.insert(kContinueFlag);
      collectAssigned(loop->getBody(), inner, out);
    } else if (auto *branch = dyn_cast<IfStmtAST>(stmt.get())) {
      llvm::StringSet<> thenLocals = locals;
      collectAssigned(branch->getThenBody(), thenLocals, out);
      if (const StmtList *elseBody = branch->getElseBody()) {
        llvm::StringSet<> elseLocals = locals;
        collectAssigned(*elseBody, elseLocals, out);
      }
    }
  }
}

LogicalResult MLIRGenImpl::genIf(const IfStmtAST &stmt) {
  Location loc = stmt.getLoc();
  Val cond = genExpr(stmt.getCond());
  if (cond.failed())
    return failure();
  // A compile-time condition selects a branch now, so the other branch may
  // use shapes or types that only make sense when it is taken.
  if (cond.isConst()) {
    if (cond.cst->kind != Const::Kind::Bool)
      return error(stmt.getCond().getLoc())
             << "if condition must be a boolean, got " << kindName(*cond.cst);
    const StmtList *taken =
        cond.cst->b ? &stmt.getThenBody() : stmt.getElseBody();
    if (!taken)
      return success();
    Scope scope(*this);
    return genBlock(*taken);
  }
  if (!cond.value.getType().isInteger(1))
    return error(stmt.getCond().getLoc())
           << "if condition must be a scalar i1, got "
           << describe(cond.value.getType());
  std::optional<Stmts> elseBody;
  if (const StmtList *body = stmt.getElseBody())
    elseBody = *body;
  return genBranches(cond.value, loc, stmt.getThenBody(), elseBody);
}

/// scf.if on `cond`, yielding the vars either branch assigns.
LogicalResult MLIRGenImpl::genBranches(Value cond, Location loc, Stmts thenBody,
                                       std::optional<Stmts> elseBody) {
  llvm::StringSet<> locals;
  llvm::SetVector<Binding *> yielded;
  collectAssigned(thenBody, locals, yielded);
  if (elseBody) {
    llvm::StringSet<> elseLocals;
    collectAssigned(*elseBody, elseLocals, yielded);
  }
  SmallVector<Type> types;
  SmallVector<Value> before;
  for (Binding *b : yielded) {
    types.push_back(b->val.value.getType());
    before.push_back(b->val.value);
  }
  bool withElse = elseBody || !yielded.empty();
  auto op = scf::IfOp::create(builder, loc, types, cond, withElse);
  auto genBranch = [&](Block *block, std::optional<Stmts> body) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    Scope scope(*this);
    for (auto [b, v] : llvm::zip(yielded, before))
      b->val = Val{v, {}};
    if (body && failed(genBlock(*body)))
      return failure();
    if (!yielded.empty()) {
      SmallVector<Value> yields;
      for (Binding *b : yielded)
        yields.push_back(b->val.value);
      scf::YieldOp::create(builder, loc, yields);
    }
    return success();
  };
  if (failed(genBranch(op.thenBlock(), thenBody)))
    return failure();
  if (withElse && failed(genBranch(op.elseBlock(), elseBody)))
    return failure();
  for (auto [b, result] : llvm::zip(yielded, op.getResults()))
    b->val = Val{result, {}};
  return success();
}
