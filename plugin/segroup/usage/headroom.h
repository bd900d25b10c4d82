// What a group costs and how long it lasts, from what its Service Engines really carried: the
// Service Units it consumes now against the SUs the observed load needs (what could be given
// back), and the findings that put this and the headroom forecast (forecast.h) in a plan. Pure
// domain code beside report.h: no network, no Terraform types.
//
// Rules (names in plugin/sizing/rules.h, long form in docs/sizing.md, "What a group costs and how
// long it lasts"):
// - service-units-now: the SUs the group consumes now are the sum over its SEs, as the Controller
//   lists them, of service-units-per-se at each SE's real vCPUs, with the group's max_num_se_dps
//   and per_app; unknown when an SE's vCPUs are.
// - reclaim-needs-half-the-samples: nothing is reclaimable from a window with fewer than half the
//   samples it should hold; the reason says so instead.
// - observed-capacity-unused: a warning, under every policy, when the observed load's
//   recommendation (which keeps the HA mode's minimum) needs at least kMinReclaimShare and at
//   least kMinReclaimServiceUnits fewer SUs than the group consumes now.
// - forecast-reaches-target: a warning, under every policy, when the forecast reaches the target
//   within the resource's observed_load.forecast_days.
// - observed-cpu-floor (with recommendation.h): nothing is reclaimable (reclaimable 0, with the
//   reason) from a group at risk (an SE ran above the target, or the forecast reaches the target
//   within forecast_days: rule estate-group-at-risk) or whose recommendation does not hold the
//   vCPUs its SEs used at their peak at the target.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_HEADROOM_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_HEADROOM_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::segroup {

struct UsageReport;  // report.h

// The least share of the SUs now, and the fewest SUs, that observed-capacity-unused reports.
inline constexpr double kMinReclaimShare = 0.25;
inline constexpr double kMinReclaimServiceUnits = 2;
// The default of observed_load.forecast_days: how soon a forecast must reach the target to warn.
inline constexpr int kDefaultForecastDays = 30;

// What the group costs in SUs now and from its observed load.
struct ServiceUnitsUsage {
  std::optional<double> now;          // rule service-units-now; unset when a figure is unknown
  std::optional<double> recommended;  // the observed load's recommendation, at its planned scale
  // max(0, now - recommended); unset, with `reason`, when either is unknown or the window holds
  // too few samples (rule reclaim-needs-half-the-samples); 0, with `reason`, when withheld (rule
  // observed-cpu-floor).
  std::optional<double> reclaimable;
  std::string reason;  // why reclaimable is unset or withheld; "" otherwise
};

// The SUs of SEs of `se_vcpus` (rule service-units-now); unset when one is 0 (unknown) or there
// are none.
std::optional<double> ServiceUnitsNow(const std::vector<int>& se_vcpus,
                                      const sizing::ServiceUnitSettings& settings);

// The SUs now, recommended and reclaimable for a window of `samples` of `expected_samples`.
ServiceUnitsUsage ReclaimableServiceUnits(std::optional<double> now,
                                          std::optional<double> recommended, int samples,
                                          int expected_samples);

// Why the group is at risk (rule estate-group-at-risk) for `forecast_days`: "web-se-1 ran at 92%
// CPU, over the group's 80% target" (the busiest such SE), else "the forecast reaches 80% in 20
// days, within 30"; "" when it is not at risk.
std::string AtRiskReason(const UsageReport& report, int forecast_days);

// Rule observed-cpu-floor: sets report.service_units.reclaimable to 0, with the reason, when it is
// known and the group is at risk for `forecast_days` (AtRiskReason) or its recommendation does not
// hold the vCPUs its SEs used (report.cpu_floor.met false). Otherwise leaves it.
void WithholdReclaim(UsageReport& report, int forecast_days);

// observed-capacity-unused for `report` against the declared plan (its hand-set attributes say
// where the finding stands: the vcpus_per_se, max_se or min_scaleout_per_vs that holds the
// capacity, else the workload): "3 SEs of 8 vCPUs (24 SUs) carried an observed peak that 2 SEs of
// 4 vCPUs (8 SUs, the buffer SE included) carry at 62.0%: 16 SUs reclaimable". When the declared
// workload plans more SUs than the observed load needs, the detail says both. Unset below the
// thresholds. A warning, never policy dependent.
std::optional<Finding> CapacityUnusedFinding(const UsageReport& report, const SizingPlan& declared);

// forecast-reaches-target at the workload when the report's forecast reaches its target within
// `forecast_days`: "at the 14-day trend (+1.0 CPU point a day, R² 0.98) web-se-1 reaches 80% in
// 27 days (Jan 1)". A warning, never policy dependent.
std::optional<Finding> ForecastFinding(const UsageReport& report, int forecast_days);

// "2 SEs of 6 vCPUs + 1 buffer SE, 18 SUs": the observed load's recommendation as findings name
// it (the SUs count max_se: the active SEs and what the HA mode adds); "" without one.
std::string RecommendationText(const UsageReport& report);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_HEADROOM_H_
