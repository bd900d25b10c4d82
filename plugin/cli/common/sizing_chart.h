// A sizing chart as a self-contained SVG: the capacity of one Service Engine against its vCPUs for
// one metric, for every platform profile, with the demand line and the chosen size marked. Used by
// `size --svg` and `plan-report --svg-dir`.
//
// What the picture says, and how:
//   - one curve per profile (vcenter, nsxt), vCPUs 1 to max_vcpus_per_se, at the table memory of
//     each size; the workload's profile drawn strong, the other faint;
//   - a dot (class "measured") for every measured cell of the metric: 1, 2, 4 and 6 vCPUs where
//     the seed publishes a figure;
//   - segments between sizes drawn by the weakest basis of their two ends: solid for measured or
//     interpolated, dashed for extrapolated (above 6 vCPUs), dotted for cross-profile;
//   - a horizontal line (class "demand"): the capacity one SE needs, demand / target utilization /
//     SE count;
//   - with an observed peak, a second horizontal line (class "observed") on the demand line's
//     scale: what one SE needs for the load the group really carried;
//   - a ring (class "recommended") at the recommended size, and a cross (class "given") at the
//     size the settings give when that differs.
//   - below the chart, when the workload demands a CPU-bound metric, the CPU budget of one SE
//     (rule one-cpu-budget-per-se) as a stacked bar of its parts (class "cpu-budget", one rect
//     per metric) with the target utilization marked (class "cpu-target"): at the recommended
//     shape, and at the given one when settings were checked and give another shape. The curve and
//     the demand line show one metric; the bar shows what the metrics take of the same cores
//     together.
//   - below those, with a headroom forecast (a usage report's), a second panel: x = days since the
//     first daily peak, y = percent of the forecast's measure; a dot per daily peak (class
//     "daily-peak"), the least-squares line (class "trend") up to where it reaches the target or
//     to the panel's end, the target (class "forecast-target"), and a caption (class
//     "forecast-caption"): "reaches 80% in 27 days (2027-01-01)" or "no forecast: <reason>".
// The SVG has no scripts, external fonts or stylesheets; every figure comes from plugin/sizing.
#ifndef NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_H_
#define NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_H_

#include <cstdint>
#include <optional>
#include <string>

#include "plugin/cli/common/svg_writer.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::cli {

// An SE group shape to mark on the chart.
struct ChartShape {
  int vcpus = 1;
  int64_t memory_mb = 0;  // 0: the table memory of the size
  int se_count = 1;       // active SEs the demand is spread over
  // What the shape costs at its planned scale (rule service-units-at-planned-scale), for the
  // legend; unset when not known.
  std::optional<double> service_units;
};

// A headroom forecast to draw below the chart, as a usage report gives it (segroup::UsageReport's
// forecast, forecast_subject and target_pct).
struct ChartForecast {
  // The measure and its daily peaks (percent), the fitted line (slope_per_day and intercept; unset
  // without one), and days_to_target with reaches_at, or the reason there is none.
  segroup::Forecast forecast;
  // Who the measure speaks of ("web-se-1"); "" when not known.
  std::string subject;
  // The level the forecast is judged against, percent.
  double target_pct = 80;
};

// What to draw.
struct ChartInput {
  // The platform, the demand (for the demand line), the target utilization and max_vcpus_per_se.
  sizing::Workload workload;
  // The metric whose capacity is drawn (normally the binding one).
  sizing::Metric metric = sizing::Metric::kL7Rps;
  // The recommended shape.
  ChartShape recommended;
  // The shape the settings give, when settings were checked.
  std::optional<ChartShape> given;
  // The group's observed peak of `metric` (base units, the sum over its SEs, as
  // nsxalb_se_group_usage reports it), drawn beside the demand line on the same scale: observed /
  // target utilization / SE count (class "observed").
  std::optional<double> observed;
  // The group's headroom forecast, drawn in a panel of its own below the chart.
  std::optional<ChartForecast> forecast;
};

// The chart as an SVG document (UTF-8, with an XML declaration).
std::string SizingChartSvg(const ChartInput& input);

// The width the forecast panel is drawn for, and the height it takes.
inline constexpr double kForecastPanelWidth = 780;
inline constexpr double kForecastPanelHeight = 250;

// Draws the headroom forecast panel (the one SizingChartSvg draws below its chart) into `svg`, a
// document kForecastPanelWidth wide, from `y` down kForecastPanelHeight: the daily peaks (class
// "daily-peak"), the trend (class "trend"), the target (class "forecast-target") and the caption
// (class "forecast-caption"). The estate's page (cli/estate/estate_html.h) draws each group's
// with it.
void DrawForecastPanel(SvgWriter& svg, double y, const ChartForecast& chart);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMON_SIZING_CHART_H_
