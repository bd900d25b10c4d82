// cty values: a typed value that is known, unknown or null, as Terraform's core sees it.
// Values are immutable and cheap to copy. Numbers keep arbitrary precision (int64, double, or an
// exact decimal string), because the wire may carry any of the three.
#ifndef NSXALB_PLUGIN_CTY_VALUE_H_
#define NSXALB_PLUGIN_CTY_VALUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"

namespace nsxalb::cty {

// An arbitrary-precision number as it travels: an exact integer, a double, or a decimal string.
//
// A number is identified by its canonical decimal text (ToString), so "1.0" == "1" and
// "1e2" == "100". The canonical form:
//   * zero is "0" (there is no negative zero); negative numbers start with "-"; never a "+" sign
//     before the digits;
//   * every significant digit is kept, with no leading or trailing zeros;
//   * with x the decimal exponent of the first significant digit (value = d.ddd * 10^x), the text
//     is plain ("123.45", "0.000001") when -7 < x < 21, else scientific with a signed exponent
//     ("1e+21", "1.5e-7"): the same layout as JavaScript's Number.prototype.toString, but exact;
//   * infinities are "Inf" and "-Inf". There is no NaN in cty: Float(NaN) gives a number whose
//     text is "NaN", which both encoders reject.
// Float(d) takes the shortest decimal that reads back as d (so Float(0.1) == FromDecimal("0.1")).
class Number {
 public:
  // Zero.
  Number() = default;
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
  // The double that equals this number exactly (no rounding), if there is one. The msgpack
  // encoder writes float64 only then, as Terraform does.
  std::optional<double> ExactDouble() const;
  bool IsInfinity() const;  // +Inf or -Inf

  friend bool operator==(const Number& a, const Number& b);
  friend bool operator!=(const Number& a, const Number& b) { return !(a == b); }

 private:
  explicit Number(std::string canonical) : canonical_(std::move(canonical)) {}
  std::string canonical_ = "0";  // canonical decimal text (the identity of the number)
};

// A typed value. For attributes of type Dynamic the value carries its concrete type; Null and
// Unknown may be of type Dynamic. As in cty, a known object's type is the object type of its
// attributes' own types (so a dynamic attribute holding a string makes that attribute's type
// String); use Type::ConformsTo or CheckConformance to compare against a schema type.
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
  // A list of strings.
  static Value StringList(const std::vector<std::string>& items);
  // An object; its type is Object of the attributes' types.
  static Value Object(std::map<std::string, Value> attributes);
  // The same object; when its type equals `expected` (an object type), the value shares
  // `expected` instead of building that type again, which is what decoders of a known schema
  // do for every object they read.
  static Value Object(std::map<std::string, Value> attributes, const Type& expected);
  // An object of the given type: attributes missing from `attributes` are set to null of their
  // type; attributes not in `object_type` are kept (CheckConformance reports them).
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
  // Returns a copy of this object with attribute `name` replaced. The object's type is kept
  // (not rebuilt) when the new value has the old one's type. On an rvalue whose representation
  // nobody else shares (`v = std::move(v).WithAttribute(...)` in a loop), the attribute is
  // replaced in place instead of copying every other attribute.
  Value WithAttribute(const std::string& name, Value value) const&;
  Value WithAttribute(const std::string& name, Value value) &&;

  // Deep equality: same type, same known/null state, equal contents (sets compare unordered).
  bool Equals(const Value& other) const;
  // Terraform-like rendering for messages, e.g. cty.StringVal("a"), cty.NullVal(cty.Number).
  std::string DebugString() const;

  // The value at `path` below this one: attribute steps select object attributes, string keys
  // select map entries, integer keys select list and tuple elements. Errors (made with
  // PathError, naming the step that failed) when a step does not exist or a value on the way is
  // null or unknown.
  absl::StatusOr<Value> GetPath(const AttributePath& path) const;

 private:
  struct Rep;
  explicit Value(std::shared_ptr<const Rep> rep);
  std::shared_ptr<const Rep> rep_;
};

// Checks that `value` conforms to `type`: kinds match (Dynamic matches anything), objects have
// exactly the type's attributes, tuples the right length, recursively. The first problem is
// returned as a PathError below `path`, e.g. ".size: a number is required, got string".
absl::Status CheckConformance(const Value& value, const Type& type,
                              const AttributePath& path = AttributePath());

// Calls `visit` on `value` and then, pre-order, on everything inside it, with its path. Set
// elements get integer index steps in their stored order. Returning false from `visit` skips the
// inside of that value.
void Walk(const Value& value,
          const std::function<bool(const AttributePath& path, const Value& value)>& visit);

// Rebuilds `value` bottom-up: every value inside is replaced by `fn(path, v)`, where `v` already
// has its own inside transformed; `fn` is then applied to the root as well.
Value Transform(const Value& value,
                const std::function<Value(const AttributePath& path, const Value& value)>& fn);

// `value` with every unknown inside it replaced by a null of the same type (what Terraform core
// saves when a provider leaves unknowns after apply).
Value UnknownAsNull(const Value& value);

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_VALUE_H_
