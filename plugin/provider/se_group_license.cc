// Implementation of se_group_license.h.
#include "plugin/provider/se_group_license.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/segroup/desired_state.h"
#include "plugin/segroup/fields.h"

namespace nsxalb::provider {
namespace {

using framework::StringAttr;

// The Controller's default cloud, where a group without `cloud` lands.

// True when the configuration writes `name` (known, not null).
bool Written(const cty::Value& config, const char* name) {
  const cty::Value* v = config.GetAttribute(name);
  return v != nullptr && (!v->IsKnown() || !v->IsNull());
}

// The line that holds the size: vcpus_per_se or max_se when written, else the workload block
// (the root without one).
std::string SizeAttribute(const cty::Value& config) {
  if (Written(config, "vcpus_per_se")) return "vcpus_per_se";
  if (Written(config, "max_se")) return "max_se";
  return Written(config, "workload") ? "workload" : "";
}

// The group's own license_tier, from extra_fields; "" when it does not set one.
std::string GroupLicenseTier(const cty::Value& planned) {
  const std::optional<std::string> extra = StringAttr(planned, "extra_fields").value();
  if (!extra.has_value()) return "";
  absl::StatusOr<nlohmann::json> fields = segroup::ParseExtraFields(*extra);
  if (!fields.ok() || !fields->contains("license_tier") || !(*fields)["license_tier"].is_string()) {
    return "";
  }
  return (*fields)["license_tier"].get<std::string>();
}

// The Service Units a state puts the group at, and how they were counted.
struct PlannedUnits {
  double units = 0;
  std::string basis;  // "" for the sizing's service_units
};

// The units of `state`: its known `sizing.service_units` when it has one; else, unless `sized`
// (a group with a workload, whose units are the sizing's only), max_se SEs of vcpus_per_se by rule
// service-units-per-se (segroup::LicenseUnitsOfSettings: a max_se or vcpus_per_se the state does
// not know yet is the Controller's default, which a new group gets). nullopt while `config`
// (non-null for a plan) leaves one of those settings unknown, or they are not whole numbers.
std::optional<PlannedUnits> UnitsOf(const cty::Value& state, bool sized, const cty::Value* config) {
  const cty::Value* sizing = state.GetAttribute("sizing");
  if (sizing != nullptr && sizing->IsKnown() && !sizing->IsNull()) {
    const cty::Value* units = sizing->GetAttribute("service_units");
    if (units != nullptr && units->IsKnown() && !units->IsNull()) {
      return PlannedUnits{units->AsNumber().AsDouble(), ""};
    }
  }
  if (sized) return std::nullopt;
  if (config != nullptr) {
    for (const char* name : {"max_se", "vcpus_per_se", "max_num_se_dps", "per_app"}) {
      const cty::Value* given = config->GetAttribute(name);
      if (given != nullptr && !given->IsKnown()) return std::nullopt;
    }
  }
  std::optional<segroup::LicenseUnitsAtScale> at_scale =
      segroup::LicenseUnitsOfSettings(TypedFieldsToSend(state));
  if (!at_scale.has_value()) return std::nullopt;
  return PlannedUnits{at_scale->units, std::move(at_scale->basis)};
}

// A warning that the check was skipped, unless the call was cancelled (then nothing: Terraform
// is stopping).
void Skipped(framework::Diagnostics& d, const std::string& what, const absl::Status& status) {
  if (absl::IsCancelled(status)) return;
  d.AddWarning("The licence check was skipped",
               absl::StrCat(what, ": ", status.message(),
                            "\n\nThe plan does not say whether the licence covers this group's "
                            "SEs (rule license-units-short)."));
}

}  // namespace

void AddLicenseCheck(controller::Client& client, segroup::LicenseLedgerCache& ledger_cache,
                     segroup::lifecycle::SharedSeListing& se_listing,
                     const LicenseCheckRequest& request, framework::Diagnostics& d) {
  const cty::Value& planned = *request.planned;
  const bool sized = Written(*request.config, "workload");
  const std::optional<PlannedUnits> units = UnitsOf(planned, sized, request.config);
  if (!units.has_value() || units->units <= 0) return;
  const double planned_units = units->units;
  // A plan that does not grow the group's planned units adds none: no ledger read.
  if (!request.prior->IsNull()) {
    const std::optional<PlannedUnits> before = UnitsOf(*request.prior, /*sized=*/false, nullptr);
    if (before.has_value() && planned_units <= before->units) return;
  }

  absl::StatusOr<controller::LicenseLedgerDetails> ledger = ledger_cache.Get(client);
  if (!ledger.ok()) {
    return Skipped(d, "reading the licence ledger (GET /api/licensing/ledger/details)",
                   ledger.status());
  }
  std::string cloud_tier;
  if (std::string group_tier = GroupLicenseTier(planned); group_tier.empty()) {
    const std::string cloud = StringAttr(planned, "cloud").value_or(segroup::kDefaultCloud);
    absl::StatusOr<controller::CloudInfo> info = client.ResolveCloud(cloud);
    if (!info.ok()) {
      return Skipped(d, absl::StrCat("reading cloud \"", cloud, "\" for its license_tier"),
                     info.status());
    }
    cloud_tier = info->license_tier;
  } else {
    cloud_tier = std::move(group_tier);  // the group's own tier wins (LicenseTierOf)
  }
  const segroup::LicensePool pool =
      segroup::LicensePoolOf(*ledger, segroup::LicenseTierOf("", cloud_tier));
  // Only a plan that could be short needs the group's running SEs.
  double running = 0;
  const std::optional<std::string> id =
      request.prior->IsNull() ? std::nullopt : StringAttr(*request.prior, "id").value();
  if (planned_units > pool.remaining && id.has_value()) {
    // The process's one tenant listing, shared with refresh and every other group.
    absl::StatusOr<std::shared_ptr<const segroup::lifecycle::SharedSeListing::Listing>> ses =
        se_listing.Get(client, StringAttr(planned, "tenant").value_or(""));
    if (!ses.ok()) {
      return Skipped(d, "listing the group's Service Engines", ses.status());
    }
    running = segroup::LicenseUnitsOfSes(*ledger, segroup::LicenseSeUuidsOfGroup(**ses, *id));
  }
  std::optional<segroup::Finding> finding =
      segroup::CheckLicenseUnits(segroup::LicenseUnitsAddedBy(planned_units, running, units->basis),
                                 pool, SizeAttribute(*request.config));
  if (!finding.has_value()) return;

  const PlacedFinding placed = Placed(*finding);
  const bool waived = !request.enforce_waived.empty();
  framework::Diagnostic diagnostic;
  diagnostic.severity = segroup::FindingIsError(*finding, request.policy, waived)
                            ? framework::Severity::kError
                            : framework::Severity::kWarning;
  diagnostic.summary = placed.finding.summary;
  diagnostic.detail = absl::StrCat(placed.finding.detail, " (rule ", placed.finding.rule, ")");
  if (request.policy == segroup::SizingPolicy::kEnforce) {
    if (waived) {
      absl::StrAppend(
          &diagnostic.detail, "\n\n",
          absl::string_view(request.enforce_waived.data(), request.enforce_waived.size()));
    } else {
      absl::StrAppend(&diagnostic.detail,
                      "\n\nsizing_policy = \"enforce\" makes a plan that adds more Service Units "
                      "than its tier has left an error; sizing_policy = \"warn\" makes it a "
                      "warning.");
    }
  }
  if (!placed.path.empty()) diagnostic.path = placed.path;
  d.Add(std::move(diagnostic));
}

}  // namespace nsxalb::provider
