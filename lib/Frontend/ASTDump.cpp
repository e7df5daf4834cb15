//===- ASTDump.cpp - Textual dump of the .tile AST ------------------------===//
//
// Prints one node per line, children indented by two spaces, each with its
// location as @line:col (the file is the one being compiled). Child roles
// that are not obvious from the order are labelled, e.g. `hi: VarRef n`.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Frontend/AST.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace tilegym;

llvm::StringRef tilegym::stringifyBinaryOp(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::And:
    return "&&";
  case BinaryOp::Or:
    return "||";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  }
  llvm_unreachable("unknown binary operator");
}

namespace {

class ASTDumper {
public:
  explicit ASTDumper(llvm::raw_ostream &os) : os(os) {}

  void dump(const ModuleAST &module) {
    os << "Module\n";
    Indent scope(*this);
    for (const std::unique_ptr<DeclAST> &decl : module.getDecls()) {
      if (auto *constDecl = llvm::dyn_cast<ConstDeclAST>(decl.get()))
        dump(*constDecl);
      else if (auto *program = llvm::dyn_cast<ProgramDeclAST>(decl.get()))
        dump(*program);
      else if (auto *function = llvm::dyn_cast<FunctionAST>(decl.get()))
        dump(*function);
      else if (auto *import = llvm::dyn_cast<ImportDeclAST>(decl.get())) {
        line() << "Import \"" << import->getName() << "\"";
        printLoc(import->getLoc());
      } else
        dump(llvm::cast<KernelAST>(*decl));
    }
  }

private:
  /// Indents the lines printed during its lifetime one level deeper.
  struct Indent {
    explicit Indent(ASTDumper &dumper) : dumper(dumper) { ++dumper.level; }
    ~Indent() { --dumper.level; }
    ASTDumper &dumper;
  };

  /// Starts a line at the current indentation, with an optional role label.
  llvm::raw_ostream &line(llvm::StringRef label = "") {
    os.indent(2 * level);
    if (!label.empty())
      os << label << ": ";
    return os;
  }

  void printLoc(mlir::Location loc) {
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
      os << " @" << fileLoc.getLine() << ":" << fileLoc.getColumn();
    os << "\n";
  }

  void printType(const TypeAST &type) {
    if (!type.isView()) {
      os << type.getElementType();
      return;
    }
    os << "view<";
    if (llvm::any_of(type.getDimNames(),
                     [](const std::string &n) { return !n.empty(); })) {
      os << "[";
      for (auto [i, dim] : llvm::enumerate(type.getDims())) {
        os << (i ? ", " : "");
        if (!type.getDimNames()[i].empty())
          os << type.getDimNames()[i];
        else if (dim == TypeAST::kDynamic)
          os << "?";
        else
          os << dim;
      }
      os << "], " << type.getElementType() << ">";
      return;
    }
    for (int64_t dim : type.getDims()) {
      if (dim == TypeAST::kDynamic)
        os << "?";
      else
        os << dim;
      os << "x";
    }
    os << type.getElementType() << ">";
  }

  void dump(const ConstDeclAST &decl) {
    line() << "Const " << decl.getName();
    if (!decl.getAlternatives().empty()) {
      os << " tuned over [" << llvm::join(decl.getAlternatives(), ", ") << "]";
      printLoc(decl.getLoc());
      return;
    }
    if (const TypeAST *type = decl.getType()) {
      os << " = type ";
      printType(*type);
      printLoc(decl.getLoc());
      return;
    }
    printLoc(decl.getLoc());
    Indent scope(*this);
    dump(*decl.getValue());
  }

  void dump(const ProgramDeclAST &program) {
    line() << "Program " << program.getName();
    printLoc(program.getLoc());
    Indent scope(*this);
    for (const ProgramDeclAST::KernelRef &kernel : program.getKernels()) {
      line() << "Runs " << kernel.name;
      printLoc(kernel.loc);
    }
  }

  void dump(const FunctionAST &function) {
    line() << "Function " << function.getName();
    printLoc(function.getLoc());
    Indent scope(*this);
    for (const FunctionAST::Param &param : function.getParams()) {
      line() << "Param " << param.name;
      if (param.type) {
        os << ": ";
        printType(*param.type);
      }
      printLoc(param.loc);
    }
    dump(function.getBody(), "Body");
  }

  void dump(const KernelAST &kernel) {
    line() << "Kernel " << kernel.getName();
    printLoc(kernel.getLoc());
    Indent scope(*this);
    for (const ParamAST &param : kernel.getParams()) {
      line() << "Param " << param.name << ": ";
      printType(param.type);
      printLoc(param.loc);
      if (param.defaultValue) {
        Indent defaultScope(*this);
        dump(*param.defaultValue, "default");
      }
    }
    for (const std::unique_ptr<ExprAST> &size : kernel.getGrid())
      dump(*size, "grid");
    if (const ExprAST *warps = kernel.getWarps())
      dump(*warps, "warps");
    if (const ExprAST *stages = kernel.getStages())
      dump(*stages, "stages");
    if (const ExprAST *tma = kernel.getTma())
      dump(*tma, "tma");
    if (const ExprAST *specialize = kernel.getSpecialize())
      dump(*specialize, "specialize");
    if (const ExprAST *persistent = kernel.getPersistent())
      dump(*persistent, "persistent");
    if (const ExprAST *cluster = kernel.getCluster())
      dump(*cluster, "cluster");
    if (const ExprAST *overlap = kernel.getOverlap())
      dump(*overlap, "overlap");
    dump(kernel.getBody(), "Body");
  }

