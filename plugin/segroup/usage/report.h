// The report of one SE group's observed load over one window: what its Service Engines carried
// (the statistic of each figure and when), the calibration, the recommendation from it, what the
// group costs in Service Units and how long its headroom lasts, and the findings about the data;
// and the report as the data source's JSON. Pure domain code: no network, no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_REPORT_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_REPORT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/segroup/usage/headroom.h"
#include "plugin/segroup/usage/query.h"

namespace nsxalb::segroup {

// A warning about the observed load at `attribute` ("", "workload" or "workload.<key>"), under
// `rule`; `policy_dependent` for the under-sizing ones that sizing_policy = "enforce" makes errors.
Finding ObservedLoadWarning(const char* rule, std::string attribute, std::string summary,
                            std::string detail, bool policy_dependent = false);

// The observed figures, in this order (the keys of UsageReportJson's `observed`).
enum class ObservedKey { kL7Rps = 0, kSslTps, kL4Cps, kL4OpenConns, kThroughputGbps, kCpuPct };
inline constexpr int kObservedKeyCount = 6;
inline constexpr std::array<ObservedKey, kObservedKeyCount> kAllObservedKeys = {
    ObservedKey::kL7Rps,       ObservedKey::kSslTps,         ObservedKey::kL4Cps,
    ObservedKey::kL4OpenConns, ObservedKey::kThroughputGbps, ObservedKey::kCpuPct};

// "l7_rps", "ssl_tps", "l4_cps", "l4_open_conns", "throughput_gbps" or "cpu_pct".
const char* ObservedKeyName(ObservedKey key);

// One observed figure: the statistic over the window, in display units (per second, open
// connections, Gbps, percent), and the time of the point it was taken from. Unset when no point
// was seen.
struct ObservedPeak {
  std::optional<double> value;
  std::optional<absl::Time> at;
};

// What one SE carried.
struct SeUsage {
  std::string uuid;
  std::string name;
  int vcpus = 0;
  int64_t memory_mb = 0;
  ObservedPeak cpu;  // the statistic of its se_stats.avg_cpu_usage points, percent
  int samples = 0;   // timestamps with any point for this SE
};

// Calibration (rule calibrate-cpu-to-observed): at each timestamp where an SE's CPU (above 0%) and
// its virtual-service rates are both known, the model's CPU for those rates on one SE of its real
// vCPUs and memory (the one-CPU-budget rule, sizing::LoadsOn and sizing::CpuLoadOf) is the
// prediction; the ratio is observed / predicted. `ratio` is the median over the samples whose
// prediction is at least kMinCalibrationPredictedPct (the mean of the middle two for an even
// count); unset without such samples. The handshakes are split as for the recommendation
// (observed-handshakes-split-as-declared), so the split's error cancels: the same assumed mix is
// what the ratio corrects and what it is applied to.
inline constexpr double kMinCalibrationPredictedPct = 20;
struct Calibration {
  std::optional<double> ratio;
  int samples = 0;       // samples the median is taken over
  bool applied = false;  // ratio > 1: the recommendation's CPU-bound demand was raised by it
};

// Rule observed-cpu-floor (recommendation.h): the CPU the group's SEs really used at their peak,
// which the recommendation from observed load must hold at or below its target.
struct CpuFloor {
  // The statistic (the query's: max, p99 or p95) over the timestamps of the vCPUs the SEs used:
  // the sum over the SEs with known vCPUs of CPU% / 100 x vCPUs; unset without CPU points.
  std::optional<double> used_vcpus;
  std::optional<absl::Time> at;  // the time of that point
  // What the CPU-bound demand was raised by, beyond the calibration, for the recommendation to
  // hold used_vcpus; 1 when it held them without.
  double raise = 1;
  // The recommendation's active SEs hold used_vcpus at or below the target (true without a
  // recommendation or without used_vcpus).
  bool met = true;
};

// The measures the headroom forecast reads (rule forecast-daily-peaks): the highest SE's CPU, and
// each CPU-bound rate of the group as a percent of the capacity of the SEs it runs (the model's
// per-SE figure at each SE's real size, at 100%).
inline constexpr char kCpuForecastMeasure[] = "cpu_pct";
// The shortest window a forecast is made from.
inline constexpr absl::Duration kMinForecastWindow = absl::Hours(24 * 7);

// The report of one group's usage over one window.
struct UsageReport {
  int se_count = 0;
  absl::Duration window = kDefaultUsageWindow;
  UsageStatistic statistic = UsageStatistic::kMax;
  int step_seconds = 0;
  int samples = 0;                 // timestamps with any point for the group
  int expected_samples = 0;        // UsageExpectedSamples(window)
  std::string basis = "observed";  // sizing::BasisName(sizing::Basis::kObserved)
  // Indexed by ObservedKey.
  std::array<ObservedPeak, kObservedKeyCount> observed;
  std::vector<SeUsage> service_engines;  // in the order of UsageInput::ses
  Calibration calibration;
  CpuFloor cpu_floor;
  // The assumptions behind the observed workload: the ECC share of the handshakes (0-1) and the
  // workload key the throughput is taken as ("l7_ssl_gbps", "l7_gbps" or "l4_gbps").
  double ecc_share = 0;
  std::string throughput_key = "l4_gbps";
  // The workload the recommendation was sized from (PlanSizing's workload JSON: the observed
  // peaks, calibrated, and the target utilization), or null when nothing was observed.
  nlohmann::json observed_workload = nullptr;
  // PlanSizing of observed_workload with the group's HA settings; unset when nothing was
  // observed.
  std::optional<SizingPlan> recommendation;
  // What the group costs now and from its observed load (headroom.h).
  ServiceUnitsUsage service_units;
  // The target the CPU and the forecast are judged against (UsageTargetPct).
  int target_pct = 80;
  // The forecast of the measure that reaches the target first (forecast.h), and who it speaks of
  // ("web-se-1", "the group's L7 RPS (as a share of its SEs' capacity)"); days_to_target unset with
  // a reason when none.
  Forecast forecast;
  std::string forecast_subject;
  // Missing data and assumptions (attribute "", "workload" or "workload.<key>"); all warnings.
  std::vector<Finding> findings;
  // The group's running SEs against its settings (lifecycle::MatchListed of the reader's SE
  // listing); unset when the report was not read from a listing.
  std::optional<lifecycle::GroupSes> running_ses;

