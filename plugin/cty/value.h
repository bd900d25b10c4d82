// cty values: a typed value that is known, unknown or null, as Terraform's core sees it.
// Values are immutable and cheap to copy. Numbers keep arbitrary precision (int64, double, or an
// exact decimal string), because the wire may carry any of the three.
#ifndef NSXALB_PLUGIN_CTY_VALUE_H_
#define NSXALB_PLUGIN_CTY_VALUE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/cty/type.h"

namespace nsxalb::cty {

// An arbitrary-precision number as it travels: an exact integer, a double, or a decimal string.
class Number {
 public:
  static Number Int(int64_t value);
  static Number Float(double value);
  // Parses a decimal string such as "12", "-0.5" or "1e400"; errors on anything else.
  static absl::StatusOr<Number> FromDecimal(std::string_view text);

  // The value as int64 when it is integral and in range; an error otherwise.
  absl::StatusOr<int64_t> AsInt64() const;
  // The nearest double.
  double AsDouble() const;
  // Canonical decimal text, e.g. "12", "0.5"; equal numbers have equal text.
  std::string ToString() const;
  bool IsInt64() const;  // exactly representable as int64

  friend bool operator==(const Number& a, const Number& b);
  friend bool operator!=(const Number& a, const Number& b) { return !(a == b); }

 private:
  std::string canonical_;  // canonical decimal text (the identity of the number)
};

// A typed value. For attributes of type Dynamic the value carries its concrete type; Null and
// Unknown may be of type Dynamic.
class Value {
 public:
  // The default value is a null of type Dynamic.
  Value();

  static Value Null(Type type);
  static Value Unknown(Type type);
  static Value String(std::string value);
  static Value Bool(bool value);
  static Value NumberVal(Number value);
  static Value Int(int64_t value) { return NumberVal(Number::Int(value)); }
  static Value Float(double value) { return NumberVal(Number::Float(value)); }
  // Collections; `element_type` is needed so that empty collections are typed.
  static Value List(Type element_type, std::vector<Value> elements);
  static Value Set(Type element_type, std::vector<Value> elements);
  static Value Map(Type element_type, std::map<std::string, Value> elements);
  // An object; its type is Object of the attributes' types.
  static Value Object(std::map<std::string, Value> attributes);
  // An object of the given type: attributes missing from `attributes` are set to null.
  static Value ObjectOf(const Type& object_type, std::map<std::string, Value> attributes);
  static Value Tuple(std::vector<Value> elements);

  const Type& type() const;
  bool IsNull() const;
  bool IsKnown() const;  // false only for unknown (a null is known)
  // True when neither this value nor anything inside it is unknown.
  bool IsWhollyKnown() const;

  // Accessors; each must only be called on a known, non-null value of the matching kind.
  const std::string& AsString() const;
  bool AsBool() const;
  const cty::Number& AsNumber() const;
  // Elements of a list, set or tuple.
  const std::vector<Value>& elements() const;
  // Entries of a map, or attributes of an object.
  const std::map<std::string, Value>& entries() const;

  // The attribute `name` of a known non-null object, or nullptr when absent.
  const Value* GetAttribute(const std::string& name) const;
  // Returns a copy of this object with attribute `name` replaced.
  Value WithAttribute(const std::string& name, Value value) const;

  // Deep equality: same type, same known/null state, equal contents (sets compare unordered).
  bool Equals(const Value& other) const;
  // Terraform-like rendering for messages, e.g. cty.StringVal("a"), cty.NullVal(cty.Number).
  std::string DebugString() const;

 private:
  struct Rep;
  explicit Value(std::shared_ptr<const Rep> rep);
  std::shared_ptr<const Rep> rep_;
};

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_VALUE_H_