  void dump(const StmtList &stmts, llvm::StringRef title) {
    line() << title << "\n";
    Indent scope(*this);
    for (const std::unique_ptr<StmtAST> &stmt : stmts)
      dump(*stmt);
  }

  void dump(const StmtAST &stmt) {
    llvm::TypeSwitch<const StmtAST *>(&stmt)
        .Case([&](const LetStmtAST *let) {
          dumpNamed("Let", let->getName(), let->getLoc(), let->getValue());
        })
        .Case([&](const VarStmtAST *var) {
          dumpNamed("Var", var->getName(), var->getLoc(), var->getValue());
        })
        .Case(
            [&](const ConstStmtAST *constStmt) { dump(constStmt->getDecl()); })
        .Case([&](const AssignStmtAST *assign) {
          dumpNamed("Assign", assign->getName(), assign->getLoc(),
                    assign->getValue());
        })
        .Case([&](const ForStmtAST *forStmt) {
          line() << "For " << forStmt->getInductionVar();
          printLoc(forStmt->getLoc());
          Indent scope(*this);
          dump(forStmt->getLo(), "lo");
          dump(forStmt->getHi(), "hi");
          dump(forStmt->getStep(), "step");
          dump(forStmt->getBody(), "Body");
        })
        .Case([&](const WhileStmtAST *whileStmt) {
          line() << "While";
          printLoc(whileStmt->getLoc());
          Indent scope(*this);
          dump(whileStmt->getCond(), "cond");
          dump(whileStmt->getBody(), "Body");
        })
        .Case([&](const JumpStmtAST *jump) {
          line() << (jump->isBreak() ? "Break" : "Continue");
          printLoc(jump->getLoc());
        })
        .Case([&](const IfStmtAST *ifStmt) {
          line() << "If";
          printLoc(ifStmt->getLoc());
          Indent scope(*this);
          dump(ifStmt->getCond(), "cond");
          dump(ifStmt->getThenBody(), "Then");
          if (const StmtList *elseBody = ifStmt->getElseBody())
            dump(*elseBody, "Else");
        })
        .Case([&](const ReturnStmtAST *ret) {
          line() << "Return";
          printLoc(ret->getLoc());
          if (const ExprAST *value = ret->getValue()) {
            Indent scope(*this);
            dump(*value);
          }
        })
        .Case([&](const ExprStmtAST *exprStmt) {
          line() << "ExprStmt";
          printLoc(exprStmt->getLoc());
          Indent scope(*this);
          dump(exprStmt->getExpr());
        });
  }

  void dumpNamed(llvm::StringRef kind, llvm::StringRef name, mlir::Location loc,
                 const ExprAST &value) {
    line() << kind << " " << name;
    printLoc(loc);
    Indent scope(*this);
    dump(value);
  }

  void dump(const ExprAST &expr, llvm::StringRef label = "") {
    line(label);
    llvm::TypeSwitch<const ExprAST *>(&expr)
        .Case([&](const IntLitExprAST *lit) {
          os << "IntLit " << lit->getValue();
          printLoc(lit->getLoc());
        })
        .Case([&](const FloatLitExprAST *lit) {
          os << "FloatLit " << llvm::format("%g", lit->getValue());
          printLoc(lit->getLoc());
        })
        .Case([&](const BoolLitExprAST *lit) {
          os << "BoolLit " << (lit->getValue() ? "true" : "false");
          printLoc(lit->getLoc());
        })
        .Case([&](const StringLitExprAST *lit) {
          os << "StringLit \"" << lit->getValue() << "\"";
          printLoc(lit->getLoc());
        })
        .Case([&](const VarRefExprAST *ref) {
          os << "VarRef " << ref->getName();
          printLoc(ref->getLoc());
        })
        .Case([&](const UnaryExprAST *unary) {
          os << "Unary "
             << (unary->getOp() == UnaryOp::Neg   ? "-"
                 : unary->getOp() == UnaryOp::Not ? "!"
                                                  : "~");
          printLoc(unary->getLoc());
          Indent scope(*this);
          dump(unary->getOperand());
        })
        .Case([&](const BinaryExprAST *binary) {
          os << "Binary " << stringifyBinaryOp(binary->getOp());
          printLoc(binary->getLoc());
          Indent scope(*this);
          dump(binary->getLHS());
          dump(binary->getRHS());
        })
        .Case([&](const TernaryExprAST *ternary) {
          os << "Ternary";
          printLoc(ternary->getLoc());
          Indent scope(*this);
          dump(ternary->getCond(), "cond");
          dump(ternary->getTrueValue(), "true");
          dump(ternary->getFalseValue(), "false");
        })
        .Case([&](const CallExprAST *call) {
          os << "Call " << call->getCallee();
          printLoc(call->getLoc());
          Indent scope(*this);
          for (const std::unique_ptr<ExprAST> &arg : call->getArgs())
            dump(*arg);
          for (const KeywordArgAST &arg : call->getKeywordArgs()) {
            line() << "KeywordArg " << arg.name;
            printLoc(arg.loc);
            Indent argScope(*this);
            dump(*arg.value);
          }
        })
        .Case([&](const ListExprAST *list) {
          os << "List";
          printLoc(list->getLoc());
          Indent scope(*this);
          for (const std::unique_ptr<ExprAST> &element : list->getElements())
            dump(*element);
        });
  }

  llvm::raw_ostream &os;
  unsigned level = 0;
};

} // namespace

void tilegym::dumpAST(const ModuleAST &module, llvm::raw_ostream &os) {
  ASTDumper(os).dump(module);
}