  // The figure for `key`.
  const ObservedPeak& Observed(ObservedKey key) const { return observed[static_cast<int>(key)]; }
};

// "web-se-1": an SE as findings name it (its uuid without a name).
std::string SeLabel(const SeUsage& se);

// The report of `ses` over `query` before any analysis: the SEs, the query, no figures.
UsageReport EmptyUsageReport(const std::vector<ObservedSe>& ses, const UsageQuery& query);

// The report when the metrics call failed with `status`: the SEs, the query, no figures, and one
// warning (rule usage-analytics-unavailable) naming the status (a 403, 404, 5xx or connection
// failure is never an error: the plan goes on without the observed load).
UsageReport UsageUnavailableReport(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                                   const absl::Status& status);

// The usage-analytics-unavailable warning for `status` (attribute "").
Finding AnalyticsUnavailableFinding(const absl::Status& status);

// The target utilization the group scales out at: the declared workload's target_utilization
// when it sets one, else the settings' max_cpu_usage, else 80 (Avi's default).
int UsageTargetPct(const nlohmann::json& settings, const nlohmann::json& declared_workload);

// The target utilization the group scales out at: the declared workload's target_utilization
// when it sets one, else the settings' max_cpu_usage, else 80 (Avi's default).
int UsageTargetPct(const nlohmann::json& settings, const nlohmann::json& declared_workload);

// The report as JSON with the data source's attribute names: se_count, window (UsageWindowText),
// statistic, step_seconds, samples, expected_samples, basis, observed {l7_rps, ssl_tps, l4_cps,
// l4_open_conns, throughput_gbps, cpu_pct} (null when unknown), observed_at {the same keys: ISO
// 8601 UTC or null}, service_engines [{uuid, name, vcpus, memory_mb, cpu_peak_pct, cpu_peak_at,
// samples, and lifecycle::SeMatchJson's disk_gb, enable_state, oper_state, matches, why, fields}],
// ses_behind_settings (the running SEs that do not match the settings; null without running_ses),
// calibration {ratio (to 3 decimals, or null), samples, applied, rule}, assumptions {ecc_share,
// throughput_key}, recommendation {vcpus_per_se, memory_per_se, se_count, min_scaleout_per_vs,
// max_se, service_units, summary, findings} or null, service_units {now, recommended, reclaimable,
// reason}, forecast {days_to_target, reaches_on, measure, subject, target_pct, slope_per_day,
// r_squared, daily_peaks [{day, value}], reason}, findings [FindingText lines].
nlohmann::json UsageReportJson(const UsageReport& report);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_REPORT_H_
