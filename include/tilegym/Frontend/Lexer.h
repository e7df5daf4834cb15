//===- Lexer.h - Tokenizer for the .tile language ---------------*- C++ -*-===//
//
// Splits a source buffer into tokens (docs/language.md, "Lexical structure"),
// tracking 1-based line and column numbers. The lexer never fails: bytes that
// cannot start a token come back as an `error` token whose message
// getErrorMessage() describes; reporting it is the caller's job.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_FRONTEND_LEXER_H
#define TILEGYM_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilegym {

/// Converts a float literal (any number of digits) to the nearest double;
/// overflow gives inf. False if `text` is not a float. Unlike APFloat's
/// conversion (behind StringRef::getAsDouble), whose stack buffers overflow
/// on literals of tens of thousands of digits, this is strtod's.
bool parseFloatLiteral(llvm::StringRef text, double &value);

struct Token {
  enum Kind {
    eof,
    error,
    identifier,
    integer,  // 123, 0x1F
    floating, // 1.0, .5, 1e-3, inf, nan
    string,   // "std", "lib/helpers.tile" (no escapes, one line)

    // Keywords.
    kw_const,
    kw_kernel,
    kw_fn,
    kw_let,
    kw_var,
    kw_for,
    kw_in,
    kw_range,
    kw_if,
    kw_else,
    kw_grid,
    kw_warps,
    kw_stages,
    kw_return,
    kw_while,
    kw_break,
    kw_continue,
    kw_true,
    kw_false,
    kw_view,

    // Punctuation.
    l_paren,
    r_paren,
    l_square,
    r_square,
    l_brace,
    r_brace,
    less,
    greater,
    comma,
    semi,
    colon,
    equal,
    question,
    dot,
    at,

    // Operators.
    plus,
    minus,
    star,
    slash,
    percent,
    equal_equal,
    not_equal,
    less_equal,
    greater_equal,
    amp_amp,
    pipe_pipe,
    exclaim,
    amp,             // bitwise and
    pipe,            // bitwise or
    caret,           // bitwise xor
    tilde,           // bitwise not
    less_less,       // shift left
    greater_greater, // arithmetic shift right

    // The 'x' between the sizes of a view shape (only from lexViewSeparator).
    view_x,
  };

  Kind kind;
  /// The token's text in the buffer; empty at end of file.
  llvm::StringRef spelling;
  unsigned line;
  unsigned col;

  bool is(Kind k) const { return kind == k; }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer);

  /// Lexes the next token.
  Token lex();

  // A view shape such as `?x128xf32` does not split into ordinary tokens
  // (`xf32` would be an identifier, `128x` a number followed by `x`), so the
  // parser lexes it with these two calls instead of lex().

  /// Lexes a view dimension: '?' or a decimal integer. Anything else (the
  /// element type, or an error) is lexed as by lex().
  Token lexViewDim();
  /// Lexes the single 'x' that follows a view dimension as a view_x token.
  /// Anything else is lexed as by lex().
  Token lexViewSeparator();

  /// Describes the last `error` token returned.
  llvm::StringRef getErrorMessage() const { return errorMessage; }

private:
  void skipWhitespaceAndComments();
  Token makeToken(Token::Kind kind, const char *start) const;
  Token makeError(const char *start, std::string message);
  Token lexIdentifierOrKeyword(const char *start);
  Token lexNumber(const char *start);
  Token lexInvalid(const char *start);

  const char *cur;
  const char *end;
  /// Start of the current line, for column numbers.
  const char *lineStart;
  unsigned line = 1;
  std::string errorMessage;
};

} // namespace tilegym

#endif // TILEGYM_FRONTEND_LEXER_H
