//===- TileMutator.h - a token-level mutator for .tile sources --*- C++ -*-===//
//
// For LLVMFuzzerCustomMutator: lexes the input with tilegym::Lexer and
// applies one grammar-aware edit (an interesting integer or float, another
// identifier/builtin/type, a statement duplicated or deleted, two tokens
// swapped, a token of the lexicon inserted, the chip byte changed); falls
// back to libFuzzer's own byte mutations a quarter of the time and whenever
// the edit does not apply. Header-only, for the fuzzers of this folder.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_TOOLS_FUZZERS_TILEMUTATOR_H
#define TILEGYM_TOOLS_FUZZERS_TILEMUTATOR_H

#include "tilegym/Frontend/Lexer.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace tilegym::fuzz {

/// Integers at the edges of sizes, powers of two and 32/64-bit ranges.
inline const char *const kInterestingIntegers[] = {
    "0",          "1",
    "2",          "3",
    "7",          "16",
    "31",         "32",
    "64",         "127",
    "128",        "255",
    "256",        "1023",
    "1024",       "4096",
    "65535",      "65536",
    "1048576",    "2147483647",
    "2147483648", "9223372036854775807"};

inline const char *const kInterestingFloats[] = {
    "0.0",    "1.0",    "0.5",  "1e-3",   "65504.0", "65520.0",
    "3.4e38", "3.5e38", "1e39", "1e308",  "1e309",   "1e-45",
    "1e-320", "inf",    "nan",  "2.5e+4", ".5",      "1e19"};

/// Identifiers a program can use in place of another: builtins of
/// docs/language.md, keyword-argument names, type names, and names the
/// examples use for consts, parameters and locals.
inline const char *const kIdentifiers[] = {
    // Builtins.
    "block_id", "num_blocks", "dim", "cdiv", "num_tiles", "load", "store",
    "prefetch", "gather", "scatter", "zeros", "full", "arange", "exp", "exp2",
    "log", "sqrt", "rsqrt", "tanh", "erf", "abs", "max", "min", "sum", "dot",
    "cast", "where", "broadcast", "reshape", "permute", "transpose",
    "expand_dims", "expm1", "log2", "log1p", "sin", "cos", "tan", "sigmoid",
    "floor", "ceil", "round", "trunc", "pow", "fma", "clamp", "prod", "any",
    "all", "argmax", "argmin",
    // Keyword arguments.
    "pad", "mask", "axis", "keepdims",
    // Types.
    "f32", "f16", "bf16", "i32", "i1", "index",
    // Names of the examples.
    "T", "BLOCK", "BM", "BN", "BK", "x", "y", "a", "b", "c", "i", "j", "k", "t",
    "acc", "row", "n", "m"};

/// Tokens to insert: keywords, punctuation and operators, some literals.
inline const char *const kLexicon[] = {"const",
                                       "kernel",
                                       "let",
                                       "var",
                                       "for",
                                       "in",
                                       "range",
                                       "if",
                                       "else",
                                       "grid",
                                       "warps",
                                       "stages",
                                       "return",
                                       "while",
                                       "fn",
                                       "break",
                                       "continue",
                                       "true",
                                       "false",
                                       "view",
                                       "(",
                                       ")",
                                       "[",
                                       "]",
                                       "{",
                                       "}",
                                       "<",
                                       ">",
                                       ",",
                                       ";",
                                       ":",
                                       "=",
                                       "?",
                                       ".",
                                       "@",
                                       "+",
                                       "-",
                                       "*",
                                       "/",
                                       "%",
                                       "==",
                                       "!=",
                                       "<=",
                                       ">=",
                                       "&&",
                                       "||",
                                       "!",
                                       "&",
                                       "|",
                                       "^",
                                       "~",
                                       "<<",
                                       ">>",
                                       "0",
                                       "1",
                                       "-1",
                                       "1024",
                                       "0.5",
                                       "-inf",
                                       "view<?xf32>",
                                       "view<?x?xf16>",
                                       "[1, 1024]",
                                       "keepdims = false",
                                       "axis = 0",
                                       "axis = -1",
                                       "pad = -inf"};

/// The first byte of a compile input picks the chip (byte % 3); these
/// whitespace bytes pick each without changing the program.
inline const char kChipBytes[] = {'\t', '\n', ' '}; // sm_80, sm_90, sm_90a

struct Lexeme {
  Token::Kind kind;
  size_t offset, length;
};

