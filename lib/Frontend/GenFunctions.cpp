//===- GenFunctions.cpp - user functions, inlined -------------------------===//
//
// `fn name(params) { ...; return e; }` generates nothing of its own: each
// call generates its body in place, on that call's arguments. A parameter
// without a type takes whatever the call gives (a tile, a scalar, a
// constant that stays weak, a type), so one function serves every element
// type and shape, as a template would; a typed parameter checks its
// argument. The body sees its parameters, its own names and the file's
// consts and functions, nothing of the caller's: a name resolves the same
// at every call.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

/// Calls nest at most this deep: each inlines a body, and a chain of
/// functions calling each other could otherwise grow the compiler's stack
/// without bound.
static constexpr size_t kMaxCallDepth = 64;
/// A module inlines at most this many calls: functions that each call the
/// next twice double the work at every level, and twenty levels would
/// otherwise take the compiler a million bodies.
static constexpr unsigned kMaxInlinedCalls = 100000;

Binding *MLIRGenImpl::lookup(StringRef name) {
  Binding *b = symbols.lookup(name);
  // A caller's local, hidden from the function's frame: the file's binding
  // of the name, if any.
  if (b && frameFloor && b->depth > 1 && b->depth < frameFloor)
    return globals.lookup(name);
  return b;
}

/// A function's only `return` is its last statement; whether it has a value.
static const ReturnStmtAST *finalReturn(const FunctionAST &fn) {
  const StmtList &body = fn.getBody();
  if (body.empty())
    return nullptr;
  return dyn_cast<ReturnStmtAST>(body.back().get());
}

bool MLIRGenImpl::returnsValue(const FunctionAST &fn) {
  const ReturnStmtAST *ret = finalReturn(fn);
  return ret && ret->getValue();
}

LogicalResult MLIRGenImpl::declareFunction(const FunctionAST &fn) {
  StringRef name = fn.getName();
  if (lookupBuiltin(name))
    return error(fn.getLoc())
           << "function '" << name << "' has the name of a builtin";
  auto [it, inserted] = functions.try_emplace(name, &fn);
  if (!inserted) {
    InFlightDiagnostic diag = error(fn.getLoc())
                              << "redefinition of function '" << name << "'";
    diag.attachNote(it->second->getLoc()) << "'" << name << "' is defined here";
    return diag;
  }
  llvm::StringSet<> seen;
  for (const FunctionAST::Param &p : fn.getParams())
    if (!seen.insert(p.name).second)
      return error(p.loc) << "duplicate parameter '" << p.name
                          << "' of function '" << name << "'";
  return success();
}

/// Whether `v` may be passed for a parameter of type `want`: a view of the
/// same element type and rank, or a scalar or tile of element type `want`
/// (a constant becomes a scalar of it; an index scalar meets i32).
static std::string mismatch(Val v, Type want) {
  if (auto view = dyn_cast<t::ViewType>(want)) {
    auto got = v.isConst() ? nullptr : dyn_cast<t::ViewType>(v.value.getType());
    if (got && got.getElementType() == view.getElementType() &&
        got.getRank() == view.getRank())
      return "";
    return describe(want);
  }
  if (v.isConst())
    return "";
  Type got = v.value.getType();
  if (isa<t::ViewType>(got))
    return describe(want);
  Type element = elementTypeOf(got);
  bool scalarIndex = !isa<RankedTensorType>(got) &&
                     ((element.isIndex() && want.isInteger(32)) ||
                      (element.isInteger(32) && want.isIndex()));
  if (element == want || scalarIndex)
    return "";
  return describe(want) + " (or a tile of it)";
}

Val MLIRGenImpl::genUserCall(const CallExprAST &call, const FunctionAST &fn) {
  Location loc = call.getLoc();
  StringRef name = fn.getName();
  for (const KeywordArgAST &kw : call.getKeywordArgs()) {
    error(kw.loc) << "'" << name << "' takes no keyword arguments";
    return Val::failure();
  }
  const auto &params = fn.getParams();
  if (call.getArgs().size() != params.size()) {
    error(loc) << "'" << name << "' takes " << params.size() << " argument"
               << (params.size() == 1 ? "" : "s") << ", got "
               << call.getArgs().size();
    return Val::failure();
  }
  if (llvm::any_of(callStack, [&](const Call &c) { return c.fn == &fn; })) {
    error(loc) << "recursive call of '" << name
               << "': functions are inlined, so they cannot call themselves";
    return Val::failure();
  }
  if (callStack.size() >= kMaxCallDepth) {
    error(loc) << "calls nest deeper than " << kMaxCallDepth;
    return Val::failure();
  }
  if (++inlinedCalls > kMaxInlinedCalls) {
    error(loc) << "more than " << kMaxInlinedCalls
               << " function calls to inline in this file";
    return Val::failure();
  }
  // Arguments in the caller's scope.
  SmallVector<Val> args;
  for (const auto &arg : call.getArgs()) {
    Val v = genExpr(*arg);
    if (v.failed())
      return v;
    args.push_back(v);
  }
  // The body in a frame of its own.
  Scope frame(*this);
  llvm::SaveAndRestore floor(frameFloor, declared.size());
  for (auto [i, p, v] : llvm::enumerate(params, args)) {
    if (p.type) {
      Type want = genType(*p.type);
      if (!want)
        return Val::failure();
      std::string expected = mismatch(v, want);
      if (!expected.empty()) {
        auto diag = error(call.getArgs()[i]->getLoc())
                    << "argument " << i + 1 << " of '" << name << "' must be "
                    << expected << ", got ";
        if (v.isConst())
          diag << kindName(*v.cst);
        else
          diag << describe(v.value.getType());
        return Val::failure();
      }
      if (v.isConst() && !isa<t::ViewType>(want)) {
        Value typed = materialize(*v.cst, want, call.getArgs()[i]->getLoc());
        if (!typed)
          return Val::failure();
        v = Val{typed, {}};
      }
    }
    if (failed(declare(p.name, v, /*isVar=*/false, p.loc)))
      return Val::failure();
  }
  // Errors from here on are in the body: they name this call.
  callStack.push_back({&fn, loc});
  llvm::scope_exit pop([&] { callStack.pop_back(); });
  const ReturnStmtAST *ret = finalReturn(fn);
  Stmts body = fn.getBody();
  if (ret)
    body = body.drop_back();
  if (failed(genBlock(body)))
    return Val::failure();
  if (!ret || !ret->getValue())
    return Val::failure(); // no value: only statements call it
  return genExpr(*ret->getValue());
}
