// Shared fixtures for the engine tests: the "fake_thing" schema and value builders.
#ifndef NSXALB_TESTS_FRAMEWORK_ENGINE_TEST_UTIL_H_
#define NSXALB_TESTS_FRAMEWORK_ENGINE_TEST_UTIL_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugin/cty/value.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/schema.h"
#include "tests/framework/fake_resource.h"

namespace nsxalb::framework::testing {

inline Attribute Attr(const std::string& name, cty::Type type, const std::string& mode,
                      bool requires_replace = false, bool sensitive = false) {
  Attribute a;
  a.name = name;
  a.type = type;
  a.required = mode == "required";
  a.optional = mode == "optional" || mode == "optional+computed";
  a.computed = mode == "computed" || mode == "optional+computed";
  a.requires_replace = requires_replace;
  a.sensitive = sensitive;
  return a;
}

// id (computed), name (required, requires_replace), size (optional+computed number), note
// (optional), secret (optional, sensitive), and a LIST block "item" {key required, uid computed}.
inline Schema ThingSchema() {
  Schema s;
  s.version = 1;
  for (Attribute a : {Attr("id", cty::Type::String(), "computed"),
                      Attr("name", cty::Type::String(), "required", /*requires_replace=*/true),
                      Attr("size", cty::Type::Number(), "optional+computed"),
                      Attr("note", cty::Type::String(), "optional"),
                      Attr("secret", cty::Type::String(), "optional", false, /*sensitive=*/true)}) {
    s.block.attributes.emplace(a.name, a);
  }
  NestedBlock item;
  item.type_name = "item";
  item.nesting = NestedBlock::Nesting::kList;
  item.max_items = 3;
  item.block.attributes.emplace("key", Attr("key", cty::Type::String(), "required"));
  item.block.attributes.emplace("uid", Attr("uid", cty::Type::String(), "computed"));
  s.block.block_types.emplace("item", item);
  return s;
}

inline cty::Type ItemType() {
  return ImpliedType(ThingSchema().block.block_types.at("item").block);
}

// An item block value.
inline cty::Value Item(const std::string& key, std::optional<cty::Value> uid = std::nullopt) {
  return cty::Value::Object({{"key", cty::Value::String(key)},
                             {"uid", uid.value_or(cty::Value::Null(cty::Type::String()))}});
}

// A fake_thing object; unset attributes are null, `items` the item blocks.
inline cty::Value Thing(std::map<std::string, cty::Value> attrs,
                        std::vector<cty::Value> items = {}) {
  attrs["item"] = cty::Value::List(ItemType(), std::move(items));
  return cty::Value::ObjectOf(ImpliedType(ThingSchema().block), std::move(attrs));
}

// The null fake_thing object: no prior state, or the planned state of a destroy.
inline cty::Value NullThing() { return cty::Value::Null(ImpliedType(ThingSchema().block)); }

inline cty::Value S(const std::string& s) { return cty::Value::String(s); }
inline cty::Value N(int64_t n) { return cty::Value::Int(n); }
inline cty::Value UnknownString() { return cty::Value::Unknown(cty::Type::String()); }

// An engine over FakeProvider with the ThingSchema.
struct Engine {
  std::shared_ptr<FakeHooks> hooks = std::make_shared<FakeHooks>();
  std::shared_ptr<FakeProvider> provider = std::make_shared<FakeProvider>(ThingSchema(), hooks);
  ProviderServer server{provider};
};

inline bool HasErrorAt(const Diagnostics& d, const cty::AttributePath& path) {
  for (const Diagnostic& x : d) {
    if (x.severity == Severity::kError && x.path.has_value() && *x.path == path) return true;
  }
  return false;
}

inline cty::AttributePath P(const std::string& attr) {
  return cty::AttributePath().Attribute(attr);
}

}  // namespace nsxalb::framework::testing

#endif  // NSXALB_TESTS_FRAMEWORK_ENGINE_TEST_UTIL_H_
