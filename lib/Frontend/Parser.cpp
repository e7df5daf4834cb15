//===- Parser.cpp - Parser for the .tile language -------------------------===//
//
// Recursive descent over the grammar of docs/language.md, one function per
// rule (the rule is quoted above each): the declarations, types and
// statements here, the expressions in ParseExpr.cpp (ParserImpl.h). Errors are
// emitted where they are detected; failure then propagates as a null result,
// without further messages, up to the enclosing statement or top-level
// declaration, which skips ahead and resumes so that one run reports several
// errors.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Frontend/Parser.h"
#include "ParserImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

using namespace tilegym;
using llvm::Twine;
using tilegym::detail::Parser;

static bool isBuiltinScalarType(llvm::StringRef name) {
  return llvm::is_contained(kScalarTypeNames, name);
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

// file ::= (import | const-decl | tune-decl | kernel | function | program)* EOF
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
    else if (tok.is(Token::kw_fn))
      decl = parseFunction();
    else if (isProgramKeyword())
      decl = parseProgram();
    else if (isImportKeyword())
      decl = parseImport();
    else
      expected("'kernel', 'fn', 'const', 'tune', 'program' or 'import' at "
               "top level");

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
//               | 'tma' '(' expr ')'
//               | 'specialize' '(' expr ')'
// (`tma` and `specialize` are names only there: elsewhere they stay
// identifiers.)
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
  KernelClauses clauses;
  bool hasGrid = false;
  auto isName = [&](llvm::StringRef word) {
    return tok.is(Token::identifier) && tok.spelling == word;
  };
  while (tok.is(Token::kw_grid) || tok.is(Token::kw_warps) ||
         tok.is(Token::kw_stages) || isName("tma") || isName("specialize") ||
         isName("persistent") || isName("cluster") || isName("overlap")) {
    bool isGrid = tok.is(Token::kw_grid);
    std::unique_ptr<ExprAST> &count =
        tok.is(Token::kw_warps) ? clauses.warps
        : isName("tma")         ? clauses.tma
        : isName("specialize")  ? clauses.specialize
        : isName("persistent")  ? clauses.persistent
        : isName("cluster")     ? clauses.cluster
        : isName("overlap")     ? clauses.overlap
                                : clauses.stages;
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
    expected("'grid', 'warps', 'stages', 'tma', 'specialize', 'persistent', "
             "'cluster', 'overlap' or '{' after kernel parameters");
    return nullptr;
  }
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<KernelAST>(std::move(name), std::move(params),
                                     std::move(grid), std::move(clauses),
                                     std::move(body), loc);
}

// import ::= 'import' STRING ';'
std::unique_ptr<ImportDeclAST> Parser::parseImport() {
  mlir::Location loc = getLoc();
  consume(); // 'import'
  if (!tok.is(Token::string)) {
    expected("a file to import, in quotes: import \"std\";");
    return nullptr;
  }
  std::string path = tok.spelling.drop_front().drop_back().str();
  consume();
  if (path.empty()) {
    error(loc, "import of an empty path");
    return nullptr;
  }
  if (!expect(Token::semi, "';' after import"))
    return nullptr;
  return std::make_unique<ImportDeclAST>(std::move(path), loc);
}

// function ::= 'fn' IDENT '(' [fparam (',' fparam)*] ')' block
// fparam   ::= IDENT [':' type]
std::unique_ptr<FunctionAST> Parser::parseFunction() {
  mlir::Location loc = getLoc();
  consume(); // 'fn'
  if (!tok.is(Token::identifier)) {
    expected("function name after 'fn'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (!expect(Token::l_paren, "'(' after function name"))
    return nullptr;
  std::vector<FunctionAST::Param> params;
  if (!tok.is(Token::r_paren)) {
    do {
      if (!tok.is(Token::identifier)) {
        expected("parameter name");
        return nullptr;
      }
      FunctionAST::Param param{tok.spelling.str(), std::nullopt, getLoc()};
      consume();
      if (consumeIf(Token::colon)) {
        param.type = parseType();
        if (!param.type)
          return nullptr;
      }
      params.push_back(std::move(param));
    } while (consumeIf(Token::comma));
  }
  if (!expect(Token::r_paren, "')' to close parameter list"))
    return nullptr;
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<FunctionAST>(std::move(name), std::move(params),
                                       std::move(body), loc);
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
// scalar-type ::= 'f64' | 'f32' | 'f16' | 'bf16' | 'f8e4m3' | 'f8e5m2'
//               | 'i64' | 'i32' | 'i8' | 'i1' | 'index' | IDENT
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
  // A `kernel` or `fn` keyword cannot appear in a block: the '}' is
  // missing. (skipStatement stops at both, so the loop must too.)
  while (!tok.is(Token::r_brace) && !tok.is(Token::eof) &&
         !tok.is(Token::kw_kernel) && !tok.is(Token::kw_fn)) {
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
//        | 'while' expr block
//        | 'if' expr block ['else' (block | if-stmt)]
//        | 'return' ';' | 'break' ';' | 'continue' ';'
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
  case Token::kw_while:
    return parseWhile();
  case Token::kw_break:
  case Token::kw_continue: {
    mlir::Location loc = getLoc();
    bool isBreak = tok.is(Token::kw_break);
    consume();
    if (!expect(Token::semi,
                isBreak ? "';' after 'break'" : "';' after 'continue'"))
      return nullptr;
    return std::make_unique<JumpStmtAST>(
        isBreak ? StmtAST::Kind::Break : StmtAST::Kind::Continue, loc);
  }
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

// 'while' expr block
std::unique_ptr<StmtAST> Parser::parseWhile() {
  mlir::Location loc = getLoc();
  consume(); // 'while'
  std::unique_ptr<ExprAST> cond = parseExpr();
  if (!cond)
    return nullptr;
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<WhileStmtAST>(std::move(cond), std::move(body), loc);
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

// 'return' [expr] ';'
std::unique_ptr<StmtAST> Parser::parseReturn() {
  mlir::Location loc = getLoc();
  consume(); // 'return'
  std::unique_ptr<ExprAST> value;
  if (!tok.is(Token::semi) && !(value = parseExpr()))
    return nullptr;
  if (!expect(Token::semi, "';' after 'return'"))
    return nullptr;
  return std::make_unique<ReturnStmtAST>(loc, std::move(value));
}

std::unique_ptr<ModuleAST> tilegym::parseModule(llvm::SourceMgr &sourceMgr,
                                                unsigned bufferId,
                                                mlir::MLIRContext &context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  Parser parser(buffer->getBuffer(), buffer->getBufferIdentifier(), context);
  return parser.parseModule();
}
