// The emulated Controller's analytics: a fixed catalog of metric ids, the series tests load
// through POST /_emulator/metrics, and the metrics queries of
// GET /api/analytics/metrics/{serviceengine,virtualservice}[/<uuid>] and
// POST /api/analytics/metrics/collection, answered in the Controller's MetricsQueryResponse shape.
//
// Pure apart from the lock: no HTTP and no clock (callers pass "now" in Unix seconds), so the
// query rules (windows, padding, roll-up, aggregation, statistics) are unit tested without a
// server. The rules are documented in docs/emulator.md, "Analytics".
#ifndef NSXALB_EMULATOR_METRICS_H_
#define NSXALB_EMULATOR_METRICS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// The entity a metric belongs to.
enum class MetricEntity { kServiceEngine, kVirtualService };

// One metric of the catalog.
struct MetricInfo {
  absl::string_view id;     // "se_stats.avg_cpu_usage"
  absl::string_view units;  // the Controller's units enum: "PERCENT", "BITS_PER_SECOND", ...
  MetricEntity entity;
  bool rolls_up_by_max;  // max_* metrics take the max over a coarser step; avg_* the mean
};

// Every metric id the emulator serves.
const std::vector<MetricInfo>& MetricCatalog();

// The catalog entry for `id`, or nullptr.
const MetricInfo* FindMetric(absl::string_view id);

// Whether `step` (seconds) is one the Controller serves: 5 (realtime), 300, 3600, 86400.
bool IsMetricStep(int64_t step);

// Unix seconds as the Controller writes metric timestamps: "2026-12-01T14:05:00+00:00".
std::string FormatMetricTime(int64_t unix_seconds);

// An ISO 8601 time ("2026-12-01T14:05:00Z", "...+00:00", "...-05:00", with or without fractional
// seconds, or without a zone, meaning UTC) as Unix seconds (fractions dropped).
absl::StatusOr<int64_t> ParseMetricTime(absl::string_view text);

// One metrics query (a GET's parameters or one MetricsQuery of a collection POST), checked.
struct MetricsQuery {
  std::string id;  // the request's id (collection POST)
  MetricEntity entity = MetricEntity::kServiceEngine;
  std::string entity_text;                // entity_uuid as given ("*", one uuid or a comma list)
  bool all_entities = false;              // entity_uuid "*" (or absent on a collection GET)
  std::vector<std::string> entity_uuids;  // otherwise
  std::string serviceengine_uuid;         // "", "*" or one SE uuid
  bool aggregate_entity = false;
  std::vector<const MetricInfo*> metrics;
  int64_t step = 5;
  int64_t limit = 60;
  std::optional<int64_t> start;  // Unix seconds
  std::optional<int64_t> stop;
  bool pad_missing_data = true;
  bool include_statistics = true;
};

// Largest `limit` a query may ask for (points per series).
inline constexpr int64_t kMaxMetricsLimit = 100000;

// Checks and reads one query from `fields`: a JSON object whose members are the query's
// parameters, as JSON values (collection POST) or as strings (a GET's query string). `entity`
// is the path's entity type, or nullopt for a collection request (then metric_entity or the
// metric ids decide). `where` prefixes error messages ("" or "metric_requests[id=x]."): every
// error is InvalidArgument and names the field.
absl::StatusOr<MetricsQuery> ParseMetricsQuery(const nlohmann::json& fields,
                                               std::optional<MetricEntity> entity,
                                               absl::string_view where);

// The answer to one query: the window used and its series, each keyed by the entity uuid the
// collection POST files it under (the SE uuid for an aggregate virtual-service series).
struct MetricsAnswer {
  int64_t start = 0;
  int64_t stop = 0;
  std::vector<std::pair<std::string, nlohmann::json>> series;
};

// The loaded metric series, keyed by (entity, serviceengine, metric, step). Thread-safe.
class MetricsStore {
 public:
  // Loads a POST /_emulator/metrics body, all or nothing: each entry replaces the series of the
  // same (entity_uuid, serviceengine_uuid, metric_id, step). The last value falls on the most
  // recent multiple of step at or before `stop` (default `now`). `se_exists` says whether an SE
  // uuid is known. Errors: InvalidArgument naming the field ("series[2].values[7]: ..."),
  // NotFound for an unknown SE. Returns what was loaded (for the control endpoint's answer).
  absl::StatusOr<nlohmann::json> Load(const nlohmann::json& body, int64_t now,
                                      const std::function<bool(const std::string&)>& se_exists);

  // Forgets every series of these SEs and every virtual-service series carried on them.
  void ForgetServiceEngines(const std::vector<std::string>& se_uuids);

  // Answers `query` at `now`. `visible_ses` are the SEs the request's tenant sees (for "*" and to
  // tell an unknown SE, NotFound, from one without data). NotFound also for a virtual service
  // with no series. `where` prefixes error messages as in ParseMetricsQuery.
  absl::StatusOr<MetricsAnswer> Run(const MetricsQuery& query, int64_t now,
                                    const std::vector<std::string>& visible_ses,
                                    absl::string_view where);

 private:
  struct Series {
    int64_t last = 0;                           // timestamp of the last value
    std::vector<std::optional<double>> values;  // one step apart, ending at `last`
  };
  // (entity uuid, serviceengine uuid or "", metric id)
  using Key = std::tuple<std::string, std::string, std::string>;

  // The values of `key` at each of `timestamps` (ascending, multiples of `step`): from the series
  // at `step`, else rolled up from the finest finer one (5 s series serve only step 5).
  std::vector<std::optional<double>> ValuesLocked(const Key& key, const MetricInfo& metric,
                                                  int64_t step,
                                                  const std::vector<int64_t>& timestamps)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::map<Key, std::map<int64_t, Series>> series_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_METRICS_H_
