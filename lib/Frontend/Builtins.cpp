//===- Builtins.cpp - the builtin table and argument rules ----------------===//
//
// A call names a builtin of the table below or a user function
// (GenFunctions.cpp); a builtin's generator checks the arguments with the
// helpers here, whose diagnostics name the callee and what was expected.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

//===----------------------------------------------------------------------===//
// Builtins
//===----------------------------------------------------------------------===//

const ExprAST *MLIRGenImpl::keyword(const CallExprAST &call, StringRef name) {
  for (const KeywordArgAST &kw : call.getKeywordArgs())
    if (kw.name == name)
      return kw.value.get();
  return nullptr;
}

LogicalResult MLIRGenImpl::checkArgs(const CallExprAST &call, size_t min,
                                     size_t max, ArrayRef<StringRef> keywords) {
  size_t n = call.getArgs().size();
  if (n < min || n > max) {
    auto diag = error(call.getLoc()) << "'" << call.getCallee() << "' takes ";
    if (min == max)
      diag << min;
    else if (max == SIZE_MAX)
      diag << "at least " << min;
    else
      diag << min << " to " << max;
    size_t said = min == max || max == SIZE_MAX ? min : max;
    return diag << " positional argument" << (said == 1 ? "" : "s") << ", got "
                << n;
  }
  for (const KeywordArgAST &kw : call.getKeywordArgs())
    if (!llvm::is_contained(keywords, kw.name)) {
      auto diag = error(kw.loc)
                  << "'" << call.getCallee() << "' has no keyword argument '"
                  << kw.name << "'";
      if (!keywords.empty()) {
        diag << "; expected one of: ";
        llvm::interleaveComma(keywords, diag);
      }
      return failure();
    }
  return success();
}

std::optional<int64_t> MLIRGenImpl::constInt(const ExprAST &expr,
                                             StringRef what) {
  Val v = genExpr(expr);
  if (v.failed())
    return std::nullopt;
  if (!v.isConst() || v.cst->kind != Const::Kind::Int) {
    auto diag = error(expr.getLoc())
                << what << " must be a compile-time integer, got ";
    if (v.isConst())
      diag << kindName(*v.cst);
    else
      diag << "a runtime " << describe(v.value.getType());
    return std::nullopt;
  }
  return v.cst->i;
}

