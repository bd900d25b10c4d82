// Typed readers of one attribute of an object value (a configuration, a plan, a state) in the
// three states every Terraform value has: unknown (known only after apply), null (not set), or a
// value. Resources and data sources read their attributes with these rather than walking cty
// values themselves, so that every reader treats an unknown or null object the same way.
#ifndef NSXALB_PLUGIN_FRAMEWORK_ATTR_H_
#define NSXALB_PLUGIN_FRAMEWORK_ATTR_H_

#include <optional>
#include <string>
#include <utility>

#include "plugin/cty/value.h"

namespace nsxalb::framework {

// An attribute read as a T: unknown, null, or a value.
template <typename T>
class Attr {
 public:
  // An attribute whose value is known only after apply.
  static Attr Unknown() {
    Attr a;
    a.unknown_ = true;
    return a;
  }
  // An attribute known to hold no value.
  static Attr Null() { return Attr(); }
  // An attribute holding `value`.
  static Attr Of(T value) {
    Attr a;
    a.value_ = std::move(value);
    return a;
  }

  // True when the value is known only after apply.
  bool IsUnknown() const { return unknown_; }
  // True when the value is known to be absent (not set).
  bool IsNull() const { return !unknown_ && !value_.has_value(); }
  // The value when it is known and not null; nullopt when unknown or null.
  const std::optional<T>& value() const { return value_; }
  // The value when it is known and not null, else `fallback`.
  T value_or(T fallback) const { return value_.has_value() ? *value_ : std::move(fallback); }

 private:
  Attr() = default;

  bool unknown_ = false;
  std::optional<T> value_;
};

// The three readers below share one rule. The attribute `name` of `object` is:
//  - unknown when `object` is unknown or the attribute is;
//  - null when `object` is null or not an object, lacks the attribute, or holds a null or a value
//    of another type (values that conform to the schema never do);
//  - else its value.

// The string attribute `name` of `object`.
Attr<std::string> StringAttr(const cty::Value& object, const std::string& name);

// The bool attribute `name` of `object`.
Attr<bool> BoolAttr(const cty::Value& object, const std::string& name);

// The number attribute `name` of `object`, as cty keeps it (Number::AsInt64 for a whole number).
Attr<cty::Number> NumberAttr(const cty::Value& object, const std::string& name);

// The attribute `name` of `object` whatever its type, for checks that only ask whether it is
// known or set (a value of any type counts as a value here).
Attr<cty::Value> ValueAttr(const cty::Value& object, const std::string& name);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_ATTR_H_
