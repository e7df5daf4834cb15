//===- Parser.cpp - Parser for the .tile language -------------------------===//
//
// Recursive descent over the grammar of docs/language.md, one function per
// rule (the rule is quoted above each). Errors are emitted where they are
// detected; failure then propagates as a null result, without further
// messages, up to the enclosing statement or top-level declaration, which
// skips ahead and resumes so that one run reports several errors.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Frontend/Parser.h"
#include "tilegym/Frontend/Lexer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <optional>

using namespace tilegym;
using llvm::Twine;

namespace {

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
    while (!tok.is(Token::eof) && !tok.is(Token::kw_kernel)) {
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
      if (depth == 0 && (tok.is(Token::kw_kernel) || tok.is(Token::kw_const) ||
                         isTuneKeyword() || isProgramKeyword()))
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

} // namespace

static bool isBuiltinScalarType(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"f32", "f16", "bf16", "i32", "i1", "index"}, true)
      .Default(false);
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

// file ::= (const-decl | tune-decl | kernel | program)* EOF
std::unique_ptr<ModuleAST> Parser::parseModule() {
  std::vector<std::unique_ptr<DeclAST>> decls;
  while (!tok.is(Token::eof)) {
    std::unique_ptr<DeclAST> decl;
    if (tok.is(Token::kw_const))
      decl = parseConstDecl();
    else if (isTuneKeyword())
      decl = parseTuneDecl();
    else if (tok.is(Token::kw_kernel))
      decl = parseKernel();
    else if (isProgramKeyword())
      decl = parseProgram();
    else
      expected("'kernel', 'const', 'tune' or 'program' at top level");

    if (decl)
      decls.push_back(std::move(decl));
    else
      skipToTopLevel();
  }
  if (numErrors != 0 || stopped)
    return nullptr;
  return std::make_unique<ModuleAST>(std::move(decls));
}