std::optional<SmallVector<int64_t>>
MLIRGenImpl::constIntList(const ExprAST &expr, StringRef what) {
  auto *list = dyn_cast<ListExprAST>(&expr);
  if (!list) {
    error(expr.getLoc()) << what << " must be a list like [64, 128]";
    return std::nullopt;
  }
  SmallVector<int64_t> out;
  for (const auto &e : list->getElements()) {
    std::optional<int64_t> v = constInt(*e, (what + " entry").str());
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

Type MLIRGenImpl::constType(const ExprAST &expr, StringRef what) {
  Val v = genExpr(expr);
  if (v.failed())
    return {};
  if (!v.isConst() || v.cst->kind != Const::Kind::Type) {
    error(expr.getLoc()) << what << " must be a type such as f32 or bf16";
    return {};
  }
  if (v.cst->type.isIndex()) {
    error(expr.getLoc()) << what << " cannot be index; use i32";
    return {};
  }
  return v.cst->type;
}

Value MLIRGenImpl::viewArg(const ExprAST &expr, StringRef callee) {
  Val v = genExpr(expr);
  if (v.failed())
    return {};
  if (v.isConst() || !isa<t::ViewType>(v.value.getType())) {
    error(expr.getLoc()) << "'" << callee
                         << "' expects a view as its first argument";
    return {};
  }
  return v.value;
}

Value MLIRGenImpl::tileArg(const ExprAST &expr, StringRef callee,
                           StringRef what) {
  Val v = genExpr(expr);
  if (v.failed())
    return {};
  if (v.isConst() || !isa<RankedTensorType>(v.value.getType())) {
    auto diag = error(expr.getLoc())
                << "'" << callee << "' expects a tile as " << what << ", got ";
    if (v.isConst())
      diag << kindName(*v.cst);
    else
      diag << describe(v.value.getType());
    return {};
  }
  return v.value;
}

std::optional<SmallVector<Value>>
MLIRGenImpl::indexList(const ExprAST &expr, StringRef callee, int64_t rank) {
  auto *list = dyn_cast<ListExprAST>(&expr);
  if (!list) {
    error(expr.getLoc()) << "'" << callee
                         << "' expects a tile index list like [i, 0]";
    return std::nullopt;
  }
  if (static_cast<int64_t>(list->getElements().size()) != rank) {
    error(expr.getLoc()) << "'" << callee << "' index has "
                         << list->getElements().size()
                         << " entries but the view has rank " << rank;
    return std::nullopt;
  }
  SmallVector<Value> out;
  for (const auto &e : list->getElements()) {
    Val v = genExpr(*e);
    if (v.failed())
      return std::nullopt;
    Value idx = indexValue(v, e->getLoc(), "tile index");
    if (!idx)
      return std::nullopt;
    out.push_back(idx);
  }
  return out;
}

/// Every builtin function. A call's name is looked up here before anything
/// else; MLIRGen files group the generators by family.
const Builtin *MLIRGenImpl::lookupBuiltin(StringRef name) {
  using G = MLIRGenImpl;
  static const Builtin table[] = {
      // The grid and the views' sizes.
      {"block_id", true, &G::genGridScalar},
      {"num_blocks", true, &G::genGridScalar},
      {"dim", true, &G::genViewSize},
      {"num_tiles", true, &G::genViewSize},
      {"cdiv", true, &G::genCdiv},
      // Memory (BuiltinsMemory.cpp).
      {"load", true, &G::genLoad},
      {"store", false, &G::genStore},
      {"prefetch", false, &G::genPrefetch},
      {"load_at", true, &G::genLoadAt},
      {"store_at", false, &G::genStoreAt},
      {"item", true, &G::genItem},
      {"gather", true, &G::genGatherScatter},
      {"scatter", false, &G::genGatherScatter},
      {"atomic_add", true, &G::genAtomic},
      {"atomic_max", true, &G::genAtomic},
      {"atomic_min", true, &G::genAtomic},
      {"atomic_xchg", true, &G::genAtomic},
      {"atomic_cas", true, &G::genAtomic},
      // Tiles and their shapes (BuiltinsTile.cpp).
      {"zeros", true, &G::genFill},
      {"full", true, &G::genFill},
      {"arange", true, &G::genArange},
      {"dot", true, &G::genDotCall},
      {"where", true, &G::genWhere},
      {"broadcast", true, &G::genShapeOp},
      {"reshape", true, &G::genShapeOp},
      {"permute", true, &G::genShapeOp},
      {"transpose", true, &G::genShapeOp},
      {"expand_dims", true, &G::genShapeOp},
      {"cast", true, &G::genCast},
      // Math and reductions (BuiltinsMath.cpp).
      {"sum", true, &G::genReduce},
      {"prod", true, &G::genReduce},
      {"any", true, &G::genReduce},
      {"all", true, &G::genReduce},
      {"argmax", true, &G::genArgReduce},
      {"cumsum", true, &G::genScan},
      {"cumprod", true, &G::genScan},
      {"cummax", true, &G::genScan},
      {"cummin", true, &G::genScan},
      {"sort", true, &G::genSort},
      {"topk", true, &G::genSort},
      {"argsort", true, &G::genSort},
      {"argtopk", true, &G::genSort},
      {"argmin", true, &G::genArgReduce},
      {"max", true, &G::genMinMax},
      {"min", true, &G::genMinMax},
      // Random numbers (BuiltinsRandom.cpp).
      {"rand", true, &G::genRandom},
      {"randn", true, &G::genRandom},
      {"randint", true, &G::genRandom},
      // Debugging (BuiltinsDebug.cpp).
      {"print", false, &G::genPrint},
      {"assert", false, &G::genAssert},
  };
  for (const Builtin &b : table)
    if (b.name == name)
      return &b;
  if (isMathFunction(name)) {
    static const Builtin math = {"", true, &G::genMath};
    return &math;
  }
  return nullptr;
}

Val MLIRGenImpl::genCall(const CallExprAST &call) {
  if (const Builtin *b = lookupBuiltin(call.getCallee()))
    return (this->*b->gen)(call);
  if (const FunctionAST *fn = functions.lookup(call.getCallee()))
    return genUserCall(call, *fn);
  error(call.getLoc()) << "unknown function '" << call.getCallee() << "'";
  return Val::failure();
}

/// block_id(axis), num_blocks(axis).
Val MLIRGenImpl::genGridScalar(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (inGrid) {
    error(loc) << "'" << name << "' cannot be used in a grid expression";
    return Val::failure();
  }
  if (failed(checkArgs(call, 1, 1, {})))
    return Val::failure();
  std::optional<int64_t> axis = constInt(*call.getArgs()[0], "grid axis");
  if (!axis)
    return Val::failure();
  if (*axis < 0 || *axis > 2) {
    error(call.getArgs()[0]->getLoc())
        << "grid axis must be 0, 1 or 2, got " << *axis;
    return Val::failure();
  }
  if (name == "block_id")
    return Val{t::BlockIdOp::create(builder, loc, *axis), {}};
  return Val{t::NumBlocksOp::create(builder, loc, *axis), {}};
}

/// dim(view, axis), num_tiles(view, axis, tile size).
Val MLIRGenImpl::genViewSize(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  const ExprList &args = call.getArgs();
  bool tiles = name == "num_tiles";
  if (failed(checkArgs(call, tiles ? 3 : 2, tiles ? 3 : 2, {})))
    return Val::failure();
  Value view = viewArg(*args[0], name);
  if (!view)
    return Val::failure();
  std::optional<int64_t> axis = constInt(*args[1], "axis");
  if (!axis)
    return Val::failure();
  int64_t rank = cast<t::ViewType>(view.getType()).getRank();
  if (*axis < 0 || *axis >= rank) {
    error(args[1]->getLoc())
        << "axis " << *axis << " is out of range for a view of rank " << rank;
    return Val::failure();
  }
  if (!tiles)
    return Val{t::DimOp::create(builder, loc, view, *axis), {}};
  std::optional<int64_t> size = constInt(*args[2], "tile size");
  if (!size)
    return Val::failure();
  if (*size <= 0) {
    error(args[2]->getLoc()) << "tile size must be positive, got " << *size;
    return Val::failure();
  }
  return Val{t::NumTilesOp::create(builder, loc, view, *axis, *size), {}};
}

/// cdiv(a, b): the ceiling of a / b for a >= 0, b > 0.
Val MLIRGenImpl::genCdiv(const CallExprAST &call) {
  Location loc = call.getLoc();
  const ExprList &args = call.getArgs();
  if (failed(checkArgs(call, 2, 2, {})))
    return Val::failure();
  Val a = genExpr(*args[0]);
  Val b = genExpr(*args[1]);
  if (a.failed() || b.failed())
    return Val::failure();
  if (a.isConst() && b.isConst() && a.cst->kind == Const::Kind::Int &&
      b.cst->kind == Const::Kind::Int) {
    if (b.cst->i <= 0 || a.cst->i < 0) {
      error(loc) << "cdiv needs a >= 0 and b > 0, got " << a.cst->i << " and "
                 << b.cst->i;
      return Val::failure();
    }
    int64_t x = a.cst->i, y = b.cst->i;
    return Val{{}, Const::ofInt(x / y + (x % y != 0))};
  }
  if (b.isConst() && b.cst->kind == Const::Kind::Int && b.cst->i <= 0) {
    error(args[1]->getLoc()) << "cdiv needs a divisor b > 0, got " << b.cst->i;
    return Val::failure();
  }
  Value x = indexValue(a, args[0]->getLoc(), "cdiv operand");
  Value y = x ? indexValue(b, args[1]->getLoc(), "cdiv operand") : Value();
  if (!y)
    return Val::failure();
  return Val{t::CdivOp::create(builder, loc, x, y), {}};
}

Val MLIRGenImpl::genCast(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 2, 2, {})))
    return Val::failure();
  Val v = genExpr(*call.getArgs()[0]);
  if (v.failed())
    return v;
  Val tv = genExpr(*call.getArgs()[1]);
  if (tv.failed())
    return tv;
  if (!tv.isConst() || tv.cst->kind != Const::Kind::Type) {
    error(call.getArgs()[1]->getLoc())
        << "cast target must be a type such as f32 or bf16";
    return Val::failure();
  }
  Type to = tv.cst->type;
  if (v.isConst()) {
    // Constants convert at compile time; index results stay constants.
    const Const &c = *v.cst;
    if (c.kind == Const::Kind::Type) {
      error(loc) << "cannot cast a type";
      return Val::failure();
    }
    double d = c.kind == Const::Kind::Bool ? double(c.b) : c.asDouble();
    if (isa<FloatType>(to))
      return Val{materialize(Const::ofFloat(d), to, loc), {}};
    if (to.isInteger(1))
      return Val{materialize(Const::ofBool(d != 0), to, loc), {}};
    if (!(d >= -9.2e18 && d <= 9.2e18)) {
      error(loc) << "cannot cast " << d << " to " << to;
      return Val::failure();
    }
    Const i = c.kind == Const::Kind::Int ? c : Const::ofInt(int64_t(d));
    if (to.isIndex())
      return Val{{}, i};
    return Val{materialize(i, to, loc), {}};
  }
  if (isa<t::ViewType>(v.value.getType())) {
    error(loc) << "cannot cast a view";
    return Val::failure();
  }
  if (isa<RankedTensorType>(v.value.getType()) && to.isIndex()) {
    error(loc) << "tiles of index do not exist; cast to i32";
    return Val::failure();
  }
  return Val{castTo(v.value, to, loc), {}};
}
