// The resource's observed_load block.
#include "plugin/provider/se_group_observed_load.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/provider/usage_attributes.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/segroup/usage/group_reader.h"

namespace nsxalb::provider {
namespace {

// The declared plan as the domain's comparisons read it: its workload, planned shape, which
// settings it recommends (the others are hand-set) and its Service Units.
segroup::SizingPlan DeclaredPlan(const SizingPlan& plan) {
  segroup::SizingPlan declared;
  declared.has_workload = plan.has_workload;
  declared.workload = plan.workload;
  declared.planned_shape = plan.planned_shape;
  for (const auto& [name, value] : plan.recommended) declared.recommended.emplace(name, nullptr);
  const framework::Attr<cty::Number> units =
      framework::NumberAttr(plan.sizing_object, "service_units");
  if (units.value().has_value()) {
    segroup::SizingSummary summary;
    summary.service_units = units.value()->AsDouble();
    declared.summary = std::move(summary);
  }
  return declared;
}

// Reads the group's usage for `check` with `request`'s query (one SE listing unless the shared
// one is given, one metrics request).
absl::StatusOr<segroup::UsageReport> ReadUsage(controller::Client& client,
                                               const ObservedLoadCheck& check,
                                               segroup::GroupUsageRequest request) {
  request.platform = check.platform;
  request.declared_workload = check.plan->workload_json;
  request.now = absl::Now();
  request.tenant_ses = check.tenant_ses.get();
  return segroup::ReadGroupUsage(client, check.group_uuid, check.tenant,
                                 TypedFieldsToSend(check.planned), request);
}

}  // namespace

void AddObservedLoadFindings(controller::Client& client, const ObservedLoadCheck& check,
                             framework::Diagnostics& diagnostics) {
  const cty::AttributePath at = cty::AttributePath::Of("observed_load");
  framework::Diagnostics query_errors;
  segroup::GroupUsageRequest request;
  request.query = UsageQueryOf(check.block, at, query_errors);
  const std::optional<int> forecast_days = ForecastDaysOf(check.block, at, query_errors);
  if (query_errors.HasError()) {
    diagnostics.Append(query_errors);
    return;
  }
  absl::StatusOr<segroup::UsageReport> report = ReadUsage(client, check, std::move(request));
  if (!report.ok()) {
    const std::string detail = absl::StrCat(
        "While reading the usage of the group's SEs for observed_load, the plan went "
        "on without it.\n\nOriginal Error: ",
        report.status().message());
    if (report.status().code() == absl::StatusCode::kCancelled) {
      diagnostics.AddAttributeError(at, "Observed load not read", detail);
    } else {
      diagnostics.AddAttributeWarning(at, "Observed load not read", detail);
    }
    return;
  }
  for (segroup::Finding& f : report->findings) {
    AddFindingDiagnostic(Placed(std::move(f)), segroup::SizingPolicy::kWarn, diagnostics);
  }
  const segroup::SizingPlan declared = DeclaredPlan(*check.plan);
  const int target = check.plan->workload.has_value() ? check.plan->workload->target_utilization_pct
                                                      : sizing::kDefaultTargetUtilizationPct;
  for (segroup::Finding& f : segroup::CompareWithDeclared(*report, declared, target)) {
    if (f.attribute == "workload") f.attribute = WorkloadLine(*check.plan);
    AddFindingDiagnostic(Placed(std::move(f)), check.policy, diagnostics, check.enforce_waived);
  }
  // What the group could give back, and when it runs out: warnings under every policy.
  std::optional<segroup::Finding> unused = segroup::CapacityUnusedFinding(*report, declared);
  std::optional<segroup::Finding> forecast = segroup::ForecastFinding(*report, *forecast_days);
  for (std::optional<segroup::Finding>* f : {&unused, &forecast}) {
    if (!f->has_value()) continue;
    if ((*f)->attribute == "workload") (*f)->attribute = WorkloadLine(*check.plan);
    AddFindingDiagnostic(Placed(std::move(**f)), segroup::SizingPolicy::kWarn, diagnostics);
  }
}

}  // namespace nsxalb::provider
