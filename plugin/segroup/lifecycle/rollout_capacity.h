// The capacity guard's figures for a roll (rollout.h's CapacityFigures) from a declared workload:
// what the group's SEs left while max_unavailable of them are out would run, at their real shape,
// by the same model and rules as the group's plan. One piece of code for every front end: the
// CLI's `controller rollout --workload` and the resource's rollout block. Pure; no Terraform
// types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CAPACITY_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CAPACITY_H_

#include <string>

#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/rollout.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::segroup::lifecycle {

// The capacity figures of rolling `ses` with `max_unavailable` SEs out, for the declared
// `workload` and its `planned` shape (segroup::SizingPlan's workload and planned_shape: the
// workload carries the platform, the group's HA mode and target):
//   - SEs out: min(max_unavailable, SEs that lag), as CheckGuards counts them;
//   - the SEs that carry the workload: min(planned active SEs, running SEs - out), as
//     LoadAtRunningShape takes min(planned active SEs, running SEs) with none out;
//   - their shape: the smallest running SE's vCPUs (then memory), whatever it lags on, so a
//     replacement already at the new shape never overstates the SEs still at the old one;
//   - cpu_percent_out: the binding utilization of sizing::RecommendForShape on those SEs (the CPU
//     budget, or the metric alone that binds higher; sizing::BindingUtilizationPct), and
//     `measure` says which: "CPU", or "of their L4 open connections capacity" when a metric that
//     is not CPU-bound binds;
//   - load: "the declared workload 300,000 L7 RPS + 6,000 ECC SSL TPS"; basis: the weakest basis
//     of the figures used (ShapeBasis: measured, interpolated, extrapolated).
// running_ses, ha_minimum_ses (sizing::MinActiveSes of the workload's HA mode), platform and
// throughput_kinds (the throughput metrics the workload demands) are always filled, target_percent
// is `target_percent` (the group's max_cpu_usage, else 80). `known` is false, and the guard checks
// the HA minimum only, when the workload demands nothing, no SE is left, no running SE's size is
// known, or the model cannot take the shape; `load` then says why.
CapacityFigures CapacityWithSesOut(const sizing::Workload& workload,
                                   const sizing::Recommendation& planned, const GroupSes& ses,
                                   int max_unavailable, double target_percent);

// The declared workload's demand in prose: "300,000 L7 RPS + 6,000 ECC SSL TPS", each demanded
// metric in metric order (sizing::FormatAmount, rounded up); "" when it demands nothing.
std::string DemandText(const sizing::Workload& workload);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CAPACITY_H_
