//===- MLIRGenImpl.h - the generator's state and rules ----------*- C++ -*-===//
//
// Shared by the files of MLIRGen: MLIRGen.cpp (declarations: kernels,
// consts, programs), GenStatements.cpp, GenExpressions.cpp, TypeRules.cpp
// (materialising constants, implicit and explicit conversions,
// broadcasting), ConstantFolding.cpp, and the builtins (Builtins*.cpp).
//
// Compile-time constants (literals, `const`s, and arithmetic on them) stay
// unmaterialised `Val`s until they meet a typed value: a literal takes the
// element type of the tile it meets, and shapes, axes and permutations are
// read straight from them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_FRONTEND_MLIRGENIMPL_H
#define TILEGYM_LIB_FRONTEND_MLIRGENIMPL_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/AST.h"
#include "tilegym/Frontend/MLIRGen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <deque>
#include <optional>

namespace tilegym::mlirgen {

using namespace mlir;
namespace t = tilegym::tile;

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
  /// The scope it was declared in: 1 is the file's.
  size_t depth = 0;
};

StringRef kindName(const Const &c);
/// `f32`, `tile [4, 8] f32` or `view<?xf32>` as the user would say it.
std::string describe(Type type);
Type elementTypeOf(Type type);
ArrayRef<int64_t> shapeOf(Type type);
/// `scalar` as a constant of `type`: itself for a scalar type, splat over a
/// tile type.
Value constantOf(OpBuilder &b, Location loc, Type type, TypedAttr scalar);
bool isFloatLike(Type type);
/// Whether a scalar or tile holds integers (index, i8, i32, i64; not i1).
bool isIntegerLike(Type type);
/// Whether `value` is a signed integer of `width` bits.
bool fitsSigned(int64_t value, unsigned width);
/// `value` clamped to the largest finite magnitude of an fp8 type, as the
/// language's saturating conversions to fp8 do; other types keep it.
double saturate(FloatType type, double value);
/// Whether an integer type meets index scalars implicitly: i32 (what the
/// GPU computes indices in) and i64.
inline bool meetsIndex(Type type) {
  return type.isInteger(32) || type.isInteger(64);
}
/// Whether `name` is an elementwise math function (BuiltinsMath.cpp).
bool isMathFunction(StringRef name);

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

struct Builtin;

