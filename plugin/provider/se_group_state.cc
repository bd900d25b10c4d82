// nsxalb_se_group values from and to Controller objects.
#include "plugin/provider/se_group_state.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/cty/json.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/cloud_data_source.h"
#include "plugin/provider/se_group_sizing.h"

namespace nsxalb::provider {
using Json = nlohmann::json;

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
  for (const std::string& name : segroup::TypedFieldNames()) {
    const framework::Attribute* attr = block.FindAttribute(name);
    if (attr == nullptr) continue;
    set(name, FieldValue(group.body, name, attr->type));
  }
  return out;
}

Json TypedFieldsToSend(const cty::Value& planned) {
  Json fields = Json::object();
  for (const std::string& name : segroup::TypedFieldNames()) {
    const cty::Value* v = planned.GetAttribute(name);
    if (v == nullptr || !v->IsKnown()) continue;
    if (v->IsNull()) {
      if (name == "description") fields[name] = nullptr;  // remove it on update
      continue;
    }
    fields[name] = cty::PrimitiveJson(*v);
  }
  return fields;
}

bool CapturesExtraFields(const std::string& private_data) {
  if (private_data.empty()) return false;
  const Json parsed = Json::parse(private_data, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return false;
  auto it = parsed.find("capture_extra_fields");
  return it != parsed.end() && it->is_boolean() && it->get<bool>();
}

cty::Value CapturedExtraFields(const Json& fields) {
  if (!fields.is_object() || fields.empty()) return cty::Value::Null(cty::Type::String());
  return cty::Value::String(segroup::ExtraFieldsText(fields));
}

absl::StatusOr<cty::Value> WithPlacement(controller::Client& client, const cty::Value& state,
                                         const controller::SeGroup& group) {
  cty::Value out = state;
  auto is_null = [&out](const char* name) {
    const cty::Value* v = out.GetAttribute(name);
    return v != nullptr && v->IsKnown() && v->IsNull();
  };
  if ((is_null("cloud") || is_null("platform")) && !group.cloud_ref.empty()) {
    NSXALB_ASSIGN_OR_RETURN(controller::CloudInfo cloud, client.ResolveCloud(group.cloud_ref));
    if (is_null("cloud")) out = out.WithAttribute("cloud", cty::Value::String(cloud.name));
    absl::StatusOr<sizing::Platform> platform = segroup::PlatformOfCloud(cloud);
    if (is_null("platform") && platform.ok()) {
      out = out.WithAttribute("platform", cty::Value::String(sizing::PlatformName(*platform)));
    }
  }
  if (is_null("tenant") && !group.tenant_ref.empty()) {
    NSXALB_ASSIGN_OR_RETURN(controller::TenantInfo tenant, client.ResolveTenant(group.tenant_ref));
    out = out.WithAttribute("tenant", cty::Value::String(tenant.name));
  }
  return out;
}

}  // namespace nsxalb::provider
