//===- MLIRGen.cpp - .tile AST to the tile dialect ------------------------===//
//
// Walks the AST with a scoped symbol table and emits `tile` ops, upstream
// `arith`/`math` ops on tiles (ranked tensors) and scalars, and `scf` loops.
//
// Compile-time constants (literals, `const`s, and arithmetic on them) stay
// unmaterialised `Val`s until they meet a typed value: a literal takes the
// element type of the tile it meets, and shapes, axes and permutations are
// read straight from them.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Frontend/MLIRGen.h"
#include "tilegym/Frontend/Lexer.h"

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/AST.h"
#include "tilegym/Runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <deque>
#include <limits>

using namespace mlir;
using namespace tilegym;
namespace t = tilegym::tile;

namespace {

//===----------------------------------------------------------------------===//
// Values of expressions
//===----------------------------------------------------------------------===//

/// A compile-time constant: an integer, a float, a boolean or a type.
struct Const {
  enum class Kind { Int, Float, Bool, Type } kind = Kind::Int;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  Type type;

  static Const ofInt(int64_t v) { return {Kind::Int, v, 0, false, {}}; }
  static Const ofFloat(double v) { return {Kind::Float, 0, v, false, {}}; }
  static Const ofBool(bool v) { return {Kind::Bool, 0, 0, v, {}}; }
  static Const ofType(Type ty) { return {Kind::Type, 0, 0, false, ty}; }
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double asDouble() const { return kind == Kind::Float ? f : double(i); }
};

/// The value of an expression: an SSA value, or a constant not yet given a
/// type. `failed()` marks an expression whose error was already reported.
struct Val {
  Value value;
  std::optional<Const> cst;

  static Val failure() { return {}; }
  bool failed() const { return !value && !cst; }
  bool isConst() const { return !value && cst; }
};

/// A name in scope.
struct Binding {
  Val val;
  bool isVar = false;
};

StringRef kindName(const Const &c) {
  switch (c.kind) {
  case Const::Kind::Int:
    return "an integer constant";
  case Const::Kind::Float:
    return "a float constant";
  case Const::Kind::Bool:
    return "a boolean constant";
  case Const::Kind::Type:
    return "a type";
  }
  return "";
}

/// `f32`, `tensor<4x8xf32>` or `!tile.view<?xf32>` as the user would say it.
std::string describe(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tile = dyn_cast<RankedTensorType>(type)) {
    os << "tile [";
    llvm::interleaveComma(tile.getShape(), os);
    os << "] " << tile.getElementType();
  } else if (auto view = dyn_cast<t::ViewType>(type)) {
    os << "view<";
    for (int64_t d : view.getShape())
      os << (ShapedType::isDynamic(d) ? "?" : std::to_string(d)) << "x";
    os << view.getElementType() << ">";
  } else {
    os << type;
  }
  return s;
}

Type elementTypeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getElementType();
  return type;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getShape();
  return {};
}

bool isFloatLike(Type type) { return isa<FloatType>(elementTypeOf(type)); }

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

class MLIRGenImpl {
public:
  MLIRGenImpl(MLIRContext &context, const Defines &defines,
              const FrontendOptions &options)
      : builder(&context), defines(defines), options(options) {}

  OwningOpRef<ModuleOp> generate(const ModuleAST &ast);

private:
  OpBuilder builder;
  const Defines &defines;
  const FrontendOptions &options;
  llvm::StringSet<> usedDefines;
  unsigned numErrors = 0;
  /// File-level consts, recorded on the module for runtimes and bundles.
  NamedAttrList fileConsts;
  NamedAttrList tuneSpace; // `tune NAME in [...]`: kTuneSpaceAttr

  using SymbolTable = llvm::ScopedHashTable<StringRef, Binding *>;
  SymbolTable symbols;
  /// Set while generating a grid function, where no block is running.
  bool inGrid = false;
  std::deque<Binding> bindings;
  /// Names declared in each open scope, to reject redefinitions.
  std::vector<llvm::StringSet<>> declared;

  struct Scope {
    Scope(MLIRGenImpl &gen) : gen(gen), scope(gen.symbols) {
      gen.declared.emplace_back();
    }
    ~Scope() { gen.declared.pop_back(); }
    MLIRGenImpl &gen;
    llvm::ScopedHashTableScope<StringRef, Binding *> scope;
  };

  InFlightDiagnostic error(Location loc) {
    ++numErrors;
    return emitError(loc);
  }

  // Declarations.
  Attribute constAttr(const Const &c);
  LogicalResult declare(StringRef name, Val val, bool isVar, Location loc);
  LogicalResult genConstDecl(const ConstDeclAST &decl);
  std::optional<Const> parseDefine(StringRef name, StringRef text,
                                   Location loc);
  /// A type name, with floats promoted to f64 under floatsAsF64.
  Type resolveType(StringRef name, Location loc);
  Type resolveTypeAsWritten(StringRef name, Location loc);
  /// The default float type: f32, or f64 under floatsAsF64.
  Type defaultFloatType() {
    return options.floatsAsF64 ? Type(builder.getF64Type())
                               : Type(builder.getF32Type());
  }
  Type genType(const TypeAST &type);
  Value genIntegerDivision(bool quotient, Value a, Value b, Location loc);
  /// Tile shapes within kMaxTileElements and kMaxRank, sizes positive.
  LogicalResult checkShape(ArrayRef<int64_t> shape, Location loc);
  LogicalResult genKernel(const KernelAST &kernel, ModuleOp module);
  Attribute genProgram(const ProgramDeclAST &program, ModuleOp module,
                       const llvm::StringSet<> &kernelNames,
                       const NamedAttrList &earlier);
  LogicalResult declareDimNames(const KernelAST &kernel, Block *entry,
                                func::FuncOp kernelFn);
  LogicalResult genParamDefaults(const KernelAST &kernel,
                                 func::FuncOp kernelFn);
  LogicalResult genGridFunction(const KernelAST &kernel,
                                ArrayRef<Type> paramTypes, StringRef name,
                                ModuleOp module);

  // Statements.
  LogicalResult genBlock(const StmtList &stmts, bool kernelBody = false);
  LogicalResult genStmt(const StmtAST &stmt);
  LogicalResult genAssign(const AssignStmtAST &stmt);
  LogicalResult genFor(const ForStmtAST &stmt);
  LogicalResult genIf(const IfStmtAST &stmt);
  void collectAssigned(const StmtList &stmts, llvm::StringSet<> &locals,
                       llvm::SetVector<Binding *> &out);

  // Expressions.
  Val genExpr(const ExprAST &expr);
  Val genUnary(const UnaryExprAST &expr);
  Val genBinary(const BinaryExprAST &expr);
  Val genBinaryOp(BinaryOp op, Val lhs, Val rhs, Location loc);
  Val genTernary(const TernaryExprAST &expr);
  Val genCall(const CallExprAST &call);

  // Constants and conversions.
  std::optional<Const> foldBinary(BinaryOp op, const Const &a, const Const &b,
                                  Location loc);
  Value materialize(const Const &c, Type elementType, Location loc);
  Value materializeDefault(Val v, Location loc);
  Value convertScalarTo(Val v, Type elementType, Location loc);
  Value castTo(Value v, Type elementType, Location loc);
  LogicalResult unify(Val &lhs, Val &rhs, Location loc, Value &a, Value &b);
  std::optional<SmallVector<int64_t>>
  broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b, Location loc);
  Value broadcastTo(Value v, ArrayRef<int64_t> shape, Location loc);
  Value indexValue(Val v, Location loc, StringRef what);

  // Builtin helpers.
  std::optional<int64_t> constInt(const ExprAST &expr, StringRef what);
  std::optional<SmallVector<int64_t>> constIntList(const ExprAST &expr,
                                                   StringRef what);
  Type constType(const ExprAST &expr, StringRef what);
  Value viewArg(const ExprAST &expr, StringRef callee);
  Value tileArg(const ExprAST &expr, StringRef callee, StringRef what);
  std::optional<SmallVector<Value>> indexList(const ExprAST &expr,
                                              StringRef callee, int64_t rank);
  std::optional<SmallVector<int64_t>> tileShapeArg(const ExprAST &expr,
                                                   t::ViewType view);
  std::optional<std::pair<Value, SmallVector<Value>>>
  tileAccessArgs(const CallExprAST &call);
  std::optional<TypedAttr> paddingAttr(const CallExprAST &call,
                                       Type elementType);
  const ExprAST *keyword(const CallExprAST &call, StringRef name);
  LogicalResult checkArgs(const CallExprAST &call, size_t min, size_t max,
                          ArrayRef<StringRef> keywords);
  Val genMath(const CallExprAST &call);
  Val genReduce(const CallExprAST &call, t::ReduceKind kind);
  Val genMinMax(const CallExprAST &call, bool isMax);
  Val genLoad(const CallExprAST &call);
  Val genStore(const CallExprAST &call);
  Val genPrefetch(const CallExprAST &call);
  Val genGatherScatter(const CallExprAST &call, bool isScatter);
  Val genDot(Value a, Value b, Value acc, Location loc);
  Val genCast(const CallExprAST &call);
  Val genWhere(const CallExprAST &call);
  Val genShapeOp(const CallExprAST &call);
};

} // namespace

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::declare(StringRef name, Val val, bool isVar,
                                   Location loc) {
  if (!declared.back().insert(name).second)
    return error(loc) << "redefinition of '" << name << "' in the same scope";
  bindings.push_back({val, isVar});
  symbols.insert(name, &bindings.back());
  return success();
}

Attribute MLIRGenImpl::constAttr(const Const &c) {
  switch (c.kind) {
  case Const::Kind::Int:
    return builder.getI64IntegerAttr(c.i);
  case Const::Kind::Float:
    return builder.getF64FloatAttr(c.f);
  case Const::Kind::Bool:
    return builder.getBoolAttr(c.b);
  case Const::Kind::Type:
    return TypeAttr::get(c.type);
  }
  return {};
}

