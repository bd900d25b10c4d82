// What the sizing chart takes from a usage report's JSON: the headroom forecast and the observed
// peak. The JSON is UsageReportJson's (segroup/usage/report.h), as `controller usage NAME --json`
// prints it and as nsxalb_se_group_usage's attributes stand in a plan; `size --observed-usage`
// reads it from a file, `plan-report --svg-dir` from the plan. A shape it cannot read is an
// InvalidArgument naming the member ("forecast.daily_peaks[2].value: ...").
#ifndef NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_USAGE_H_
#define NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_USAGE_H_

#include <optional>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/sizing_chart.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::cli {

// The forecast of `usage` (its member `forecast`: daily_peaks [{day "YYYY-MM-DD", value}], in
// ascending days; target_pct; days_to_target (0-365) with reaches_on, or null with reason;
// measure; subject). The JSON has no intercept, so the line is fitted again from the daily peaks
// with segroup::FitTrendLine, as the analysis fitted it (from peaks rounded to hundredths).
absl::StatusOr<ChartForecast> ChartForecastFromUsageJson(const nlohmann::json& usage);

// The observed peak of `metric` in `usage` (`observed`, display units: per second, open
// connections, Gbps), as --observed-peak takes it: l7_rps, l4_cps and l4_open_conns as they are,
// throughput_gbps when assumptions.throughput_key is the metric's key. nullopt when the figure is
// null or absent, and for SSL TPS: the report does not split ECC from RSA handshakes (rule
// observed-handshakes-split-as-declared).
absl::StatusOr<std::optional<double>> ObservedPeakFromUsageJson(const nlohmann::json& usage,
                                                                sizing::Metric metric);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_USAGE_H_
