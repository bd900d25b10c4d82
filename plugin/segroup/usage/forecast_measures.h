// The measures the headroom forecast (forecast.h) reads from a group's samples (rule
// forecast-daily-peaks): the highest SE's CPU at each timestamp, and each CPU-bound rate of the
// group (L7 RPS, SSL TPS, L4 CPS) as a percent of the capacity of the SEs it runs (the model's
// per-SE figure at each SE's real size, at 100%); the report keeps the one that reaches the
// target first. Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_MEASURES_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_MEASURES_H_

#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/series.h"

namespace nsxalb::segroup::usage_internal {

// Sets r.forecast and r.forecast_subject (none, with the reason, for a window under
// kMinForecastWindow). Reads r.target_pct, r.ecc_share and r.service_engines.
void AddForecast(const UsageInput& in, const SeSamplesOfGroup& per_se, const GroupSamples& group,
                 UsageReport& r);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_MEASURES_H_