std::optional<Const> MLIRGenImpl::parseDefine(StringRef name, StringRef text,
                                              Location loc) {
  int64_t i;
  double f;
  if (!text.getAsInteger(0, i))
    return Const::ofInt(i);
  // Digits alone that did not convert are an integer out of range, not a
  // float: BLOCK=99999999999999999999 must not become 1e20.
  StringRef digits = text.starts_with("-") ? text.drop_front() : text;
  if (!digits.empty() &&
      digits.find_first_not_of("0123456789") == StringRef::npos) {
    error(loc) << "-D " << name << "=" << text
               << ": integer out of range (64-bit signed)";
    return std::nullopt;
  }
  if (text == "true" || text == "false")
    return Const::ofBool(text == "true");
  if (parseFloatLiteral(text, f))
    return Const::ofFloat(f);
  for (StringRef ty : {"f32", "f16", "bf16", "i32", "i1", "index"})
    if (text == ty)
      return Const::ofType(resolveType(ty, loc));
  error(loc) << "-D " << name << "=" << text
             << ": expected an integer, a float, true/false or a type name";
  return std::nullopt;
}

LogicalResult MLIRGenImpl::genConstDecl(const ConstDeclAST &decl) {
  Location loc = decl.getLoc();
  std::optional<Const> value;
  auto it = defines.find(decl.getName().str());
  if (it != defines.end() && declared.size() == 1) {
    // -D overrides only the file-level consts.
    usedDefines.insert(decl.getName());
    value = parseDefine(decl.getName(), it->second, loc);
  } else if (!decl.getAlternatives().empty()) {
    value = parseDefine(decl.getName(), decl.getAlternatives().front(), loc);
  } else if (const TypeAST *type = decl.getType()) {
    if (type->isView())
      return error(loc) << "const '" << decl.getName()
                        << "' must be a scalar type, not a view type";
    if (Type ty = genType(*type))
      value = Const::ofType(ty);
  } else {
    Val v = genExpr(*decl.getValue());
    if (v.failed())
      return failure();
    if (!v.isConst())
      return error(decl.getValue()->getLoc())
             << "const '" << decl.getName()
             << "' needs a compile-time constant value, found a runtime "
             << describe(v.value.getType());
    value = v.cst;
  }
  if (!value)
    return failure();
  if (declared.size() == 1)
    fileConsts.set(decl.getName(), constAttr(*value));
  if (!decl.getAlternatives().empty()) {
    SmallVector<Attribute> values;
    for (const std::string &v : decl.getAlternatives())
      values.push_back(builder.getStringAttr(v));
    tuneSpace.set(decl.getName(), builder.getArrayAttr(values));
  }
  return declare(decl.getName(), Val{Value(), value}, /*isVar=*/false, loc);
}

Type MLIRGenImpl::resolveType(StringRef name, Location loc) {
  Type type = resolveTypeAsWritten(name, loc);
  if (options.floatsAsF64 && isa_and_nonnull<FloatType>(type))
    return builder.getF64Type();
  return type;
}

Type MLIRGenImpl::resolveTypeAsWritten(StringRef name, Location loc) {
  MLIRContext *ctx = builder.getContext();
  if (name == "f32")
    return Float32Type::get(ctx);
  if (name == "f16")
    return Float16Type::get(ctx);
  if (name == "bf16")
    return BFloat16Type::get(ctx);
  if (name == "i32")
    return IntegerType::get(ctx, 32);
  if (name == "i1")
    return IntegerType::get(ctx, 1);
  if (name == "index")
    return IndexType::get(ctx);
  Binding *b = symbols.lookup(name);
  if (b && b->val.isConst() && b->val.cst->kind == Const::Kind::Type)
    return b->val.cst->type;
  if (b)
    error(loc) << "'" << name << "' is not a type";
  else
    error(loc) << "unknown type '" << name
               << "'; expected f32, f16, bf16, i32, i1, index or a type const";
  return {};
}

/// Integer `/` and `%` truncate, as C does, and are defined everywhere:
/// x / 0 = 0 and x % 0 = x; MIN / -1 wraps to MIN and MIN % -1 = 0. The
/// hardware divides only by a divisor that is neither 0 nor -1 (x86 traps on
/// both, PTX leaves them unspecified); a constant divisor folds the guards
/// away.
Value MLIRGenImpl::genIntegerDivision(bool quotient, Value a, Value b,
                                      Location loc) {
  // A constant divisor other than 0 and -1 needs no guard (0 and -1 still
  // take the general path, which folds to the defined result).
  APInt divisor;
  Value scalar = b;
  if (auto splat = b.getDefiningOp<t::SplatOp>())
    scalar = splat.getOperand();
  if (matchPattern(scalar, m_ConstantInt(&divisor)) && !divisor.isZero() &&
      !divisor.isAllOnes()) {
    if (quotient)
      return arith::DivSIOp::create(builder, loc, a, b);
    return arith::RemSIOp::create(builder, loc, a, b);
  }
  Type type = a.getType();
  Value zero = materialize(Const::ofInt(0), type, loc);
  Value one = materialize(Const::ofInt(1), type, loc);
  Value minusOne = materialize(Const::ofInt(-1), type, loc);
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, x, y);
  };
  Value byZero = eq(b, zero), byMinusOne = eq(b, minusOne);
  Value safe = arith::SelectOp::create(
      builder, loc, arith::OrIOp::create(builder, loc, byZero, byMinusOne), one,
      b);
  if (!quotient) {
    Value r = arith::RemSIOp::create(builder, loc, a, safe);
    return arith::SelectOp::create(builder, loc, byZero, a, r);
  }
  Value q = arith::DivSIOp::create(builder, loc, a, safe);
  Value negated = arith::SubIOp::create(builder, loc, zero, a);
  q = arith::SelectOp::create(builder, loc, byMinusOne, negated, q);
  return arith::SelectOp::create(builder, loc, byZero, zero, q);
}

LogicalResult MLIRGenImpl::checkShape(ArrayRef<int64_t> shape, Location loc) {
  std::string message;
  if (!t::checkTileShape(shape, message))
    return error(loc) << message;
  return success();
}

Type MLIRGenImpl::genType(const TypeAST &type) {
  Type element = resolveType(type.getElementType(), type.getLoc());
  if (!element || !type.isView())
    return element;
  if (element.isIndex()) {
    error(type.getLoc()) << "view element type must be f32, f16, bf16, i32 "
                            "or i1, not index";
    return {};
  }
  SmallVector<int64_t> shape;
  for (auto [d, name] : llvm::zip(type.getDims(), type.getDimNames())) {
    if (name.empty()) {
      shape.push_back(d == TypeAST::kDynamic ? ShapedType::kDynamic : d);
      continue;
    }
    // A name is a const (the size is static) or a size the launch gives.
    Binding *b = symbols.lookup(name);
    if (!b) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (!b->val.isConst() || b->val.cst->kind != Const::Kind::Int) {
      error(type.getLoc()) << "view dimension '" << name << "' names "
                           << (b->val.isConst() ? kindName(*b->val.cst)
                                                : StringRef("a parameter"))
                           << "; expected a new size name or an integer const";
      return {};
    }
    if (b->val.cst->i < 0) {
      error(type.getLoc()) << "view dimension '" << name << "' is "
                           << b->val.cst->i << "; a size cannot be negative";
      return {};
    }
    shape.push_back(b->val.cst->i);
  }
  if (shape.empty()) {
    error(type.getLoc()) << "view must have at least one dimension";
    return {};
  }
  if (int64_t(shape.size()) > t::kMaxRank) {
    error(type.getLoc()) << "view rank " << shape.size()
                         << " exceeds the limit of " << t::kMaxRank;
    return {};
  }
  return t::ViewType::get(builder.getContext(), shape, element);
}

LogicalResult MLIRGenImpl::genKernel(const KernelAST &kernel, ModuleOp module) {
  Location loc = kernel.getLoc();
  Scope scope(*this);
  SmallVector<Type> paramTypes;
  for (const ParamAST &param : kernel.getParams()) {
    Type type = genType(param.type);
    if (!type)
      return failure();
    paramTypes.push_back(type);
  }

  std::string gridName = (kernel.getName() + "__grid").str();
  if (failed(genGridFunction(kernel, paramTypes, gridName, module)))
    return failure();

  int64_t warps = 4;
  if (const ExprAST *w = kernel.getWarps()) {
    std::optional<int64_t> n = constInt(*w, "warps");
    if (!n)
      return failure();
    if (*n < 1 || *n > 32 || (*n & (*n - 1)))
      return error(w->getLoc()) << "warps must be a power of two from 1 to "
                                   "32, got "
                                << *n;
    warps = *n;
  }
  std::optional<int64_t> stages;
  if (const ExprAST *s = kernel.getStages()) {
    stages = constInt(*s, "stages");
    if (!stages)
      return failure();
    if (*stages < t::kMinPipelineStages || *stages > t::kMaxPipelineStages)
      return error(s->getLoc())
             << "stages must be from " << t::kMinPipelineStages << " to "
             << t::kMaxPipelineStages << ", got " << *stages;
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc, kernel.getName(),
                                   builder.getFunctionType(paramTypes, {}));
  func->setAttr(t::kKernelAttr, builder.getUnitAttr());
  func->setAttr(t::kGridFnAttr,
                FlatSymbolRefAttr::get(builder.getContext(), gridName));
  func->setAttr(t::kNumWarpsAttr, builder.getI64IntegerAttr(warps));
  SmallVector<Attribute> names;
  for (const ParamAST &param : kernel.getParams())
    names.push_back(builder.getStringAttr(param.name));
  func->setAttr(t::kParamNamesAttr, builder.getArrayAttr(names));
  if (stages)
    func->setAttr(t::kPipelineStagesAttr, builder.getI64IntegerAttr(*stages));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  Scope body(*this);
  for (auto [param, arg] :
       llvm::zip(kernel.getParams(), entry->getArguments())) {
    // Each argument keeps its parameter's location, for errors about it.
    arg.setLoc(param.loc);
    if (failed(declare(param.name, Val{arg, {}}, false, param.loc)))
      return failure();
  }
  if (failed(declareDimNames(kernel, entry, func)) ||
      failed(genParamDefaults(kernel, func)))
    return failure();
  if (failed(genBlock(kernel.getBody(), /*kernelBody=*/true)))
    return failure();
  func::ReturnOp::create(builder, loc);
  return success();
}

