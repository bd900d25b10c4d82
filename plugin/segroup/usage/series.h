// The figures of a group from its SEs' samples (decode.h): per SE the statistic of its CPU and its
// samples; the group's load at each timestamp, the sum over its SEs of their points there (rule
// group-load-is-sum-per-timestamp: the peak of that sum is not the sum of the per-SE peaks), and
// the statistic of each group figure by nearest rank (rule usage-statistic-nearest-rank); cpu_pct
// the highest of any one SE (rule observed-cpu-is-highest-se). Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_SERIES_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_SERIES_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "plugin/segroup/usage/decode.h"
#include "plugin/segroup/usage/report.h"

namespace nsxalb::segroup::usage_internal {

// The samples of a group's SEs, in the order of its report's service_engines (not owned).
using SeSamplesOfGroup = std::vector<const SeSamples*>;
// The group's load by Unix second: per series, the sum over its SEs.
using GroupSamples = std::map<int64_t, Sample>;

// The statistic of `points` (Unix seconds, value) by nearest rank, divided by `scale`, with the
// earliest time of the chosen value. Unset without points.
ObservedPeak StatisticOf(const std::vector<std::pair<int64_t, double>>& points,
                         UsageStatistic statistic, double scale = 1);

// The median of `v` (the mean of the middle two for an even count); `v` is not empty.
double Median(std::vector<double> v);

// Fills the report's per-SE CPU and samples, its samples and its observed figures from
// `per_se`; returns the group's load per timestamp.
GroupSamples AddSeriesFigures(const SeSamplesOfGroup& per_se, UsageStatistic statistic,
                              UsageReport& r);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_SERIES_H_
