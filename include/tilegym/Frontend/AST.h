//===- AST.h - Abstract syntax tree of the .tile language -------*- C++ -*-===//
//
// The AST mirrors the grammar in docs/language.md. Nodes own their children
// through std::unique_ptr and use LLVM-style RTTI (a kind enum plus classof),
// so clients walk them with llvm::isa / dyn_cast / cast. Every node carries
// the mlir::Location of the token that starts it (binary and conditional
// expressions carry their operator's location, where type errors are best
// reported).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_FRONTEND_AST_H
#define TILEGYM_FRONTEND_AST_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilegym {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The builtin scalar type names, as the language spells them (MLIRGen maps
/// each to its MLIR type).
inline constexpr llvm::StringLiteral kScalarTypeNames[] = {
    "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
    "i64", "i32", "i8",  "i1",   "index"};

/// A type as written: a scalar type or a view type. Names are kept as
/// spelled; `T` in `view<?xT>` may name a type const, resolved by MLIRGen.
class TypeAST {
public:
  enum class Kind { Scalar, View };

  /// Size of a dynamic ('?') view dimension.
  static constexpr int64_t kDynamic = -1;

  static TypeAST getScalar(std::string elementType, mlir::Location loc) {
    return TypeAST(Kind::Scalar, std::move(elementType), {}, loc);
  }
  /// `dimNames`, when given, has one entry per dimension: the name written
  /// for it in `view<[M, N], T>` ("" for '?' or an integer size).
  static TypeAST getView(std::string elementType, std::vector<int64_t> dims,
                         mlir::Location loc,
                         std::vector<std::string> dimNames = {}) {
    TypeAST type(Kind::View, std::move(elementType), std::move(dims), loc);
    type.dimNames = std::move(dimNames);
    type.dimNames.resize(type.dims.size());
    return type;
  }

  Kind getKind() const { return kind; }
  bool isView() const { return kind == Kind::View; }
  /// The scalar type, or the view's element type: f32, f16, bf16, i32, i1,
  /// index, or the name of a type const.
  llvm::StringRef getElementType() const { return elementType; }
  /// View sizes, outermost first; kDynamic for '?'. Empty for scalars.
  const std::vector<int64_t> &getDims() const { return dims; }
  /// Per view dimension, the name it was given ("" for none). A name is a
  /// size shared by every dimension of that name, or a const (then static).
  const std::vector<std::string> &getDimNames() const { return dimNames; }
  mlir::Location getLoc() const { return loc; }

private:
  TypeAST(Kind kind, std::string elementType, std::vector<int64_t> dims,
          mlir::Location loc)
      : kind(kind), elementType(std::move(elementType)), dims(std::move(dims)),
        loc(loc) {}

  Kind kind;
  std::string elementType;
  std::vector<int64_t> dims;
  std::vector<std::string> dimNames;
  mlir::Location loc;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class ExprAST {
public:
  enum class Kind {
    IntLit,
    FloatLit,
    BoolLit,
    StringLit,
    VarRef,
    Unary,
    Binary,
    Ternary,
    Call,
    List,
  };

  ExprAST(Kind kind, mlir::Location loc) : kind(kind), loc(loc) {}
  virtual ~ExprAST() = default;

  Kind getKind() const { return kind; }
  mlir::Location getLoc() const { return loc; }

private:
  const Kind kind;
  mlir::Location loc;
};

using ExprList = std::vector<std::unique_ptr<ExprAST>>;

/// `123`, `0x1F`.
class IntLitExprAST : public ExprAST {
public:
  IntLitExprAST(int64_t value, mlir::Location loc)
      : ExprAST(Kind::IntLit, loc), value(value) {}
  int64_t getValue() const { return value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::IntLit; }

private:
  int64_t value;
};

/// `1.0`, `.5`, `1e-3`, `inf`, `nan`.
class FloatLitExprAST : public ExprAST {
public:
  FloatLitExprAST(double value, mlir::Location loc)
      : ExprAST(Kind::FloatLit, loc), value(value) {}
  double getValue() const { return value; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::FloatLit;
  }

private:
  double value;
};

/// `true`, `false`.
class BoolLitExprAST : public ExprAST {
public:
  BoolLitExprAST(bool value, mlir::Location loc)
      : ExprAST(Kind::BoolLit, loc), value(value) {}
  bool getValue() const { return value; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::BoolLit;
  }

private:
  bool value;
};

/// `"text"`: only the text of print and the message of assert.
class StringLitExprAST : public ExprAST {
public:
  StringLitExprAST(std::string value, mlir::Location loc)
      : ExprAST(Kind::StringLit, loc), value(std::move(value)) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::StringLit;
  }

private:
  std::string value;
};