/// Binds each dynamic dimension name to its size (`tile.dim` of the first
/// view that names it), as an index scalar usable in the body and the grid;
/// on the kernel function (`kernelFn`), records the names as kDimNamesAttr.
LogicalResult MLIRGenImpl::declareDimNames(const KernelAST &kernel,
                                           Block *entry,
                                           func::FuncOp kernelFn) {
  llvm::StringSet<> bound;
  for (auto [i, param] : llvm::enumerate(kernel.getParams())) {
    if (!param.type.isView())
      continue;
    const std::vector<std::string> &names = param.type.getDimNames();
    if (llvm::all_of(names, [](const std::string &n) { return n.empty(); }))
      continue;
    Value view = entry->getArgument(i);
    auto viewType = cast<t::ViewType>(view.getType());
    SmallVector<Attribute> attrs;
    for (auto [axis, name] : llvm::enumerate(names)) {
      // A name given by a const made the dimension static: nothing to bind.
      bool isSizeName = !name.empty() && viewType.isDynamicDim(axis);
      attrs.push_back(builder.getStringAttr(isSizeName ? name : ""));
      if (!isSizeName || !bound.insert(name).second)
        continue;
      if (declared.back().contains(name))
        return error(param.loc)
               << "view dimension '" << name << "' has the name of a parameter";
      Value size = t::DimOp::create(builder, param.loc, view, axis);
      if (failed(declare(name, Val{size, {}}, false, param.loc)))
        return failure();
    }
    if (kernelFn)
      kernelFn.setArgAttr(i, t::kDimNamesAttr, builder.getArrayAttr(attrs));
  }
  return success();
}

/// Folds each scalar parameter's `= expr` to a constant of its type and
/// records it as the argument's kDefaultAttr.
LogicalResult MLIRGenImpl::genParamDefaults(const KernelAST &kernel,
                                            func::FuncOp kernelFn) {
  for (auto [i, param] : llvm::enumerate(kernel.getParams())) {
    if (!param.defaultValue)
      continue;
    Type type = kernelFn.getArgumentTypes()[i];
    Val v;
    {
      // Folding builds no ops, but a runtime expression would: keep them
      // out of the kernel.
      Block scratch;
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&scratch);
      v = genExpr(*param.defaultValue);
    }
    if (v.failed())
      return failure();
    Location loc = param.defaultValue->getLoc();
    if (!v.isConst() || v.cst->kind == Const::Kind::Type)
      return error(loc) << "default of '" << param.name
                        << "' must be a compile-time number or boolean";
    const Const &c = *v.cst;
    TypedAttr attr;
    if (auto f = dyn_cast<FloatType>(type)) {
      if (!c.isNumber())
        return error(loc) << "default of '" << param.name << "' must be a "
                          << "number for a " << describe(type) << " parameter";
      attr = builder.getFloatAttr(f, c.asDouble());
    } else if (type.isInteger(1)) {
      if (c.kind != Const::Kind::Bool)
        return error(loc) << "default of '" << param.name
                          << "' must be true or false for an i1 parameter";
      attr = builder.getBoolAttr(c.b);
    } else {
      if (c.kind != Const::Kind::Int)
        return error(loc) << "default of '" << param.name
                          << "' must be an integer for a " << describe(type)
                          << " parameter";
      if (type.isInteger(32) && (c.i < INT32_MIN || c.i > INT32_MAX))
        return error(loc) << "default " << c.i << " of '" << param.name
                          << "' does not fit in i32";
      attr = builder.getIntegerAttr(type, c.i);
    }
    kernelFn.setArgAttr(i, t::kDefaultAttr, attr);
  }
  return success();
}

/// `@<kernel>__grid(params) -> (index, index, index)`: the launch grid as a
/// function of the arguments, so every backend evaluates the same thing.
LogicalResult MLIRGenImpl::genGridFunction(const KernelAST &kernel,
                                           ArrayRef<Type> paramTypes,
                                           StringRef name, ModuleOp module) {
  Location loc = kernel.getLoc();
  builder.setInsertionPointToEnd(module.getBody());
  Type index = builder.getIndexType();
  auto func = func::FuncOp::create(
      builder, loc, name,
      builder.getFunctionType(paramTypes, {index, index, index}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Scope scope(*this);
  for (auto [param, arg] : llvm::zip(kernel.getParams(), entry->getArguments()))
    if (failed(declare(param.name, Val{arg, {}}, false, param.loc)))
      return failure();
  if (failed(declareDimNames(kernel, entry, /*kernelFn=*/{})))
    return failure();
  SmallVector<Value> sizes;
  llvm::SaveAndRestore<bool> gridScope(inGrid, true);
  static const char *axes[] = {"x", "y", "z"};
  const int64_t *limits = runtime::kMaxGridSize;
  for (const auto &expr : kernel.getGrid()) {
    Val v = genExpr(*expr);
    if (v.failed())
      return failure();
    // A constant size is checked against CUDA's launch limits here, where
    // the source can be pointed at; runtime sizes are checked at launch
    // (runtime::checkGridLimits), which accepts an empty grid. A constant 0
    // is refused: the kernel would never run.
    if (v.isConst() && v.cst->kind == Const::Kind::Int) {
      size_t d = sizes.size();
      if (v.cst->i < 1 || v.cst->i > limits[d])
        return error(expr->getLoc())
               << "grid size " << axes[d] << " = " << v.cst->i
               << " is outside [1, " << limits[d] << "] (CUDA's launch limit)";
    }
    Value size = indexValue(v, expr->getLoc(), "grid size");
    if (!size)
      return failure();
    sizes.push_back(size);
  }
  while (sizes.size() < 3)
    sizes.push_back(arith::ConstantIndexOp::create(builder, loc, 1));
  func::ReturnOp::create(builder, loc, sizes);
  return success();
}

/// The kernels of `program` as an array of symbols, or null after an error
/// at the program or at the kernel it is about.
Attribute MLIRGenImpl::genProgram(const ProgramDeclAST &program,
                                  ModuleOp module,
                                  const llvm::StringSet<> &kernelNames,
                                  const NamedAttrList &earlier) {
  StringRef name = program.getName();
  if (earlier.get(name)) {
    error(program.getLoc()) << "redefinition of program '" << name << "'";
    return nullptr;
  }
  if (kernelNames.contains(name)) {
    error(program.getLoc())
        << "program '" << name << "' has the name of a kernel";
    return nullptr;
  }
  SmallVector<Attribute> kernels;
  for (const ProgramDeclAST::KernelRef &k : program.getKernels()) {
    if (!kernelNames.contains(k.name)) {
      error(k.loc) << "program '" << name << "' runs '" << k.name
                   << "', which is not a kernel of this file";
      return nullptr;
    }
    kernels.push_back(FlatSymbolRefAttr::get(builder.getContext(), k.name));
  }
  ArrayAttr list = builder.getArrayAttr(kernels);
  if (failed(t::verifyProgram(module, name, list,
                              [&] { return error(program.getLoc()); })))
    return nullptr;
  return list;
}

OwningOpRef<ModuleOp> MLIRGenImpl::generate(const ModuleAST &ast) {
  MLIRContext *ctx = builder.getContext();
  ctx->loadDialect<t::TileDialect, arith::ArithDialect, math::MathDialect,
                   scf::SCFDialect, func::FuncDialect>();
  Location fileLoc = builder.getUnknownLoc();
  if (!ast.getDecls().empty())
    fileLoc = ast.getDecls().front()->getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);

  Scope global(*this);
  llvm::StringSet<> kernelNames;
  for (const auto &decl : ast.getDecls()) {
    if (auto *c = dyn_cast<ConstDeclAST>(decl.get())) {
      // A file-level const whose value is not constant (`block_id(0) - 1`)
      // builds runtime ops before it is refused: they go into a scratch
      // block, destroyed with it, instead of leaking unattached.
      Block scratch;
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&scratch);
      (void)genConstDecl(*c);
      continue;
    }
    if (isa<ProgramDeclAST>(decl.get()))
      continue; // After every kernel: programs may name later ones.
    auto *k = cast<KernelAST>(decl.get());
    if (!kernelNames.insert(k->getName()).second) {
      error(k->getLoc()) << "redefinition of kernel '" << k->getName() << "'";
      continue;
    }
    if (k->getName().ends_with("__grid")) {
      error(k->getLoc()) << "kernel names ending in '__grid' are reserved for "
                            "grid functions";
      continue;
    }
    (void)genKernel(*k, *module);
  }
  for (const auto &define : defines)
    if (!usedDefines.contains(define.first))
      error(fileLoc) << "-D " << define.first
                     << " does not name a file-level const";
  // Programs are checked against the kernels' signatures, so only once
  // every kernel was generated.
  NamedAttrList programs;
  for (const auto &decl : ast.getDecls())
    if (auto *p = dyn_cast<ProgramDeclAST>(decl.get()); p && !numErrors)
      if (Attribute kernels = genProgram(*p, *module, kernelNames, programs))
        programs.append(p->getName(), kernels);
  if (numErrors)
    return nullptr;
  (*module)->setAttr(t::kConstsAttr, fileConsts.getDictionary(ctx));
  if (!programs.empty())
    (*module)->setAttr(t::kProgramsAttr, programs.getDictionary(ctx));
  if (!tuneSpace.empty())
    (*module)->setAttr(t::kTuneSpaceAttr, tuneSpace.getDictionary(ctx));
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::genBlock(const StmtList &stmts, bool kernelBody) {
  for (const auto &stmt : stmts) {
    if (isa<ReturnStmtAST>(stmt.get())) {
      if (&stmt != &stmts.back())
        return error(stmt->getLoc()) << "unreachable code after 'return'";
      if (!kernelBody)
        return error(stmt->getLoc())
               << "'return' is only allowed at the top level of a kernel";
      return success();
    }
    if (failed(genStmt(*stmt)))
      return failure();
  }
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
    break; // handled by genBlock
  }
  return success();
}

