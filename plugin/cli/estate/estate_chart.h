// The estate's Service Units as a self-contained SVG (`estate-report --svg`): per group, in the
// estate's order, a pair of horizontal bars, the SUs it costs now (class "su-now") over the SUs
// recommended from its observed load (class "su-recommended"), on one scale; a group at risk
// (rule estate-group-at-risk) marked by a red triangle before its name (class "at-risk"); a
// legend; and the totals in the title. An unknown figure is a bar of no length labelled
// "unknown". No scripts, external fonts or stylesheets (cli/common/svg_writer.h).
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_CHART_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_CHART_H_

#include <string>

#include "plugin/cli/estate/estate_view.h"

namespace nsxalb::cli {

// The chart as an SVG document (UTF-8, with an XML declaration).
std::string EstateChartSvg(const EstateView& estate);

// The largest Service Units figure (now or recommended) of the estate's groups: the scale every
// group's bars share, so that they compare across charts.
double LargestServiceUnits(const EstateView& estate);

// One group's chart as an <svg> element for a page (estate_html.h): its headroom forecast panel
// (cli/common/sizing_chart.h's DrawForecastPanel: daily peaks, trend, target), or a line saying
// there are no daily peaks and why (the forecast's reason), and below it the group's pair of bars,
// SUs now and recommended, drawn as the estate chart draws them on the scale of `largest_units`
// (LargestServiceUnits).
std::string EstateGroupChartSvg(const EstateRow& row, double largest_units);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_CHART_H_
