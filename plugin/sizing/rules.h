// Names of the sizing model's rules. Every figure the model derives, and every finding it
// reports, names the rule it came from; docs/sizing.md explains each name (a test checks that every
// name here appears there), and the generated registry docs list each under its attributes.
#ifndef NSXALB_PLUGIN_SIZING_RULES_H_
#define NSXALB_PLUGIN_SIZING_RULES_H_

#include <string>
#include <vector>

namespace nsxalb::sizing::rules {

// Capacity of one SE.
inline constexpr char kInterpolate[] = "interpolate-between-measured-sizes";
inline constexpr char kExtrapolateCpu[] = "extrapolate-cpu-bound-at-4-to-6-rate";
inline constexpr char kHoldThroughput[] = "hold-throughput-at-6-vcpus";
inline constexpr char kTableMemory[] = "table-memory-per-vcpu";
inline constexpr char kOpenConnsMemory[] = "open-conns-scale-with-memory";
inline constexpr char kOpenConnsDensity[] = "open-conns-per-gb-held-above-6-vcpus";
inline constexpr char kCrossProfile[] = "open-conns-borrowed-from-vcenter";

// Recommendation.
inline constexpr char kTargetUtilization[] = "target-utilization";
inline constexpr char kCpuBudget[] = "one-cpu-budget-per-se";
inline constexpr char kSmallestSingleSe[] = "smallest-single-se";
inline constexpr char kSmallestAtLeastCount[] = "smallest-se-at-least-active-count";
inline constexpr char kFewestSes[] = "fewest-ses-then-smallest-size";
inline constexpr char kVsSlots[] = "vs-slots-per-se";
inline constexpr char kMinScaleout[] = "min-scaleout-spreads-vs";
inline constexpr char kMemoryForConns[] = "memory-raised-for-open-conns";
inline constexpr char kMemoryAtMostTwice[] = "memory-at-most-2x-table";
inline constexpr char kDisk[] = "disk-max-15-or-2x-ram-plus-5";
inline constexpr char kDiskTested[] = "disk-not-below-tested";
inline constexpr char kReserve[] = "reserve-cpu-and-memory";
inline constexpr char kDispatchersMeasured[] = "dispatchers-as-measured";
inline constexpr char kDispatchersL4[] = "dispatchers-two-for-l4-throughput";
inline constexpr char kDispatchersRatio[] = "dispatchers-one-per-three-vcpus";
inline constexpr char kQueuesAuto[] = "queues-per-vnic-auto";
inline constexpr char kQueuesNsxt[] = "queues-per-vnic-two-nsxt-6-plus";
inline constexpr char kHybridRss[] = "hybrid-rss-nsxt-2-vcpus";
inline constexpr char kMaxSe[] = "max-se-covers-buffer";
inline constexpr char kActiveActive[] = "active-active-survives-one-se-loss";
inline constexpr char kLegacyOneActive[] = "legacy-active-standby-one-active";

// Licences (service_units.h): what the planned group costs in Service Units.
inline constexpr char kServiceUnitsPerSe[] = "service-units-per-se";
inline constexpr char kServiceUnitsAtPlannedScale[] = "service-units-at-planned-scale";
inline constexpr char kPerAppTwoVsPerSe[] = "per-app-two-vs-per-se";

// Warnings.
inline constexpr char kRps160k[] = "rps-160k-per-se-on-esxi";
inline constexpr char kScaleoutLimit[] = "max-scaleout-per-vs";
inline constexpr char kUnderDelivery[] = "demand-within-capacity";
inline constexpr char kOverProvisioning[] = "over-provisioning-2x";
inline constexpr char kMemoryMin2048[] = "memory-min-2048-mb-from-30.1";
inline constexpr char kQueuesNotOne[] = "queues-per-vnic-not-1";
inline constexpr char kHaModeSettings[] = "settings-match-ha-mode";
inline constexpr char kTargetWithinMaxCpuUsage[] = "target-within-max-cpu-usage";

// Observed load (plugin/segroup/usage/): how the Controller's analytics become a workload, the
// missing data, and the observed load against the declared workload.
inline constexpr char kUsageStep[] = "usage-step-by-window";
inline constexpr char kUsagePointsCapped[] = "usage-points-capped";
inline constexpr char kUsageGroupSum[] = "group-load-is-sum-per-timestamp";
inline constexpr char kUsageCpuHighestSe[] = "observed-cpu-is-highest-se";
inline constexpr char kUsageStatistic[] = "usage-statistic-nearest-rank";
inline constexpr char kHandshakeSplit[] = "observed-handshakes-split-as-declared";
inline constexpr char kThroughputKind[] = "observed-throughput-as-declared-kind";
inline constexpr char kCalibrate[] = "calibrate-cpu-to-observed";
inline constexpr char kCalibrationRaises[] = "calibration-raises-cpu-bound-demand";
inline constexpr char kUsageNoSes[] = "usage-no-service-engines";
inline constexpr char kAnalyticsUnavailable[] = "usage-analytics-unavailable";
inline constexpr char kFewerSamples[] = "usage-fewer-samples-than-window";
inline constexpr char kBadPoints[] = "usage-bad-points-dropped";
inline constexpr char kObservedAboveDeclared[] = "observed-peak-above-declared";
inline constexpr char kObservedCpuAboveTarget[] = "observed-cpu-above-target";
inline constexpr char kCalibrationUnderSized[] = "calibration-shows-under-sizing";

// What a group costs and how long it lasts (plugin/segroup/usage/headroom.h, forecast.h): Service
// Units reclaimable from the observed load, and the headroom forecast.
inline constexpr char kServiceUnitsNow[] = "service-units-now";
inline constexpr char kReclaimNeedsHalfTheSamples[] = "reclaim-needs-half-the-samples";
inline constexpr char kObservedCapacityUnused[] = "observed-capacity-unused";
inline constexpr char kObservedCpuFloor[] = "observed-cpu-floor";
inline constexpr char kForecastDailyPeaks[] = "forecast-daily-peaks";
inline constexpr char kForecastNeedsSevenDays[] = "forecast-needs-7-daily-peaks";
inline constexpr char kForecastLeastSquares[] = "forecast-least-squares";
inline constexpr char kForecastFitRSquared[] = "forecast-fit-r-squared";
inline constexpr char kForecastDaysToTarget[] = "forecast-days-to-target";
inline constexpr char kForecastAtMost365Days[] = "forecast-at-most-365-days";
inline constexpr char kForecastReachesTarget[] = "forecast-reaches-target";
// The whole estate (plugin/segroup/usage/estate_reader.h)
inline constexpr char kEstateRequestsBounded[] = "estate-requests-bounded";
inline constexpr char kEstateGroupAtRisk[] = "estate-group-at-risk";
inline constexpr char kEstateGroupNotAnalysed[] = "estate-group-not-analysed";
// The running SEs against the group's settings (plugin/segroup/lifecycle/).
inline constexpr char kSesBehindSettings[] = "ses-behind-settings";
inline constexpr char kUtilizationAtRunningShape[] = "utilization-at-running-shape";
inline constexpr char kServiceUnitsOfRunningSes[] = "service-units-of-running-ses";
// The roll of the running SEs to the group's settings (plugin/segroup/lifecycle/rollout.h).
inline constexpr char kRolloutPlanned[] = "rollout-planned";
inline constexpr char kRolloutCapacityWithSesOut[] = "rollout-capacity-with-ses-out";
// The roll's decision, made in the plan (plugin/segroup/lifecycle/roll_decision.h).
inline constexpr char kRollDecidedInPlan[] = "roll-decided-in-plan";
inline constexpr char kRollPlacementAsController[] = "roll-placement-as-controller";
inline constexpr char kRollLoadSharedEvenly[] = "roll-load-shared-evenly";
inline constexpr char kRollLoadScalesWithVcpus[] = "roll-load-scales-with-vcpus";
inline constexpr char kRollMemoryScalesWithMemory[] = "roll-memory-scales-with-memory";
inline constexpr char kRollThroughputKeepsItsBits[] = "roll-throughput-keeps-its-bits";
// The licence pool (plugin/segroup/license_check.h): the Controller's ledger against the plan and
// the estate.
inline constexpr char kLicenseUnitsShort[] = "license-units-short";
inline constexpr char kLicenseTierOfGroup[] = "license-tier-of-group";
inline constexpr char kLicenseUnitsFromLedger[] = "license-units-from-ledger";
inline constexpr char kLicenseRemainingAfterReclaim[] = "license-remaining-after-reclaim";

// Errors: values the platform cannot take, and malformed inputs.
inline constexpr char kRangeVcpus[] = "range-vcpus-1-64";
inline constexpr char kRangeMemory[] = "range-memory-1024-262144-mb";
inline constexpr char kAllowedValues[] = "allowed-0-1-2-4-8-16";
inline constexpr char kDispatchersFewer[] = "dispatchers-fewer-than-vcpus";
inline constexpr char kInputRange[] = "input-range";

// One rule: its name, where it comes from, what it says, and the attributes it decides or checks.
struct RuleDoc {
  const char* name;
  const char* source;  // seed file and line, or "derived" with the reasoning
  std::string text;
  // The attributes, as findings name them ("vcpus_per_se", "se_count", "workload.l7_rps"): the
  // generated registry docs list the rule under each.
  std::vector<const char*> attributes;
};

// Every rule above, in the order above.
const std::vector<RuleDoc>& AllRules();

// True for the rules whose findings say the group does not carry its workload (under-sizing):
// demand-within-capacity, active-active-survives-one-se-loss, legacy-active-standby-one-active,
// vs-slots-per-se, and the observed load against the declared workload
// (observed-peak-above-declared, observed-cpu-above-target, calibration-shows-under-sizing).
// Their severity follows the sizing policy in the provider.
bool IsUnderSizing(const std::string& rule);

}  // namespace nsxalb::sizing::rules

#endif  // NSXALB_PLUGIN_SIZING_RULES_H_