LogicalResult MLIRGenImpl::genAssign(const AssignStmtAST &stmt) {
  Binding *b = symbols.lookup(stmt.getName());
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
/// what a loop carries or an `if` yields.
void MLIRGenImpl::collectAssigned(const StmtList &stmts,
                                  llvm::StringSet<> &locals,
                                  llvm::SetVector<Binding *> &out) {
  for (const auto &stmt : stmts) {
    if (auto *let = dyn_cast<LetStmtAST>(stmt.get()))
      locals.insert(let->getName());
    else if (auto *var = dyn_cast<VarStmtAST>(stmt.get()))
      locals.insert(var->getName());
    else if (auto *c = dyn_cast<ConstStmtAST>(stmt.get()))
      locals.insert(c->getDecl().getName());
    else if (auto *assign = dyn_cast<AssignStmtAST>(stmt.get())) {
      if (locals.contains(assign->getName()))
        continue;
      if (Binding *b = symbols.lookup(assign->getName()); b && b->isVar)
        out.insert(b);
    } else if (auto *loop = dyn_cast<ForStmtAST>(stmt.get())) {
      llvm::StringSet<> inner = locals;
      inner.insert(loop->getInductionVar());
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

  llvm::StringSet<> locals;
  locals.insert(stmt.getInductionVar());
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

  llvm::StringSet<> locals;
  llvm::SetVector<Binding *> yielded;
  collectAssigned(stmt.getThenBody(), locals, yielded);
  if (stmt.getElseBody()) {
    llvm::StringSet<> elseLocals;
    collectAssigned(*stmt.getElseBody(), elseLocals, yielded);
  }
  SmallVector<Type> types;
  SmallVector<Value> before;
  for (Binding *b : yielded) {
    types.push_back(b->val.value.getType());
    before.push_back(b->val.value);
  }
  bool withElse = stmt.getElseBody() || !yielded.empty();
  auto op = scf::IfOp::create(builder, loc, types, cond.value, withElse);
  auto genBranch = [&](Block *block, const StmtList *body) -> LogicalResult {
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
  if (failed(genBranch(op.thenBlock(), &stmt.getThenBody())))
    return failure();
  if (withElse && failed(genBranch(op.elseBlock(), stmt.getElseBody())))
    return failure();
  for (auto [b, result] : llvm::zip(yielded, op.getResults()))
    b->val = Val{result, {}};
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

Value MLIRGenImpl::materialize(const Const &c, Type type, Location loc) {
  Type element = elementTypeOf(type);
  auto splatIfTile = [&](TypedAttr scalar) -> Value {
    if (auto tile = dyn_cast<RankedTensorType>(type))
      return arith::ConstantOp::create(
          builder, loc, DenseElementsAttr::get(tile, cast<Attribute>(scalar)));
    return arith::ConstantOp::create(builder, loc, scalar);
  };
  switch (c.kind) {
  case Const::Kind::Type:
    error(loc) << "a type cannot be used as a value";
    return {};
  case Const::Kind::Bool:
    if (!element.isInteger(1)) {
      error(loc) << "boolean constant used where " << describe(type)
                 << " is expected";
      return {};
    }
    return splatIfTile(builder.getBoolAttr(c.b));
  case Const::Kind::Int:
  case Const::Kind::Float:
    if (auto ft = dyn_cast<FloatType>(element))
      return splatIfTile(builder.getFloatAttr(ft, c.asDouble()));
    if (c.kind == Const::Kind::Float) {
      error(loc) << "float constant used where " << describe(type)
                 << " is expected; use cast";
      return {};
    }
    if (element.isInteger(1) && (c.i == 0 || c.i == 1))
      return splatIfTile(builder.getBoolAttr(c.i));
    if (element.isIndex() || element.isInteger(32)) {
      if (element.isInteger(32) &&
          (c.i > std::numeric_limits<int32_t>::max() ||
           c.i < std::numeric_limits<int32_t>::min())) {
        error(loc) << "integer constant " << c.i << " does not fit in i32";
        return {};
      }
      return splatIfTile(builder.getIntegerAttr(element, c.i));
    }
    error(loc) << "integer constant used where " << describe(type)
               << " is expected";
    return {};
  }
  return {};
}

Value MLIRGenImpl::materializeDefault(Val v, Location loc) {
  if (!v.isConst())
    return v.value;
  switch (v.cst->kind) {
  case Const::Kind::Int:
    return materialize(*v.cst, builder.getIndexType(), loc);
  case Const::Kind::Float:
    return materialize(*v.cst, defaultFloatType(), loc);
  case Const::Kind::Bool:
    return materialize(*v.cst, builder.getI1Type(), loc);
  case Const::Kind::Type:
    error(loc) << "a type cannot be used as a value";
    return {};
  }
  return {};
}

/// Converts an element type implicitly where the language allows it: index
/// scalars meet i32 tiles (the type GPU index arithmetic uses).
Value MLIRGenImpl::convertScalarTo(Val v, Type element, Location loc) {
  if (v.isConst())
    return materialize(*v.cst, element, loc);
  Type have = elementTypeOf(v.value.getType());
  if (have == element)
    return v.value;
  if ((have.isIndex() && element.isInteger(32)) ||
      (have.isInteger(32) && element.isIndex()))
    return castTo(v.value, element, loc);
  error(loc) << "mixed element types " << have << " and " << element
             << "; use cast";
  return {};
}

/// Explicit conversion of a scalar or tile to another element type.
Value MLIRGenImpl::castTo(Value v, Type to, Location loc) {
  Type from = elementTypeOf(v.getType());
  if (from == to)
    return v;
  Type result = to;
  if (auto tile = dyn_cast<RankedTensorType>(v.getType()))
    result = tile.clone(to);
  auto fromF = dyn_cast<FloatType>(from);
  auto toF = dyn_cast<FloatType>(to);
  if (fromF && toF) {
    if (fromF.getWidth() == toF.getWidth()) // f16 <-> bf16 goes through f32
      return castTo(castTo(v, builder.getF32Type(), loc), to, loc);
    if (fromF.getWidth() < toF.getWidth())
      return arith::ExtFOp::create(builder, loc, result, v);
    return arith::TruncFOp::create(builder, loc, result, v);
  }
  if (fromF && to.isInteger(1))
    return arith::CmpFOp::create(
        builder, loc, arith::CmpFPredicate::UNE, v,
        materialize(Const::ofFloat(0), v.getType(), loc));
  if (from.isInteger(1) && toF)
    return arith::UIToFPOp::create(builder, loc, result, v);
  if (from.isInteger(1) && to.isIndex())
    return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(builder, loc, result, v);
  if (to.isInteger(1))
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne, v,
        materialize(Const::ofInt(0), v.getType(), loc));
  if (from.isIndex() || to.isIndex()) {
    if (toF) // index -> float goes through i32
      return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
    if (fromF)
      return castTo(castTo(v, builder.getI32Type(), loc), to, loc);
    return arith::IndexCastOp::create(builder, loc, result, v);
  }
  if (fromF)
    return arith::FPToSIOp::create(builder, loc, result, v);
  return arith::SIToFPOp::create(builder, loc, result, v);
}

std::optional<SmallVector<int64_t>>
MLIRGenImpl::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                             Location loc) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) {
      auto diag = error(loc) << "cannot broadcast shapes [";
      llvm::interleaveComma(a, diag);
      diag << "] and [";
      llvm::interleaveComma(b, diag);
      diag << "]: dimension " << i << " is " << x << " vs " << y;
      return std::nullopt;
    }
    out[i] = std::max(x, y);
  }
  return out;
}

/// Splats a scalar, or right-aligns and stretches a tile, to `shape`.
Value MLIRGenImpl::broadcastTo(Value v, ArrayRef<int64_t> shape, Location loc) {
  Type element = elementTypeOf(v.getType());
  auto target = RankedTensorType::get(shape, element);
  if (v.getType() == target)
    return v;
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  if (!tile) {
    if (element.isIndex()) { // tiles of index do not exist: integers are i32
      v = castTo(v, builder.getI32Type(), loc);
      target = target.clone(builder.getI32Type());
    }
    return t::SplatOp::create(builder, loc, target, v);
  }
  if (static_cast<size_t>(tile.getRank()) < shape.size()) {
    SmallVector<int64_t> padded(shape.size() - tile.getRank(), 1);
    llvm::append_range(padded, tile.getShape());
    v = t::ReshapeOp::create(builder, loc,
                             RankedTensorType::get(padded, element), v);
  }
  if (v.getType() == target)
    return v;
  return t::BroadcastOp::create(builder, loc, target, v);
}

