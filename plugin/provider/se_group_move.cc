// avi_serviceenginegroup state -> nsxalb_se_group state, through the same mapping as a
// Controller object (WithGroup).
#include "plugin/provider/se_group_move.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/common/status_macros.h"
#include "plugin/controller/client.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/provider/se_group_state.h"

namespace nsxalb::provider {
namespace {

using Json = nlohmann::json;

// The last path segment of a URL ("https://c/api/cloud/cloud-1#name" -> "cloud-1").
std::string LastSegment(std::string_view url) {
  url = url.substr(0, url.find_first_of("#?"));
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  const size_t slash = url.rfind('/');
  return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

absl::Status Unreadable(const std::string& name, const Json& value, const char* accepted) {
  return absl::InvalidArgumentError(absl::StrCat("avi_serviceenginegroup attribute \"", name,
                                                 "\" holds ", value.dump(), "; expected ", accepted,
                                                 "."));
}

// The Avi value `value` of a typed field as the JSON kind `type` asks for; JSON null for an
// unset one (null, or "" in the current release line).
absl::StatusOr<Json> Normalize(const std::string& name, const Json& value, const cty::Type& type) {
  if (value.is_null() || (value.is_string() && value.get<std::string>().empty())) return Json();
  switch (type.kind()) {
    case cty::Type::Kind::kNumber: {
      if (value.is_number()) return value;
      double d = 0;
      if (value.is_string() && absl::SimpleAtod(value.get<std::string>(), &d) && std::isfinite(d)) {
        int64_t i = 0;
        if (absl::SimpleAtoi(value.get<std::string>(), &i)) return Json(i);
        return Json(d);
      }
      return Unreadable(name, value, "a number, or a number as a string");
    }
    case cty::Type::Kind::kBool: {
      if (value.is_boolean()) return value;
      if (value.is_string()) {
        const std::string text = absl::AsciiStrToLower(value.get<std::string>());
        if (text == "true") return Json(true);
        if (text == "false") return Json(false);
      }
      return Unreadable(name, value, "a bool, or \"true\" or \"false\"");
    }
    default:
      if (value.is_string()) return value;
      return Unreadable(name, value, "a string");
  }
}

// Checks that ref attribute `name`, when set, is a URL of `type` ending in a uuid.
absl::Status CheckRef(const Json& state, const char* name, const char* type) {
  auto it = state.find(name);
  if (it == state.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty())) {
    return absl::OkStatus();
  }
  if (!it->is_string()) return Unreadable(name, *it, "a Controller URL");
  NSXALB_ASSIGN_OR_RETURN(controller::ObjectRef ref,
                          controller::ParseRef(it->get<std::string>(), type, name));
  if (ref.uuid.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("avi_serviceenginegroup attribute \"", name,
                                                   "\" does not end in a uuid: ", it->dump()));
  }
  return absl::OkStatus();
}

// The avi_serviceenginegroup scalars that no typed attribute manages, by their catalog kind
// (numbers and bools also as strings, as the current release line stores them). Nested objects
// and lists are left to the refresh after the move, which records them from the Controller.
Json UntypedScalars(const Json& state) {
  Json out = Json::object();
  for (auto it = state.begin(); it != state.end(); ++it) {
    if (segroup::IsManagedField(it.key())) continue;
    const controller::SeGroupField* field = controller::FindSeGroupField(it.key());
    if (field == nullptr) continue;
    cty::Type type = cty::Type::String();
    switch (field->kind) {
      case controller::FieldKind::kInteger:
      case controller::FieldKind::kNumber:
        type = cty::Type::Number();
        break;
      case controller::FieldKind::kBoolean:
        type = cty::Type::Bool();
        break;
      case controller::FieldKind::kString:
        break;
      default:
        continue;
    }
    absl::StatusOr<Json> value = Normalize(it.key(), it.value(), type);
    if (value.ok() && !value->is_null()) out[it.key()] = *std::move(value);
  }
  return out;
}

}  // namespace

absl::StatusOr<cty::Value> StateFromAviSeGroup(const framework::Block& block, int64_t version,
                                               std::string_view json) {
  if (version != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("the avi_serviceenginegroup state has schema version ", version,
                     "; this provider reads version 0, which every vmware/avi release writes."));
  }
  const Json state = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (!state.is_object()) {
    return absl::InvalidArgumentError("the avi_serviceenginegroup state is not a JSON object.");
  }
  auto text = [&](const char* name) {
    auto it = state.find(name);
    return it != state.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  controller::SeGroup group;
  const std::string id = text("id");
  group.uuid = text("uuid");
  if (group.uuid.empty()) group.uuid = LastSegment(id);
  if (group.uuid.empty()) {
    return absl::InvalidArgumentError(
        "the avi_serviceenginegroup state has neither uuid nor id, so the group cannot be "
        "found on the Controller.");
  }
  if (absl::StartsWith(id, "https://") || absl::StartsWith(id, "http://")) group.url = id;
  group.name = text("name");
  NSXALB_RETURN_IF_ERROR(CheckRef(state, "cloud_ref", "cloud"));
  NSXALB_RETURN_IF_ERROR(CheckRef(state, "tenant_ref", "tenant"));

  group.body = Json::object();
  for (const std::string& name : segroup::TypedFieldNames()) {
    const framework::Attribute* attr = block.FindAttribute(name);
    auto it = state.find(name);
    if (attr == nullptr || it == state.end()) continue;
    NSXALB_ASSIGN_OR_RETURN(Json value, Normalize(name, *it, attr->type));
    if (!value.is_null()) group.body[name] = std::move(value);
  }
  cty::Value moved = WithGroup(block, framework::EmptyObject(block), group, /*only_unknown=*/false);
  return moved.WithAttribute(
      "extra_fields", CapturedExtraFields(segroup::NonDefaultUntypedFields(UntypedScalars(state))));
}

void SeGroupResource::MoveState(const framework::MoveStateRequest& request,
                                framework::MoveStateResponse& response) {
  if (request.source_provider_address != kAviProviderAddress ||
      request.source_type_name != kAviSeGroupType) {
    response.diagnostics.AddError(
        "Unsupported move source",
        absl::StrCat("nsxalb_se_group takes over ", kAviSeGroupType, " of ", kAviProviderAddress,
                     " (any release) and nsxalb_se_group of this provider; this move comes from ",
                     request.source_type_name, " of ", request.source_provider_address, "."));
    return;
  }
  absl::StatusOr<cty::Value> moved = StateFromAviSeGroup(
      GetSchema().block, request.source_schema_version, request.source_state_json);
  if (!moved.ok()) {
    response.diagnostics.AddError(
        "Cannot move avi_serviceenginegroup",
        absl::StrCat("While moving ", kAviSeGroupType, " to nsxalb_se_group, ",
                     moved.status().message(),
                     "\n\nnsxalb_se_group reads the state of every vmware/avi release: scalars "
                     "as JSON numbers and bools (20.1.x) or as strings (later releases)."));
    return;
  }
  response.target_state = *std::move(moved);
  // The refresh after the move records the group's non-default untyped fields from the
  // Controller, nested ones included.
  response.target_private = kCaptureExtraFieldsPrivate;
}

}  // namespace nsxalb::provider