/// The operands of an access at element coordinates, broadcast to `shape`.
struct ElementAccessArgs {
  Value view;
  SmallVector<Value> coords, values;
  Value mask;
  SmallVector<int64_t> shape;
};

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

  /// An error; inside an inlined function, with a note at each call on
  /// the way there, innermost first.
  InFlightDiagnostic error(Location loc) {
    ++numErrors;
    InFlightDiagnostic diag = emitError(loc);
    for (const Call &c : llvm::reverse(callStack))
      diag.attachNote(c.loc)
          << "in the call of '" << c.fn->getName() << "' here";
    return diag;
  }

  // User functions (GenFunctions.cpp): inlined at each call, in a frame
  // that sees its parameters, its own names and the file's, nothing of the
  // caller's.
  struct Call {
    const FunctionAST *fn;
    Location loc;
  };
  llvm::StringMap<const FunctionAST *> functions;
  SmallVector<Call> callStack;
  unsigned inlinedCalls = 0;
  /// The first scope of the innermost function frame; 0 outside functions.
  size_t frameFloor = 0;
  llvm::StringMap<Binding *> globals; // names declared at file level
  /// The binding of `name` visible here (the frame rule above).
  Binding *lookup(StringRef name);
  LogicalResult declareFunction(const FunctionAST &fn);
  Val genUserCall(const CallExprAST &call, const FunctionAST &fn);
  static bool returnsValue(const FunctionAST &fn);

  // Declarations.
  Attribute constAttr(const Const &c);
  LogicalResult declare(StringRef name, Val val, bool isVar, Location loc);
  LogicalResult genConstDecl(const ConstDeclAST &decl);
  std::optional<Const> parseDefine(StringRef name, StringRef text,
                                   Location loc);
  /// A type name, with floats promoted to f64 under floatsAsF64.
  Type resolveType(StringRef name, Location loc);
  Type resolveTypeAsWritten(StringRef name, Location loc);
  /// The type a builtin scalar type name spells ("f8e4m3", "i64", ...); a
  /// null type for any other name.
  Type builtinScalarType(StringRef name);
  /// The default float type: f32, or f64 under floatsAsF64.
  Type defaultFloatType() {
    return options.floatsAsF64 ? Type(builder.getF64Type())
                               : Type(builder.getF32Type());
  }
  Type genType(const TypeAST &type);
  Value genIntegerDivision(bool quotient, Value a, Value b, Location loc);
  Value genShift(bool left, Value a, Value n, Location loc);
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

  // Statements (GenStatements.cpp; loops in GenLoops.cpp).
  using Stmts = ArrayRef<std::unique_ptr<StmtAST>>;
  LogicalResult genBlock(Stmts stmts, bool kernelBody = false);
  LogicalResult genStmt(const StmtAST &stmt);
  LogicalResult genAssign(const AssignStmtAST &stmt);
  LogicalResult genFor(const ForStmtAST &stmt);
  LogicalResult genForAsWhile(const ForStmtAST &stmt, Value lo, Value hi,
                              Value step);
  LogicalResult genWhile(const WhileStmtAST &stmt);
  /// A counter a loop carries ahead of its vars: `for`'s induction variable.
  struct WhileCounter {
    StringRef name;
    Value init, step;
  };
  /// An scf.while over `body`, carrying `counter` (if any) and the vars the
  /// body assigns; `condition` (with the counter in scope) says whether
  /// to run the body again, null after an error.
  LogicalResult genWhileLoop(Location loc, Stmts body,
                             const WhileCounter *counter,
                             function_ref<Value()> condition);
  LogicalResult genIf(const IfStmtAST &stmt);
  LogicalResult genBranches(Value cond, Location loc, Stmts thenBody,
                            std::optional<Stmts> elseBody);
  LogicalResult genJump(const StmtAST &stmt);
  /// Declares a jump flag (kBreakFlag, ...) as an i1 var, false.
  LogicalResult declareFlag(StringRef name, Location loc);
  /// The OR of the flags of `jumps` in scope, or null if none is.
  Value jumpTaken(unsigned jumps, Location loc);
  void collectAssigned(Stmts stmts, llvm::StringSet<> &locals,
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

  // Builtins (Builtins.cpp: the table and argument rules; BuiltinsMath.cpp,
  // BuiltinsMemory.cpp and BuiltinsTile.cpp: the families).
  static const Builtin *lookupBuiltin(StringRef name);
  std::optional<int64_t> constInt(const ExprAST &expr, StringRef what);
  std::optional<SmallVector<int64_t>> constIntList(const ExprAST &expr,
                                                   StringRef what);
  Type constType(const ExprAST &expr, StringRef what);
  Value viewArg(const ExprAST &expr, StringRef callee);
  Value tileArg(const ExprAST &expr, StringRef callee, StringRef what);
  std::optional<SmallVector<Value>> indexList(const ExprAST &expr,
                                              StringRef callee, int64_t rank);
  std::optional<SmallVector<int64_t>>
  tileShapeArg(const ExprAST &expr, t::ViewType view, bool reduce = false);
  std::optional<SmallVector<Value>> elementCoordinates(const CallExprAST &call,
                                                       t::ViewType view,
                                                       ArrayRef<int64_t> shape);
  std::optional<std::pair<Value, SmallVector<Value>>>
  tileAccessArgs(const CallExprAST &call);
  std::optional<TypedAttr> paddingAttr(const CallExprAST &call,
                                       Type elementType);
  const ExprAST *keyword(const CallExprAST &call, StringRef name);
  LogicalResult checkArgs(const CallExprAST &call, size_t min, size_t max,
                          ArrayRef<StringRef> keywords);
  Val genGridScalar(const CallExprAST &call);
  Val genViewSize(const CallExprAST &call);
  Val genCdiv(const CallExprAST &call);
  Val genFill(const CallExprAST &call);
  Val genArange(const CallExprAST &call);
  Val genDotCall(const CallExprAST &call);
  Val genMath(const CallExprAST &call);
  Val genReduce(const CallExprAST &call);
  Val genReduce(const CallExprAST &call, t::ReduceKind kind);
  Val genArgReduce(const CallExprAST &call);
  /// The operand, axis (in range) and keepdims of a reduction's call.
  struct ReduceArgs {
    Value x;
    int64_t axis;
    bool keep;
  };
  /// `flag`: the boolean keyword beside `axis` (keepdims, or a scan's
  /// exclusive), read into `keep`.
  std::optional<ReduceArgs> reduceArgs(const CallExprAST &call,
                                       StringRef flag = "keepdims",
                                       bool flagDefault = true);
  Val genScan(const CallExprAST &call);
  Val genSort(const CallExprAST &call);
  Value reduce(t::ReduceKind kind, Value x, int64_t axis, bool keep,
               Location loc);
  Val genMinMax(const CallExprAST &call);
  Val genLoad(const CallExprAST &call);
  Val genStore(const CallExprAST &call);
  LogicalResult checkStoredTile(RankedTensorType type, t::ViewType view,
                                Location loc, bool lowerRank);
  Val genPrefetch(const CallExprAST &call);
  std::optional<ElementAccessArgs>
  elementAccessArgs(const CallExprAST &call, unsigned values, bool scalars);
  Val genGatherScatter(const CallExprAST &call);
  Val genAtomic(const CallExprAST &call);
  Val genLoadAt(const CallExprAST &call);
  Val genStoreAt(const CallExprAST &call);
  Val genItem(const CallExprAST &call);
  Val genDot(Value a, Value b, Value acc, Location loc);
  Val genCast(const CallExprAST &call);
  Val genWhere(const CallExprAST &call);
  Val genShapeOp(const CallExprAST &call);
  Val genRandom(const CallExprAST &call);
  Val genPrint(const CallExprAST &call);
  Val genAssert(const CallExprAST &call);
};

/// What a statement may do besides going on to the next: break and continue
/// end at their loop, return at the kernel. Each is a hidden i1 var (a name
/// no identifier can spell), set where the jump is written; the statements
/// after one that may jump run under `if` no flag is set, and a loop's
/// condition checks its break flag and the return flag.
enum Jump : unsigned { kBreak = 1, kContinue = 2, kReturn = 4 };
constexpr StringLiteral kBreakFlag = "%break";
constexpr StringLiteral kContinueFlag = "%continue";
constexpr StringLiteral kReturnFlag = "%return";
unsigned jumpsOf(const StmtAST &stmt);
unsigned jumpsOf(ArrayRef<std::unique_ptr<StmtAST>> stmts);

/// A builtin function: its name, whether a call yields a value (stores and
/// prefetches are statements), and the member that generates a call.
struct Builtin {
  StringLiteral name;
  bool hasValue;
  Val (MLIRGenImpl::*gen)(const CallExprAST &);
};

} // namespace tilegym::mlirgen

#endif // TILEGYM_LIB_FRONTEND_MLIRGENIMPL_H