/// Brings two operands to one element type and one shape.
LogicalResult MLIRGenImpl::unify(Val &lhs, Val &rhs, Location loc, Value &a,
                                 Value &b) {
  for (Val *v : {&lhs, &rhs})
    if (!v->isConst() && isa<t::ViewType>(v->value.getType()))
      return error(loc) << "a view is not a value; load a tile from it first";
  // The element type comes from whichever side has one; constants adapt.
  Type element;
  if (!lhs.isConst() && !rhs.isConst()) {
    Type l = elementTypeOf(lhs.value.getType());
    Type r = elementTypeOf(rhs.value.getType());
    // An index scalar adapts to an i32 operand, never the other way round
    // for tiles (tiles of index do not exist).
    element = l;
    if (l != r) {
      bool lTile = isa<RankedTensorType>(lhs.value.getType());
      bool rTile = isa<RankedTensorType>(rhs.value.getType());
      if (l.isIndex() && r.isInteger(32))
        element = r;
      else if (!(r.isIndex() && l.isInteger(32)) || (rTile && !lTile)) {
        return error(loc) << "mixed element types: "
                          << describe(lhs.value.getType()) << " and "
                          << describe(rhs.value.getType()) << "; use cast";
      }
    }
  } else if (!lhs.isConst()) {
    element = elementTypeOf(lhs.value.getType());
  } else if (!rhs.isConst()) {
    element = elementTypeOf(rhs.value.getType());
  } else {
    Value l = materializeDefault(lhs, loc);
    Value r = materializeDefault(rhs, loc);
    if (!l || !r)
      return failure();
    lhs = Val{l, {}};
    rhs = Val{r, {}};
    return unify(lhs, rhs, loc, a, b);
  }
  a = convertScalarTo(lhs, element, loc);
  b = convertScalarTo(rhs, element, loc);
  if (!a || !b)
    return failure();
  auto shape = broadcastShapes(shapeOf(a.getType()), shapeOf(b.getType()), loc);
  if (!shape)
    return failure();
  if (!shape->empty() || isa<RankedTensorType>(a.getType()) ||
      isa<RankedTensorType>(b.getType())) {
    a = broadcastTo(a, *shape, loc);
    b = broadcastTo(b, *shape, loc);
  }
  return success();
}

Value MLIRGenImpl::indexValue(Val v, Location loc, StringRef what) {
  if (v.isConst()) {
    if (v.cst->kind != Const::Kind::Int) {
      error(loc) << what << " must be an integer, got " << kindName(*v.cst);
      return {};
    }
    return materialize(*v.cst, builder.getIndexType(), loc);
  }
  Type type = v.value.getType();
  if (type.isIndex())
    return v.value;
  if (type.isInteger(32))
    return castTo(v.value, builder.getIndexType(), loc);
  error(loc) << what << " must be an integer scalar, got " << describe(type);
  return {};
}

/// `x op y` if `op` is a comparison.
template <typename T>
static std::optional<bool> compareNumbers(BinaryOp op, T x, T y) {
  switch (op) {
  case BinaryOp::Eq:
    return x == y;
  case BinaryOp::Ne:
    return x != y;
  case BinaryOp::Lt:
    return x < y;
  case BinaryOp::Le:
    return x <= y;
  case BinaryOp::Gt:
    return x > y;
  case BinaryOp::Ge:
    return x >= y;
  default:
    return std::nullopt;
  }
}

std::optional<Const> MLIRGenImpl::foldBinary(BinaryOp op, const Const &a,
                                             const Const &b, Location loc) {
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    if (a.kind != Const::Kind::Bool || b.kind != Const::Kind::Bool) {
      error(loc) << "'" << stringifyBinaryOp(op) << "' needs booleans";
      return std::nullopt;
    }
    return Const::ofBool(op == BinaryOp::And ? (a.b && b.b) : (a.b || b.b));
  }
  if (a.kind == Const::Kind::Bool && b.kind == Const::Kind::Bool &&
      (op == BinaryOp::Eq || op == BinaryOp::Ne))
    return Const::ofBool((a.b == b.b) == (op == BinaryOp::Eq));
  if (!a.isNumber() || !b.isNumber()) {
    error(loc) << "'" << stringifyBinaryOp(op) << "' cannot combine "
               << kindName(a) << " and " << kindName(b);
    return std::nullopt;
  }
  if (a.kind == Const::Kind::Int && b.kind == Const::Kind::Int) {
    int64_t x = a.i, y = b.i, r = 0;
    if (std::optional<bool> c = compareNumbers(op, x, y))
      return Const::ofBool(*c);
    bool overflow = false;
    switch (op) {
    case BinaryOp::Add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case BinaryOp::Sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case BinaryOp::Mul:
      overflow = __builtin_mul_overflow(x, y, &r);
      break;
    case BinaryOp::Div:
    case BinaryOp::Rem:
      if (y == 0) {
        error(loc) << "division by zero in a constant expression";
        return std::nullopt;
      }
      if (x == std::numeric_limits<int64_t>::min() && y == -1) {
        overflow = true;
        break;
      }
      r = op == BinaryOp::Div ? x / y : x % y;
      break;
    default:
      llvm_unreachable("comparisons, '@', '&&' and '||' are handled before");
    }
    if (overflow) {
      error(loc) << "integer overflow in a constant expression";
      return std::nullopt;
    }
    return Const::ofInt(r);
  }
  double x = a.asDouble(), y = b.asDouble();
  if (std::optional<bool> c = compareNumbers(op, x, y))
    return Const::ofBool(*c);
  switch (op) {
  case BinaryOp::Add:
    return Const::ofFloat(x + y);
  case BinaryOp::Sub:
    return Const::ofFloat(x - y);
  case BinaryOp::Mul:
    return Const::ofFloat(x * y);
  case BinaryOp::Div:
    return Const::ofFloat(x / y);
  case BinaryOp::Rem:
    return Const::ofFloat(std::fmod(x, y));
  default:
    llvm_unreachable("comparisons, '@', '&&' and '||' are handled before");
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Val MLIRGenImpl::genExpr(const ExprAST &expr) {
  switch (expr.getKind()) {
  case ExprAST::Kind::IntLit:
    return Val{{}, Const::ofInt(cast<IntLitExprAST>(expr).getValue())};
  case ExprAST::Kind::FloatLit:
    return Val{{}, Const::ofFloat(cast<FloatLitExprAST>(expr).getValue())};
  case ExprAST::Kind::BoolLit:
    return Val{{}, Const::ofBool(cast<BoolLitExprAST>(expr).getValue())};
  case ExprAST::Kind::VarRef: {
    StringRef name = cast<VarRefExprAST>(expr).getName();
    if (Binding *b = symbols.lookup(name))
      return b->val;
    for (StringRef ty : {"f32", "f16", "bf16", "i32", "i1", "index"})
      if (name == ty)
        return Val{{}, Const::ofType(resolveType(ty, expr.getLoc()))};
    error(expr.getLoc()) << "unknown name '" << name << "'";
    return Val::failure();
  }
  case ExprAST::Kind::Unary:
    return genUnary(cast<UnaryExprAST>(expr));
  case ExprAST::Kind::Binary:
    return genBinary(cast<BinaryExprAST>(expr));
  case ExprAST::Kind::Ternary:
    return genTernary(cast<TernaryExprAST>(expr));
  case ExprAST::Kind::Call: {
    auto &call = cast<CallExprAST>(expr);
    if (call.getCallee() == "store" || call.getCallee() == "scatter" ||
        call.getCallee() == "prefetch") {
      error(expr.getLoc()) << "'" << call.getCallee()
                           << "' has no value; call it as a statement";
      return Val::failure();
    }
    return genCall(call);
  }
  case ExprAST::Kind::List:
    error(expr.getLoc()) << "a list is only allowed as a tile index, shape "
                            "or permutation argument";
    return Val::failure();
  }
  return Val::failure();
}

Val MLIRGenImpl::genUnary(const UnaryExprAST &expr) {
  Location loc = expr.getLoc();
  Val v = genExpr(expr.getOperand());
  if (v.failed())
    return v;
  if (v.isConst()) {
    const Const &c = *v.cst;
    if (expr.getOp() == UnaryOp::Not) {
      if (c.kind != Const::Kind::Bool) {
        error(loc) << "'!' needs a boolean, got " << kindName(c);
        return Val::failure();
      }
      return Val{{}, Const::ofBool(!c.b)};
    }
    if (c.kind == Const::Kind::Int) {
      if (c.i == std::numeric_limits<int64_t>::min()) {
        error(loc) << "integer overflow in a constant expression";
        return Val::failure();
      }
      return Val{{}, Const::ofInt(-c.i)};
    }
    if (c.kind == Const::Kind::Float)
      return Val{{}, Const::ofFloat(-c.f)};
    error(loc) << "'-' needs a number, got " << kindName(c);
    return Val::failure();
  }
  Type type = v.value.getType();
  Type element = elementTypeOf(type);
  if (expr.getOp() == UnaryOp::Not) {
    if (!element.isInteger(1)) {
      error(loc) << "'!' needs i1, got " << describe(type);
      return Val::failure();
    }
    return Val{
        arith::XOrIOp::create(builder, loc, v.value,
                              materialize(Const::ofBool(true), type, loc)),
        {}};
  }
  if (isa<FloatType>(element))
    return Val{arith::NegFOp::create(builder, loc, v.value), {}};
  if (element.isInteger(1) || isa<t::ViewType>(type)) {
    error(loc) << "'-' needs a number, got " << describe(type);
    return Val::failure();
  }
  return Val{arith::SubIOp::create(builder, loc,
                                   materialize(Const::ofInt(0), type, loc),
                                   v.value),
             {}};
}

Val MLIRGenImpl::genBinary(const BinaryExprAST &expr) {
  Val lhs = genExpr(expr.getLHS());
  if (lhs.failed())
    return lhs;
  Val rhs = genExpr(expr.getRHS());
  if (rhs.failed())
    return rhs;
  return genBinaryOp(expr.getOp(), lhs, rhs, expr.getLoc());
}

Val MLIRGenImpl::genBinaryOp(BinaryOp op, Val lhs, Val rhs, Location loc) {
  if (lhs.isConst() && rhs.isConst()) {
    if (op == BinaryOp::MatMul) {
      error(loc) << "'@' needs 2-D tiles";
      return Val::failure();
    }
    if (auto c = foldBinary(op, *lhs.cst, *rhs.cst, loc))
      return Val{{}, *c};
    return Val::failure();
  }
  for (Val *v : {&lhs, &rhs})
    if (!v->isConst() && isa<t::ViewType>(v->value.getType())) {
      error(loc) << "'" << stringifyBinaryOp(op)
                 << "' cannot take a view; load a tile from it first";
      return Val::failure();
    }
  if (op == BinaryOp::MatMul) {
    if (lhs.isConst() || rhs.isConst()) {
      error(loc) << "'@' needs 2-D tiles";
      return Val::failure();
    }
    return genDot(lhs.value, rhs.value, Value(), loc);
  }

  Value a, b;
  if (failed(unify(lhs, rhs, loc, a, b)))
    return Val::failure();
  Type element = elementTypeOf(a.getType());
  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  auto need = [&](bool ok, StringRef what) {
    if (!ok)
      error(loc) << "'" << stringifyBinaryOp(op) << "' needs " << what
                 << ", got " << describe(a.getType());
    return ok;
  };
  Value r;
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    if (!need(!isBool, "numbers"))
      return Val::failure();
    if (isFloat) {
      if (op == BinaryOp::Add)
        r = arith::AddFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Sub)
        r = arith::SubFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Mul)
        r = arith::MulFOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Div)
        r = arith::DivFOp::create(builder, loc, a, b);
      else
        r = arith::RemFOp::create(builder, loc, a, b);
    } else {
      if (op == BinaryOp::Add)
        r = arith::AddIOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Sub)
        r = arith::SubIOp::create(builder, loc, a, b);
      else if (op == BinaryOp::Mul)
        r = arith::MulIOp::create(builder, loc, a, b);
      else
        r = genIntegerDivision(op == BinaryOp::Div, a, b, loc);
    }
    break;
  case BinaryOp::And:
  case BinaryOp::Or:
    if (!need(isBool, "i1 operands"))
      return Val::failure();
    if (op == BinaryOp::And)
      r = arith::AndIOp::create(builder, loc, a, b);
    else
      r = arith::OrIOp::create(builder, loc, a, b);
    break;
  default: { // comparisons
    if (isFloat) {
      arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
      switch (op) {
      case BinaryOp::Eq:
        p = arith::CmpFPredicate::OEQ;
        break;
      case BinaryOp::Ne:
        p = arith::CmpFPredicate::UNE;
        break;
      case BinaryOp::Lt:
        p = arith::CmpFPredicate::OLT;
        break;
      case BinaryOp::Le:
        p = arith::CmpFPredicate::OLE;
        break;
      case BinaryOp::Gt:
        p = arith::CmpFPredicate::OGT;
        break;
      default:
        p = arith::CmpFPredicate::OGE;
        break;
      }
      r = arith::CmpFOp::create(builder, loc, p, a, b);
    } else {
      arith::CmpIPredicate p = arith::CmpIPredicate::eq;
      switch (op) {
      case BinaryOp::Eq:
        p = arith::CmpIPredicate::eq;
        break;
      case BinaryOp::Ne:
        p = arith::CmpIPredicate::ne;
        break;
      case BinaryOp::Lt:
        p = arith::CmpIPredicate::slt;
        break;
      case BinaryOp::Le:
        p = arith::CmpIPredicate::sle;
        break;
      case BinaryOp::Gt:
        p = arith::CmpIPredicate::sgt;
        break;
      default:
        p = arith::CmpIPredicate::sge;
        break;
      }
      r = arith::CmpIOp::create(builder, loc, p, a, b);
    }
    break;
  }
  }
  return Val{r, {}};
}

