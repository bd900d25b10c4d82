#include "plugin/segroup/desired_state.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/segroup/fields.h"

namespace nsxalb::segroup {
namespace {

using Json = nlohmann::json;

constexpr char kDefaultGroup[] = "Default-Group";

bool IsTypedField(const std::string& name) {
  for (const std::string& n : TypedFieldNames()) {
    if (n == name) return true;
  }
  return false;
}

absl::Status Invalid(const std::string& member, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(member, ": ", why));
}

// A string member; nullopt when absent or null.
absl::StatusOr<std::optional<std::string>> OptionalString(const Json& input, const char* member) {
  auto it = input.find(member);
  if (it == input.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string()) return Invalid(member, "must be a string");
  return std::optional<std::string>(it->get<std::string>());
}

// `body`'s values of the keys of `fields` (null for a key it lacks).
Json Project(const Json& body, const Json& fields) {
  Json out = Json::object();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    auto found = body.find(it.key());
    out[it.key()] = found == body.end() ? Json(nullptr) : *found;
  }
  return out;
}

// "[vcpus_per_se] Invalid vcpus_per_se: <detail>" for an input error.
std::string InputErrorText(const InputError& e) {
  return absl::StrCat("error [", e.attribute, "] ", e.summary, ": ", e.detail);
}

absl::StatusOr<Outcome> Remove(controller::Client& client, const DesiredSeGroup& desired,
                               const std::optional<controller::SeGroup>& existing,
                               const ConvergeOptions& options) {
  Outcome out;
  if (!existing.has_value()) return out;  // already absent
  if (desired.name == kDefaultGroup) {
    return absl::FailedPreconditionError(
        "Default-Group is the Controller's system default SE group and cannot be deleted.");
  }
  for (const std::string& name : TypedFieldNames()) {
    auto found = existing->body.find(name);
    if (found != existing->body.end() && !found->is_null()) out.before[name] = *found;
  }
  out.changed = true;
  if (!options.dry_run) {
    NSXALB_RETURN_IF_ERROR(client.DeleteSeGroup(existing->uuid, desired.tenant));
  }
  return out;
}

}  // namespace

absl::StatusOr<DesiredSeGroup> ParseDesiredSeGroup(const Json& input) {
  if (!input.is_object()) return absl::InvalidArgumentError("the input must be a JSON object");
  static const std::set<std::string> kMembers = {"name",          "cloud",        "tenant",
                                                 "state",         "settings",     "workload",
                                                 "sizing_policy", "extra_fields", "platform"};
  for (auto it = input.begin(); it != input.end(); ++it) {
    if (kMembers.count(it.key()) == 0) return Invalid(it.key(), "unknown member");
  }
  DesiredSeGroup d;
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> name, OptionalString(input, "name"));
  if (!name.has_value() || name->empty()) return Invalid("name", "is required");
  d.name = *name;
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> cloud, OptionalString(input, "cloud"));
  if (cloud.has_value() && !cloud->empty()) d.cloud = *cloud;
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> tenant, OptionalString(input, "tenant"));
  if (tenant.has_value()) d.tenant = *tenant;
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> state, OptionalString(input, "state"));
  if (state.has_value()) {
    if (*state != "present" && *state != "absent") {
      return Invalid("state", "must be present or absent");
    }
    d.present = *state == "present";
  }
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> policy,
                          OptionalString(input, "sizing_policy"));
  if (policy.has_value()) {
    NSXALB_ASSIGN_OR_RETURN(d.sizing_policy, ParseSizingPolicy(*policy));
  }
  NSXALB_ASSIGN_OR_RETURN(const std::optional<std::string> platform_name,
                          OptionalString(input, "platform"));
  if (platform_name.has_value()) {
    absl::StatusOr<sizing::Platform> platform = sizing::ParsePlatform(*platform_name);
    if (!platform.ok()) return Invalid("platform", std::string(platform.status().message()));
    d.platform = *platform;
  }
  if (auto it = input.find("settings"); it != input.end() && !it->is_null()) {
    if (!it->is_object()) return Invalid("settings", "must be an object");
    for (auto f = it->begin(); f != it->end(); ++f) {
      if (!IsTypedField(f.key()))
        return Invalid("settings", absl::StrCat("unknown setting \"", f.key(), "\""));
      if (!f->is_null()) d.settings[f.key()] = *f;
    }
  }
  if (auto it = input.find("workload"); it != input.end() && !it->is_null()) {
    if (!it->is_object()) return Invalid("workload", "must be an object");
    d.workload = Json::object();
    for (auto w = it->begin(); w != it->end(); ++w) {
      if (!IsWorkloadAttribute(w.key())) {
        return Invalid("workload", absl::StrCat("unknown key \"", w.key(), "\""));
      }
      if (!w->is_null()) d.workload[w.key()] = *w;
    }
  }
  if (auto it = input.find("extra_fields"); it != input.end() && !it->is_null()) {
    NSXALB_RETURN_IF_ERROR(CheckExtraFields(*it));
    d.extra_fields = *it;
  }
  return d;
}

