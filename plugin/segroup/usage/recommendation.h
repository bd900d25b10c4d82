// The recommendation from observed load: the observed figures, calibrated (rule
// calibration-raises-cpu-bound-demand), as a workload at the group's target, sized by PlanSizing
// with the group's HA mode and scale-out settings and the declared workload's policy (its
// max_vcpus_per_se, virtual_services). Internal to plugin/segroup/usage.
//
// Rule observed-cpu-floor (docs/sizing.md, "The observed CPU floor"): a recommendation never
// carries less CPU than the group really used. The vCPUs its SEs used at their peak (per
// timestamp, the sum over the SEs of CPU% / 100 x vCPUs; the query's statistic over the
// timestamps) must fit the recommended active SEs (se_count x vcpus_per_se) at or below the
// target. When they do not, whether or not the calibration applied, the CPU-bound demand is
// raised (beyond the calibration) by the smallest factor whose recommendation holds them: an upper
// bound brings the model's CPU on the recommended SEs up to the used vCPUs (used / (the CPU
// budget's utilization x se_count x vcpus_per_se), again on the larger shape while it still falls
// short, at most kMaxCpuFloorRounds times), then kCpuFloorBisections geometric halvings between
// 1 and it. headroom.h withholds the reclaim where the floor is still not met.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_

#include <optional>

#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/series.h"

namespace nsxalb::segroup::usage_internal {

// observed-cpu-floor: the most times the raise is brought up to the vCPUs used, and how many
// halvings then find the smallest raise that holds them.
inline constexpr int kMaxCpuFloorRounds = 4;
inline constexpr int kCpuFloorBisections = 10;

// Sets r.cpu_floor from the SEs' CPU (`per_se`, in the order of in.ses), and r.observed_workload
// and r.recommendation when anything but CPU was observed.
void RecommendFromObserved(const UsageInput& in, const SeSamplesOfGroup& per_se, int target,
                           UsageReport& r);

// The observed-cpu-floor warning (attribute "") when the floor raised the recommendation
// (r.cpu_floor.raise above 1): the vCPUs used, when, and what the demand was raised by.
std::optional<Finding> CpuFloorFinding(const UsageReport& r);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_
