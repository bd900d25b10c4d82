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
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_ANALYZE_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_ANALYZE_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/usage/query.h"
#include "plugin/segroup/usage/report.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

namespace usage_internal {
class CollectionDecoder;  // decode.h
}  // namespace usage_internal

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

// Analyses the group's usage (see the file comment). Never fails on the response: what cannot be
// read is a finding. InvalidArgument, naming the setting, for settings it cannot read
// (max_cpu_usage that is not a whole number).
absl::StatusOr<UsageReport> AnalyzeUsage(const UsageInput& input);

// The same analysis of one group whose answer `decoder` decoded (the readers stream the answer
// into it): `in.ses` are the decoder's SEs at `se_indexes`, in that order, `group` the group's
// index there; `in.collection_response` is not read.
absl::StatusOr<UsageReport> AnalyzeDecoded(const UsageInput& in,
                                           const usage_internal::CollectionDecoder& decoder,
                                           const std::vector<size_t>& se_indexes, size_t group);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_ANALYZE_H_
