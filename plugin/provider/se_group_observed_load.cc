// The resource's observed_load block.
#include "plugin/provider/se_group_observed_load.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/provider/se_group_usage_data_source.h"
#include "plugin/segroup/group_usage.h"
#include "plugin/segroup/usage.h"

namespace nsxalb::provider {
namespace {

// Where a finding about the workload as a whole is shown: on its demanded key with the highest
// utilization on the planned SEs, so that Terraform points at a line inside the workload block
// (a path to the block itself shows the resource's first line); "workload" without demand.
std::string WorkloadLine(const SizingPlan& plan) {
  const sizing::MetricLoad* most = nullptr;
  for (const sizing::MetricLoad& load : plan.loads) {
    if (most == nullptr || load.utilization_pct > most->utilization_pct) most = &load;
  }
  return most == nullptr ? "workload" : absl::StrCat("workload.", sizing::InfoOf(most->metric).key);
}

}  // namespace

void AddObservedLoadFindings(controller::Client& client, const ObservedLoadCheck& check,
                             framework::Diagnostics& diagnostics) {
  const cty::AttributePath at = cty::AttributePath().Attribute("observed_load");
  framework::Diagnostics query_errors;
  segroup::GroupUsageRequest request;
  request.query = UsageQueryOf(check.block, at, query_errors);
  if (query_errors.HasError()) {
    diagnostics.Append(query_errors);
    return;
  }
  request.platform = check.platform;
  request.declared_workload = check.plan->workload_json;
  request.now = absl::Now();
  absl::StatusOr<segroup::UsageReport> report = segroup::ReadGroupUsage(
      client, check.group_uuid, check.tenant, TypedFieldsToSend(check.planned), request);
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
  segroup::SizingPlan declared;
  declared.has_workload = check.plan->has_workload;
  declared.workload = check.plan->workload;
  declared.planned_shape = check.plan->planned_shape;
  const int target = check.plan->workload.has_value() ? check.plan->workload->target_utilization_pct
                                                      : sizing::kDefaultTargetUtilizationPct;
  for (segroup::Finding& f : segroup::CompareWithDeclared(*report, declared, target)) {
    if (f.attribute == "workload") f.attribute = WorkloadLine(*check.plan);
    AddFindingDiagnostic(Placed(std::move(f)), check.policy, diagnostics, check.enforce_waived);
  }
}

}  // namespace nsxalb::provider
