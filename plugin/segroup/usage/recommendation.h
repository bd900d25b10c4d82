// The recommendation from observed load: the observed figures, calibrated (rule
// calibration-raises-cpu-bound-demand), as a workload at the group's target, sized by PlanSizing
// with the group's HA mode and scale-out settings and the declared workload's policy (its
// max_vcpus_per_se, virtual_services). Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_

#include "plugin/segroup/usage/analyze.h"

namespace nsxalb::segroup::usage_internal {

// Sets r.observed_workload and r.recommendation when anything but CPU was observed.
void RecommendFromObserved(const UsageInput& in, int target, UsageReport& r);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_RECOMMENDATION_H_