Val MLIRGenImpl::genTernary(const TernaryExprAST &expr) {
  Location loc = expr.getLoc();
  Val cond = genExpr(expr.getCond());
  if (cond.failed())
    return cond;
  if (cond.isConst()) {
    if (cond.cst->kind != Const::Kind::Bool) {
      error(expr.getCond().getLoc())
          << "condition must be a boolean, got " << kindName(*cond.cst);
      return Val::failure();
    }
    return genExpr(cond.cst->b ? expr.getTrueValue() : expr.getFalseValue());
  }
  if (!cond.value.getType().isInteger(1)) {
    error(expr.getCond().getLoc())
        << "'?:' condition must be a scalar i1 (use where() for tiles), got "
        << describe(cond.value.getType());
    return Val::failure();
  }
  Val x = genExpr(expr.getTrueValue());
  if (x.failed())
    return x;
  Val y = genExpr(expr.getFalseValue());
  if (y.failed())
    return y;
  Value a, b;
  if (failed(unify(x, y, loc, a, b)))
    return Val::failure();
  return Val{arith::SelectOp::create(builder, loc, cond.value, a, b), {}};
}

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
    else
      diag << min << " to " << max;
    return diag << " positional argument" << (max == 1 ? "" : "s") << ", got "
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

std::optional<TypedAttr> MLIRGenImpl::paddingAttr(const CallExprAST &call,
                                                  Type element) {
  const ExprAST *pad = keyword(call, "pad");
  if (!pad)
    return TypedAttr();
  Val v = genExpr(*pad);
  if (v.failed())
    return std::nullopt;
  if (!v.isConst() ||
      (!v.cst->isNumber() && v.cst->kind != Const::Kind::Bool)) {
    error(pad->getLoc()) << "pad must be a compile-time constant";
    return std::nullopt;
  }
  const Const &c = *v.cst;
  if (auto ft = dyn_cast<FloatType>(element))
    if (c.isNumber()) {
      // A finite pad that rounds to infinity in the element type would pad
      // with a value the source never wrote.
      APFloat value(c.asDouble());
      bool losesInfo;
      value.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
      if (value.isInfinity() && std::isfinite(c.asDouble())) {
        error(pad->getLoc())
            << "pad value " << c.asDouble() << " is out of range for "
            << element << " (it would round to infinity)";
        return std::nullopt;
      }
      return TypedAttr(builder.getFloatAttr(ft, c.asDouble()));
    }
  if (element.isInteger(32) && c.kind == Const::Kind::Int &&
      c.i >= std::numeric_limits<int32_t>::min() &&
      c.i <= std::numeric_limits<int32_t>::max())
    return TypedAttr(builder.getIntegerAttr(element, c.i));
  if (element.isInteger(1) && c.kind == Const::Kind::Bool)
    return TypedAttr(builder.getBoolAttr(c.b));
  error(pad->getLoc()) << "pad value (" << kindName(c)
                       << ") does not fit element type " << element;
  return std::nullopt;
}

Val MLIRGenImpl::genCall(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  const ExprList &args = call.getArgs();

  if (name == "block_id" || name == "num_blocks") {
    if (inGrid) {
      error(loc) << "'" << name << "' cannot be used in a grid expression";
      return Val::failure();
    }
    if (failed(checkArgs(call, 1, 1, {})))
      return Val::failure();
    std::optional<int64_t> axis = constInt(*args[0], "grid axis");
    if (!axis)
      return Val::failure();
    if (*axis < 0 || *axis > 2) {
      error(args[0]->getLoc()) << "grid axis must be 0, 1 or 2, got " << *axis;
      return Val::failure();
    }
    if (name == "block_id")
      return Val{t::BlockIdOp::create(builder, loc, *axis), {}};
    return Val{t::NumBlocksOp::create(builder, loc, *axis), {}};
  }
  if (name == "dim" || name == "num_tiles") {
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
  if (name == "cdiv") {
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
      error(args[1]->getLoc())
          << "cdiv needs a divisor b > 0, got " << b.cst->i;
      return Val::failure();
    }
    Value x = indexValue(a, args[0]->getLoc(), "cdiv operand");
    Value y = x ? indexValue(b, args[1]->getLoc(), "cdiv operand") : Value();
    if (!y)
      return Val::failure();
    return Val{t::CdivOp::create(builder, loc, x, y), {}};
  }
  if (name == "exp" || name == "exp2" || name == "log" || name == "sqrt" ||
      name == "rsqrt" || name == "tanh" || name == "erf" || name == "abs")
    return genMath(call);
  if (name == "sum")
    return genReduce(call, t::ReduceKind::Sum);
  if (name == "max" || name == "min")
    return genMinMax(call, name == "max");
  if (name == "load")
    return genLoad(call);
  if (name == "store")
    return genStore(call);
  if (name == "prefetch")
    return genPrefetch(call);
  if (name == "gather" || name == "scatter")
    return genGatherScatter(call, name == "scatter");
  if (name == "zeros" || name == "full") {
    bool isFull = name == "full";
    if (failed(checkArgs(call, isFull ? 3 : 2, isFull ? 3 : 2, {})))
      return Val::failure();
    auto shape = constIntList(*args[0], "shape");
    if (!shape || failed(checkShape(*shape, args[0]->getLoc())))
      return Val::failure();
    Type element = constType(*args.back(), "element type");
    if (!element)
      return Val::failure();
    auto type = RankedTensorType::get(*shape, element);
    if (!isFull)
      return Val{materialize(Const::ofInt(0), type, loc), {}};
    Val v = genExpr(*args[1]);
    if (v.failed())
      return v;
    if (v.isConst())
      return Val{materialize(*v.cst, type, loc), {}};
    if (isa<RankedTensorType, t::ViewType>(v.value.getType())) {
      error(args[1]->getLoc()) << "'full' expects a scalar value";
      return Val::failure();
    }
    Value s = convertScalarTo(v, element, args[1]->getLoc());
    if (!s)
      return Val::failure();
    return Val{t::SplatOp::create(builder, loc, type, s), {}};
  }
  if (name == "arange") {
    if (failed(checkArgs(call, 1, 1, {})))
      return Val::failure();
    std::optional<int64_t> n = constInt(*args[0], "arange size");
    if (!n)
      return Val::failure();
    if (*n <= 0) {
      error(args[0]->getLoc()) << "arange size must be positive, got " << *n;
      return Val::failure();
    }
    if (failed(checkShape({*n}, args[0]->getLoc())))
      return Val::failure();
    return Val{
        t::IotaOp::create(builder, loc,
                          RankedTensorType::get({*n}, builder.getI32Type())),
        {}};
  }
  if (name == "dot") {
    if (failed(checkArgs(call, 2, 3, {})))
      return Val::failure();
    Value a = tileArg(*args[0], name, "lhs");
    Value b = a ? tileArg(*args[1], name, "rhs") : Value();
    if (!b)
      return Val::failure();
    Value acc;
    if (args.size() == 3 && !(acc = tileArg(*args[2], name, "accumulator")))
      return Val::failure();
    return genDot(a, b, acc, loc);
  }
  if (name == "cast")
    return genCast(call);
  if (name == "where")
    return genWhere(call);
  if (name == "broadcast" || name == "reshape" || name == "permute" ||
      name == "transpose" || name == "expand_dims")
    return genShapeOp(call);
  error(loc) << "unknown function '" << name << "'";
  return Val::failure();
}

