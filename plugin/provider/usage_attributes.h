// The attributes the usage front ends share: the readers of window, statistic, forecast_days and
// platform (in nsxalb_se_group_usage, nsxalb_se_groups_usage and the resource's observed_load
// block), and one group's report as cty values: the computed attributes of
// nsxalb_se_group_usage, which nsxalb_se_groups_usage repeats as each group's `usage` object.
// One conversion, so that both data sources give a group the same figures.
#ifndef NSXALB_PLUGIN_PROVIDER_USAGE_ATTRIBUTES_H_
#define NSXALB_PLUGIN_PROVIDER_USAGE_ATTRIBUTES_H_

#include <optional>

#include "absl/status/statusor.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/segroup/usage/query.h"
#include "plugin/segroup/usage/report.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::provider {

// The window and statistic of an object's `window` and `statistic` attributes (a configuration
// or its observed_load block at `base`; null: the defaults; unknown: the defaults, checked again
// at read). Errors are added at their attribute below `base`.
segroup::UsageQuery UsageQueryOf(const cty::Value& object, const cty::AttributePath& base,
                                 framework::Diagnostics& diagnostics);

// The object's `forecast_days` below `base`: a whole number of days from 1 to
// segroup::kMaxForecastDays; null or unknown: segroup::kDefaultForecastDays. nullopt, with an
// error at the attribute, otherwise.
std::optional<int> ForecastDaysOf(const cty::Value& object, const cty::AttributePath& base,
                                  framework::Diagnostics& diagnostics);

// The configuration's `platform`, parsed; nullopt when it is null or unknown. An invalid one is
// an error at `platform` (and nullopt).
std::optional<sizing::Platform> WrittenPlatform(const cty::Value& config,
                                                framework::Diagnostics& diagnostics);

// The object type of a group's report: the attributes of nsxalb_se_group_usage that are computed
// and not optional (se_count, step_seconds, samples, expected_samples, basis, observed,
// observed_at, service_engines, calibration, assumptions, recommendation, service_units,
// forecast, findings), with their schema types. nsxalb_se_groups_usage's `usage` has this type
// (a test proves its schema says so).
const cty::Type& UsageReportType();

// The report as a value of UsageReportType(): segroup::UsageReportJson decoded attribute by
// attribute (the recommendation's workload keeps only its numbers). An error is a bug: the report
// JSON and the schema disagree.
absl::StatusOr<cty::Value> UsageReportValue(const segroup::UsageReport& report);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_USAGE_ATTRIBUTES_H_