absl::StatusOr<Outcome> Converge(controller::Client& client, const DesiredSeGroup& desired,
                                 const ConvergeOptions& options) {
  NSXALB_ASSIGN_OR_RETURN(std::optional<controller::SeGroup> found,
                          client.FindSeGroup(desired.name, desired.tenant, desired.cloud));
  const std::optional<controller::SeGroup>& existing = found;
  if (!desired.present) return Remove(client, desired, existing, options);

  Outcome out;
  // The platform: given, or the cloud's type.
  sizing::Platform platform = sizing::Platform::kVcenter;
  if (desired.platform.has_value()) {
    platform = *desired.platform;
  } else {
    NSXALB_ASSIGN_OR_RETURN(controller::CloudInfo cloud, client.ResolveCloud(desired.cloud));
    absl::StatusOr<sizing::Platform> of_cloud = PlatformOfCloud(cloud);
    if (!of_cloud.ok()) {
      out.errors.push_back(std::string(of_cloud.status().message()));
      return out;
    }
    platform = *of_cloud;
  }

  // The sizing plan of the settings given, as the resource's plan makes it.
  SizingInput input;
  input.settings = desired.settings;
  input.workload = desired.workload;
  // The licence settings are never recommended: unset, the group keeps the Controller's values,
  // which are then what its Service Units count.
  if (existing.has_value()) {
    for (const std::string& name : LicenceAttributeNames()) {
      auto given = input.settings.find(name);
      auto held = existing->body.find(name);
      if ((given == input.settings.end() || given->is_null()) && held != existing->body.end()) {
        input.settings[name] = *held;
      }
    }
  }
  const SizingPlan plan = PlanSizing(input, platform);
  for (const InputError& e : plan.input_errors) out.errors.push_back(InputErrorText(e));
  if (!out.errors.empty()) return out;

  // The typed fields: given, then recommended, less what the Controller's version lacks.
  Json typed = desired.settings;
  std::set<std::string> recommended;
  for (const auto& [name, value] : plan.recommended) recommended.insert(name);
  std::set<std::string> present_before;
  if (existing.has_value()) {
    for (const std::string& name : recommended) {
      auto f = existing->body.find(name);
      if (f != existing->body.end() && !f->is_null()) present_before.insert(name);
    }
  }
  NSXALB_ASSIGN_OR_RETURN(
      std::set<std::string> lacking,
      FieldsTheControllerLacks(client, options.pinned_api_version, recommended,
                               existing.has_value() ? &present_before : nullptr));
  for (const auto& [name, value] : plan.recommended) {
    if (lacking.count(name) == 0) typed[name] = value;
  }
  const Json fields = FieldsToSend(typed, desired.extra_fields);

  // Nothing is sent when nothing would change; the enforce gate follows the same answer.
  const bool changes = !existing.has_value() || !Covers(fields, existing->body);
  if (plan.summary.has_value()) out.sizing = SizingSummaryJson(*plan.summary);
  out.workload = plan.workload;
  out.planned_shape = plan.planned_shape;
  for (const Finding& f : plan.findings) {
    if (FindingIsError(f, desired.sizing_policy, /*waived=*/!changes)) {
      out.errors.push_back(FindingText(f));
    } else {
      out.warnings.push_back(FindingText(f));
    }
  }
  if (!out.errors.empty()) return out;

  out.changed = changes;
  if (existing.has_value()) out.before = Project(existing->body, fields);
  out.after = out.before;
  for (auto it = fields.begin(); it != fields.end(); ++it) out.after[it.key()] = it.value();
  if (!changes) {
    out.se_group = existing->body;
    return out;
  }
  if (options.dry_run) {
    Json would = existing.has_value() ? existing->body : Json{{"name", desired.name}};
    for (auto it = fields.begin(); it != fields.end(); ++it) would[it.key()] = it.value();
    out.se_group = std::move(would);
    return out;
  }
  controller::SeGroupSpec spec;
  spec.name = desired.name;
  spec.tenant = desired.tenant;
  spec.fields = fields;
  if (existing.has_value()) {
    // The cloud never changes in place.
    NSXALB_ASSIGN_OR_RETURN(const controller::SeGroup written,
                            client.UpdateSeGroup(existing->uuid, spec));
    out.se_group = written.body;
  } else {
    spec.cloud = desired.cloud;
    NSXALB_ASSIGN_OR_RETURN(const controller::SeGroup written, client.CreateSeGroup(spec));
    out.se_group = written.body;
  }
  return out;
}

}  // namespace nsxalb::segroup
