//===- Lexer.cpp - Tokenizer for the .tile language -----------------------===//

#include "tilegym/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

using namespace tilegym;

bool tilegym::parseFloatLiteral(llvm::StringRef text, double &value) {
  if (text.empty() || std::isspace((unsigned char)text.front()))
    return false;
  std::string copy = text.str(); // strtod needs a NUL-terminated string
  char *end = nullptr;
  errno = 0;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

Lexer::Lexer(llvm::StringRef buffer)
    : cur(buffer.begin()), end(buffer.end()), lineStart(buffer.begin()) {}

void Lexer::skipWhitespaceAndComments() {
  while (cur != end) {
    char c = *cur;
    if (c == '\n') {
      ++cur;
      ++line;
      lineStart = cur;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++cur;
    } else if (c == '/' && cur + 1 != end && cur[1] == '/') {
      // Comment bodies may hold any bytes; they are skipped, not checked.
      while (cur != end && *cur != '\n')
        ++cur;
    } else {
      return;
    }
  }
}

Token Lexer::makeToken(Token::Kind kind, const char *start) const {
  return Token{kind, llvm::StringRef(start, cur - start), line,
               static_cast<unsigned>(start - lineStart) + 1};
}

Token Lexer::makeError(const char *start, std::string message) {
  errorMessage = std::move(message);
  return makeToken(Token::error, start);
}

Token Lexer::lex() {
  skipWhitespaceAndComments();
  const char *start = cur;
  if (cur == end)
    return makeToken(Token::eof, start);

  char c = *cur++;
  if (llvm::isAlpha(c) || c == '_')
    return lexIdentifierOrKeyword(start);
  if (llvm::isDigit(c) || (c == '.' && cur != end && llvm::isDigit(*cur)))
    return lexNumber(start);

  // Consumes `next` if it follows, for two-character operators.
  auto follows = [&](char next) {
    if (cur == end || *cur != next)
      return false;
    ++cur;
    return true;
  };
  switch (c) {
  case '"':
    while (cur != end && *cur != '"' && *cur != '\n')
      ++cur;
    if (cur == end || *cur != '"')
      return makeError(start, "unterminated string: expected '\"' before "
                              "the end of the line");
    ++cur;
    return makeToken(Token::string, start);
  case '(':
    return makeToken(Token::l_paren, start);
  case ')':
    return makeToken(Token::r_paren, start);
  case '[':
    return makeToken(Token::l_square, start);
  case ']':
    return makeToken(Token::r_square, start);
  case '{':
    return makeToken(Token::l_brace, start);
  case '}':
    return makeToken(Token::r_brace, start);
  case ',':
    return makeToken(Token::comma, start);
  case ';':
    return makeToken(Token::semi, start);
  case ':':
    return makeToken(Token::colon, start);
  case '?':
    return makeToken(Token::question, start);
  case '.':
    return makeToken(Token::dot, start);
  case '@':
    return makeToken(Token::at, start);
  case '+':
    return makeToken(Token::plus, start);
  case '-':
    return makeToken(Token::minus, start);
  case '*':
    return makeToken(Token::star, start);
  case '/':
    return makeToken(Token::slash, start);
  case '%':
    return makeToken(Token::percent, start);
  case '=':
    return makeToken(follows('=') ? Token::equal_equal : Token::equal, start);
  case '!':
    return makeToken(follows('=') ? Token::not_equal : Token::exclaim, start);
  case '<':
    if (follows('<'))
      return makeToken(Token::less_less, start);
    return makeToken(follows('=') ? Token::less_equal : Token::less, start);
  case '>':
    if (follows('>'))
      return makeToken(Token::greater_greater, start);
    return makeToken(follows('=') ? Token::greater_equal : Token::greater,
                     start);
  case '&':
    return makeToken(follows('&') ? Token::amp_amp : Token::amp, start);
  case '|':
    return makeToken(follows('|') ? Token::pipe_pipe : Token::pipe, start);
  case '^':
    return makeToken(Token::caret, start);
  case '~':
    return makeToken(Token::tilde, start);
  default:
    break;
  }
  return lexInvalid(start);
}

Token Lexer::lexIdentifierOrKeyword(const char *start) {
  while (cur != end && (llvm::isAlnum(*cur) || *cur == '_'))
    ++cur;
  llvm::StringRef spelling(start, cur - start);
  Token::Kind kind = llvm::StringSwitch<Token::Kind>(spelling)
                         .Case("const", Token::kw_const)
                         .Case("kernel", Token::kw_kernel)
                         .Case("fn", Token::kw_fn)
                         .Case("let", Token::kw_let)
                         .Case("var", Token::kw_var)
                         .Case("for", Token::kw_for)
                         .Case("in", Token::kw_in)
                         .Case("range", Token::kw_range)
                         .Case("if", Token::kw_if)
                         .Case("else", Token::kw_else)
                         .Case("grid", Token::kw_grid)
                         .Case("warps", Token::kw_warps)
                         .Case("stages", Token::kw_stages)
                         .Case("return", Token::kw_return)
                         .Case("while", Token::kw_while)
                         .Case("break", Token::kw_break)
                         .Case("continue", Token::kw_continue)
                         .Case("true", Token::kw_true)
                         .Case("false", Token::kw_false)
                         .Case("view", Token::kw_view)
                         // Float constants spelled as words.
                         .Cases({"inf", "nan"}, Token::floating)
                         .Default(Token::identifier);
  return makeToken(kind, start);
}

// integer ::= [0-9]+ | '0' [xX] [0-9a-fA-F]+
// float   ::= [0-9]+ '.' [0-9]+ [exp] | '.' [0-9]+ [exp] | [0-9]+ exp
// exp     ::= [eE] [+-]? [0-9]+
Token Lexer::lexNumber(const char *start) {
  if (*start == '0' && cur != end && (*cur == 'x' || *cur == 'X')) {
    ++cur;
    const char *digits = cur;
    while (cur != end && llvm::isHexDigit(*cur))
      ++cur;
    if (cur == digits)
      return makeError(start, "expected hex digits after '0x'");
    return makeToken(Token::integer, start);
  }

  bool isFloat = *start == '.';
  while (cur != end && llvm::isDigit(*cur))
    ++cur;
  // A '.' not followed by a digit is punctuation, not part of the number.
  if (!isFloat && end - cur >= 2 && *cur == '.' && llvm::isDigit(cur[1])) {
    isFloat = true;
    ++cur;
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
  }
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    ++cur;
    if (cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur == end || !llvm::isDigit(*cur))
      return makeError(start, "expected digits in float exponent");
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    isFloat = true;
  }
  return makeToken(isFloat ? Token::floating : Token::integer, start);
}

Token Lexer::lexInvalid(const char *start) {
  unsigned char c = *start;
  if (llvm::isPrint(c))
    return makeError(
        start,
        ("invalid character '" + llvm::Twine(*start) + "' in input").str());

  // Report a run of binary bytes once rather than byte by byte.
  auto isBinary = [](unsigned char b) {
    return !llvm::isPrint(b) && !llvm::isSpace(b);
  };
  while (cur != end && isBinary(*cur))
    ++cur;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "invalid byte " << llvm::format_hex(c, 4) << " in input";
  return makeError(start, std::move(message));
}

Token Lexer::lexViewDim() {
  skipWhitespaceAndComments();
  const char *start = cur;
  if (cur != end && *cur == '?') {
    ++cur;
    return makeToken(Token::question, start);
  }
  if (cur != end && llvm::isDigit(*cur)) {
    // Decimal only, and no exponent or fraction: `128x` ends at the 'x'.
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    return makeToken(Token::integer, start);
  }
  return lex();
}

Token Lexer::lexViewSeparator() {
  skipWhitespaceAndComments();
  const char *start = cur;
  if (cur != end && *cur == 'x') {
    ++cur;
    return makeToken(Token::view_x, start);
  }
  return lex();
}
