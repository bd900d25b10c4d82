// nsxalb_se_group.
#include "plugin/provider/se_group_resource.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/cloud_data_source.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_license.h"
#include "plugin/provider/se_group_observed_load.h"
#include "plugin/provider/se_group_rollout.h"
#include "plugin/provider/se_group_running_ses.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/segroup/desired_state.h"
#include "plugin/segroup/fields.h"

namespace nsxalb::provider {
namespace {

using framework::Attr;
using framework::Diagnostics;
using framework::StringAttr;
using Json = nlohmann::json;

constexpr char kDefaultGroup[] = "Default-Group";
// Why an unchanged group's under-sizing is a warning under sizing_policy = "enforce".
constexpr char kUnchangedGroupWaiver[] =
    "This is a warning although sizing_policy = \"enforce\": this plan leaves the group "
    "unchanged, and enforce fails only a plan that creates or changes an under-sized group, so "
    "that a destroy or a change to another resource is never blocked by it.";
// Why the refresh plan that begins a destroy gets a warning under sizing_policy = "enforce".
constexpr char kDestroyRunWaiver[] =
    "This is a warning although sizing_policy = \"enforce\": this plan is the refresh that "
    "Terraform runs before a destroy (terraform destroy, apply -destroy or plan -destroy), whose "
    "changes it discards, and enforce never blocks a destroy.";

// The resource's own sizing_policy when it is written and valid.
std::optional<segroup::SizingPolicy> OwnPolicy(const cty::Value& config) {
  Attr<std::string> s = StringAttr(config, "sizing_policy");
  if (!s.value().has_value()) return std::nullopt;
  absl::StatusOr<segroup::SizingPolicy> policy = segroup::ParseSizingPolicy(*s.value());
  if (!policy.ok()) return std::nullopt;
  return *policy;
}

// "creating SE group \"web\"": the action in error details.
std::string Action(const char* verb, const cty::Value& state) {
  return absl::StrCat(verb, " SE group \"", StringAttr(state, "name").value_or("?"), "\"");
}

// The Controller client, or an error diagnostic saying what to configure.
std::shared_ptr<controller::Client> ClientOrError(NsxalbProvider* provider,
                                                  const std::string& action, Diagnostics& d) {
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider->Client();
  if (client.ok()) return *client;
  d.AddError("No Controller configured",
             framework::ErrorDetail(action, std::string(client.status().message()), ""));
  return nullptr;
}

// The managed fields of a planned state plus the configuration's extra_fields, for a POST or PUT
// (segroup::FieldsToSend: on update, extra_fields keys the configuration no longer has are sent
// as null). A configuration without extra_fields manages none: nothing of them is sent, whatever
// an import or a move recorded in the state.
std::optional<Json> FieldsToSend(const cty::Value& config, const cty::Value& planned,
                                 const cty::Value& prior, Diagnostics& d) {
  Attr<std::string> extra = StringAttr(config, "extra_fields");
  if (!extra.value().has_value()) return TypedFieldsToSend(planned);
  absl::StatusOr<Json> given = segroup::ParseExtraFields(*extra.value());
  if (!given.ok()) {
    d.AddAttributeError(cty::AttributePath::Of("extra_fields"), "Invalid extra_fields",
                        std::string(given.status().message()));
    return std::nullopt;
  }
  Json before = Json::object();
  Attr<std::string> prior_extra = StringAttr(prior, "extra_fields");
  if (prior_extra.value().has_value()) {
    absl::StatusOr<Json> parsed = segroup::ParseExtraFields(*prior_extra.value());
    if (parsed.ok()) before = *std::move(parsed);
  }
  return segroup::FieldsToSend(TypedFieldsToSend(planned), *given, before);
}

// The extra_fields keys the state has and the configuration's extra_fields no longer sets: the
// update sends them as null and the Controller returns them to its defaults. Warns at
// extra_fields, naming each field, its value in state and the default it returns to.
void WarnAboutFieldsReturningToDefault(const std::string& config_text, const cty::Value& prior,
                                       Diagnostics& d) {
  const Attr<std::string> prior_text = StringAttr(prior, "extra_fields");
  if (!prior_text.value().has_value()) return;
  absl::StatusOr<Json> before = segroup::ParseExtraFields(*prior_text.value());
  absl::StatusOr<Json> after = segroup::ParseExtraFields(config_text);
  if (!before.ok() || !after.ok()) return;
  std::vector<std::string> returning;
  for (auto it = before->begin(); it != before->end(); ++it) {
    if (after->contains(it.key()) || it.value().is_null()) continue;
    returning.push_back(absl::StrCat(it.key(), " (", segroup::ExtraFieldsText(it.value()),
                                     " now; default ", segroup::CatalogDefaultText(it.key()), ")"));
  }
  if (returning.empty()) return;
  d.AddAttributeWarning(
      cty::AttributePath::Of("extra_fields"), "Fields return to the Controller's defaults",
      absl::StrCat("extra_fields no longer sets ", absl::StrJoin(returning, ", "),
                   ". Apply sends each as null, and the Controller returns it to its default. To "
                   "keep a field as it is, put it back in extra_fields; to manage none of them "
                   "and keep every field as it is, remove extra_fields from the configuration."));
}

// The recommended attributes that are Avi fields newer than the API version the Controller
// speaks are planned null (segroup::FieldsTheControllerLacks). On update, a field the Controller
// did not return before is such a field; on create, the version comes from the provider's
// api_version or, when unset, from the Controller (one login).
absl::Status DropFieldsTheControllerLacks(controller::Client& client, const ProviderConfig* config,
                                          const cty::Value& prior,
                                          std::map<std::string, cty::Value>& recommended) {
  std::set<std::string> names;
  std::set<std::string> present_before;
  for (const auto& [name, value] : recommended) {
    names.insert(name);
    if (prior.IsNull()) continue;
    const cty::Value* before = prior.GetAttribute(name);
    if (before != nullptr && !(before->IsKnown() && before->IsNull())) present_before.insert(name);
  }
  NSXALB_ASSIGN_OR_RETURN(
      std::set<std::string> lacking,
      segroup::FieldsTheControllerLacks(client, config != nullptr ? config->client.api_version : "",
                                        names, prior.IsNull() ? nullptr : &present_before));
  for (const std::string& name : lacking) {
    cty::Value& value = recommended.at(name);
    value = cty::Value::Null(value.type());
  }
  return absl::OkStatus();
}

// The plan's defaults: the Controller's default cloud, the provider's tenant, and extra_fields,
// which, when unset, manages no field: the plan keeps what the state records (the fields an
// import or a move captured) and writes none of them. Removing keys from a written extra_fields
// returns them to their defaults, which the plan says.
cty::Value PlanDefaults(const cty::Value& config, const cty::Value& prior,
                        const ProviderConfig* provider_config, cty::Value planned, Diagnostics& d) {
  const bool create = prior.IsNull();
  if (StringAttr(config, "cloud").IsNull()) {
    planned = std::move(planned).WithAttribute("cloud", cty::Value::String(segroup::kDefaultCloud));
  }
  if (StringAttr(config, "tenant").IsNull()) {
    planned = std::move(planned).WithAttribute(
        "tenant",
        cty::Value::String(provider_config != nullptr ? provider_config->client.tenant : "admin"));
  }
  // The licence settings are never recommended: unset, a new group plans them null (one data-path
  // process per vCPU, not per-app), and an existing one keeps the Controller's value.
  if (create) {
    for (const std::string& name : segroup::LicenceAttributeNames()) {
      const cty::Value* given = config.GetAttribute(name);
      if (given != nullptr && given->IsKnown() && given->IsNull()) {
        planned = std::move(planned).WithAttribute(name, cty::Value::Null(given->type()));
      }
    }
  }
  const Attr<std::string> config_extra = StringAttr(config, "extra_fields");
  if (config_extra.IsNull()) {
    const cty::Value* recorded = create ? nullptr : prior.GetAttribute("extra_fields");
    planned = std::move(planned).WithAttribute(
        "extra_fields", recorded != nullptr ? *recorded : cty::Value::Null(cty::Type::String()));
  } else if (config_extra.value().has_value() && !create) {
    WarnAboutFieldsReturningToDefault(*config_extra.value(), prior, d);
  }
  return planned;
}

// The configuration the sizing reads: `config` with the licence settings it leaves unset taken
// from `planned` (the Controller's values of an existing group), so that service_units counts
// what the group really runs.
cty::Value SizingConfig(const cty::Value& config, const cty::Value& planned) {
  cty::Value out = config;
  for (const std::string& name : segroup::LicenceAttributeNames()) {
    const cty::Value* given = config.GetAttribute(name);
    const cty::Value* kept = planned.GetAttribute(name);
    if (given != nullptr && given->IsKnown() && given->IsNull() && kept != nullptr) {
      out = std::move(out).WithAttribute(name, *kept);
    }
  }
  return out;
}

// The sizing profile a plan uses, and how it was chosen.
struct PlannedPlatform {
  bool ok = true;        // false: an error was reported (or validate reported one); stop planning
  bool derived = false;  // `platform` is unset in the configuration
  std::optional<sizing::Platform> platform;  // unset while it depends on an unknown cloud
};

// The platform: written, kept from state while the cloud stays, or the cloud's type (one cloud
// look-up). Sets `platform` in `planned` when derived.
PlannedPlatform PlanPlatform(controller::Client& client, const cty::Value& config,
                             const cty::Value& prior, cty::Value& planned, Diagnostics& d) {
  PlannedPlatform out;
  const Attr<std::string> written = StringAttr(config, "platform");
  out.derived = written.IsNull();
  if (written.value().has_value()) {
    absl::StatusOr<sizing::Platform> parsed = sizing::ParsePlatform(*written.value());
    out.ok = parsed.ok();  // validate reported a bad one
    if (parsed.ok()) out.platform = *parsed;
    return out;
  }
  if (!out.derived) return out;
  const Attr<std::string> cloud = StringAttr(planned, "cloud");
  const Attr<std::string> kept = StringAttr(prior, "platform");
  if (cloud.IsUnknown()) {
    planned =
        std::move(planned).WithAttribute("platform", cty::Value::Unknown(cty::Type::String()));
    return out;
  }
  if (!prior.IsNull() && kept.value().has_value() &&
      StringAttr(prior, "cloud").value() == cloud.value()) {
    out.platform = sizing::ParsePlatform(*kept.value()).value_or(sizing::Platform::kVcenter);
    planned = std::move(planned).WithAttribute("platform", cty::Value::String(*kept.value()));
    return out;
  }
  absl::StatusOr<controller::CloudInfo> info = client.ResolveCloud(*cloud.value());
  if (!info.ok()) {
    AddControllerError(
        d,
        info.status().code() == absl::StatusCode::kNotFound ? "Cloud not found"
                                                            : "Cannot read the cloud",
        absl::StrCat("looking up cloud \"", *cloud.value(), "\" to choose the sizing profile"), "",
        info.status(), cty::AttributePath::Of("cloud"));
    out.ok = false;
    return out;
  }
  absl::StatusOr<sizing::Platform> from_cloud = segroup::PlatformOfCloud(*info);
  if (!from_cloud.ok()) {
    d.AddAttributeError(cty::AttributePath::Of("platform"), "Set platform for this cloud",
                        std::string(from_cloud.status().message()));
    out.ok = false;
    return out;
  }
  out.platform = *from_cloud;
  planned = std::move(planned).WithAttribute(
      "platform", cty::Value::String(sizing::PlatformName(*out.platform)));
  return out;
}

// The enforce gate's question: does this plan create or change the group? Terraform's own
// refresh before a destroy plans every resource with its configuration, and a pull request that
// touches another resource plans this one too; both leave it unchanged. The policy itself is
// not the group: writing it on the resource changes nothing more than setting it on the
// provider does. The same holds for observed_load, which only reads.
bool ChangesTheGroup(const cty::Value& planned, const cty::Value& prior) {
  if (prior.IsNull()) return true;
  const cty::Value* prior_policy = prior.GetAttribute("sizing_policy");
  const cty::Value* prior_observed = prior.GetAttribute("observed_load");
  return prior_policy == nullptr || prior_observed == nullptr ||
         !planned.WithAttribute("sizing_policy", *prior_policy)
              .WithAttribute("observed_load", *prior_observed)
              .Equals(prior);
}

// True when the plan differs from the prior state only in what a roll of the SEs changes
// (service_engines, last_rollout, the rollout block): the update then writes nothing to the group.
bool OnlyRollsTheSes(const cty::Value& planned, const cty::Value& prior) {
  cty::Value same = planned;
  for (const char* name : {"service_engines", "last_rollout", "rollout"}) {
    const cty::Value* before = prior.GetAttribute(name);
    if (before == nullptr) return false;
    same = std::move(same).WithAttribute(name, *before);
  }
  return same.Equals(prior);
}

// A plan that leaves the group as it is keeps the prior state's `sizing` when its figures are
// equal (SameSizingFigures): a provider release that only rewords a finding or the summary then
// plans no change and writes nothing. Today's wording still reaches the plan as diagnostics at
// the attributes' lines. A plan that changes the group in any other way records today's `sizing`.
// See docs/design/se-group-resource.md, "Upgrades plan no change".
cty::Value KeepRecordedSizing(const cty::Value& prior, cty::Value planned) {
  if (prior.IsNull()) return planned;
  const cty::Value* recorded = prior.GetAttribute("sizing");
  const cty::Value* fresh = planned.GetAttribute("sizing");
  if (recorded == nullptr || fresh == nullptr || !SameSizingFigures(*recorded, *fresh)) {
    return planned;
  }
  cty::Value kept = planned.WithAttribute("sizing", *recorded);
  return kept.Equals(prior) ? kept : planned;
}

// A plan whose recommendation depends on something unknown until apply: the sizing attributes
// the configuration leaves unset, and `sizing`, are unknown.
cty::Value PlanUnknownRecommendation(const cty::Value& config, cty::Value planned) {
  for (const std::string& name : segroup::SizingAttributeNames()) {
    const cty::Value* written = config.GetAttribute(name);
    if (written != nullptr && written->IsKnown() && written->IsNull()) {
      const cty::Value* current = planned.GetAttribute(name);
      planned = std::move(planned).WithAttribute(name, cty::Value::Unknown(current->type()));
    }
  }
  return std::move(planned).WithAttribute("sizing", cty::Value::Unknown(SizingObjectType()));
}

// The findings of a known plan, under the enforce gate: only a plan that creates or changes the
// group fails on under-sizing (`waiver` empty). A destroy's refresh plan carries the configuration
// as it is now, edited or not; Terraform fails the destroy on any error from it, so in a destroy
// run nothing is an error here. Validate reported the findings that depend on neither the policy
// nor the plan (see ValidateConfig); errors reach here only when validate could not see them, as
// when the platform comes from the cloud (`platform_derived`).
void AddPlanFindings(const SizingPlan& plan, bool platform_derived, segroup::SizingPolicy policy,
                     const char* waiver, Diagnostics& d) {
  for (const PlacedFinding& finding : plan.findings) {
    const bool report = platform_derived || finding.policy_dependent ||
                        finding.finding.severity == sizing::Severity::kError;
    if (!report) continue;
    AddFindingDiagnostic(finding, policy, d, waiver);
  }
}

// observed_load: an existing group's plan against what its SEs carried. The check to make, without
// its platform, policy and waiver; nullopt without the block, without a workload, or for a group
// not created yet, so that no analytics request is made.
std::optional<ObservedLoadCheck> ObservedLoadCheckFor(const cty::Value& config,
                                                      const cty::Value& prior,
                                                      const cty::Value& planned,
                                                      const SizingPlan& plan) {
  const cty::Value* observed = config.GetAttribute("observed_load");
  const Attr<std::string> id = StringAttr(prior, "id");
  if (!plan.has_workload || prior.IsNull() || !id.value().has_value() || observed == nullptr ||
      !observed->IsKnown() || observed->IsNull()) {
    return std::nullopt;
  }
  ObservedLoadCheck check;
  check.block = *observed;
  check.group_uuid = *id.value();
  check.tenant = StringAttr(planned, "tenant").value_or("");
  check.planned = planned;
  check.plan = &plan;
  return check;
}

}  // namespace

framework::Schema SeGroupResource::GetSchema() const {
  return EmbeddedResourceSchema(kSeGroupResourceType);
}

void SeGroupResource::ValidateConfig(const framework::ValidateResourceConfigRequest& request,
                                     framework::ValidateResourceConfigResponse& response) {
  const cty::Value& config = request.config;
  Diagnostics& d = response.diagnostics;
  if (!config.IsKnown() || config.IsNull()) return;

  Attr<std::string> name = StringAttr(config, "name");
  if (name.value().has_value() && absl::StripAsciiWhitespace(*name.value()).empty()) {
    d.AddAttributeError(cty::AttributePath::Of("name"), "Invalid SE group name",
                        "The name must not be empty.");
  }
  Attr<std::string> policy = StringAttr(config, "sizing_policy");
  if (policy.value().has_value()) {
    absl::StatusOr<segroup::SizingPolicy> parsed = segroup::ParseSizingPolicy(*policy.value());
    if (!parsed.ok()) {
      d.AddAttributeError(cty::AttributePath::Of("sizing_policy"), "Invalid sizing policy",
                          std::string(std::string(parsed.status().message())));
    }
  }
  Attr<std::string> extra = StringAttr(config, "extra_fields");
  if (extra.value().has_value()) {
    absl::StatusOr<Json> parsed = segroup::ParseExtraFields(*extra.value());
    if (!parsed.ok()) {
      d.AddAttributeError(cty::AttributePath::Of("extra_fields"), "Invalid extra_fields",
                          std::string(std::string(parsed.status().message())));
    }
  }
  ReadRolloutSettings(config, &d);
  Attr<std::string> platform_text = StringAttr(config, "platform");
  if (!platform_text.value().has_value()) return;  // derived from the cloud in plan
  absl::StatusOr<sizing::Platform> platform = sizing::ParsePlatform(*platform_text.value());
  if (!platform.ok()) {
    d.AddAttributeError(cty::AttributePath::Of("platform"), "Invalid platform",
                        std::string(std::string(platform.status().message())));
    return;
  }
  SizingPlan plan = PlanSizing(config, *platform);
  if (!plan.known) return;
  d.Append(plan.input_errors);
  for (const PlacedFinding& finding : plan.findings) {
    // Under-sizing is plan's to report: whether it is an error depends on the provider's policy,
    // which validate cannot see, and on whether the plan changes the group. Validation runs
    // before every plan, a destroy's included, so it must never fail on it.
    if (finding.policy_dependent) continue;
    AddFindingDiagnostic(finding, segroup::SizingPolicy::kWarn, d);
  }
}

void SeGroupResource::ModifyPlan(const framework::ModifyPlanRequest& request,
                                 framework::ModifyPlanResponse& response) {
  const cty::Value& config = request.config;
  const cty::Value& prior = request.prior_state;
  Diagnostics& d = response.diagnostics;
  const std::string action = Action("planning", config);
  std::shared_ptr<controller::Client> client = ClientOrError(provider_, action, d);
  if (client == nullptr) return;

  cty::Value planned =
      PlanDefaults(config, prior, provider_->config().get(), response.planned_state, d);
  const PlannedPlatform platform = PlanPlatform(*client, config, prior, planned, d);
  if (!platform.ok) return;

  const cty::Value* workload = config.GetAttribute("workload");
  const bool has_workload = workload != nullptr && (!workload->IsKnown() || !workload->IsNull());
  std::optional<SizingPlan> plan;
  if (platform.platform.has_value()) {
    plan = PlanSizing(SizingConfig(config, planned), *platform.platform);
  }
  if (!plan.has_value() || !plan->known) {
    planned = has_workload ? PlanUnknownRecommendation(config, std::move(planned))
                           : std::move(planned).WithAttribute("sizing",
                                                              cty::Value::Null(SizingObjectType()));
    RollContext roll;
    roll.config = &config;
    roll.prior = &prior;
    response.planned_state =
        PlanRollout(*provider_, nullptr, roll, PlanServiceEngines(prior, std::move(planned)),
                    segroup::SizingPolicy::kWarn, "", &response.planned_private, d);
    return;
  }

  // The recommendation, without the fields the Controller's API version lacks.
  if (absl::Status versions = DropFieldsTheControllerLacks(*client, provider_->config().get(),
                                                           prior, plan->recommended);
      !versions.ok()) {
    AddControllerError(d, "Cannot read the Controller's version", action,
                       "the plan leaves out fields the Controller's API version lacks.", versions);
    return;
  }
  for (const auto& [name, value] : plan->recommended) {
    planned = std::move(planned).WithAttribute(name, value);
  }
  planned = std::move(planned).WithAttribute("sizing", plan->sizing_object);
  planned = KeepRecordedSizing(prior, std::move(planned));
  d.Append(plan->input_errors);

  // The findings under the enforce gate, then what the group's SEs really carried.
  const segroup::SizingPolicy effective = OwnPolicy(config).value_or(provider_->sizing_policy());
  const char* waiver = provider_->destroy_run()          ? kDestroyRunWaiver
                       : ChangesTheGroup(planned, prior) ? ""
                                                         : kUnchangedGroupWaiver;
  AddPlanFindings(*plan, platform.derived, effective, waiver, d);
  // The licence pool: does the tier have the units this plan adds (rule license-units-short)?
  // Only a plan that creates or changes the group asks, so a settled group's plan stays free of
  // Controller requests.
  if (waiver[0] == '\0') {
    AddLicenseCheck(*client, provider_->license_ledger(), provider_->se_listing(),
                    LicenseCheckRequest{&config, &prior, &planned, effective, waiver}, d);
  }
  if (std::optional<ObservedLoadCheck> check =
          ObservedLoadCheckFor(config, prior, planned, *plan)) {
    check->platform = *platform.platform;
    check->policy = effective;
    check->enforce_waived = waiver;
    // The group's SEs out of the process's one tenant listing; failing that, their own listing.
    if (auto listing = provider_->se_listing().Get(*client, check->tenant); listing.ok()) {
      check->tenant_ses = *std::move(listing);
    }
    AddObservedLoadFindings(*client, *check, d);
  }
  // The running SEs a change does not reach: a warning under every policy; and

  // with rollout's strategy "rolling", the roll's decision (rule roll-decided-in-plan).
  RollContext roll;
  roll.config = &config;
  roll.prior = &prior;
  roll.plan = &*plan;
  roll.ses = AddSesBehindSettings(*provider_, *client, config, prior, planned, &*plan, d);
  response.planned_state =
      PlanRollout(*provider_, client.get(), roll, PlanServiceEngines(prior, std::move(planned)),
                  effective, waiver, &response.planned_private, d);
}

void SeGroupResource::Create(const framework::CreateRequest& request,
                             framework::CreateResponse& response) {
  const cty::Value& planned = request.planned_state;
  const std::string action = Action("creating", planned);
  response.new_state = cty::Value::Null(planned.type());  // nothing exists until the POST succeeds
  std::shared_ptr<controller::Client> client =
      ClientOrError(provider_, action, response.diagnostics);
  if (client == nullptr) return;
  std::optional<Json> fields =
      FieldsToSend(request.config, planned, cty::Value::Null(planned.type()), response.diagnostics);
  if (!fields.has_value()) return;
  controller::SeGroupSpec spec;
  spec.name = StringAttr(planned, "name").value_or("");
  spec.tenant = StringAttr(planned, "tenant").value_or("");
  spec.cloud = StringAttr(planned, "cloud").value_or(segroup::kDefaultCloud);
  spec.fields = *std::move(fields);
  absl::StatusOr<controller::SeGroup> group = client->CreateSeGroup(spec);
  if (!group.ok()) {
    const std::string import =
        absl::StrCat("terraform import <address> \"", spec.cloud, "/", spec.name, "\"");
    std::string explanation;
    const std::string created = controller::CreatedSeGroupUuid(group.status());
    if (!created.empty()) {
      // The group exists: its id goes back with the error, so Terraform records it (tainted)
      // instead of forgetting it.
      response.new_state = planned.WithAttribute("id", cty::Value::String(created));
      explanation = absl::StrCat(
          "the Controller created the group (id ", created,
          ") but the provider could not read it back. Terraform records it as tainted, so the "
          "next apply replaces it; to keep it instead, run terraform untaint <address> and "
          "apply again.");
    } else if (group.status().code() == absl::StatusCode::kAlreadyExists) {
      explanation = absl::StrCat("an SE group of that name already exists in cloud \"", spec.cloud,
                                 "\". To manage it, import it: ", import, ".");
    } else if (controller::MayHaveTakenEffect(group.status())) {
      explanation = absl::StrCat(
          "the Controller may have created the group all the same. If the next apply reports "
          "that it already exists, import it: ",
          import, ".");
    }
    AddControllerError(response.diagnostics, "Cannot create SE group", action, explanation,
                       group.status());
    return;
  }
  // A new group runs no SE yet: there is nothing to roll.
  response.new_state = WithRunningSesAfterApply(
      *provider_, *client, cty::Value::Null(planned.type()),
      WithGroup(GetSchema().block, planned, *group, /*only_unknown=*/true)
          .WithAttribute("last_rollout", cty::Value::Null(LastRolloutObjectType())),
      response.diagnostics);
}

void SeGroupResource::Read(const framework::ReadRequest& request,
                           framework::ReadResponse& response) {
  const cty::Value& current = request.current_state;
  const std::string action = Action("reading", current);
  std::shared_ptr<controller::Client> client =
      ClientOrError(provider_, action, response.diagnostics);
  if (client == nullptr) return;
  const std::string uuid = StringAttr(current, "id").value_or("");
  absl::StatusOr<controller::SeGroup> group =
      client->GetSeGroup(uuid, StringAttr(current, "tenant").value_or(""));
  if (!group.ok()) {
    if (group.status().code() == absl::StatusCode::kNotFound) {
      response.new_state = cty::Value::Null(current.type());  // deleted outside Terraform
      return;
    }
    AddControllerError(response.diagnostics, "Cannot read SE group", action, "", group.status());
    return;
  }
  cty::Value state = WithGroup(GetSchema().block, current, *group, /*only_unknown=*/false);
  absl::StatusOr<cty::Value> placed = WithPlacement(*client, state, *group);
  if (!placed.ok()) {
    AddControllerError(response.diagnostics, "Cannot read SE group", action,
                       "its cloud or tenant could not be looked up.", placed.status());
    return;
  }
  state = WithRunningSes(*provider_, *client, *std::move(placed), *group, response.diagnostics);
  Attr<std::string> extra = StringAttr(current, "extra_fields");
  if (CapturesExtraFields(request.private_data)) {
    // The first refresh after an import or a move records the group's non-default untyped
    // fields, so that the state, and a configuration generated from it, describe the group.
    state = state.WithAttribute("extra_fields",
                                CapturedExtraFields(segroup::NonDefaultUntypedFields(group->body)));
    response.private_data.clear();
  } else if (extra.value().has_value()) {
    state = state.WithAttribute("extra_fields", cty::Value::String(segroup::RefreshedExtraFields(
                                                    *extra.value(), group->body)));
  }
  response.new_state = state;
}

void SeGroupResource::Update(const framework::UpdateRequest& request,
                             framework::UpdateResponse& response) {
  const cty::Value& planned = request.planned_state;
  const cty::Value& prior = request.prior_state;
  const std::string action = Action("updating", planned);
  response.new_state = prior;  // unchanged unless the PUT succeeds
  // The plan's roll decision is for this apply only: the state keeps none.
  response.private_data = WithoutRollDecision(request.planned_private);
  std::shared_ptr<controller::Client> client =
      ClientOrError(provider_, action, response.diagnostics);
  if (client == nullptr) return;
  std::optional<Json> fields = FieldsToSend(request.config, planned, prior, response.diagnostics);
  if (!fields.has_value()) return;
  controller::SeGroupSpec spec;
  spec.name = StringAttr(planned, "name").value_or("");
  spec.tenant = StringAttr(planned, "tenant").value_or("");
  spec.fields = *std::move(fields);  // the cloud never changes in place (requires_replace)
  const std::string uuid = StringAttr(prior, "id").value_or("");
  // A plan that only rolls the SEs writes nothing to the group: it is read instead.
  absl::StatusOr<controller::SeGroup> group = OnlyRollsTheSes(planned, prior)
                                                  ? client->GetSeGroup(uuid, spec.tenant)
                                                  : client->UpdateSeGroup(uuid, spec);
  if (!group.ok()) {
    std::string explanation;
    if (group.status().code() == absl::StatusCode::kNotFound) {
      explanation =
          "the group no longer exists on the Controller; run terraform apply again to "
          "create it.";
    } else if (group.status().code() == absl::StatusCode::kAborted) {
      explanation =
          "another writer kept changing the group while the provider was writing it, so the "
          "change was not applied; the state is unchanged. Run terraform apply again once the "
          "other writer is done.";
    }
    AddControllerError(response.diagnostics, "Cannot update SE group", action, explanation,
                       group.status());
    return;
  }
  const cty::Value written = WithGroup(GetSchema().block, planned, *group, /*only_unknown=*/true);
  const std::optional<RolloutSettings> rollout = ReadRolloutSettings(request.config, nullptr);
  if (rollout.has_value() && rollout->rolling) {
    // The sizing plan again, for the capacity guard's figure (the plan's own ran in another
    // process).
    std::optional<SizingPlan> plan;
    if (absl::StatusOr<sizing::Platform> platform =
            sizing::ParsePlatform(StringAttr(planned, "platform").value_or(""));
        platform.ok()) {
      plan = PlanSizing(SizingConfig(request.config, planned), *platform);
    }
    response.new_state = RollServiceEngines(
        *provider_, *client,
        RolloutApply{&request.config, &prior, plan.has_value() && plan->known ? &*plan : nullptr,
                     *group, request.planned_private},
        written, response.diagnostics);
    return;
  }
  response.new_state =
      WithRunningSesAfterApply(*provider_, *client, prior, written, response.diagnostics);
}

void SeGroupResource::Delete(const framework::DeleteRequest& request,
                             framework::DeleteResponse& response) {
  const cty::Value& prior = request.prior_state;
  const std::string action = Action("deleting", prior);
  if (StringAttr(prior, "name").value_or("") == kDefaultGroup) {
    response.diagnostics.AddError(
        "Cannot delete Default-Group",
        framework::ErrorDetail(action,
                               "Default-Group is the Controller's system default SE group and "
                               "cannot be deleted. To stop managing it, run terraform state rm "
                               "on this resource instead.",
                               ""));
    return;
  }
  std::shared_ptr<controller::Client> client =
      ClientOrError(provider_, action, response.diagnostics);
  if (client == nullptr) return;
  absl::Status deleted = client->DeleteSeGroup(StringAttr(prior, "id").value_or(""),
                                               StringAttr(prior, "tenant").value_or(""));
  if (!deleted.ok()) {
    AddControllerError(response.diagnostics, "Cannot delete SE group", action,
                       "the Controller refused; the group is unchanged.", deleted);
  }
}

void SeGroupResource::ImportState(const framework::ImportStateRequest& request,
                                  framework::ImportStateResponse& response) {
  const std::string id(absl::StripAsciiWhitespace(request.id));
  const std::string action = absl::StrCat("importing SE group \"", id, "\"");
  if (id.empty()) {
    response.diagnostics.AddError("Missing import ID",
                                  "Give the SE group's uuid, its name, or <cloud>/<name>, such as "
                                  "\"Default-Cloud/web-se-group\".");
    return;
  }
  std::shared_ptr<controller::Client> client =
      ClientOrError(provider_, action, response.diagnostics);
  if (client == nullptr) return;
  // The Read that follows records the group's non-default untyped fields in extra_fields.
  response.private_data = kCaptureExtraFieldsPrivate;
  if (controller::LooksLikeUuid(id)) {
    response.state = response.state.WithAttribute("id", cty::Value::String(id));
    return;
  }
  std::string cloud;
  std::string name = id;
  if (const size_t slash = id.find('/'); slash != std::string::npos) {
    cloud = id.substr(0, slash);
    name = id.substr(slash + 1);
  }
  absl::StatusOr<controller::SeGroup> group = segroup::FindSeGroupByName(*client, name, "", cloud);
  if (!group.ok()) {
    AddControllerError(response.diagnostics, "Cannot import SE group", action, "", group.status());
    return;
  }
  response.state = response.state.WithAttribute("id", cty::Value::String(group->uuid));
  if (!cloud.empty())
    response.state = response.state.WithAttribute("cloud", cty::Value::String(cloud));
}

}  // namespace nsxalb::provider