/// A use of a name: a variable, a parameter, a const, or a type name used as
/// a builtin argument (`cast(x, f32)`).
class VarRefExprAST : public ExprAST {
public:
  VarRefExprAST(std::string name, mlir::Location loc)
      : ExprAST(Kind::VarRef, loc), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::VarRef; }

private:
  std::string name;
};

enum class UnaryOp { Neg, Not, BitNot };

/// `-x`, `!x`, `~x`.
class UnaryExprAST : public ExprAST {
public:
  UnaryExprAST(UnaryOp op, std::unique_ptr<ExprAST> operand, mlir::Location loc)
      : ExprAST(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  const ExprAST &getOperand() const { return *operand; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Unary; }

private:
  UnaryOp op;
  std::unique_ptr<ExprAST> operand;
};

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  MatMul, // @
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,    // &&
  Or,     // ||
  BitAnd, // &
  BitOr,  // |
  BitXor, // ^
  Shl,    // <<
  Shr,    // >> (arithmetic)
};

/// The operator as written in source, e.g. "+" or "&&".
llvm::StringRef stringifyBinaryOp(BinaryOp op);

/// `lhs op rhs`; the location is the operator's.
class BinaryExprAST : public ExprAST {
public:
  BinaryExprAST(BinaryOp op, std::unique_ptr<ExprAST> lhs,
                std::unique_ptr<ExprAST> rhs, mlir::Location loc)
      : ExprAST(Kind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp getOp() const { return op; }
  const ExprAST &getLHS() const { return *lhs; }
  const ExprAST &getRHS() const { return *rhs; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  std::unique_ptr<ExprAST> lhs, rhs;
};

/// `cond ? trueValue : falseValue`; the location is the '?'.
class TernaryExprAST : public ExprAST {
public:
  TernaryExprAST(std::unique_ptr<ExprAST> cond,
                 std::unique_ptr<ExprAST> trueValue,
                 std::unique_ptr<ExprAST> falseValue, mlir::Location loc)
      : ExprAST(Kind::Ternary, loc), cond(std::move(cond)),
        trueValue(std::move(trueValue)), falseValue(std::move(falseValue)) {}
  const ExprAST &getCond() const { return *cond; }
  const ExprAST &getTrueValue() const { return *trueValue; }
  const ExprAST &getFalseValue() const { return *falseValue; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::Ternary;
  }

private:
  std::unique_ptr<ExprAST> cond, trueValue, falseValue;
};

/// `name = value` in a call; the location is the name's.
struct KeywordArgAST {
  std::string name;
  std::unique_ptr<ExprAST> value;
  mlir::Location loc;
};

/// A builtin call `callee(args..., kw = value...)`. The parser guarantees that
/// keyword arguments follow the positional ones and have distinct names.
class CallExprAST : public ExprAST {
public:
  CallExprAST(std::string callee, ExprList args,
              std::vector<KeywordArgAST> keywordArgs, mlir::Location loc)
      : ExprAST(Kind::Call, loc), callee(std::move(callee)),
        args(std::move(args)), keywordArgs(std::move(keywordArgs)) {}
  llvm::StringRef getCallee() const { return callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<KeywordArgAST> &getKeywordArgs() const {
    return keywordArgs;
  }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Call; }

private:
  std::string callee;
  ExprList args;
  std::vector<KeywordArgAST> keywordArgs;
};

/// `[a, b, c]`: a tile index, a shape or a permutation.
class ListExprAST : public ExprAST {
public:
  ListExprAST(ExprList elements, mlir::Location loc)
      : ExprAST(Kind::List, loc), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::List; }

private:
  ExprList elements;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// A top-level declaration: a const, a kernel or a program.
class DeclAST {
public:
  enum class Kind { Const, Kernel, Program, Function, Import };

  DeclAST(Kind kind, std::string name, mlir::Location loc)
      : kind(kind), name(std::move(name)), loc(loc) {}
  virtual ~DeclAST() = default;

  Kind getKind() const { return kind; }
  llvm::StringRef getName() const { return name; }
  mlir::Location getLoc() const { return loc; }

private:
  const Kind kind;
  std::string name;
  mlir::Location loc;
};

/// `const NAME = type;` or `const NAME = expr;`, at top level or in a block.
/// Builtin scalar type names and view types parse as a type; any other
/// expression, including a bare identifier naming another type const
/// (`const U = T;`), parses as an expression.
class ConstDeclAST : public DeclAST {
public:
  ConstDeclAST(std::string name, TypeAST type, mlir::Location loc)
      : DeclAST(Kind::Const, std::move(name), loc), type(std::move(type)) {}
  ConstDeclAST(std::string name, std::unique_ptr<ExprAST> value,
               mlir::Location loc)
      : DeclAST(Kind::Const, std::move(name), loc), value(std::move(value)) {}
  /// `tune NAME in [v1, v2, ...];`: a const of value v1 unless -D says
  /// otherwise, whose alternatives a tuner tries (spelled as -D takes them).
  ConstDeclAST(std::string name, std::vector<std::string> alternatives,
               mlir::Location loc)
      : DeclAST(Kind::Const, std::move(name), loc),
        alternatives(std::move(alternatives)) {}

  /// The type value, or null if the const is an expression.
  const TypeAST *getType() const { return type ? &*type : nullptr; }
  /// The expression value, or null if the const is a type or tuned.
  const ExprAST *getValue() const { return value.get(); }
  /// A tuned const's alternatives, the first its value; empty otherwise.
  llvm::ArrayRef<std::string> getAlternatives() const { return alternatives; }
  static bool classof(const DeclAST *d) { return d->getKind() == Kind::Const; }

private:
  std::optional<TypeAST> type;
  std::unique_ptr<ExprAST> value;
  std::vector<std::string> alternatives;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class StmtAST {
public:
  enum class Kind {
    Let,
    Var,
    Const,
    Assign,
    For,
    While,
    If,
    Return,
    Break,
    Continue,
    Expr
  };

  StmtAST(Kind kind, mlir::Location loc) : kind(kind), loc(loc) {}
  virtual ~StmtAST() = default;

  Kind getKind() const { return kind; }
  mlir::Location getLoc() const { return loc; }

private:
  const Kind kind;
  mlir::Location loc;
};

/// The statements of a `{ ... }` block.
using StmtList = std::vector<std::unique_ptr<StmtAST>>;

/// `let name = value;`
class LetStmtAST : public StmtAST {
public:
  LetStmtAST(std::string name, std::unique_ptr<ExprAST> value,
             mlir::Location loc)
      : StmtAST(Kind::Let, loc), name(std::move(name)),
        value(std::move(value)) {}
  llvm::StringRef getName() const { return name; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Let; }

private:
  std::string name;
  std::unique_ptr<ExprAST> value;
};

/// `var name = value;`
class VarStmtAST : public StmtAST {
public:
  VarStmtAST(std::string name, std::unique_ptr<ExprAST> value,
             mlir::Location loc)
      : StmtAST(Kind::Var, loc), name(std::move(name)),
        value(std::move(value)) {}
  llvm::StringRef getName() const { return name; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Var; }

private:
  std::string name;
  std::unique_ptr<ExprAST> value;
};

/// A `const` declaration inside a block.
class ConstStmtAST : public StmtAST {
public:
  explicit ConstStmtAST(std::unique_ptr<ConstDeclAST> decl)
      : StmtAST(Kind::Const, decl->getLoc()), decl(std::move(decl)) {}
  const ConstDeclAST &getDecl() const { return *decl; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Const; }

private:
  std::unique_ptr<ConstDeclAST> decl;
};

/// `name = value;`
class AssignStmtAST : public StmtAST {
public:
  AssignStmtAST(std::string name, std::unique_ptr<ExprAST> value,
                mlir::Location loc)
      : StmtAST(Kind::Assign, loc), name(std::move(name)),
        value(std::move(value)) {}
  llvm::StringRef getName() const { return name; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Assign; }

private:
  std::string name;
  std::unique_ptr<ExprAST> value;
};

/// `for iv in range(lo, hi, step) { body }`. The parser fills in the defaults
/// lo = 0 and step = 1 (as literals located at `range`).
class ForStmtAST : public StmtAST {
public:
  ForStmtAST(std::string inductionVar, std::unique_ptr<ExprAST> lo,
             std::unique_ptr<ExprAST> hi, std::unique_ptr<ExprAST> step,
             StmtList body, mlir::Location loc)
      : StmtAST(Kind::For, loc), inductionVar(std::move(inductionVar)),
        lo(std::move(lo)), hi(std::move(hi)), step(std::move(step)),
        body(std::move(body)) {}
  llvm::StringRef getInductionVar() const { return inductionVar; }
  const ExprAST &getLo() const { return *lo; }
  const ExprAST &getHi() const { return *hi; }
  const ExprAST &getStep() const { return *step; }
  const StmtList &getBody() const { return body; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::For; }

private:
  std::string inductionVar;
  std::unique_ptr<ExprAST> lo, hi, step;
  StmtList body;
};

/// `while cond { body }`.
class WhileStmtAST : public StmtAST {
public:
  WhileStmtAST(std::unique_ptr<ExprAST> cond, StmtList body, mlir::Location loc)
      : StmtAST(Kind::While, loc), cond(std::move(cond)),
        body(std::move(body)) {}
  const ExprAST &getCond() const { return *cond; }
  const StmtList &getBody() const { return body; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::While; }

private:
  std::unique_ptr<ExprAST> cond;
  StmtList body;
};

/// `if cond { then } else { else }`. `else if` is an else block holding a
/// single IfStmtAST.
class IfStmtAST : public StmtAST {
public:
  IfStmtAST(std::unique_ptr<ExprAST> cond, StmtList thenBody,
            std::optional<StmtList> elseBody, mlir::Location loc)
      : StmtAST(Kind::If, loc), cond(std::move(cond)),
        thenBody(std::move(thenBody)), elseBody(std::move(elseBody)) {}
  const ExprAST &getCond() const { return *cond; }
  const StmtList &getThenBody() const { return thenBody; }
  /// Null when there is no `else`.
  const StmtList *getElseBody() const {
    return elseBody ? &*elseBody : nullptr;
  }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::If; }

private:
  std::unique_ptr<ExprAST> cond;
  StmtList thenBody;
  std::optional<StmtList> elseBody;
};

/// `return;`
class ReturnStmtAST : public StmtAST {
public:
  explicit ReturnStmtAST(mlir::Location loc,
                         std::unique_ptr<ExprAST> value = nullptr)
      : StmtAST(Kind::Return, loc), value(std::move(value)) {}
  /// `return e;` in a function; null for `return;`.
  const ExprAST *getValue() const { return value.get(); }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Return; }

private:
  std::unique_ptr<ExprAST> value;
};

/// `break;` or `continue;`: leaves the innermost loop, or its iteration.
class JumpStmtAST : public StmtAST {
public:
  JumpStmtAST(Kind kind, mlir::Location loc) : StmtAST(kind, loc) {}
  bool isBreak() const { return getKind() == Kind::Break; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Kind::Break || s->getKind() == Kind::Continue;
  }
};

/// `expr;`, e.g. a `store(...)` call.
class ExprStmtAST : public StmtAST {
public:
  ExprStmtAST(std::unique_ptr<ExprAST> expr, mlir::Location loc)
      : StmtAST(Kind::Expr, loc), expr(std::move(expr)) {}
  const ExprAST &getExpr() const { return *expr; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Expr; }

private:
  std::unique_ptr<ExprAST> expr;
};

//===----------------------------------------------------------------------===//
// Kernels and modules
//===----------------------------------------------------------------------===//

/// `name: type` in a kernel's parameter list.
struct ParamAST {
  std::string name;
  TypeAST type;
  mlir::Location loc;
  /// `= expr` after a scalar parameter: its value when a launch gives none.
  std::unique_ptr<ExprAST> defaultValue;
};

/// The clauses after a kernel's parameters, each null where left out.
struct KernelClauses {
  /// The `warps(...)` count.
  std::unique_ptr<ExprAST> warps;
  /// The `stages(...)` count of shared-memory buffers per dot operand loaded
  /// ahead through a loop.
  std::unique_ptr<ExprAST> stages;
  /// The `tma(...)` switch (1: the TMA copies staged dot operands where it
  /// can; 0: cp.async only; default 1).
  std::unique_ptr<ExprAST> tma;
  /// The `specialize(...)` switch (1: producer warps issue the TMA's copies
  /// of the kernel's ring loop, tilegpu-warp-specialize; default 0).
  std::unique_ptr<ExprAST> specialize;
  /// The `persistent(...)` switch (1: as many blocks as fit the GPU at once,
  /// each running tile after tile of the grid; default 0).
  std::unique_ptr<ExprAST> persistent;
  /// The `cluster(...)` blocks of a cluster (2: blocks paired along the
  /// grid's y share the tiles both load; default 1).
  std::unique_ptr<ExprAST> cluster;
  /// The `overlap(...)` level (1: a specialized loop's last dot runs under
  /// the next iteration's work, tilegpu-overlap-dots; 2: also the consumer
  /// warpgroups take turns issuing, tilegpu-ping-pong; default 0).
  std::unique_ptr<ExprAST> overlap;
};

/// `kernel name(params) grid(...) warps(...) stages(...) tma(...)
/// specialize(...) persistent(...) cluster(...) overlap(...) { body }`.
class KernelAST : public DeclAST {
public:
  KernelAST(std::string name, std::vector<ParamAST> params, ExprList grid,
            KernelClauses clauses, StmtList body, mlir::Location loc)
      : DeclAST(Kind::Kernel, std::move(name), loc), params(std::move(params)),
        grid(std::move(grid)), clauses(std::move(clauses)),
        body(std::move(body)) {}

