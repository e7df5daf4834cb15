//===- Json.cpp - a small JSON reader for bundle manifests ----------------===//
#include "tilegym/Bundle/Json.h"

#include <cerrno>
#include <cstdlib>

using namespace tilegym::json;

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}

Value Value::integer(int64_t i) {
  Value v;
  v.kind_ = Kind::Int;
  v.int_ = i;
  v.double_ = double(i);
  return v;
}

Value Value::number(double d) {
  Value v;
  v.kind_ = Kind::Double;
  v.double_ = d;
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.kind_ = Kind::String;
  v.string_ = std::move(s);
  return v;
}

Value Value::array(Array a) {
  Value v;
  v.kind_ = Kind::Array;
  v.array_ = std::make_shared<const Array>(std::move(a));
  return v;
}

Value Value::object(Object o) {
  Value v;
  v.kind_ = Kind::Object;
  v.object_ = std::make_shared<const Object>(std::move(o));
  return v;
}

const Value *Value::get(const std::string &key) const {
  if (kind_ != Kind::Object)
    return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &it->second;
}

const char *tilegym::json::kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a boolean";
  case Value::Kind::Int:
    return "an integer";
  case Value::Kind::Double:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "?";
}

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  bool parseDocument(Value &result) {
    skipSpace();
    if (!parseValue(result, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

  std::string error;

private:
  // Manifests nest a few levels; the limit keeps hostile input from
  // overflowing the stack.
  static constexpr int kMaxDepth = 64;

  std::string_view text;
  size_t pos = 0;

  bool fail(const std::string &what) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " +
            std::to_string(column) + ": " + what;
    return false;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  bool parseValue(Value &result, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    if (pos >= text.size())
      return fail("unexpected end of input");
    char c = text[pos];
    if (c == '{')
      return parseObject(result, depth);
    if (c == '[')
      return parseArray(result, depth);
    if (c == '"') {
      std::string s;
      if (!parseString(s))
        return false;
      result = Value::string(std::move(s));
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(result);
    if (consume("true")) {
      result = Value::boolean(true);
      return true;
    }
    if (consume("false")) {
      result = Value::boolean(false);
      return true;
    }
    if (consume("null")) {
      result = Value();
      return true;
    }
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parseObject(Value &result, int depth) {
    ++pos; // '{'
    Value::Object members;
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      result = Value::object(std::move(members));
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key");
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after a key");
      ++pos;
      skipSpace();
      Value value;
      if (!parseValue(value, depth + 1))
        return false;
      if (!members.emplace(key, std::move(value)).second) {
        pos = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        result = Value::object(std::move(members));
        return true;
      }
      return fail(pos >= text.size() ? "unexpected end of input"
                                     : "expected ',' or '}' in an object");
    }
  }

  bool parseArray(Value &result, int depth) {
    ++pos; // '['
    Value::Array elements;
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      result = Value::array(std::move(elements));
      return true;
    }
    while (true) {
      skipSpace();
      Value value;
      if (!parseValue(value, depth + 1))
        return false;
      elements.push_back(std::move(value));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        result = Value::array(std::move(elements));
        return true;
      }
      return fail(pos >= text.size() ? "unexpected end of input"
                                     : "expected ',' or ']' in an array");
    }
  }

  bool parseHex4(uint32_t &code) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= c - '0';
      else if (c >= 'a' && c <= 'f')
        code |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        code |= c - 'A' + 10;
      else
        return fail("bad hex digit in a \\u escape");
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xc0 | (code >> 6));
      out += char(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += char(0xe0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    } else {
      out += char(0xf0 | (code >> 18));
      out += char(0x80 | ((code >> 12) & 0x3f));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // '"'
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      if (++pos >= text.size())
        break;
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t code = 0;
        if (!parseHex4(code))
          return false;
        // A high surrogate must pair with a low one.
        if (code >= 0xd800 && code < 0xdc00) {
          uint32_t low = 0;
          if (!consume("\\u") || !parseHex4(low) || low < 0xdc00 ||
              low >= 0xe000)
            return fail("unpaired surrogate in a \\u escape");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        --pos;
        return fail(std::string("bad escape '\\") + e + "'");
      }
    }
    return fail("unterminated string");
  }

  bool parseNumber(Value &result) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    auto digits = [&] {
      size_t first = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > first;
    };
    if (!digits())
      return fail("expected digits");
    bool integral = true;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      integral = false;
      if (!digits())
        return fail("expected digits after '.'");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      integral = false;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!digits())
        return fail("expected digits in an exponent");
    }
    std::string number(text.substr(start, pos - start));
    errno = 0;
    if (integral) {
      long long i = std::strtoll(number.c_str(), nullptr, 10);
      if (errno == ERANGE) {
        pos = start;
        return fail("integer " + number + " does not fit in 64 bits");
      }
      result = Value::integer(i);
    } else {
      result = Value::number(std::strtod(number.c_str(), nullptr));
    }
    return true;
  }
};

} // namespace

bool tilegym::json::parse(std::string_view text, Value &result,
                          std::string &error) {
  Parser parser(text);
  if (!parser.parseDocument(result)) {
    error = parser.error;
    return false;
  }
  return true;
}