Val MLIRGenImpl::genMath(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (failed(checkArgs(call, 1, 1, {})))
    return Val::failure();
  Val v = genExpr(*call.getArgs()[0]);
  if (v.failed())
    return v;
  Value x = materializeDefault(v, loc);
  if (!x)
    return Val::failure();
  Type type = x.getType();
  if (isa<t::ViewType>(type)) {
    error(loc) << "'" << name << "' cannot take a view; load a tile first";
    return Val::failure();
  }
  if (name == "abs" && elementTypeOf(type).isInteger(32))
    return Val{math::AbsIOp::create(builder, loc, x), {}};
  if (!isFloatLike(type)) {
    error(loc) << "'" << name << "' needs a float operand, got "
               << describe(type) << "; use cast";
    return Val::failure();
  }
  Value r;
  if (name == "exp")
    r = math::ExpOp::create(builder, loc, x);
  else if (name == "exp2")
    r = math::Exp2Op::create(builder, loc, x);
  else if (name == "log")
    r = math::LogOp::create(builder, loc, x);
  else if (name == "sqrt")
    r = math::SqrtOp::create(builder, loc, x);
  else if (name == "rsqrt")
    r = math::RsqrtOp::create(builder, loc, x);
  else if (name == "tanh")
    r = math::TanhOp::create(builder, loc, x);
  else if (name == "erf")
    r = math::ErfOp::create(builder, loc, x);
  else
    r = math::AbsFOp::create(builder, loc, x);
  return Val{r, {}};
}

Val MLIRGenImpl::genReduce(const CallExprAST &call, t::ReduceKind kind) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (failed(checkArgs(call, 1, 1, {"axis", "keepdims"})))
    return Val::failure();
  Value x = tileArg(*call.getArgs()[0], name, "its operand");
  if (!x)
    return Val::failure();
  auto type = cast<RankedTensorType>(x.getType());
  const ExprAST *axisExpr = keyword(call, "axis");
  if (!axisExpr) {
    error(loc) << "'" << name << "' of a tile needs axis = <dim>";
    return Val::failure();
  }
  std::optional<int64_t> axis = constInt(*axisExpr, "axis");
  if (!axis)
    return Val::failure();
  if (*axis < 0)
    *axis += type.getRank();
  if (*axis < 0 || *axis >= type.getRank()) {
    error(axisExpr->getLoc())
        << "axis is out of range for a tile of rank " << type.getRank();
    return Val::failure();
  }
  bool keep = true;
  if (const ExprAST *k = keyword(call, "keepdims")) {
    Val kv = genExpr(*k);
    if (kv.failed())
      return kv;
    if (!kv.isConst() || kv.cst->kind != Const::Kind::Bool) {
      error(k->getLoc()) << "keepdims must be true or false";
      return Val::failure();
    }
    keep = kv.cst->b;
  }
  if (kind == t::ReduceKind::Sum && type.getElementType().isInteger(1)) {
    error(loc) << "'sum' cannot take an i1 tile; cast it first";
    return Val::failure();
  }
  SmallVector<int64_t> shape(type.getShape());
  if (keep)
    shape[*axis] = 1;
  else
    shape.erase(shape.begin() + *axis);
  auto result = RankedTensorType::get(shape, type.getElementType());
  auto op = t::ReduceOp::create(builder, loc, result, kind, x, *axis, keep);
  return Val{op, {}};
}

Val MLIRGenImpl::genMinMax(const CallExprAST &call, bool isMax) {
  Location loc = call.getLoc();
  // max(t, axis = k) reduces; max(a, b) is elementwise.
  if (call.getArgs().size() == 1)
    return genReduce(call, isMax ? t::ReduceKind::Max : t::ReduceKind::Min);
  if (failed(checkArgs(call, 2, 2, {})))
    return Val::failure();
  Val a = genExpr(*call.getArgs()[0]);
  if (a.failed())
    return a;
  Val b = genExpr(*call.getArgs()[1]);
  if (b.failed())
    return b;
  if (a.isConst() && b.isConst()) {
    if (!a.cst->isNumber() || !b.cst->isNumber()) {
      error(loc) << "'" << call.getCallee() << "' needs numbers";
      return Val::failure();
    }
    bool pickA = isMax ? a.cst->asDouble() >= b.cst->asDouble()
                       : a.cst->asDouble() <= b.cst->asDouble();
    return pickA ? a : b;
  }
  Value x, y;
  if (failed(unify(a, b, loc, x, y)))
    return Val::failure();
  Type element = elementTypeOf(x.getType());
  if (element.isInteger(1)) {
    error(loc) << "'" << call.getCallee() << "' needs numbers, got i1";
    return Val::failure();
  }
  Value r;
  if (isa<FloatType>(element))
    r = isMax ? Value(arith::MaximumFOp::create(builder, loc, x, y))
              : Value(arith::MinimumFOp::create(builder, loc, x, y));
  else
    r = isMax ? Value(arith::MaxSIOp::create(builder, loc, x, y))
              : Value(arith::MinSIOp::create(builder, loc, x, y));
  return Val{r, {}};
}

Val MLIRGenImpl::genLoad(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {"pad"})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto viewType = cast<t::ViewType>(view.getType());
  auto shape = tileShapeArg(*call.getArgs()[2], viewType);
  if (!shape)
    return Val::failure();
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(*shape, viewType.getElementType());
  auto op = t::LoadOp::create(builder, loc, type, view, indices, *pad);
  return Val{op, {}};
}

/// The tile shape argument of a load or prefetch from `view`: one positive
/// constant per view dimension.
std::optional<SmallVector<int64_t>>
MLIRGenImpl::tileShapeArg(const ExprAST &expr, t::ViewType view) {
  auto shape = constIntList(expr, "tile shape");
  if (!shape)
    return std::nullopt;
  if (static_cast<int64_t>(shape->size()) != view.getRank()) {
    error(expr.getLoc()) << "tile shape has " << shape->size()
                         << " entries but the view has rank " << view.getRank();
    return std::nullopt;
  }
  if (failed(checkShape(*shape, expr.getLoc())))
    return std::nullopt;
  return shape;
}

/// The view (argument 0) and tile index (argument 1) of a load, store or
/// prefetch; diagnostics name the callee.
std::optional<std::pair<Value, SmallVector<Value>>>
MLIRGenImpl::tileAccessArgs(const CallExprAST &call) {
  StringRef callee = call.getCallee();
  Value view = viewArg(*call.getArgs()[0], callee);
  if (!view)
    return std::nullopt;
  auto indices = indexList(*call.getArgs()[1], callee,
                           cast<t::ViewType>(view.getType()).getRank());
  if (!indices)
    return std::nullopt;
  return std::make_pair(view, std::move(*indices));
}

Val MLIRGenImpl::genPrefetch(const CallExprAST &call) {
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto shape =
      tileShapeArg(*call.getArgs()[2], cast<t::ViewType>(view.getType()));
  if (!shape)
    return Val::failure();
  t::PrefetchOp::create(builder, call.getLoc(), view, indices, *shape);
  return Val::failure(); // no value: only statements call prefetch
}

Val MLIRGenImpl::genStore(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto viewType = cast<t::ViewType>(view.getType());
  Value value = tileArg(*call.getArgs()[2], "store", "the value to store");
  if (!value)
    return Val::failure();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() != viewType.getRank()) {
    error(call.getArgs()[2]->getLoc())
        << "cannot store a tile of rank " << type.getRank()
        << " into a view of rank " << viewType.getRank() << "; use reshape";
    return Val::failure();
  }
  if (type.getElementType() != viewType.getElementType()) {
    error(call.getArgs()[2]->getLoc())
        << "cannot store " << describe(type) << " into " << describe(viewType)
        << "; use cast";
    return Val::failure();
  }
  t::StoreOp::create(builder, loc, value, view, indices);
  return Val::failure(); // no value: only statements call store
}

