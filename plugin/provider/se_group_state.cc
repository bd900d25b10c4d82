// nsxalb_se_group values from and to Controller objects.
#include "plugin/provider/se_group_state.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/cloud_data_source.h"
#include "plugin/provider/se_group_sizing.h"

namespace nsxalb::provider {
namespace {

using Json = nlohmann::json;

// True when `actual` holds everything `given` says: equal scalars (numbers by value), objects
// with every given key covered, arrays of the same length covered element by element.
bool Covers(const Json& given, const Json& actual) {
  if (given.is_object()) {
    if (!actual.is_object()) return false;
    for (auto it = given.begin(); it != given.end(); ++it) {
      auto found = actual.find(it.key());
      if (found == actual.end()) {
        if (!it.value().is_null()) return false;
        continue;
      }
      if (!Covers(it.value(), *found)) return false;
    }
    return true;
  }
  if (given.is_array()) {
    if (!actual.is_array() || actual.size() != given.size()) return false;
    for (size_t i = 0; i < given.size(); ++i) {
      if (!Covers(given[i], actual[i])) return false;
    }
    return true;
  }
  if (given.is_number() && actual.is_number()) {
    return given.get<double>() == actual.get<double>();
  }
  return given == actual;
}

}  // namespace

const std::vector<std::string>& TypedFieldNames() {
  static const std::vector<std::string>* const kNames = [] {
    auto* names = new std::vector<std::string>{"description"};
    for (const std::string& n : SizingAttributeNames()) names->push_back(n);
    return names;
  }();
  return *kNames;
}

bool IsManagedField(const std::string& name) {
  static const std::set<std::string>* const kManaged = [] {
    auto* set = new std::set<std::string>(TypedFieldNames().begin(), TypedFieldNames().end());
    for (const char* n : {"name", "uuid", "url", "cloud_ref", "tenant_ref"}) set->insert(n);
    return set;
  }();
  return kManaged->count(name) > 0;
}

cty::Value FieldValue(const Json& body, const std::string& name, const cty::Type& type) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) return cty::Value::Null(type);
  switch (type.kind()) {
    case cty::Type::Kind::kString:
      if (it->is_string()) return cty::Value::String(it->get<std::string>());
      break;
    case cty::Type::Kind::kBool:
      if (it->is_boolean()) return cty::Value::Bool(it->get<bool>());
      break;
    case cty::Type::Kind::kNumber:
      if (it->is_number_integer()) {
        return it->is_number_unsigned()
                   ? cty::Value::NumberVal(*cty::Number::FromDecimal(it->dump()))
                   : cty::Value::Int(it->get<int64_t>());
      }
      if (it->is_number_float()) return cty::Value::Float(it->get<double>());
      break;
    default:
      break;
  }
  return cty::Value::Null(type);
}

Json JsonOf(const cty::Value& value) {
  if (value.IsNull() || !value.IsKnown()) return nullptr;
  switch (value.type().kind()) {
    case cty::Type::Kind::kString:
      return value.AsString();
    case cty::Type::Kind::kBool:
      return value.AsBool();
    case cty::Type::Kind::kNumber: {
      absl::StatusOr<int64_t> i = value.AsNumber().AsInt64();
      if (i.ok()) return *i;
      return value.AsNumber().AsDouble();
    }
    default:
      return nullptr;
  }
}

cty::Value WithGroup(const framework::Block& block, const cty::Value& state,
                     const controller::SeGroup& group, bool only_unknown) {
  cty::Value out = state;
  auto set = [&](const std::string& name, const cty::Value& value) {
    const framework::Attribute* attr = block.FindAttribute(name);
    if (attr == nullptr) return;
    const cty::Value* current = out.GetAttribute(name);
    if (only_unknown && current != nullptr && current->IsKnown()) return;
    out = std::move(out).WithAttribute(name, value);
  };
  set("id", cty::Value::String(group.uuid));
  // Without the "#name" suffix the Controller adds in some answers, so the URL stays stable.
  const std::string url = group.url.substr(0, group.url.find('#'));
  set("url", url.empty() ? cty::Value::Null(cty::Type::String()) : cty::Value::String(url));
  set("name", cty::Value::String(group.name));
  for (const std::string& name : TypedFieldNames()) {
    const framework::Attribute* attr = block.FindAttribute(name);
    if (attr == nullptr) continue;
    set(name, FieldValue(group.body, name, attr->type));
  }
  return out;
}

Json TypedFieldsToSend(const cty::Value& planned) {
  Json fields = Json::object();
  for (const std::string& name : TypedFieldNames()) {
    const cty::Value* v = planned.GetAttribute(name);
    if (v == nullptr || !v->IsKnown()) continue;
    if (v->IsNull()) {
      if (name == "description") fields[name] = nullptr;  // remove it on update
      continue;
    }
    fields[name] = JsonOf(*v);
  }
  return fields;
}

