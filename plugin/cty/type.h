// cty types: the type system of Terraform's values (string, number, bool, dynamic, list, set,
// map, object, tuple), with the JSON type notation used in Schema.Attribute.type and in dynamic
// values on the wire ("string", ["list","number"], ["object",{"a":"bool"}], ...).
#ifndef NSXALB_PLUGIN_CTY_TYPE_H_
#define NSXALB_PLUGIN_CTY_TYPE_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace nsxalb::cty {

// An immutable cty type. Cheap to copy (shared representation).
class Type {
 public:
  enum class Kind { kString, kNumber, kBool, kDynamic, kList, kSet, kMap, kObject, kTuple };

  // Primitive and dynamic types.
  static Type String();
  static Type Number();
  static Type Bool();
  // The dynamic pseudo-type: the attribute may hold a value of any type.
  static Type Dynamic();
  // Collection types of one element type.
  static Type List(Type element);
  static Type Set(Type element);
  static Type Map(Type element);
  // Object type; attributes are kept sorted byte-wise by name, as Terraform encodes them.
  static Type Object(std::map<std::string, Type> attributes);
  // Tuple type of fixed element types.
  static Type Tuple(std::vector<Type> elements);

  // The default-constructed type is Dynamic.
  Type();

  Kind kind() const;
  bool IsPrimitive() const;   // string, number or bool
  bool IsCollection() const;  // list, set or map
  // Element type of a list, set or map. Must only be called on collections.
  const Type& element() const;
  // Attribute types of an object (empty for other kinds).
  const std::map<std::string, Type>& attributes() const;
  // Element types of a tuple (empty for other kinds).
  const std::vector<Type>& tuple_elements() const;

  // The JSON type notation, e.g. "\"string\"" or "[\"list\",\"number\"]" (compact, keys sorted).
  std::string ToJson() const;
  // Parses the JSON type notation; errors name the offending part.
  static absl::StatusOr<Type> FromJson(std::string_view json);
  // Human-readable name for messages: "string", "list of number", "object".
  std::string FriendlyName() const;
  // FriendlyName with its article, as the decoders' messages say it: "a number", "an object".
  std::string FriendlyNameWithArticle() const;
  // Go-syntax rendering as Terraform prints types in messages: "cty.String",
  // "cty.List(cty.Number)", "cty.Object(map[string]cty.Type{\"a\":cty.Bool})".
  std::string DebugString() const;
  // True when a value of this type may stand where `want` is expected: the types are equal, or
  // either side is Dynamic at some position (Dynamic matches anything).
  bool ConformsTo(const Type& want) const;
  // True when Dynamic appears anywhere in this type.
  bool HasDynamic() const;

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  struct Rep;
  explicit Type(std::shared_ptr<const Rep> rep);
  std::shared_ptr<const Rep> rep_;
};

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_TYPE_H_