// const-decl ::= 'const' IDENT '=' (type | expr) ';'
std::unique_ptr<ConstDeclAST> Parser::parseConstDecl() {
  mlir::Location loc = getLoc();
  consume(); // 'const'
  if (!tok.is(Token::identifier)) {
    expected("name after 'const'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (!expect(Token::equal, "'=' in 'const' declaration"))
    return nullptr;

  // Builtin type names and view types are types; anything else, including a
  // bare identifier that may name another type const, is an expression.
  std::unique_ptr<ConstDeclAST> decl;
  if (tok.is(Token::kw_view) ||
      (tok.is(Token::identifier) && isBuiltinScalarType(tok.spelling))) {
    std::optional<TypeAST> type = parseType();
    if (!type)
      return nullptr;
    decl =
        std::make_unique<ConstDeclAST>(std::move(name), std::move(*type), loc);
  } else {
    std::unique_ptr<ExprAST> value = parseExpr();
    if (!value)
      return nullptr;
    decl =
        std::make_unique<ConstDeclAST>(std::move(name), std::move(value), loc);
  }
  if (!expect(Token::semi, "';' after 'const' declaration"))
    return nullptr;
  return decl;
}

// tune-decl ::= 'tune' IDENT 'in' '[' value (',' value)* ']' ';'
// value     ::= '-'? (INTEGER | FLOAT) | 'true' | 'false' | scalar type name
std::unique_ptr<ConstDeclAST> Parser::parseTuneDecl() {
  mlir::Location loc = getLoc();
  consume(); // 'tune'
  if (!tok.is(Token::identifier)) {
    expected("name after 'tune'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (!tok.is(Token::kw_in)) {
    expected("'in' after the tuned name, as in 'tune " + name +
             " in [64, 128];'");
    return nullptr;
  }
  consume();
  if (!expect(Token::l_square, "'[' before the values to tune over"))
    return nullptr;
  std::vector<std::string> values;
  while (true) {
    std::string sign;
    if (tok.is(Token::minus)) {
      sign = "-";
      consume();
    }
    bool number = tok.is(Token::integer) || tok.is(Token::floating);
    bool word = sign.empty() && tok.is(Token::identifier) &&
                (tok.spelling == "true" || tok.spelling == "false" ||
                 isBuiltinScalarType(tok.spelling));
    if (!number && !word) {
      expected("a value to tune over: a number, true, false or a scalar "
               "type name");
      return nullptr;
    }
    values.push_back(sign + tok.spelling.str());
    consume();
    if (tok.is(Token::r_square))
      break;
    if (!expect(Token::comma, "',' or ']' in the values to tune over"))
      return nullptr;
  }
  consume(); // ']'
  if (!expect(Token::semi, "';' after 'tune' declaration"))
    return nullptr;
  return std::make_unique<ConstDeclAST>(std::move(name), std::move(values),
                                        loc);
}

// program ::= 'program' IDENT '=' IDENT (',' IDENT)* ';'
std::unique_ptr<ProgramDeclAST> Parser::parseProgram() {
  mlir::Location loc = getLoc();
  consume(); // 'program'
  if (!tok.is(Token::identifier)) {
    expected("program name after 'program'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (!expect(Token::equal, "'=' after the program name"))
    return nullptr;
  std::vector<ProgramDeclAST::KernelRef> kernels;
  do {
    if (!tok.is(Token::identifier)) {
      expected("a kernel name in program '" + name + "'");
      return nullptr;
    }
    kernels.push_back({tok.spelling.str(), getLoc()});
    consume();
  } while (consumeIf(Token::comma));
  if (!expect(Token::semi,
              "',' or ';' after a kernel of program '" + name + "'"))
    return nullptr;
  return std::make_unique<ProgramDeclAST>(std::move(name), std::move(kernels),
                                          loc);
}

// kernel      ::= 'kernel' IDENT '(' [param (',' param)*] ')' kernel-attr*
// block kernel-attr ::= 'grid' '(' expr [',' expr [',' expr]] ')'
//               | 'warps' '(' expr ')'
//               | 'stages' '(' expr ')'
std::unique_ptr<KernelAST> Parser::parseKernel() {
  mlir::Location loc = getLoc();
  consume(); // 'kernel'
  if (!tok.is(Token::identifier)) {
    expected("kernel name after 'kernel'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();

  if (!expect(Token::l_paren, "'(' after kernel name"))
    return nullptr;
  std::vector<ParamAST> params;
  if (!tok.is(Token::r_paren)) {
    do {
      std::optional<ParamAST> param = parseParam();
      if (!param)
        return nullptr;
      params.push_back(std::move(*param));
    } while (consumeIf(Token::comma));
  }
  if (!expect(Token::r_paren, "')' to close parameter list"))
    return nullptr;

  ExprList grid;
  std::unique_ptr<ExprAST> warps, stages;
  bool hasGrid = false;
  while (tok.is(Token::kw_grid) || tok.is(Token::kw_warps) ||
         tok.is(Token::kw_stages)) {
    bool isGrid = tok.is(Token::kw_grid);
    std::unique_ptr<ExprAST> &count = tok.is(Token::kw_warps) ? warps : stages;
    if (isGrid ? hasGrid : count != nullptr) {
      error(getLoc(), "duplicate '" + tok.spelling + "' attribute on kernel '" +
                          name + "'");
      return nullptr;
    }
    llvm::StringRef keyword = tok.spelling;
    consume();
    if (isGrid) {
      hasGrid = true;
      if (!parseParenExprList(keyword, 3, grid))
        return nullptr;
    } else {
      ExprList one;
      if (!parseParenExprList(keyword, 1, one))
        return nullptr;
      count = std::move(one.front());
    }
  }

  if (!tok.is(Token::l_brace)) {
    expected("'grid', 'warps', 'stages' or '{' after kernel parameters");
    return nullptr;
  }
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<KernelAST>(std::move(name), std::move(params),
                                     std::move(grid), std::move(warps),
                                     std::move(stages), std::move(body), loc);
}

// param ::= IDENT ':' type ['=' expr]
std::optional<ParamAST> Parser::parseParam() {
  if (!tok.is(Token::identifier)) {
    expected("parameter name");
    return std::nullopt;
  }
  mlir::Location loc = getLoc();
  std::string name = tok.spelling.str();
  consume();
  if (!expect(Token::colon, "':' after parameter '" + name + "'"))
    return std::nullopt;
  std::optional<TypeAST> type = parseType();
  if (!type)
    return std::nullopt;
  ParamAST param{std::move(name), std::move(*type), loc, nullptr};
  if (consumeIf(Token::equal)) {
    if (param.type.isView()) {
      error(loc, "view parameter '" + param.name +
                     "' cannot have a default; only scalars can");
      return std::nullopt;
    }
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return std::nullopt;
  }
  return param;
}

// '(' expr [',' expr]... ')' with 1 to `maxExprs` expressions, after
// `keyword` (grid, warps, range).
bool Parser::parseParenExprList(llvm::StringRef keyword, unsigned maxExprs,
                                ExprList &exprs) {
  if (!expect(Token::l_paren, "'(' after '" + keyword + "'"))
    return false;
  do {
    std::unique_ptr<ExprAST> expr = parseExpr();
    if (!expr)
      return false;
    exprs.push_back(std::move(expr));
  } while (exprs.size() < maxExprs && consumeIf(Token::comma));
  return expect(Token::r_paren, "')' to close '" + keyword + "'");
}

// type        ::= scalar-type | 'view' '<' (dim 'x')* scalar-type '>'
// scalar-type ::= 'f32' | 'f16' | 'bf16' | 'i32' | 'i1' | 'index' | IDENT
std::optional<TypeAST> Parser::parseType() {
  if (tok.is(Token::kw_view))
    return parseViewType();
  if (!tok.is(Token::identifier)) {
    expected("type");
    return std::nullopt;
  }
  TypeAST type = TypeAST::getScalar(tok.spelling.str(), getLoc());
  consume();
  return type;
}

// 'view' '<' (dim 'x')* scalar-type '>'
// 'view' '<' '[' named-dim (',' named-dim)* ']' ',' scalar-type '>'
// dim ::= '?' | INT          named-dim ::= '?' | INT | IDENT
std::optional<TypeAST> Parser::parseViewType() {
  mlir::Location loc = getLoc();
  consume(); // 'view'
  if (!tok.is(Token::less)) {
    expected("'<' after 'view'");
    return std::nullopt;
  }
  consumeInViewShape(&Lexer::lexViewDim);
  if (tok.is(Token::l_square))
    return parseNamedViewType(loc);

  std::vector<int64_t> dims;
  while (tok.is(Token::question) || tok.is(Token::integer)) {
    if (tok.is(Token::question)) {
      dims.push_back(TypeAST::kDynamic);
    } else {
      std::optional<int64_t> size = getIntValue(tok);
      if (!size)
        return std::nullopt;
      dims.push_back(*size);
    }
    consumeInViewShape(&Lexer::lexViewSeparator);
    if (!tok.is(Token::view_x)) {
      expected("'x' after view dimension");
      return std::nullopt;
    }
    consumeInViewShape(&Lexer::lexViewDim);
  }

  return parseViewElementType(
      loc, std::move(dims), {},
      "'?', an integer size or an element type in view shape");
}

// The element type and '>' that end a view type.
std::optional<TypeAST>
Parser::parseViewElementType(mlir::Location loc, std::vector<int64_t> dims,
                             std::vector<std::string> names,
                             const Twine &what) {
  if (!tok.is(Token::identifier)) {
    expected(what);
    return std::nullopt;
  }
  std::string elementType = tok.spelling.str();
  consume();
  if (!expect(Token::greater, "'>' to close view type"))
    return std::nullopt;
  return TypeAST::getView(std::move(elementType), std::move(dims), loc,
                          std::move(names));
}

// After 'view' '<': '[' named-dim (',' named-dim)* ']' ',' scalar-type '>'
std::optional<TypeAST> Parser::parseNamedViewType(mlir::Location loc) {
  consume(); // '['
  std::vector<int64_t> dims;
  std::vector<std::string> names;
  do {
    if (tok.is(Token::question)) {
      dims.push_back(TypeAST::kDynamic);
      names.emplace_back();
    } else if (tok.is(Token::integer)) {
      std::optional<int64_t> size = getIntValue(tok);
      if (!size)
        return std::nullopt;
      dims.push_back(*size);
      names.emplace_back();
    } else if (tok.is(Token::identifier)) {
      dims.push_back(TypeAST::kDynamic);
      names.push_back(tok.spelling.str());
    } else {
      expected("a dimension name, '?' or an integer size");
      return std::nullopt;
    }
    consume();
  } while (consumeIf(Token::comma));
  if (!expect(Token::r_square, "']' or ',' in view dimensions") ||
      !expect(Token::comma, "',' and the element type after ']'"))
    return std::nullopt;
  return parseViewElementType(loc, std::move(dims), std::move(names),
                              "element type");
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

// block ::= '{' stmt* '}'
bool Parser::parseBlock(StmtList &stmts) {
  NestingScope scope(blockDepth);
  if (!checkNesting(blockDepth, "block"))
    return false;
  if (!expect(Token::l_brace, "'{' to begin block"))
    return false;
  // A `kernel` keyword cannot appear in a block: the '}' is missing.
  while (!tok.is(Token::r_brace) && !tok.is(Token::eof) &&
         !tok.is(Token::kw_kernel)) {
    if (std::unique_ptr<StmtAST> stmt = parseStmt())
      stmts.push_back(std::move(stmt));
    else
      skipStatement();
  }
  return expect(Token::r_brace, "'}' to close block");
}

// stmt ::= 'let' IDENT '=' expr ';'
//        | 'var' IDENT '=' expr ';'
//        | 'const' IDENT '=' (type | expr) ';'
//        | IDENT '=' expr ';'
//        | 'for' IDENT 'in' 'range' '(' expr [',' expr [',' expr]] ')' block
//        | 'if' expr block ['else' (block | if-stmt)]
//        | 'return' ';'
//        | expr ';'
std::unique_ptr<StmtAST> Parser::parseStmt() {
  switch (tok.kind) {
  case Token::kw_let:
  case Token::kw_var:
    return parseBinding();
  case Token::kw_const: {
    std::unique_ptr<ConstDeclAST> decl = parseConstDecl();
    if (!decl)
      return nullptr;
    return std::make_unique<ConstStmtAST>(std::move(decl));
  }
  case Token::kw_for:
    return parseFor();
  case Token::kw_if:
    return parseIf();
  case Token::kw_return:
    return parseReturn();
  case Token::identifier:
    if (peek().is(Token::equal))
      return parseAssign();
    break;
  default:
    break;
  }

  mlir::Location loc = getLoc();
  std::unique_ptr<ExprAST> expr = parseExpr();
  if (!expr || !expect(Token::semi, "';' after statement"))
    return nullptr;
  return std::make_unique<ExprStmtAST>(std::move(expr), loc);
}

// 'let' IDENT '=' expr ';'  |  'var' IDENT '=' expr ';'
std::unique_ptr<StmtAST> Parser::parseBinding() {
  mlir::Location loc = getLoc();
  bool isLet = tok.is(Token::kw_let);
  llvm::StringRef keyword = tok.spelling;
  consume();
  if (!tok.is(Token::identifier)) {
    expected("name after '" + keyword + "'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (!expect(Token::equal, "'=' in '" + keyword + "' declaration"))
    return nullptr;
  std::unique_ptr<ExprAST> value = parseExpr();
  if (!value || !expect(Token::semi, "';' after statement"))
    return nullptr;
  if (isLet)
    return std::make_unique<LetStmtAST>(std::move(name), std::move(value), loc);
  return std::make_unique<VarStmtAST>(std::move(name), std::move(value), loc);
}

// IDENT '=' expr ';'
std::unique_ptr<StmtAST> Parser::parseAssign() {
  mlir::Location loc = getLoc();
  std::string name = tok.spelling.str();
  consume(); // IDENT
  consume(); // '='
  std::unique_ptr<ExprAST> value = parseExpr();
  if (!value || !expect(Token::semi, "';' after statement"))
    return nullptr;
  return std::make_unique<AssignStmtAST>(std::move(name), std::move(value),
                                         loc);
}

// 'for' IDENT 'in' 'range' '(' expr [',' expr [',' expr]] ')' block
std::unique_ptr<StmtAST> Parser::parseFor() {
  mlir::Location loc = getLoc();
  consume(); // 'for'
  if (!tok.is(Token::identifier)) {
    expected("loop variable after 'for'");
    return nullptr;
  }
  std::string inductionVar = tok.spelling.str();
  consume();
  if (!expect(Token::kw_in, "'in' after loop variable"))
    return nullptr;
  mlir::Location rangeLoc = getLoc();
  if (!expect(Token::kw_range, "'range' after 'in'"))
    return nullptr;
  ExprList bounds;
  if (!parseParenExprList("range", 3, bounds))
    return nullptr;

  // range(hi), range(lo, hi), range(lo, hi, step).
  std::unique_ptr<ExprAST> lo, hi, step;
  if (bounds.size() == 1) {
    lo = std::make_unique<IntLitExprAST>(0, rangeLoc);
    hi = std::move(bounds[0]);
  } else {
    lo = std::move(bounds[0]);
    hi = std::move(bounds[1]);
  }
  if (bounds.size() == 3)
    step = std::move(bounds[2]);
  else
    step = std::make_unique<IntLitExprAST>(1, rangeLoc);

  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<ForStmtAST>(std::move(inductionVar), std::move(lo),
                                      std::move(hi), std::move(step),
                                      std::move(body), loc);
}

// if-stmt ::= 'if' expr block ['else' (block | if-stmt)]
std::unique_ptr<StmtAST> Parser::parseIf() {
  mlir::Location loc = getLoc();
  consume(); // 'if'
  std::unique_ptr<ExprAST> cond = parseExpr();
  if (!cond)
    return nullptr;
  StmtList thenBody;
  if (!parseBlock(thenBody))
    return nullptr;
  if (!consumeIf(Token::kw_else))
    return std::make_unique<IfStmtAST>(std::move(cond), std::move(thenBody),
                                       std::nullopt, loc);

  StmtList elseBody;
  if (tok.is(Token::kw_if)) {
    // An `else if` nests in the AST like a block, so it counts as one.
    NestingScope scope(blockDepth);
    if (!checkNesting(blockDepth, "block"))
      return nullptr;
    std::unique_ptr<StmtAST> elseIf = parseIf();
    if (!elseIf)
      return nullptr;
    elseBody.push_back(std::move(elseIf));
  } else if (tok.is(Token::l_brace)) {
    if (!parseBlock(elseBody))
      return nullptr;
  } else {
    expected("'{' or 'if' after 'else'");
    return nullptr;
  }
  return std::make_unique<IfStmtAST>(std::move(cond), std::move(thenBody),
                                     std::move(elseBody), loc);
}

// 'return' ';'
std::unique_ptr<StmtAST> Parser::parseReturn() {
  mlir::Location loc = getLoc();
  consume(); // 'return'
  if (!expect(Token::semi, "';' after 'return'"))
    return nullptr;
  return std::make_unique<ReturnStmtAST>(loc);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// expr    ::= ternary
// ternary ::= or ['?' expr ':' expr]
std::unique_ptr<ExprAST> Parser::parseExpr() {
  NestingScope scope(exprDepth);
  if (!checkExprDepth())
    return nullptr;
  std::unique_ptr<ExprAST> cond = parseUnary();
  if (!cond)
    return nullptr;
  cond = parseBinaryRHS(0, std::move(cond));
  if (!cond || !tok.is(Token::question))
    return cond;

  mlir::Location loc = getLoc();
  consume(); // '?'
  std::unique_ptr<ExprAST> trueValue = parseExpr();
  if (!trueValue)
    return nullptr;
  if (!expect(Token::colon, "':' in conditional expression"))
    return nullptr;
  std::unique_ptr<ExprAST> falseValue = parseExpr();
  if (!falseValue)
    return nullptr;
  return std::make_unique<TernaryExprAST>(std::move(cond), std::move(trueValue),
                                          std::move(falseValue), loc);
}

namespace {
/// Binding strength of the binary operators, loosest first.
enum Precedence { Or = 1, And, Compare, Additive, Multiplicative };
} // namespace

/// The precedence of `t` as a binary operator, or -1 if it is none.
static int getPrecedence(const Token &t, BinaryOp &op) {
  switch (t.kind) {
    // clang-format off
  case Token::pipe_pipe:     op = BinaryOp::Or;     return Or;
  case Token::amp_amp:       op = BinaryOp::And;    return And;
  case Token::equal_equal:   op = BinaryOp::Eq;     return Compare;
  case Token::not_equal:     op = BinaryOp::Ne;     return Compare;
  case Token::less:          op = BinaryOp::Lt;     return Compare;
  case Token::less_equal:    op = BinaryOp::Le;     return Compare;
  case Token::greater:       op = BinaryOp::Gt;     return Compare;
  case Token::greater_equal: op = BinaryOp::Ge;     return Compare;
  case Token::plus:          op = BinaryOp::Add;    return Additive;
  case Token::minus:         op = BinaryOp::Sub;    return Additive;
  case Token::star:          op = BinaryOp::Mul;    return Multiplicative;
  case Token::slash:         op = BinaryOp::Div;    return Multiplicative;
  case Token::percent:       op = BinaryOp::Rem;    return Multiplicative;
  case Token::at:            op = BinaryOp::MatMul; return Multiplicative;
  // clang-format on
  default:
    return -1;
  }
}

// or  ::= and ('||' and)*
// and ::= cmp ('&&' cmp)*
// cmp ::= add [('=='|'!='|'<'|'<='|'>'|'>=') add]
// add ::= mul (('+'|'-') mul)*
// mul ::= unary (('*'|'/'|'%'|'@') unary)*
//
// Precedence climbing: folds operators binding at least as tightly as
// `minPrecedence` into `lhs`, left-associatively.
std::unique_ptr<ExprAST> Parser::parseBinaryRHS(int minPrecedence,
                                                std::unique_ptr<ExprAST> lhs) {
  // Each operator deepens the left-leaning tree by one level, so long chains
  // count towards the nesting limit just as parentheses do.
  unsigned levels = 0;
  llvm::scope_exit restoreDepth([&] { exprDepth -= levels; });

  while (true) {
    BinaryOp op;
    int precedence = getPrecedence(tok, op);
    if (precedence < minPrecedence)
      return lhs;
    ++levels;
    ++exprDepth;
    if (!checkExprDepth())
      return nullptr;
    mlir::Location loc = getLoc();
    consume(); // the operator

    std::unique_ptr<ExprAST> rhs = parseUnary();
    if (!rhs)
      return nullptr;
    // An operator binding tighter than `op` takes `rhs` as its left operand.
    BinaryOp nextOp;
    if (getPrecedence(tok, nextOp) > precedence) {
      rhs = parseBinaryRHS(precedence + 1, std::move(rhs));
      if (!rhs)
        return nullptr;
    }
    lhs = std::make_unique<BinaryExprAST>(op, std::move(lhs), std::move(rhs),
                                          loc);

    // `cmp` allows a single comparison: `a < b < c` does not mean what it
    // seems to.
    if (precedence == Compare && getPrecedence(tok, nextOp) == Compare) {
      error(getLoc(), "comparisons cannot be chained; use '&&' or parentheses");
      return nullptr;
    }
  }
}

// unary ::= ('-' | '!') unary | postfix
// postfix ::= primary
std::unique_ptr<ExprAST> Parser::parseUnary() {
  if (!tok.is(Token::minus) && !tok.is(Token::exclaim))
    return parsePrimary();

  NestingScope scope(exprDepth);
  if (!checkExprDepth())
    return nullptr;
  mlir::Location loc = getLoc();
  UnaryOp op = tok.is(Token::minus) ? UnaryOp::Neg : UnaryOp::Not;
  consume();
  std::unique_ptr<ExprAST> operand = parseUnary();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExprAST>(op, std::move(operand), loc);
}

// primary ::= INT | FLOAT | 'true' | 'false' | IDENT
//           | IDENT '(' [arg (',' arg)*] ')'
//           | '(' expr ')'
//           | '[' [expr (',' expr)*] ']'
std::unique_ptr<ExprAST> Parser::parsePrimary() {
  mlir::Location loc = getLoc();
  switch (tok.kind) {
  case Token::integer: {
    std::optional<int64_t> value = getIntValue(tok);
    if (!value)
      return nullptr;
    consume();
    return std::make_unique<IntLitExprAST>(*value, loc);
  }
  case Token::floating: {
    double value;
    if (!parseFloatLiteral(tok.spelling, value) ||
        (std::isinf(value) && tok.spelling != "inf")) {
      error(loc, "float literal out of range");
      return nullptr;
    }
    consume();
    return std::make_unique<FloatLitExprAST>(value, loc);
  }
  case Token::kw_true:
  case Token::kw_false: {
    bool value = tok.is(Token::kw_true);
    consume();
    return std::make_unique<BoolLitExprAST>(value, loc);
  }
  case Token::identifier: {
    std::string name = tok.spelling.str();
    consume();
    if (tok.is(Token::l_paren))
      return parseCall(std::move(name), loc);
    return std::make_unique<VarRefExprAST>(std::move(name), loc);
  }
  case Token::l_paren: {
    consume();
    std::unique_ptr<ExprAST> expr = parseExpr();
    if (!expr ||
        !expect(Token::r_paren, "')' to close parenthesized expression"))
      return nullptr;
    return expr;
  }
  case Token::l_square:
    return parseList();
  default:
    expected("expression");
    return nullptr;
  }
}

// IDENT '(' [arg (',' arg)*] ')'
// arg ::= [IDENT '='] expr
std::unique_ptr<ExprAST> Parser::parseCall(std::string callee,
                                           mlir::Location loc) {
  consume(); // '('
  ExprList args;
  std::vector<KeywordArgAST> keywordArgs;
  if (!tok.is(Token::r_paren)) {
    do {
      if (tok.is(Token::identifier) && peek().is(Token::equal)) {
        mlir::Location argLoc = getLoc();
        std::string name = tok.spelling.str();
        for (const KeywordArgAST &other : keywordArgs) {
          if (other.name == name) {
            error(argLoc, "duplicate keyword argument '" + name +
                              "' in call to '" + callee + "'");
            return nullptr;
          }
        }
        consume(); // IDENT
        consume(); // '='
        std::unique_ptr<ExprAST> value = parseExpr();
        if (!value)
          return nullptr;
        keywordArgs.push_back({std::move(name), std::move(value), argLoc});
        continue;
      }
      if (!keywordArgs.empty()) {
        error(getLoc(), "positional argument follows keyword argument in "
                        "call to '" +
                            callee + "'");
        return nullptr;
      }
      std::unique_ptr<ExprAST> arg = parseExpr();
      if (!arg)
        return nullptr;
      args.push_back(std::move(arg));
    } while (consumeIf(Token::comma));
  }
  if (!expect(Token::r_paren, "')' to close call to '" + callee + "'"))
    return nullptr;
  return std::make_unique<CallExprAST>(std::move(callee), std::move(args),
                                       std::move(keywordArgs), loc);
}

// '[' [expr (',' expr)*] ']'
std::unique_ptr<ExprAST> Parser::parseList() {
  mlir::Location loc = getLoc();
  consume(); // '['
  ExprList elements;
  if (!tok.is(Token::r_square)) {
    do {
      std::unique_ptr<ExprAST> element = parseExpr();
      if (!element)
        return nullptr;
      elements.push_back(std::move(element));
    } while (consumeIf(Token::comma));
  }
  if (!expect(Token::r_square, "']' to close list"))
    return nullptr;
  return std::make_unique<ListExprAST>(std::move(elements), loc);
}

std::unique_ptr<ModuleAST> tilegym::parseModule(llvm::SourceMgr &sourceMgr,
                                                unsigned bufferId,
                                                mlir::MLIRContext &context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  Parser parser(buffer->getBuffer(), buffer->getBufferIdentifier(), context);
  return parser.parseModule();
}
