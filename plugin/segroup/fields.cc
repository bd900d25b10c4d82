#include "plugin/segroup/fields.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/controller/version.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::segroup {

using Json = nlohmann::json;

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

absl::Status CheckExtraFields(const Json& parsed) {
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
  return absl::OkStatus();
}

absl::StatusOr<Json> ParseExtraFields(const std::string& text) {
  absl::StatusOr<Json> maybe_parsed = controller::ParseJsonLimited(text);
  if (!maybe_parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("extra_fields is not valid JSON (", maybe_parsed.status().message(),
                     "); write it with jsonencode({ field = value, ... })."));
  }
  Json parsed = *std::move(maybe_parsed);
  if (absl::Status checked = CheckExtraFields(parsed); !checked.ok()) return checked;
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

Json FieldsToSend(const Json& typed, const Json& extra, const Json& prior_extra) {
  Json fields = typed.is_object() ? typed : Json::object();
  if (prior_extra.is_object()) {
    for (auto it = prior_extra.begin(); it != prior_extra.end(); ++it) {
      if (!extra.is_object() || !extra.contains(it.key())) fields[it.key()] = nullptr;
    }
  }
  if (extra.is_object()) {
    for (auto it = extra.begin(); it != extra.end(); ++it) fields[it.key()] = it.value();
  }
  return fields;
}

absl::StatusOr<std::set<std::string>> FieldsTheControllerLacks(
    controller::Client& client, const std::string& pinned_api_version,
    const std::set<std::string>& recommended, const std::set<std::string>* present_before) {
  std::set<std::string> lacking;
  std::optional<controller::ApiVersion> version;
  for (const std::string& name : recommended) {
    const controller::SeGroupField* field = controller::FindSeGroupField(name);
    if (field == nullptr || field->introduced.empty()) continue;
    bool available;
    if (present_before != nullptr) {
      available = present_before->count(name) > 0;
    } else {
      if (!version.has_value()) {
        absl::StatusOr<controller::ApiVersion> parsed =
            controller::ApiVersion::Parse(pinned_api_version);
        if (!pinned_api_version.empty() && parsed.ok()) {
          version = *parsed;
        } else {
          absl::StatusOr<controller::VersionInfo> info = client.ControllerVersion();
          if (!info.ok()) return info.status();
          version = info->api;
        }
      }
      available = controller::FieldIntroducedIn(*field).AvailableIn(*version);
    }
    if (!available) lacking.insert(name);
  }
  return lacking;
}

absl::StatusOr<sizing::Platform> PlatformOfCloud(const controller::CloudInfo& cloud) {
  if (cloud.vtype == "CLOUD_VCENTER") return sizing::Platform::kVcenter;
  if (cloud.vtype == "CLOUD_NSXT") return sizing::Platform::kNsxt;
  return absl::FailedPreconditionError(absl::StrCat(
      "The cloud \"", cloud.name, "\" is of type ", cloud.vtype.empty() ? "(none)" : cloud.vtype,
      ", for which the sizing model has no measured profile. Set platform = \"vcenter\" or "
      "\"nsxt\" to say which profile to size with."));
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

}  // namespace nsxalb::segroup
