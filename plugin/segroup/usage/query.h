// What an observed-load query asks the Controller for: the window, its step and statistic, the
// SEs it reads (ObservedSe), and the one body of `POST /api/analytics/metrics/collection` for
// them, for one group or for a batch of an estate's groups (rule usage-step-by-window: step 300 s
// for windows up to 7 days, 3600 s beyond; window / step points, at most
// limits::kMaxUsagePointsPerSeries per series). Pure domain code: no network.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_QUERY_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_QUERY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"

namespace nsxalb::segroup {

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
// Only what the analysis reads: an SE's memory and interface bandwidth would be a quarter of the
// answer, and no figure of the report comes from them.
inline constexpr char kSeStatsMetricIds[] = "se_stats.avg_cpu_usage";
inline constexpr char kVsOnSeMetricIds[] =
    "l7_client.avg_complete_responses,l7_client.avg_ssl_handshakes_new,"
    "l4_client.avg_new_established_conns,l4_client.max_open_conns,l4_client.avg_bandwidth";

// The one body of `POST /api/analytics/metrics/collection` for `ses` (one group's SEs, or those
// of a batch of groups: the request ids name SEs, never groups):
//   {"metric_requests": [
//     {"id": "se-stats", "entity_uuid": "<se uuids, comma-joined>", "metric_id": kSeStatsMetricIds,
//      "step", "limit", "start", "stop" (ISO 8601 UTC), "pad_missing_data": false},
//     and per SE {"id": "vs-on:<se uuid>", "entity_uuid": "*", "serviceengine_uuid": "<se uuid>",
//      "aggregate_entity": true, "metric_id": kVsOnSeMetricIds, ...the same window...}]}
// The window is (now - window, now].
nlohmann::json UsageCollectionRequest(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                                      absl::Time now);

// "Nov 28 14:05 UTC": how findings write a time.
std::string UsageTimeText(absl::Time t);

// "2026-11-28T14:05:00Z": how requests and reports write a time.
std::string UsageIsoTime(absl::Time t);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_QUERY_H_
