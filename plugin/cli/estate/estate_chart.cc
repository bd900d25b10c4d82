// Implementation of estate_chart.h: geometry and SVG text only; every figure comes from the
// estate's view.
#include "plugin/cli/estate/estate_chart.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "plugin/cli/common/sizing_chart.h"
#include "plugin/cli/common/svg_writer.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

constexpr double kWidth = 820;
constexpr double kBarsLeft = 230;   // where the bars start; the names are left of it
constexpr double kBarsRight = 700;  // the longest bar ends here; its label after it
constexpr double kTop = 84;         // the first group's row
constexpr double kRowHeight = 40;   // one group: two bars and a gap
constexpr double kBarHeight = 13;
constexpr size_t kMaxNameBytes = 30;  // longer names are cut (the full name is the row's title)

constexpr char kNowColor[] = "#1f5fa8";
constexpr char kRecommendedColor[] = "#2e8b3a";
constexpr char kRiskColor[] = "#c62828";
constexpr char kInk[] = "#222222";

// At most kMaxNameBytes of `name`, cut at a UTF-8 character boundary, with "..." when cut.
std::string ShortName(const std::string& name) {
  if (name.size() <= kMaxNameBytes) return name;
  size_t cut = kMaxNameBytes - 3;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return absl::StrCat(name.substr(0, cut), "...");
}

// A red triangle pointing up, centred at (x, y).
std::string RiskMark(double x, double y, const char* css_class) {
  return absl::StrCat("<path class=\"", css_class, "\" d=\"M", SvgNumber(x), " ", SvgNumber(y - 6),
                      " L", SvgNumber(x + 6), " ", SvgNumber(y + 5), " L", SvgNumber(x - 6), " ",
                      SvgNumber(y + 5), " Z\" fill=\"", kRiskColor, "\"/>");
}

// One bar of `css_class` at `y`, `units` long on the scale, with its value after it.
void Bar(SvgWriter& svg, double y, const std::optional<double>& units, double scale,
         const char* css_class, const char* color) {
  const double length = units.has_value() ? std::max(0.0, *units) * scale : 0;
  svg.Raw(absl::StrCat("<rect class=\"", css_class, "\" x=\"", SvgNumber(kBarsLeft), "\" y=\"",
                       SvgNumber(y), "\" width=\"", SvgNumber(length), "\" height=\"",
                       SvgNumber(kBarHeight), "\" fill=\"", color, "\"/>"));
  svg.Text(kBarsLeft + length + 6, y + kBarHeight - 2,
           units.has_value() ? sizing::FormatServiceUnits(*units) : "unknown",
           absl::StrCat("font-size=\"11\" fill=\"", kInk, "\""));
}

// A legend entry: a swatch (or the risk mark) and its text, at (x, y).
double LegendEntry(SvgWriter& svg, double x, double y, const char* color, const char* text,
                   bool risk_mark) {
  if (risk_mark) {
    svg.Raw(RiskMark(x + 6, y - 4, "legend-at-risk"));
  } else {
    svg.Raw(absl::StrCat("<rect class=\"legend\" x=\"", SvgNumber(x), "\" y=\"", SvgNumber(y - 10),
                         "\" width=\"12\" height=\"12\" fill=\"", color, "\"/>"));
  }
  svg.Text(x + 18, y, text, absl::StrCat("font-size=\"12\" fill=\"", kInk, "\""));
  return x + 18 + 7.0 * std::string(text).size() + 28;
}

}  // namespace

double LargestServiceUnits(const EstateView& estate) {
  double largest = 0;
  for (const EstateRow& row : estate.groups) {
    largest = std::max(
        {largest, row.service_units_now.value_or(0), row.service_units_recommended.value_or(0)});
  }
  return largest;
}