Val MLIRGenImpl::genGatherScatter(const CallExprAST &call, bool isScatter) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  if (failed(checkArgs(call, isScatter ? 3 : 2, isScatter ? 3 : 2,
                       isScatter ? ArrayRef<StringRef>{"mask"}
                                 : ArrayRef<StringRef>{"mask", "pad"})))
    return Val::failure();
  Value view = viewArg(*call.getArgs()[0], name);
  if (!view)
    return Val::failure();
  auto viewType = cast<t::ViewType>(view.getType());
  auto *list = dyn_cast<ListExprAST>(call.getArgs()[1].get());
  if (!list ||
      static_cast<int64_t>(list->getElements().size()) != viewType.getRank()) {
    error(call.getArgs()[1]->getLoc())
        << "'" << name << "' expects a list of " << viewType.getRank()
        << " coordinate tiles, one per view dimension";
    return Val::failure();
  }
  // Coordinates, value and mask broadcast to one shape.
  SmallVector<Value> coords;
  SmallVector<int64_t> shape;
  for (const auto &e : list->getElements()) {
    Value c = tileArg(*e, name, "a coordinate");
    if (!c)
      return Val::failure();
    if (!elementTypeOf(c.getType()).isInteger(32)) {
      error(e->getLoc()) << "coordinates must be i32 tiles, got "
                         << describe(c.getType());
      return Val::failure();
    }
    auto s = broadcastShapes(shape, shapeOf(c.getType()), e->getLoc());
    if (!s)
      return Val::failure();
    shape = *s;
    coords.push_back(c);
  }
  Value value;
  if (isScatter) {
    value = tileArg(*call.getArgs()[2], name, "the value");
    if (!value)
      return Val::failure();
    auto s = broadcastShapes(shape, shapeOf(value.getType()), loc);
    if (!s)
      return Val::failure();
    shape = *s;
    if (elementTypeOf(value.getType()) != viewType.getElementType()) {
      error(call.getArgs()[2]->getLoc())
          << "cannot scatter " << describe(value.getType()) << " into "
          << describe(viewType) << "; use cast";
      return Val::failure();
    }
  }
  Value mask;
  if (const ExprAST *m = keyword(call, "mask")) {
    Val mv = genExpr(*m);
    if (mv.failed())
      return mv;
    mask = materializeDefault(mv, m->getLoc());
    if (!mask)
      return Val::failure();
    if (!elementTypeOf(mask.getType()).isInteger(1)) {
      error(m->getLoc()) << "mask must be i1, got " << describe(mask.getType());
      return Val::failure();
    }
    auto s = broadcastShapes(shape, shapeOf(mask.getType()), m->getLoc());
    if (!s)
      return Val::failure();
    shape = *s;
  }
  for (Value &c : coords)
    c = broadcastTo(c, shape, loc);
  if (mask)
    mask = broadcastTo(mask, shape, loc);
  if (isScatter) {
    t::ScatterOp::create(builder, loc, broadcastTo(value, shape, loc), view,
                         coords, mask);
    return Val::failure();
  }
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(shape, viewType.getElementType());
  return Val{t::GatherOp::create(builder, loc, type, view, coords, mask, *pad),
             {}};
}

Val MLIRGenImpl::genDot(Value a, Value b, Value acc, Location loc) {
  auto at = dyn_cast<RankedTensorType>(a.getType());
  auto bt = dyn_cast<RankedTensorType>(b.getType());
  if (!at || !bt || at.getRank() != 2 || bt.getRank() != 2) {
    error(loc) << "dot needs 2-D tiles, got " << describe(a.getType())
               << " and " << describe(b.getType());
    return Val::failure();
  }
  if (at.getDimSize(1) != bt.getDimSize(0)) {
    error(loc) << "dot of " << describe(at) << " and " << describe(bt)
               << ": inner sizes " << at.getDimSize(1) << " and "
               << bt.getDimSize(0) << " differ";
    return Val::failure();
  }
  Type element = at.getElementType();
  if (element != bt.getElementType() || !(element.isF16() || element.isBF16() ||
                                          element.isF32() || element.isF64())) {
    error(loc) << "dot needs two f16, two bf16 or two f32 tiles, got "
               << describe(at) << " and " << describe(bt);
    return Val::failure();
  }
  // f64 only arises under floatsAsF64, where the accumulator is f64 too.
  auto accType =
      RankedTensorType::get({at.getDimSize(0), bt.getDimSize(1)},
                            element.isF64() ? element : defaultFloatType());
  if (!acc)
    acc = materialize(Const::ofFloat(0), accType, loc);
  else if (acc.getType() != accType) {
    error(loc) << "dot accumulator must be " << describe(accType) << ", got "
               << describe(acc.getType());
    return Val::failure();
  }
  // f64 products are exact in f64 (IEEE); the other inputs take the
  // default, which for f32 is tf32 and for f16/bf16 does not matter.
  if (element.isF64())
    return Val{t::DotOp::create(builder, loc, a, b, acc, t::Precision::IEEE),
               {}};
  return Val{t::DotOp::create(builder, loc, a, b, acc), {}};
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

Val MLIRGenImpl::genWhere(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  Val c = genExpr(*call.getArgs()[0]);
  if (c.failed())
    return c;
  Value cond = materializeDefault(c, loc);
  if (!cond)
    return Val::failure();
  if (!elementTypeOf(cond.getType()).isInteger(1)) {
    error(call.getArgs()[0]->getLoc())
        << "where condition must be i1, got " << describe(cond.getType());
    return Val::failure();
  }
  Val a = genExpr(*call.getArgs()[1]);
  if (a.failed())
    return a;
  Val b = genExpr(*call.getArgs()[2]);
  if (b.failed())
    return b;
  Value x, y;
  if (failed(unify(a, b, loc, x, y)))
    return Val::failure();
  auto shape =
      broadcastShapes(shapeOf(cond.getType()), shapeOf(x.getType()), loc);
  if (!shape)
    return Val::failure();
  if (!shape->empty()) {
    cond = broadcastTo(cond, *shape, loc);
    x = broadcastTo(x, *shape, loc);
    y = broadcastTo(y, *shape, loc);
  }
  return Val{arith::SelectOp::create(builder, loc, cond, x, y), {}};
}

Val MLIRGenImpl::genShapeOp(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  bool unary = name == "transpose";
  if (failed(checkArgs(call, unary ? 1 : 2, unary ? 1 : 2, {})))
    return Val::failure();
  Value x = tileArg(*call.getArgs()[0], name, "its first argument");
  if (!x)
    return Val::failure();
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();

  if (name == "transpose") {
    if (type.getRank() != 2) {
      error(loc) << "transpose needs a 2-D tile, got " << describe(type)
                 << "; use permute";
      return Val::failure();
    }
    auto result = RankedTensorType::get(
        {type.getDimSize(1), type.getDimSize(0)}, element);
    return Val{
        t::PermuteOp::create(builder, loc, result, x, ArrayRef<int64_t>{1, 0}),
        {}};
  }
  if (name == "expand_dims") {
    std::optional<int64_t> axis = constInt(*call.getArgs()[1], "axis");
    if (!axis)
      return Val::failure();
    if (*axis < 0 || *axis > type.getRank()) {
      error(call.getArgs()[1]->getLoc()) << "expand_dims axis must be in 0.."
                                         << type.getRank() << ", got " << *axis;
      return Val::failure();
    }
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + *axis, 1);
    if (failed(checkShape(shape, loc)))
      return Val::failure();
    return Val{t::ReshapeOp::create(builder, loc,
                                    RankedTensorType::get(shape, element), x),
               {}};
  }
  auto list = constIntList(*call.getArgs()[1],
                           name == "permute" ? "permutation" : "shape");
  if (!list)
    return Val::failure();
  if (name == "permute") {
    SmallVector<bool> seen(type.getRank(), false);
    bool ok = static_cast<int64_t>(list->size()) == type.getRank();
    for (int64_t p : *list) {
      ok = ok && p >= 0 && p < type.getRank() && !seen[p];
      if (ok)
        seen[p] = true;
    }
    if (!ok) {
      error(call.getArgs()[1]->getLoc())
          << "permutation must hold each of 0.." << type.getRank() - 1
          << " exactly once";
      return Val::failure();
    }
    SmallVector<int64_t> shape;
    for (int64_t p : *list)
      shape.push_back(type.getDimSize(p));
    return Val{t::PermuteOp::create(builder, loc,
                                    RankedTensorType::get(shape, element), x,
                                    *list),
               {}};
  }
  if (failed(checkShape(*list, call.getArgs()[1]->getLoc())))
    return Val::failure();
  auto result = RankedTensorType::get(*list, element);
  if (name == "reshape") {
    if (result.getNumElements() != type.getNumElements()) {
      error(loc) << "cannot reshape " << describe(type) << " ("
                 << type.getNumElements() << " elements) to "
                 << describe(result) << " (" << result.getNumElements()
                 << " elements)";
      return Val::failure();
    }
    return Val{t::ReshapeOp::create(builder, loc, result, x), {}};
  }
  // broadcast
  auto shape = broadcastShapes(type.getShape(), *list, loc);
  if (!shape)
    return Val::failure();
  if (ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>(*list)) {
    error(loc) << "cannot broadcast " << describe(type) << " to "
               << describe(result);
    return Val::failure();
  }
  return Val{broadcastTo(x, *list, loc), {}};
}

bool tilegym::parseDefines(const std::vector<std::string> &args,
                           Defines &defines, std::string &error) {
  for (const std::string &arg : args) {
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "-D expects NAME=VALUE, got '" + arg + "'";
      return false;
    }
    defines[arg.substr(0, eq)] = arg.substr(eq + 1);
  }
  return true;
}

OwningOpRef<ModuleOp> tilegym::mlirGen(MLIRContext &context,
                                       const ModuleAST &module,
                                       const Defines &defines,
                                       const FrontendOptions &options) {
  return MLIRGenImpl(context, defines, options).generate(module);
}
