//===- ParseExpr.cpp - Expressions of the .tile language ------------------===//
//
// The expression rules of the recursive descent parser (ParserImpl.h):
// precedence climbing over the binary operators, unary operators, primaries,
// calls and lists.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

#include <cmath>

using namespace tilegym;
using llvm::Twine;
using tilegym::detail::Parser;

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
/// Bitwise operators bind tighter than comparisons, as in Python (and
/// Triton): `x & mask == 0` is `(x & mask) == 0`.
enum Precedence {
  Or = 1,
  And,
  Compare,
  BitOr,
  BitXor,
  BitAnd,
  Shift,
  Additive,
  Multiplicative
};
} // namespace

/// The precedence of `t` as a binary operator, or -1 if it is none.
static int getPrecedence(const Token &t, BinaryOp &op) {
  switch (t.kind) {
    // clang-format off
  case Token::pipe_pipe:        op = BinaryOp::Or;     return Or;
  case Token::amp_amp:          op = BinaryOp::And;    return And;
  case Token::equal_equal:      op = BinaryOp::Eq;     return Compare;
  case Token::not_equal:        op = BinaryOp::Ne;     return Compare;
  case Token::less:             op = BinaryOp::Lt;     return Compare;
  case Token::less_equal:       op = BinaryOp::Le;     return Compare;
  case Token::greater:          op = BinaryOp::Gt;     return Compare;
  case Token::greater_equal:    op = BinaryOp::Ge;     return Compare;
  case Token::pipe:             op = BinaryOp::BitOr;  return BitOr;
  case Token::caret:            op = BinaryOp::BitXor; return BitXor;
  case Token::amp:              op = BinaryOp::BitAnd; return BitAnd;
  case Token::less_less:        op = BinaryOp::Shl;    return Shift;
  case Token::greater_greater:  op = BinaryOp::Shr;    return Shift;
  case Token::plus:             op = BinaryOp::Add;    return Additive;
  case Token::minus:            op = BinaryOp::Sub;    return Additive;
  case Token::star:             op = BinaryOp::Mul;    return Multiplicative;
  case Token::slash:            op = BinaryOp::Div;    return Multiplicative;
  case Token::percent:          op = BinaryOp::Rem;    return Multiplicative;
  case Token::at:               op = BinaryOp::MatMul; return Multiplicative;
  // clang-format on
  default:
    return -1;
  }
}

// or  ::= and ('||' and)*
// and ::= cmp ('&&' cmp)*
// cmp ::= bor [('=='|'!='|'<'|'<='|'>'|'>=') bor]
// bor ::= bxor ('|' bxor)*
// bxor ::= band ('^' band)*
// band ::= shift ('&' shift)*
// shift ::= add (('<<'|'>>') add)*
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

// unary ::= ('-' | '!' | '~') unary | postfix
// postfix ::= primary
std::unique_ptr<ExprAST> Parser::parseUnary() {
  if (!tok.is(Token::minus) && !tok.is(Token::exclaim) && !tok.is(Token::tilde))
    return parsePrimary();

  NestingScope scope(exprDepth);
  if (!checkExprDepth())
    return nullptr;
  mlir::Location loc = getLoc();
  UnaryOp op = tok.is(Token::minus)   ? UnaryOp::Neg
               : tok.is(Token::tilde) ? UnaryOp::BitNot
                                      : UnaryOp::Not;
  consume();
  std::unique_ptr<ExprAST> operand = parseUnary();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExprAST>(op, std::move(operand), loc);
}

// primary ::= INT | FLOAT | 'true' | 'false' | STRING | IDENT
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
  case Token::string: {
    // The token keeps its quotes.
    std::string text = tok.spelling.drop_front().drop_back().str();
    consume();
    return std::make_unique<StringLitExprAST>(std::move(text), loc);
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
