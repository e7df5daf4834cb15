//===- ParserImpl.h - The .tile parser's state and rules -------*- C++ -*-===//
//
// The recursive descent parser of lib/Frontend: its token handling and error
// recovery, and one member per grammar rule. Parser.cpp holds the
// declarations, types and statements, ParseExpr.cpp the expressions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_LIB_FRONTEND_PARSERIMPL_H
#define TILEGYM_LIB_FRONTEND_PARSERIMPL_H

#include "tilegym/Frontend/AST.h"
#include "tilegym/Frontend/Lexer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Twine.h"

#include <optional>

namespace tilegym::detail {
using llvm::Twine;

/// Deeper nesting (of expressions, and of blocks) is an error, so that the
/// recursive parser and the recursive consumers of the AST cannot overflow
/// the stack.
constexpr unsigned kMaxNesting = 200;
// Expressions nest through operators too (a chain of N additions is a tree N
// deep), and every later walk over them recurses: the bound keeps those
// walks well inside an 8 MiB stack, sanitizer builds included.
constexpr unsigned kMaxExprDepth = 1000;
/// Parsing stops after this many errors.
constexpr unsigned kMaxErrors = 20;

class Parser {
public:
  Parser(llvm::StringRef buffer, llvm::StringRef filename,
         mlir::MLIRContext &context)
      : lexer(buffer), filename(mlir::StringAttr::get(&context, filename)) {
    consume();
  }

  std::unique_ptr<ModuleAST> parseModule();

private:
  //===--------------------------------------------------------------------===//
  // Tokens
  //===--------------------------------------------------------------------===//

  /// Reports a lexer error token as it enters the parser.
  Token fetch(Token t) {
    if (t.is(Token::error))
      error(getLoc(t), lexer.getErrorMessage());
    return t;
  }

  void setToken(Token next) {
    prevLine = tok.line;
    prevEndCol = tok.col + tok.spelling.size();
    tok = next;
    // After too many errors, pretend the input ends so every loop unwinds.
    if (stopped)
      tok.kind = Token::eof;
  }

  void consume() {
    if (lookahead) {
      setToken(*lookahead);
      lookahead.reset();
    } else {
      setToken(fetch(lexer.lex()));
    }
  }

  /// Replaces the current token with one lexed in view-shape mode.
  void consumeInViewShape(Token (Lexer::*lexFn)()) {
    // View shapes are lexed right after `view <`, where nothing peeks ahead.
    assert(!lookahead && "view shape lexed with a token in lookahead");
    setToken(fetch((lexer.*lexFn)()));
  }

  /// The token after the current one.
  const Token &peek() {
    if (!lookahead)
      lookahead = fetch(lexer.lex());
    return *lookahead;
  }

  bool consumeIf(Token::Kind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }

  /// Consumes a `kind` token, or reports "expected <what>, found ...".
  bool expect(Token::Kind kind, const Twine &what) {
    if (consumeIf(kind))
      return true;
    expected(what);
    return false;
  }

  mlir::Location getLoc(const Token &t) const {
    return mlir::FileLineColLoc::get(filename, t.line, t.col);
  }
  mlir::Location getLoc() const { return getLoc(tok); }

  //===--------------------------------------------------------------------===//
  // Diagnostics and recovery
  //===--------------------------------------------------------------------===//

  void error(mlir::Location loc, const Twine &message) {
    if (stopped)
      return;
    if (numErrors == kMaxErrors) {
      mlir::emitError(loc) << "too many errors (limit " << kMaxErrors
                           << "), stopping";
      stopped = true;
      return;
    }
    ++numErrors;
    mlir::emitError(loc) << message;
  }

  /// Reports "expected <what>, found <current token>".
  void expected(const Twine &what) {
    // The lexer has already reported a bad token; a second error is noise.
    if (tok.is(Token::error))
      return;
    // Every construct still open fails at the end of the file; one report of
    // that is enough.
    if (tok.is(Token::eof)) {
      if (reportedEof)
        return;
      reportedEof = true;
    }
    // When the token found starts a new line, the missing one belongs at the
    // end of the previous line, e.g. a ';' forgotten after a statement.
    mlir::Location loc = getLoc();
    if (prevLine != 0 && tok.line > prevLine)
      loc = mlir::FileLineColLoc::get(filename, prevLine, prevEndCol);
    error(loc, "expected " + what + ", found " + describe(tok));
  }

  static std::string describe(const Token &t) {
    if (t.is(Token::eof))
      return "end of file";
    return ("'" + t.spelling + "'").str();
  }

  /// Skips the rest of a bad statement: up to and including the next ';' or
  /// balanced `{...}` group (with any `else` branches after it), or up to a
  /// '}' closing the enclosing block.
  void skipStatement() {
    unsigned depth = 0;
    while (!tok.is(Token::eof) && !tok.is(Token::kw_kernel) &&
           !tok.is(Token::kw_fn)) {
      if (tok.is(Token::r_brace)) {
        if (depth == 0)
          return;
        consume();
        if (--depth == 0 && !tok.is(Token::kw_else))
          return;
        continue;
      }
      if (tok.is(Token::semi) && depth == 0) {
        consume();
        return;
      }
      if (tok.is(Token::l_brace))
        ++depth;
      consume();
    }
  }