absl::StatusOr<Json> ParseExtraFields(const std::string& text) {
  absl::StatusOr<Json> maybe_parsed = controller::ParseJsonLimited(text);
  if (!maybe_parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("extra_fields is not valid JSON (", maybe_parsed.status().message(),
                     "); write it with jsonencode({ field = value, ... })."));
  }
  Json parsed = *std::move(maybe_parsed);
  if (!parsed.is_object()) {
    return absl::InvalidArgumentError(
        "extra_fields must be a JSON object of SE group fields, such as "
        "jsonencode({ se_deprovision_delay = 5 }).");
  }
  for (auto it = parsed.begin(); it != parsed.end(); ++it) {
    if (IsManagedField(it.key())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "extra_fields sets \"", it.key(),
          "\", which an attribute of this resource manages; set the attribute instead."));
    }
    if (controller::FindSeGroupField(it.key()) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "extra_fields sets \"", it.key(),
          "\", which is not a ServiceEngineGroup field of the Controller API (30.2.1)."));
    }
  }
  if (absl::Status values = controller::ValidateFieldValues(parsed); !values.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("extra_fields: ", values.message()));
  }
  return parsed;
}

std::string RefreshedExtraFields(const std::string& prior_text, const Json& body) {
  absl::StatusOr<Json> parsed = controller::ParseJsonLimited(prior_text);
  if (!parsed.ok() || !parsed->is_object()) return prior_text;
  const Json& given = *parsed;
  Json actual = Json::object();
  for (auto it = given.begin(); it != given.end(); ++it) {
    auto found = body.find(it.key());
    actual[it.key()] = found == body.end() ? Json(nullptr) : *found;
  }
  if (Covers(given, actual)) return prior_text;
  return actual.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<controller::SeGroup> FindSeGroupByName(controller::Client& client,
                                                      const std::string& name,
                                                      const std::string& tenant,
                                                      const std::string& cloud) {
  absl::StatusOr<std::optional<controller::SeGroup>> found =
      client.FindSeGroup(name, tenant, cloud);
  if (found.ok()) {
    if (found->has_value()) return **std::move(found);
    return absl::NotFoundError(absl::StrCat(
        "There is no SE group named \"", name, "\"", cloud.empty() ? "" : " in cloud \"", cloud,
        cloud.empty() ? "" : "\"", " in tenant \"",
        tenant.empty() ? std::string("the provider's tenant") : tenant, "\"."));
  }
  if (found.status().code() != absl::StatusCode::kFailedPrecondition) return found.status();
  // Several clouds hold the name: say which, so the user can pick one.
  absl::StatusOr<std::vector<controller::SeGroup>> all = client.ListSeGroups(tenant, "");
  if (!all.ok()) return found.status();
  std::vector<std::string> clouds;
  for (const controller::SeGroup& g : *all) {
    if (g.name != name) continue;
    absl::StatusOr<controller::CloudInfo> info = client.ResolveCloud(g.cloud_ref);
    clouds.push_back(info.ok() ? info->name : g.cloud_ref);
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "SE groups named \"", name, "\" exist in several clouds: ", absl::StrJoin(clouds, ", "),
      ". Name the cloud too, as \"<cloud>/", name, "\" (for example \"",
      clouds.empty() ? std::string("Default-Cloud") : clouds.front(), "/", name, "\")."));
}

absl::StatusOr<cty::Value> WithPlacement(controller::Client& client, const cty::Value& state,
                                         const controller::SeGroup& group) {
  cty::Value out = state;
  auto is_null = [&out](const char* name) {
    const cty::Value* v = out.GetAttribute(name);
    return v != nullptr && v->IsKnown() && v->IsNull();
  };
  if ((is_null("cloud") || is_null("platform")) && !group.cloud_ref.empty()) {
    absl::StatusOr<controller::CloudInfo> cloud = client.ResolveCloud(group.cloud_ref);
    if (!cloud.ok()) return cloud.status();
    if (is_null("cloud")) out = out.WithAttribute("cloud", cty::Value::String(cloud->name));
    absl::StatusOr<sizing::Platform> platform = PlatformOfCloud(*cloud);
    if (is_null("platform") && platform.ok()) {
      out = out.WithAttribute("platform", cty::Value::String(sizing::PlatformName(*platform)));
    }
  }
  if (is_null("tenant") && !group.tenant_ref.empty()) {
    absl::StatusOr<controller::TenantInfo> tenant = client.ResolveTenant(group.tenant_ref);
    if (!tenant.ok()) return tenant.status();
    out = out.WithAttribute("tenant", cty::Value::String(tenant->name));
  }
  return out;
}

}  // namespace nsxalb::provider