  const std::vector<ParamAST> &getParams() const { return params; }
  /// The `grid(...)` sizes, 0 to 3 of them; empty means the default grid(1).
  const ExprList &getGrid() const { return grid; }
  const ExprAST *getWarps() const { return clauses.warps.get(); }
  const ExprAST *getStages() const { return clauses.stages.get(); }
  const ExprAST *getTma() const { return clauses.tma.get(); }
  const ExprAST *getSpecialize() const { return clauses.specialize.get(); }
  const ExprAST *getPersistent() const { return clauses.persistent.get(); }
  const ExprAST *getCluster() const { return clauses.cluster.get(); }
  const ExprAST *getOverlap() const { return clauses.overlap.get(); }
  const StmtList &getBody() const { return body; }
  static bool classof(const DeclAST *d) { return d->getKind() == Kind::Kernel; }

private:
  std::vector<ParamAST> params;
  ExprList grid;
  KernelClauses clauses;
  StmtList body;
};

/// `program NAME = kernel, kernel...;`: kernels run in order as one program
/// whose parameters of one name are one argument (runtime/Program.h).
class ProgramDeclAST : public DeclAST {
public:
  struct KernelRef {
    std::string name;
    mlir::Location loc;
  };
  ProgramDeclAST(std::string name, std::vector<KernelRef> kernels,
                 mlir::Location loc)
      : DeclAST(Kind::Program, std::move(name), loc),
        kernels(std::move(kernels)) {}