  /// Skips to the next `kernel` or `const` outside any braces.
  void skipToTopLevel() {
    unsigned depth = 0;
    while (!tok.is(Token::eof)) {
      if (depth == 0 && (tok.is(Token::kw_kernel) || tok.is(Token::kw_fn) ||
                         tok.is(Token::kw_const) || isTuneKeyword() ||
                         isProgramKeyword() || isImportKeyword()))
        return;
      if (tok.is(Token::l_brace))
        ++depth;
      else if (tok.is(Token::r_brace) && depth > 0)
        --depth;
      consume();
    }
  }

  /// Holds one level of nesting in `depth` for the lifetime of the scope.
  struct NestingScope {
    explicit NestingScope(unsigned &depth) : depth(depth) { ++depth; }
    ~NestingScope() { --depth; }
    unsigned &depth;
  };

  /// Reports an error if `depth` exceeds the nesting limit.
  bool checkExprDepth() {
    if (exprDepth <= kMaxExprDepth)
      return true;
    error(getLoc(), "expression nested too deeply (limit " +
                        Twine(kMaxExprDepth) +
                        " levels of operators, "
                        "parentheses and calls)");
    return false;
  }

  bool checkNesting(unsigned depth, const char *what) {
    if (depth <= kMaxNesting)
      return true;
    error(getLoc(), Twine(what) + " nested too deeply (limit " +
                        Twine(kMaxNesting) + ")");
    return false;
  }

  /// Converts an integer token, reporting overflow.
  std::optional<int64_t> getIntValue(const Token &t) {
    llvm::StringRef digits = t.spelling;
    unsigned radix = 10;
    if (digits.starts_with_insensitive("0x")) {
      digits = digits.drop_front(2);
      radix = 16;
    }
    int64_t value;
    if (digits.getAsInteger(radix, value)) {
      error(getLoc(t), "integer literal too large");
      return std::nullopt;
    }
    return value;
  }

  //===--------------------------------------------------------------------===//
  // Grammar
  //===--------------------------------------------------------------------===//

  std::unique_ptr<ConstDeclAST> parseConstDecl();
  std::unique_ptr<ConstDeclAST> parseTuneDecl();
  std::unique_ptr<KernelAST> parseKernel();
  std::unique_ptr<ProgramDeclAST> parseProgram();
  /// `program` is a keyword only where a top-level declaration starts (no
  /// identifier can start one), so kernels may still use it as a name.
  bool isTuneKeyword() {
    return tok.is(Token::identifier) && tok.spelling == "tune";
  }
  bool isProgramKeyword() {
    return tok.is(Token::identifier) && tok.spelling == "program";
  }
  /// `import` is contextual as `program` is: a top-level word.
  bool isImportKeyword() {
    return tok.is(Token::identifier) && tok.spelling == "import";
  }
  std::unique_ptr<ImportDeclAST> parseImport();
  std::optional<ParamAST> parseParam();
  std::optional<TypeAST> parseNamedViewType(mlir::Location loc);
  std::optional<TypeAST> parseViewElementType(mlir::Location loc,
                                              std::vector<int64_t> dims,
                                              std::vector<std::string> names,
                                              const Twine &what);
  bool parseParenExprList(llvm::StringRef keyword, unsigned maxExprs,
                          ExprList &exprs);
  std::optional<TypeAST> parseType();
  std::optional<TypeAST> parseViewType();
  bool parseBlock(StmtList &stmts);
  std::unique_ptr<StmtAST> parseStmt();
  std::unique_ptr<StmtAST> parseBinding();
  std::unique_ptr<StmtAST> parseAssign();
  std::unique_ptr<StmtAST> parseFor();
  std::unique_ptr<StmtAST> parseIf();
  std::unique_ptr<StmtAST> parseReturn();
  std::unique_ptr<StmtAST> parseWhile();
  std::unique_ptr<FunctionAST> parseFunction();
  std::unique_ptr<ExprAST> parseExpr();
  std::unique_ptr<ExprAST> parseBinaryRHS(int minPrecedence,
                                          std::unique_ptr<ExprAST> lhs);
  std::unique_ptr<ExprAST> parseUnary();
  std::unique_ptr<ExprAST> parsePrimary();
  std::unique_ptr<ExprAST> parseCall(std::string callee, mlir::Location loc);
  std::unique_ptr<ExprAST> parseList();

  Lexer lexer;
  mlir::StringAttr filename;
  /// The current token.
  Token tok = {Token::eof, "", 0, 0};
  /// Where the previous token ended (line 0 before the first token).
  unsigned prevLine = 0;
  unsigned prevEndCol = 0;
  std::optional<Token> lookahead;

  unsigned numErrors = 0;
  bool stopped = false;
  bool reportedEof = false;
  unsigned exprDepth = 0;
  unsigned blockDepth = 0;
};

} // namespace tilegym::detail

#endif // TILEGYM_LIB_FRONTEND_PARSERIMPL_H
