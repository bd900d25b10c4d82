// Right-sizing from observed load (issue 22): what an SE group's Service Engines really carried,
// read from the Controller's analytics, against what the group was sized for. Pure domain code:
// no network, no Terraform types. A front end (the `nsxalb_se_group_usage` data source, the
// resource's `observed_load` block, `controller usage`, the Ansible `se_group_info` module):
//   1. lists the group's SEs and maps each to an ObservedSe;
//   2. sends UsageCollectionRequest(...) as the ONE body of `POST
//   /api/analytics/metrics/collection`
//      (skip it when there are no SEs);
//   3. hands the parsed response to AnalyzeUsage, or a failed call's status to
//      UsageUnavailableReport (a 403, 404 or 5xx is a warning, never a failed plan);
//   4. renders UsageReportJson, and in a plan adds CompareWithDeclared's findings.
//
// Rules (names in plugin/sizing/rules.h, long form in docs/sizing.md, "Observed load"):
// - usage-step-by-window: step 300 s for windows up to 7 days, 3600 s beyond; the request asks
//   for window / step points, at most limits::kMaxUsagePointsPerSeries (2016) per series.
// - usage-points-capped: a series with more valid points than the cap keeps its most recent ones,
//   with a finding.
// - group-load-is-sum-per-timestamp: the group's load at a timestamp is the sum over its SEs of
//   the points at that timestamp (an SE without a point there adds nothing); the peak of that sum
//   is not the sum of the per-SE peaks. cpu_pct is the highest CPU of any one SE
//   (observed-cpu-is-highest-se).
// - usage-statistic-nearest-rank: max, or the p99 / p95 of the points by nearest rank (sorted
//   ascending, the value at rank ceil(p / 100 x n)); its time is the earliest point with that
//   value.
// - observed-handshakes-split-as-declared, observed-throughput-as-declared-kind: the metrics do
//   not split ECC and RSA handshakes, nor say which kind of throughput a virtual service moves.
// - calibrate-cpu-to-observed, calibration-raises-cpu-bound-demand: see Calibration.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/forecast.h"
#include "plugin/segroup/headroom.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// A warning about the observed load at `attribute` ("", "workload" or "workload.<key>"), under
// `rule`; `policy_dependent` for the under-sizing ones that sizing_policy = "enforce" makes errors.
Finding ObservedLoadWarning(const char* rule, std::string attribute, std::string summary,
                            std::string detail, bool policy_dependent = false);

// The statistic taken over a window's points (the data source's `statistic`).
enum class UsageStatistic { kMax, kP99, kP95 };

// Parses "max", "p99" or "p95" (exactly); InvalidArgument naming the accepted values otherwise.
absl::StatusOr<UsageStatistic> ParseUsageStatistic(std::string_view text);

// "max", "p99" or "p95".
const char* UsageStatisticName(UsageStatistic statistic);

// The range and default of a usage window.
inline constexpr absl::Duration kMinUsageWindow = absl::Hours(1);
inline constexpr absl::Duration kMaxUsageWindow = absl::Hours(24 * 30);
inline constexpr absl::Duration kDefaultUsageWindow = absl::Hours(24 * 7);

// Parses a window: a Go-style duration ("24h", "90m", "1h30m") or whole days ("7d", "30d"),
// within kMinUsageWindow-kMaxUsageWindow inclusive. InvalidArgument saying the range otherwise.
absl::StatusOr<absl::Duration> ParseUsageWindow(std::string_view text);

// The window as the data source's `window` attribute shows it: whole days as "7d", else a
// Go-style duration ("24h" is "1d"; "90m" is "1h30m").
std::string UsageWindowText(absl::Duration window);

// The window in words for findings: "7 days", "24 hours", "90 minutes".
std::string UsageWindowProse(absl::Duration window);

// What to read: the window ending now, and the statistic over its points.
struct UsageQuery {
  absl::Duration window = kDefaultUsageWindow;
  UsageStatistic statistic = UsageStatistic::kMax;
};

// The analytics step for a window (rule usage-step-by-window): 300 s up to 7 days, 3600 s beyond.
int UsageStepSeconds(absl::Duration window);

// The points a full window holds at its step: floor(window / step), at most
// limits::kMaxUsagePointsPerSeries. The request's `limit`, and the report's expected_samples.
int UsageExpectedSamples(absl::Duration window);