std::string EstateGroupChartSvg(const EstateRow& row, double largest_units) {
  SvgWriter svg(kForecastPanelWidth);
  double y = 0;
  if (row.forecast_chart.has_value() && !row.forecast_chart->forecast.daily_peaks.empty()) {
    DrawForecastPanel(svg, y, *row.forecast_chart);
    y += kForecastPanelHeight;
  } else {
    const std::string reason =
        row.forecast_chart.has_value() ? row.forecast_chart->forecast.reason : std::string();
    svg.Text(16, y + 24,
             absl::StrCat("No daily peaks to chart", reason.empty() ? "" : ": ", reason, "."),
             absl::StrCat("class=\"forecast-caption\" fill=\"", kInk, "\""));
    y += 44;
  }
  const double scale = largest_units > 0 ? (kBarsRight - kBarsLeft) / largest_units : 0;
  svg.Text(16, y + kBarHeight - 2, "SUs now", absl::StrCat("fill=\"", kInk, "\""));
  Bar(svg, y, row.service_units_now, scale, "su-now", kNowColor);
  y += kBarHeight + 6;
  svg.Text(16, y + kBarHeight - 2, "SUs recommended", absl::StrCat("fill=\"", kInk, "\""));
  Bar(svg, y, row.service_units_recommended, scale, "su-recommended", kRecommendedColor);
  y += kBarHeight + 12;
  return svg.Element(absl::StrCat(row.name, ": headroom forecast and Service Units"), y);
}

std::string EstateChartSvg(const EstateView& estate) {
  const segroup::EstateTotals& t = estate.totals;
  const std::string title = absl::StrCat(
      "SE groups' Service Units: ", sizing::FormatServiceUnits(t.service_units_now), " now, ",
      sizing::FormatServiceUnitsNumber(t.service_units_recommended), " recommended, ",
      sizing::FormatServiceUnitsNumber(t.service_units_reclaimable), " reclaimable (",
      sizing::FormatCount(t.groups, "group", "groups"), ", ", t.groups_at_risk, " at risk)");
  SvgWriter svg(kWidth);
  svg.Text(16, 28, title,
           absl::StrCat("font-size=\"15\" font-weight=\"bold\" fill=\"", kInk, "\""));
  double x = 16;
  x = LegendEntry(svg, x, 56, kNowColor, "SUs now", false);
  x = LegendEntry(svg, x, 56, kRecommendedColor, "SUs recommended from the observed load", false);
  LegendEntry(svg, x, 56, kRiskColor, "at risk", true);

  const double largest = LargestServiceUnits(estate);
  const double scale = largest > 0 ? (kBarsRight - kBarsLeft) / largest : 0;
  double y = kTop;
  for (const EstateRow& row : estate.groups) {
    svg.Raw(absl::StrCat("<g><title>", XmlEscape(row.name),
                         row.cloud.empty() ? "" : XmlEscape(absl::StrCat(" (", row.cloud, ")")),
                         "</title>"));
    if (row.at_risk) svg.Raw(RiskMark(22, y + kBarHeight, "at-risk"));
    svg.Text(34, y + kBarHeight - 1, ShortName(row.name),
             absl::StrCat("font-size=\"12\" fill=\"", row.at_risk ? kRiskColor : kInk, "\"",
                          row.at_risk ? " font-weight=\"bold\"" : ""));
    svg.Text(34, y + 2 * kBarHeight, row.cloud, "font-size=\"10\" fill=\"#666666\"");
    Bar(svg, y, row.service_units_now, scale, "su-now", kNowColor);
    Bar(svg, y + kBarHeight + 1, row.service_units_recommended, scale, "su-recommended",
        kRecommendedColor);
    svg.Raw("</g>");
    y += kRowHeight;
  }
  if (estate.groups.empty()) {
    svg.Text(16, y + 14, "No SE group matched.", absl::StrCat("fill=\"", kInk, "\""));
    y += kRowHeight;
  }
  return svg.Document(title, y + 16);
}

}  // namespace nsxalb::cli
