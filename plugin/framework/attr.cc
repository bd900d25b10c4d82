// The typed three-state attribute readers (see attr.h).
#include "plugin/framework/attr.h"

#include <optional>

namespace nsxalb::framework {
namespace {

// The one rule of attr.h: `kind` is the type the attribute must hold (any type when nullopt),
// `get` reads its value.
template <typename T>
Attr<T> Read(const cty::Value& object, const std::string& name, std::optional<cty::Type::Kind> kind,
             T (*get)(const cty::Value&)) {
  if (!object.IsKnown()) return Attr<T>::Unknown();
  const cty::Value* v = object.GetAttribute(name);  // nullptr on a null or non-object value
  if (v == nullptr) return Attr<T>::Null();
  if (!v->IsKnown()) return Attr<T>::Unknown();
  if (v->IsNull() || (kind.has_value() && v->type().kind() != *kind)) return Attr<T>::Null();
  return Attr<T>::Of(get(*v));
}

}  // namespace

Attr<std::string> StringAttr(const cty::Value& object, const std::string& name) {
  return Read<std::string>(object, name, cty::Type::Kind::kString,
                           [](const cty::Value& v) { return v.AsString(); });
}

Attr<bool> BoolAttr(const cty::Value& object, const std::string& name) {
  return Read<bool>(object, name, cty::Type::Kind::kBool,
                    [](const cty::Value& v) { return v.AsBool(); });
}

Attr<cty::Number> NumberAttr(const cty::Value& object, const std::string& name) {
  return Read<cty::Number>(object, name, cty::Type::Kind::kNumber,
                           [](const cty::Value& v) { return v.AsNumber(); });
}

Attr<cty::Value> ValueAttr(const cty::Value& object, const std::string& name) {
  return Read<cty::Value>(object, name, std::nullopt, [](const cty::Value& v) { return v; });
}

}  // namespace nsxalb::framework