inline std::vector<Lexeme> lexAll(const std::string &text) {
  std::vector<Lexeme> tokens;
  Lexer lexer(text);
  for (;;) {
    Token tok = lexer.lex();
    if (tok.is(Token::eof) || tokens.size() >= 4096)
      break;
    tokens.push_back({tok.kind, size_t(tok.spelling.data() - text.data()),
                      tok.spelling.size()});
  }
  return tokens;
}

template <typename T, size_t N>
inline const T &pick(const T (&array)[N], std::mt19937 &rng) {
  return array[rng() % N];
}

/// One grammar-aware edit of `text`; false when none applied.
inline bool mutateTokens(std::string &text, std::mt19937 &rng) {
  std::vector<Lexeme> tokens = lexAll(text);
  if (tokens.empty())
    return false;
  auto pickOf = [&](auto pred) -> const Lexeme * {
    std::vector<const Lexeme *> matches;
    for (const Lexeme &t : tokens)
      if (pred(t))
        matches.push_back(&t);
    return matches.empty() ? nullptr : matches[rng() % matches.size()];
  };
  auto replace = [&](const Lexeme &t, const std::string &with) {
    text.replace(t.offset, t.length, with);
  };
  switch (rng() % 8) {
  case 0: { // An interesting integer.
    const Lexeme *t =
        pickOf([](const Lexeme &t) { return t.kind == Token::integer; });
    if (!t)
      return false;
    replace(*t, pick(kInterestingIntegers, rng));
    return true;
  }
  case 1: { // An interesting float.
    const Lexeme *t = pickOf([](const Lexeme &t) {
      return t.kind == Token::floating || t.kind == Token::integer;
    });
    if (!t)
      return false;
    replace(*t, pick(kInterestingFloats, rng));
    return true;
  }
  case 2: { // Another identifier: one of the lexicon's or of the input.
    const Lexeme *t =
        pickOf([](const Lexeme &t) { return t.kind == Token::identifier; });
    if (!t)
      return false;
    std::string with = pick(kIdentifiers, rng);
    if (rng() % 2) {
      const Lexeme *other =
          pickOf([](const Lexeme &t) { return t.kind == Token::identifier; });
      with = text.substr(other->offset, other->length);
    }
    replace(*t, with);
    return true;
  }
  case 3:
  case 4: { // Duplicate or delete a statement: the tokens up to a ';'.
    std::vector<size_t> semis;
    for (size_t i = 0; i < tokens.size(); ++i)
      if (tokens[i].kind == Token::semi)
        semis.push_back(i);
    if (semis.empty())
      return false;
    size_t end = semis[rng() % semis.size()], begin = end;
    while (begin > 0 && tokens[begin - 1].kind != Token::semi &&
           tokens[begin - 1].kind != Token::l_brace &&
           tokens[begin - 1].kind != Token::r_brace)
      --begin;
    size_t from = tokens[begin].offset;
    size_t to = tokens[end].offset + tokens[end].length;
    std::string statement = text.substr(from, to - from);
    if (rng() % 2)
      text.insert(to, "\n" + statement);
    else
      text.erase(from, to - from);
    return true;
  }
  case 5: { // Swap two tokens.
    if (tokens.size() < 2)
      return false;
    size_t i = rng() % tokens.size(), j = rng() % tokens.size();
    if (i == j)
      return false;
    if (i > j)
      std::swap(i, j);
    std::string a = text.substr(tokens[i].offset, tokens[i].length);
    std::string b = text.substr(tokens[j].offset, tokens[j].length);
    text.replace(tokens[j].offset, tokens[j].length, a); // The later first.
    text.replace(tokens[i].offset, tokens[i].length, b);
    return true;
  }
  case 6: { // Insert a token of the lexicon before a token.
    const Lexeme &t = tokens[rng() % tokens.size()];
    std::string with =
        rng() % 4 ? pick(kLexicon, rng) : pick(kIdentifiers, rng);
    text.insert(t.offset, with + " ");
    return true;
  }
  default: { // Another chip.
    char chip = kChipBytes[rng() % 3];
    if (!text.empty() && (text[0] == '\t' || text[0] == '\n' || text[0] == ' '))
      text[0] = chip;
    else
      text.insert(text.begin(), chip);
    return true;
  }
  }
}

/// The body of LLVMFuzzerCustomMutator.
inline size_t mutate(uint8_t *data, size_t size, size_t maxSize,
                     unsigned seed) {
  std::mt19937 rng(seed);
  if (size == 0 || rng() % 4 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::string edited = text;
    if (mutateTokens(edited, rng) && edited != text &&
        edited.size() <= maxSize) {
      std::memcpy(data, edited.data(), edited.size());
      return edited.size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

} // namespace tilegym::fuzz

#endif // TILEGYM_TOOLS_FUZZERS_TILEMUTATOR_H
