// The observed load against the declared plan: the findings a plan shows at the workload line
// when the group carried more than declared, ran above its CPU target, or used more CPU than the
// tables predict for the planned shape. Pure domain code: no network, no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_COMPARE_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_COMPARE_H_

#include <vector>

#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/report.h"

namespace nsxalb::segroup {

// The observed load against the declared plan, at the workload line (all policy_dependent, so
// that sizing_policy = "enforce" makes them errors only for a plan that creates or changes the
// group; FindingIsError):
// - observed-peak-above-declared at "workload.<key>": "declared 150,000 L7 RPS; observed peak
//   212,400 (Nov 28 14:05 UTC, 7 days)";
// - observed-cpu-above-target at "workload": "SE se-1 peaked at 91% CPU (Nov 28 14:05 UTC)
//   against the group's 80% target";
// - calibration-shows-under-sizing at "workload": the declared CPU-bound demand times a ratio
//   above 1 is not carried by the planned shape (sizing::Carries).
// Empty when the declared plan has no workload.
std::vector<Finding> CompareWithDeclared(const UsageReport& report, const SizingPlan& declared_plan,
                                         int target_pct);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_COMPARE_H_