// One SE of the group as the Controller lists it now (the front end maps
// controller::ServiceEngine to it): its real size, which may differ from the group's settings.
struct ObservedSe {
  std::string uuid;
  std::string name;
  int vcpus = 0;          // resources.num_vcpus; 0 when unknown (no calibration for it)
  int64_t memory_mb = 0;  // resources.memory; 0 when unknown (the table memory is assumed)
};

// Request ids and metric ids of the collection request.
inline constexpr char kSeStatsRequestId[] = "se-stats";
inline constexpr char kVsOnSeRequestPrefix[] = "vs-on:";  // + the SE uuid
inline constexpr char kSeStatsMetricIds[] =
    "se_stats.avg_cpu_usage,se_stats.avg_mem_usage,se_if.avg_bandwidth";
inline constexpr char kVsOnSeMetricIds[] =
    "l7_client.avg_complete_responses,l7_client.avg_ssl_handshakes_new,"
    "l4_client.avg_new_established_conns,l4_client.max_open_conns,l4_client.avg_bandwidth";

// The one body of `POST /api/analytics/metrics/collection` for the group's SEs:
//   {"metric_requests": [
//     {"id": "se-stats", "entity_uuid": "<se uuids, comma-joined>", "metric_id": kSeStatsMetricIds,
//      "step", "limit", "start", "stop" (ISO 8601 UTC), "pad_missing_data": false},
//     and per SE {"id": "vs-on:<se uuid>", "entity_uuid": "*", "serviceengine_uuid": "<se uuid>",
//      "aggregate_entity": true, "metric_id": kVsOnSeMetricIds, ...the same window...}]}
// The window is (now - window, now].
nlohmann::json UsageCollectionRequest(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                                      absl::Time now);

// Everything AnalyzeUsage reads.
struct UsageInput {
  std::vector<ObservedSe> ses;
  // The parsed collection response (see UsageCollectionRequest), or null when none was read.
  // Shape: {"series": {<request id>: {<entity uuid>: [{"header": {"name", "entity_uuid", ...},
  // "data": [{"timestamp", "value", "is_null"?}]}]}}}. Series under a "vs-on:<se>" request are
  // that SE's whatever their entity key; under "se-stats", the SE is the entity key (or
  // header.entity_uuid). Anything malformed is dropped with a finding naming its JSON path.
  nlohmann::json collection_response;
  UsageQuery query;
  absl::Time now;  // the end of the window, as sent in the request
  sizing::Platform platform = sizing::Platform::kVcenter;
  // The group's settings by Avi field name (ha_mode, buffer_se, max_cpu_usage, max_vs_per_se,
  // max_scaleout_per_vs, ...); null members count as unset.
  nlohmann::json settings = nlohmann::json::object();
  // The declared workload as PlanSizing takes it (SizingInput::workload), or null.
  nlohmann::json declared_workload = nullptr;
};

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

  // The figure for `key`.
  const ObservedPeak& Observed(ObservedKey key) const { return observed[static_cast<int>(key)]; }
};

// Analyses the group's usage (see the file comment). Never fails on the response: what cannot be
// read is a finding. InvalidArgument, naming the setting, for settings it cannot read
// (max_cpu_usage that is not a whole number).
absl::StatusOr<UsageReport> AnalyzeUsage(const UsageInput& input);

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

// The report as JSON with the data source's attribute names: se_count, window (UsageWindowText),
// statistic, step_seconds, samples, expected_samples, basis, observed {l7_rps, ssl_tps, l4_cps,
// l4_open_conns, throughput_gbps, cpu_pct} (null when unknown), observed_at {the same keys: ISO
// 8601 UTC or null}, service_engines [{uuid, name, vcpus, memory_mb, cpu_peak_pct, cpu_peak_at,
// samples}], calibration {ratio (to 3 decimals, or null), samples, applied, rule},
// assumptions {ecc_share, throughput_key}, recommendation {vcpus_per_se, memory_per_se, se_count,
// min_scaleout_per_vs, max_se, service_units, summary, findings} or null, service_units {now,
// recommended, reclaimable, reason}, forecast {days_to_target, reaches_on, measure, subject,
// target_pct, slope_per_day, r_squared, daily_peaks [{day, value}], reason}, findings [FindingText
// lines].
nlohmann::json UsageReportJson(const UsageReport& report);

// "Nov 28 14:05 UTC": how findings write a time.
std::string UsageTimeText(absl::Time t);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_H_
