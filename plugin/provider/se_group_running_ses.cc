// The resource's running SEs.
#include "plugin/provider/se_group_running_ses.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_rollout.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/lifecycle/finding.h"

namespace nsxalb::provider {
namespace {

namespace lc = segroup::lifecycle;
using Json = nlohmann::json;

cty::Type LaggingType() {
  return cty::Type::Object({{"name", cty::Type::String()},
                            {"vcpus", cty::Type::Number()},
                            {"memory_mb", cty::Type::Number()},
                            {"why", cty::Type::String()},
                            {"fields", cty::Type::List(cty::Type::String())}});
}

// A known, non-null attribute of a known object, or nullptr.
const cty::Value* KnownAttribute(const cty::Value& object, const std::string& name) {
  if (!object.IsKnown() || object.IsNull()) return nullptr;
  const cty::Value* v = object.GetAttribute(name);
  if (v == nullptr || !v->IsKnown() || v->IsNull()) return nullptr;
  return v;
}

// The running SEs of the group `uuid` in `tenant`, from the provider's shared listing.
absl::StatusOr<std::vector<lc::RunningSe>> GroupSes(NsxalbProvider& provider,
                                                    controller::Client& client,
                                                    const std::string& tenant,
                                                    const std::string& uuid) {
  return provider.se_listing().GroupSes(client, tenant, uuid);
}

// A listing failure: an error when cancelled (Terraform is stopping), else a warning.
void ListingFailed(const absl::Status& status, const std::string& while_doing,
                   framework::Diagnostics& diagnostics) {
  const std::string detail =
      absl::StrCat("While ", while_doing,
                   ", the listing of the tenant's Service Engines failed; service_engines is not "
                   "updated and no plan says whether running SEs lag the settings.\n\nOriginal "
                   "Error: ",
                   status.message());
  const cty::AttributePath at = cty::AttributePath::Of("service_engines");
  if (status.code() == absl::StatusCode::kCancelled) {
    diagnostics.AddAttributeError(at, "Running SEs not read", detail);
  } else {
    diagnostics.AddAttributeWarning(at, "Running SEs not read", detail);
  }
}

// The attribute path at which a finding about `field` shows: the field's line when the
// configuration sets it, the workload's when the sizing plans it, else the field's attribute.
cty::AttributePath FieldLine(const std::string& field, const cty::Value& config,
                             const SizingPlan* plan) {
  const cty::Value* given = config.GetAttribute(field);
  const bool set = given != nullptr && (!given->IsKnown() || !given->IsNull());
  if (!set && plan != nullptr && plan->has_workload) {
    return PathOfModelAttribute(WorkloadLine(*plan), true);
  }
  if (given != nullptr) return cty::AttributePath::Of(field);
  return cty::AttributePath();
}

}  // namespace

cty::Type ServiceEnginesObjectType() {
  return cty::Type::Object({{"running", cty::Type::Number()},
                            {"matching", cty::Type::Number()},
                            {"lagging", cty::Type::List(LaggingType())},
                            {"reboot_fields", cty::Type::List(cty::Type::String())}});
}

cty::Value ServiceEnginesValue(const lc::GroupSes& ses) {
  std::vector<cty::Value> lagging;
  for (const lc::LaggingSe& lag : ses.lagging) {
    lagging.push_back(
        cty::Value::Object({{"name", cty::Value::String(lag.se.name)},
                            {"vcpus", cty::Value::Int(lag.se.vcpus)},
                            {"memory_mb", cty::Value::Int(lag.se.memory_mb)},
                            {"why", cty::Value::String(controller::TakesEffectName(lag.why))},
                            {"fields", cty::Value::StringList(lag.fields)}}));
  }
  return cty::Value::Object({{"running", cty::Value::Int(static_cast<int64_t>(ses.running.size()))},
                             {"matching", cty::Value::Int(ses.matching)},
                             {"lagging", cty::Value::List(LaggingType(), std::move(lagging))},
                             {"reboot_fields", cty::Value::StringList(ses.reboot_fields)}},
                            ServiceEnginesObjectType());
}

std::vector<std::string> RecordedRebootFields(const cty::Value& state) {
  std::vector<std::string> out;
  const cty::Value* ses = KnownAttribute(state, "service_engines");
  if (ses == nullptr) return out;
  const cty::Value* fields = KnownAttribute(*ses, "reboot_fields");
  if (fields == nullptr) return out;
  for (const cty::Value& f : fields->elements()) {
    if (f.IsKnown() && !f.IsNull()) out.push_back(f.AsString());
  }
  return out;
}

cty::Value WithRunningSes(NsxalbProvider& provider, controller::Client& client,
                          const cty::Value& state, const controller::SeGroup& group,
                          framework::Diagnostics& diagnostics) {
  absl::StatusOr<std::vector<lc::RunningSe>> ses =
      GroupSes(provider, client, framework::StringAttr(state, "tenant").value_or(""), group.uuid);
  if (!ses.ok()) {
    ListingFailed(ses.status(), "reading the SE group", diagnostics);
    return state;
  }
  lc::RebootWait wait;
  wait.recorded = RecordedRebootFields(state);
  return state.WithAttribute(
      "service_engines", ServiceEnginesValue(lc::MatchSettings(*std::move(ses), group.body, wait)));
}

namespace {

// `new_state` with service_engines of `ses` (or null with a warning when they could not be read)
// against the settings written. The after-se-reboot fields the update changed (from `prior` to
// `new_state`) wait for every running SE's reboot; after a roll (`rolled`), whose SEs were
// replaced or rebooted since the write, only for the SEs the Controller reports reboot-pending.
cty::Value MatchedAfterApply(const absl::StatusOr<std::vector<lc::RunningSe>>& ses,
                             const cty::Value& prior, const cty::Value& new_state, bool rolled,
                             framework::Diagnostics& diagnostics) {
  if (!ses.ok()) {
    ListingFailed(ses.status(), "updating the SE group", diagnostics);
    return new_state.WithAttribute("service_engines", cty::Value::Null(ServiceEnginesObjectType()));
  }
  const Json settings = TypedFieldsToSend(new_state);
  lc::RebootWait wait;
  std::vector<std::string> changed =
      lc::ChangedFieldsOfClass(segroup::TypedFieldNames(), TypedFieldsToSend(prior), settings,
                               controller::TakesEffect::kAfterSeReboot);
  wait.recorded = RecordedRebootFields(prior);
  if (rolled) {
    wait.recorded.insert(wait.recorded.end(), changed.begin(), changed.end());
  } else {
    wait.changed_now = std::move(changed);
  }
  return new_state.WithAttribute("service_engines",
                                 ServiceEnginesValue(lc::MatchSettings(*ses, settings, wait)));
}

}  // namespace

cty::Value WithRunningSesAfterApply(NsxalbProvider& provider, controller::Client& client,
                                    const cty::Value& prior, const cty::Value& new_state,
                                    framework::Diagnostics& diagnostics) {
  if (prior.IsNull()) {
    // A group just created runs no SE yet: nothing to list.
    return new_state.WithAttribute("service_engines", ServiceEnginesValue(lc::GroupSes{}));
  }
  const std::string uuid = framework::StringAttr(new_state, "id").value_or("");
  return MatchedAfterApply(
      GroupSes(provider, client, framework::StringAttr(new_state, "tenant").value_or(""), uuid),
      prior, new_state, /*rolled=*/false, diagnostics);
}

cty::Value WithRunningSesAfterRoll(controller::Client& client, const cty::Value& prior,
                                   const cty::Value& new_state,
                                   framework::Diagnostics& diagnostics) {
  const std::string uuid = framework::StringAttr(new_state, "id").value_or("");
  absl::StatusOr<std::vector<controller::ServiceEngine>> listing =
      client.ListServiceEngines(uuid, framework::StringAttr(new_state, "tenant").value_or(""));
  absl::StatusOr<std::vector<lc::RunningSe>> ses =
      listing.ok() ? absl::StatusOr<std::vector<lc::RunningSe>>(lc::RunningSesOf(*listing, uuid))
                   : absl::StatusOr<std::vector<lc::RunningSe>>(listing.status());
  return MatchedAfterApply(ses, prior, new_state, /*rolled=*/true, diagnostics);
}

std::optional<lc::GroupSes> AddSesBehindSettings(NsxalbProvider& provider,
                                                 controller::Client& client,
                                                 const cty::Value& config, const cty::Value& prior,
                                                 const cty::Value& planned, const SizingPlan* plan,
                                                 framework::Diagnostics& diagnostics) {
  if (prior.IsNull() || !planned.IsKnown()) return std::nullopt;
  const cty::Value* recorded = KnownAttribute(prior, "service_engines");
  if (recorded == nullptr)
    return std::nullopt;  // not read yet (an upgrade before its first refresh)
  const framework::Attr<cty::Number> running = framework::NumberAttr(*recorded, "running");
  if (!running.value().has_value() || running.value()->AsDouble() < 1) return std::nullopt;
  const cty::Value* lagging = KnownAttribute(*recorded, "lagging");
  const bool lagged = lagging != nullptr && !lagging->elements().empty();

  const Json before = TypedFieldsToSend(prior);
  const Json after = TypedFieldsToSend(planned);
  const std::vector<std::string> changed_shape = lc::ChangedFieldsOfClass(
      segroup::TypedFieldNames(), before, after, controller::TakesEffect::kNewSesOnly);
  const std::vector<std::string> changed_reboot = lc::ChangedFieldsOfClass(
      segroup::TypedFieldNames(), before, after, controller::TakesEffect::kAfterSeReboot);
  if (!lagged && changed_shape.empty() && changed_reboot.empty()) return std::nullopt;

  const std::string uuid = framework::StringAttr(prior, "id").value_or("");
  absl::StatusOr<std::vector<lc::RunningSe>> ses =
      GroupSes(provider, client, framework::StringAttr(planned, "tenant").value_or(""), uuid);
  if (!ses.ok()) {
    ListingFailed(ses.status(), "planning the SE group", diagnostics);
    return std::nullopt;
  }
  lc::SesBehindInput in;
  in.group_name = framework::StringAttr(planned, "name").value_or(uuid);
  in.settings = after;
  if (!changed_shape.empty() || !changed_reboot.empty()) in.prior_settings = before;
  lc::RebootWait wait;
  wait.changed_now = changed_reboot;
  wait.recorded = RecordedRebootFields(prior);
  in.ses = lc::MatchSettings(*std::move(ses), after, wait);
  if (plan != nullptr) {
    in.workload = plan->workload;
    in.planned_shape = plan->planned_shape;
  }
  // The finding names the rolling strategy unless the group has it (or its block is unknown yet).
  if (const std::optional<RolloutSettings> rollout = ReadRolloutSettings(config, nullptr);
      rollout.has_value() && !rollout->rolling) {
    in.roll_setting = lc::kRollingSetting;
  }
  std::optional<lc::SesBehindFinding> found = lc::SesBehindSettings(in);
  if (!found.has_value()) return in.ses;
  // One warning at each line concerned; fields the sizing plans share the workload's line.
  std::set<std::string> shown;
  std::vector<std::string> fields = found->fields;
  if (fields.empty()) fields.push_back("");
  for (const std::string& field : fields) {
    PlacedFinding placed;
    placed.finding = found->finding;
    placed.finding.attribute = field;
    placed.path = field.empty() ? cty::AttributePath() : FieldLine(field, config, plan);
    if (!shown.insert(placed.path.ToString()).second) continue;
    AddFindingDiagnostic(placed, segroup::SizingPolicy::kWarn, diagnostics);
  }
  return in.ses;
}

cty::Value PlanServiceEngines(const cty::Value& prior, cty::Value planned) {
  if (!prior.IsNull() && planned.Equals(prior)) return planned;
  return std::move(planned).WithAttribute("service_engines",
                                          cty::Value::Unknown(ServiceEnginesObjectType()));
}

}  // namespace nsxalb::provider
