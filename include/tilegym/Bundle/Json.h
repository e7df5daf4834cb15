//===- Json.h - a small JSON reader for bundle manifests --------*- C++ -*-===//
//
// Just enough JSON for manifest.json: the bundle loader must build without
// LLVM (llvm::json is not available where the runner runs). Numbers are kept
// as int64_t when they are integers, since every number in a manifest is
// one; other numbers are doubles. Errors give the line and column.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_BUNDLE_JSON_H
#define TILEGYM_BUNDLE_JSON_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilegym::json {

class Value {
public:
  enum class Kind { Null, Bool, Int, Double, String, Array, Object };
  using Array = std::vector<Value>;
  using Object = std::map<std::string, Value>;

  Value() = default;
  static Value boolean(bool b);
  static Value integer(int64_t i);
  static Value number(double d);
  static Value string(std::string s);
  static Value array(Array a);
  static Value object(Object o);

  Kind kind() const { return kind_; }
  bool isInt() const { return kind_ == Kind::Int; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  bool asBool() const { return bool_; }
  int64_t asInt() const { return int_; }
  double asDouble() const { return double_; }
  const std::string &asString() const { return string_; }
  const Array &asArray() const { return *array_; }
  const Object &asObject() const { return *object_; }

  /// Member `key` of an object; nullptr if absent or not an object.
  const Value *get(const std::string &key) const;

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  int64_t int_ = 0;
  double double_ = 0.0;
  std::string string_;
  // shared_ptr: values are copied while parsing and never mutated after.
  std::shared_ptr<const Array> array_;
  std::shared_ptr<const Object> object_;
};

/// "null", "a boolean", "an integer", ...: for error messages.
const char *kindName(Value::Kind kind);

/// Parses one JSON document. On error returns false and sets `error` to
/// "line L, column C: <what>".
bool parse(std::string_view text, Value &result, std::string &error);

} // namespace tilegym::json

#endif // TILEGYM_BUNDLE_JSON_H