  const std::vector<KernelRef> &getKernels() const { return kernels; }
  static bool classof(const DeclAST *d) {
    return d->getKind() == Kind::Program;
  }

private:
  std::vector<KernelRef> kernels;
};

/// `fn name(a, b: T, ...) { body }`: a function, inlined at each call. A
/// parameter without a type takes any value (a tile, a scalar, a constant,
/// a type); one with a type must match it.
class FunctionAST : public DeclAST {
public:
  struct Param {
    std::string name;
    std::optional<TypeAST> type;
    mlir::Location loc;
  };
  FunctionAST(std::string name, std::vector<Param> params, StmtList body,
              mlir::Location loc)
      : DeclAST(Kind::Function, std::move(name), loc),
        params(std::move(params)), body(std::move(body)) {}
  const std::vector<Param> &getParams() const { return params; }
  const StmtList &getBody() const { return body; }
  static bool classof(const DeclAST *d) {
    return d->getKind() == Kind::Function;
  }

private:
  std::vector<Param> params;
  StmtList body;
};

/// `import "path";`: the functions of another file. The name is the path
/// as written (without quotes).
class ImportDeclAST : public DeclAST {
public:
  ImportDeclAST(std::string path, mlir::Location loc)
      : DeclAST(Kind::Import, std::move(path), loc) {}
  static bool classof(const DeclAST *d) { return d->getKind() == Kind::Import; }
};

/// A whole .tile file: consts, kernels, functions, programs and imports in
/// source order.
class ModuleAST {
public:
  explicit ModuleAST(std::vector<std::unique_ptr<DeclAST>> decls)
      : decls(std::move(decls)) {}
  const std::vector<std::unique_ptr<DeclAST>> &getDecls() const {
    return decls;
  }
  /// Puts an imported file's declarations before the importer's
  /// (loadTileModule), so that a clash is reported at the importer's.
  void prependDecls(std::vector<std::unique_ptr<DeclAST>> imported) {
    imported.insert(imported.end(), std::make_move_iterator(decls.begin()),
                    std::make_move_iterator(decls.end()));
    decls = std::move(imported);
  }
  std::vector<std::unique_ptr<DeclAST>> takeDecls() { return std::move(decls); }

private:
  std::vector<std::unique_ptr<DeclAST>> decls;
};

/// Prints `module` as an indented tree with line:col locations (--emit=ast).
void dumpAST(const ModuleAST &module, llvm::raw_ostream &os);

} // namespace tilegym

#endif // TILEGYM_FRONTEND_AST_H
