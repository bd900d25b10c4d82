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
// The SVG has no scripts, external fonts or stylesheets; every figure comes from plugin/sizing.
#ifndef NSXALB_PLUGIN_CLI_SIZING_CHART_H_
#define NSXALB_PLUGIN_CLI_SIZING_CHART_H_

#include <cstdint>
#include <optional>
#include <string>

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
};

// The chart as an SVG document (UTF-8, with an XML declaration).
std::string SizingChartSvg(const ChartInput& input);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_SIZING_CHART_H_
