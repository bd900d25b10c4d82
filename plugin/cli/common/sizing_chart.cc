// Implementation of sizing_chart.h: geometry and SVG text only; every number comes from the sizing
// library.
#include "plugin/cli/common/sizing_chart.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "plugin/cli/common/svg_writer.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;

constexpr double kWidth = kForecastPanelWidth;  // the forecast panel below shares it
constexpr double kHeight = 460;
constexpr double kBudgetRow = 64;  // height of one CPU-budget bar row below the chart
constexpr double kLeft = 100;      // plot area
constexpr double kRight = 560;
constexpr double kTop = 78;
constexpr double kBottom = 400;
constexpr double kLegendX = 584;

const char* ColorOf(sz::Platform p) { return p == sz::Platform::kVcenter ? "#1f5fa8" : "#2e8b3a"; }
constexpr char kDemandColor[] = "#c62828";
constexpr char kObservedColor[] = "#6a1b9a";  // the observed peak and the daily peaks
constexpr char kTrendColor[] = "#e67e00";
constexpr char kMarkColor[] = "#e67e00";
constexpr char kInk[] = "#222222";
constexpr char kGrid[] = "#dddddd";
// Colours of the CPU-budget parts, in metric order of the CPU-bound metrics.
const char* PartColorOf(sz::Metric m) {
  switch (m) {
    case sz::Metric::kSslTpsEcc:
      return "#6a3d9a";
    case sz::Metric::kSslTpsRsa:
      return "#b15928";
    case sz::Metric::kL7Rps:
      return "#1b9e77";
    case sz::Metric::kL4Cps:
      return "#d95f02";
    default:
      return "#7570b3";
  }
}

// A "nice" step (1, 2 or 5 times a power of ten) that splits `span` into about `parts` parts.
double NiceStep(double span, int parts) {
  const double raw = span / parts;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * power) return m * power;
  }
  return 10 * power;
}

// The capacity of one SE in base units, or nullopt when the model has no figure.
std::optional<sz::Figure> CapacityAt(sz::Platform p, sz::Metric m, int vcpus, int64_t memory_mb) {
  absl::StatusOr<sz::SeCapacity> c =
      memory_mb > 0 ? sz::CapacityOf(p, vcpus, memory_mb) : sz::CapacityOf(p, vcpus);
  if (!c.ok()) return std::nullopt;
  return c->Of(m);
}

// How a segment between two sizes is drawn: by the weaker basis of its ends.
const char* DashOf(sz::Basis basis) {
  switch (basis) {
    case sz::Basis::kExtrapolated:
      return "7,5";
    case sz::Basis::kCrossProfile:
      return "2,4";
    default:
      return "";
  }
}

const char* SegmentClass(sz::Basis basis) {
  switch (basis) {
    case sz::Basis::kExtrapolated:
      return "segment extrapolated";
    case sz::Basis::kCrossProfile:
      return "segment cross-profile";
    default:
      return "segment interpolated";
  }
}

// The CPU budget of `shape` under the workload; empty when the shape is invalid.
sz::CpuLoad BudgetOf(const sz::Workload& w, const ChartShape& shape) {
  absl::StatusOr<sz::SeCapacity> c = shape.memory_mb > 0
                                         ? sz::CapacityOf(w.platform, shape.vcpus, shape.memory_mb)
                                         : sz::CapacityOf(w.platform, shape.vcpus);
  if (!c.ok()) return {};
  return sz::CpuLoadOf(sz::LoadsOn(w, *c, std::max(1, shape.se_count)), w.target_utilization_pct);
}

// One stacked bar (class "cpu-budget") at `y`: the parts of the CPU budget of one SE side by side,
// from 0 to at least 100%, with the target marked.
void BudgetBar(SvgWriter& svg, double y, const std::string& label, const sz::CpuLoad& cpu,
               int target) {
  const double full = std::max(100.0, cpu.utilization_pct);
  auto X = [&](double pct) { return kLeft + pct * (kRight - kLeft) / full; };
  svg.Text(kLeft, y, label, "font-size=\"12\" fill=\"#222222\"");
  const double top = y + 8;
  const double height = 18;
  svg.Raw(absl::StrCat("<rect x=\"", SvgNumber(kLeft), "\" y=\"", SvgNumber(top), "\" width=\"",
                       SvgNumber(kRight - kLeft), "\" height=\"", SvgNumber(height),
                       "\" fill=\"#f4f4f4\" stroke=\"#bbbbbb\"/>"));
  double at = 0;
  for (const sz::CpuPart& part : cpu.parts) {
    const double x = X(at);
    const double width = X(at + part.utilization_pct) - x;
    svg.Raw(absl::StrCat("<rect class=\"cpu-budget\" data-metric=\"", sz::InfoOf(part.metric).key,
                         "\" data-pct=\"", sz::FormatPercent(part.utilization_pct), "\" x=\"",
                         SvgNumber(x), "\" y=\"", SvgNumber(top), "\" width=\"", SvgNumber(width),
                         "\" height=\"", SvgNumber(height), "\" fill=\"", PartColorOf(part.metric),
                         "\" fill-opacity=\"0.8\"/>"));
    if (width > 90) {
      svg.Text(
          x + 5, top + 13,
          absl::StrCat(sz::InfoOf(part.metric).label, " ", sz::FormatPercent(part.utilization_pct)),
          "font-size=\"11\" fill=\"#ffffff\"");
    }
    at += part.utilization_pct;
  }
  svg.Line(X(target), top - 4, X(target), top + height + 4,
           absl::StrCat("class=\"cpu-target\" stroke=\"", kDemandColor, "\" stroke-width=\"2\""));
  svg.Text(X(target), top + height + 16, absl::StrCat(target, "% target"),
           absl::StrCat("text-anchor=\"middle\" font-size=\"10\" fill=\"", kDemandColor, "\""));
  svg.Text(kRight + 8, top + 13,
           absl::StrCat(sz::FormatPercent(cpu.utilization_pct), cpu.carried ? "" : " over"),
           absl::StrCat("font-weight=\"bold\" fill=\"", cpu.carried ? kInk : kDemandColor, "\""));
}

std::string ShapeLabel(const ChartShape& shape) {
  return sz::FormatShape(shape.se_count, shape.vcpus);
}

// A legend label with the shape's Service Units when known: "recommended size, 18 SUs".
std::string LegendWithServiceUnits(const std::string& label, const ChartShape& shape) {
  if (!shape.service_units.has_value()) return label;
  return absl::StrCat(label, ", ", sz::FormatServiceUnits(*shape.service_units));
}

// "2026-11-14": how the forecast panel writes a day.
std::string DayText(absl::Time day) {
  return absl::FormatTime("%Y-%m-%d", day, absl::UTCTimeZone());
}

// "80%" or "80.5%".
std::string TargetText(double pct) { return absl::StrFormat("%g%%", pct); }

// The caption of the forecast panel: "reaches 80% in 27 days (2027-01-01)", "reaches 80% already",
// or "no forecast: <reason>".
std::string ForecastCaption(const ChartForecast& chart) {
  const segroup::Forecast& f = chart.forecast;
  if (!f.days_to_target.has_value()) {
    return f.reason.empty() ? std::string("no forecast") : absl::StrCat("no forecast: ", f.reason);
  }
  std::string out =
      absl::StrCat("reaches ", TargetText(chart.target_pct), " ",
                   *f.days_to_target == 0
                       ? std::string("already")
                       : absl::StrCat("in ", sz::FormatCount(*f.days_to_target, "day", "days")));
  if (f.reaches_at.has_value()) absl::StrAppend(&out, " (", DayText(*f.reaches_at), ")");
  return out;
}

}  // namespace

// The forecast panel at `y`: the daily peaks, the trend and the target on x = days since the first
// daily peak, y = percent.
void DrawForecastPanel(SvgWriter& svg, double y, const ChartForecast& chart) {
  const segroup::Forecast& f = chart.forecast;
  const double target = chart.target_pct;
  const double top = y + 36;
  const double bottom = y + 176;
  const absl::Time first_day = f.daily_peaks.empty() ? absl::UnixEpoch() : f.daily_peaks[0].day;
  auto day_x = [&](absl::Time day) { return absl::FDivDuration(day - first_day, absl::Hours(24)); };
  const double last_x = f.daily_peaks.empty() ? 0 : day_x(f.daily_peaks.back().day);

  // The line, and where it reaches the target when it grows.
  const bool has_line = f.slope_per_day.has_value() && f.intercept.has_value();
  auto line_at = [&](double x) { return *f.intercept + *f.slope_per_day * x; };
  std::optional<double> reach_x;
  if (has_line && *f.slope_per_day > 0) reach_x = (target - *f.intercept) / *f.slope_per_day;

  // The days shown: up to the day the forecast reaches the target, else a little past the data.
  double x_end = last_x + std::max(7.0, std::ceil(last_x / 2));
  if (f.days_to_target.has_value()) {
    x_end = last_x + *f.days_to_target;
    // The line fitted again from rounded peaks reaches the target within a day of that.
    if (reach_x.has_value() && *reach_x <= x_end + 1) x_end = std::max(x_end, std::ceil(*reach_x));
  }
  // Whole ticks of days, the last at the panel's end.
  const double x_step = std::max(1.0, NiceStep(std::max(x_end, 1.0), 6));
  x_end = std::max(std::ceil(x_end / x_step), 1.0) * x_step;

  // The drawn part of the line: from the first daily peak's day to where it reaches the target or
  // the panel's end, and not below 0 (or the lowest peak, when one is negative).
  double floor_pct = 0;
  for (const segroup::DailyPeak& p : f.daily_peaks) floor_pct = std::min(floor_pct, p.value);
  double line_from = 0;
  double line_to = x_end;
  if (has_line) {
    if (reach_x.has_value() && *reach_x > 0 && *reach_x < line_to) line_to = *reach_x;
    if (*f.slope_per_day != 0) {
      const double at_floor = (floor_pct - *f.intercept) / *f.slope_per_day;
      if (*f.slope_per_day > 0) line_from = std::max(line_from, at_floor);
      if (*f.slope_per_day < 0) line_to = std::min(line_to, at_floor);
    }
  }
  const bool draw_line = has_line && line_to > line_from;

  // The percent range: the target, the peaks and the drawn line, with a margin; from 0 when they
  // are all close to it.
  double lo = target;
  double hi = target;
  for (const segroup::DailyPeak& p : f.daily_peaks) {
    lo = std::min(lo, p.value);
    hi = std::max(hi, p.value);
  }
  if (draw_line) {
    lo = std::min({lo, line_at(line_from), line_at(line_to)});
    hi = std::max({hi, line_at(line_from), line_at(line_to)});
  }
  const double margin = (hi - lo) * 0.08;
  const double step = NiceStep(std::max(hi - lo + 2 * margin, 1.0), 4);
  double y_floor = std::floor((lo - margin) / step) * step;
  if (floor_pct >= 0) y_floor = std::max(y_floor, 0.0);
  const double y_top = std::max(std::ceil((hi + margin) / step) * step, y_floor + step);
  auto X = [&](double days) { return kLeft + days * (kRight - kLeft) / x_end; };
  auto Y = [&](double pct) {
    return bottom - (pct - y_floor) * (bottom - top) / (y_top - y_floor);
  };

  const std::string measure = f.measure.empty() ? std::string("the measure") : f.measure;
  svg.Text(kLeft, y + 16,
           absl::StrCat("Headroom forecast", chart.subject.empty() ? "" : " for ", chart.subject,
                        ": daily peaks of ", measure),
           "font-size=\"14\" font-weight=\"bold\" fill=\"#222222\"");

  // Grid and axes.
  for (double t = y_floor; t <= y_top + step / 2; t += step) {
    svg.Line(kLeft, Y(t), kRight, Y(t), absl::StrCat("stroke=\"", kGrid, "\" stroke-width=\"1\""));
    svg.Text(kLeft - 8, Y(t) + 4, TargetText(t), "text-anchor=\"end\" fill=\"#444444\"");
  }
  for (double d = 0; d <= x_end + x_step / 2; d += x_step) {
    svg.Line(X(d), bottom, X(d), bottom + 5, absl::StrCat("stroke=\"", kInk, "\""));
    svg.Text(X(d), bottom + 18, absl::StrFormat("%g", d),
             "text-anchor=\"middle\" fill=\"#444444\"");
  }
  svg.Line(kLeft, bottom, kRight, bottom, absl::StrCat("stroke=\"", kInk, "\""));
  svg.Line(kLeft, top - 6, kLeft, bottom, absl::StrCat("stroke=\"", kInk, "\""));
  svg.Text((kLeft + kRight) / 2, bottom + 34,
           f.daily_peaks.empty() ? std::string("days (no complete 24-hour period of data)")
                                 : absl::StrCat("days since ", DayText(first_day),
                                                " (24-hour periods ending at the last sample)"),
           "text-anchor=\"middle\" fill=\"#222222\"");
  svg.Text(16, (top + bottom) / 2, "percent",
           absl::StrCat("text-anchor=\"middle\" fill=\"#222222\" transform=\"rotate(-90 16 ",
                        SvgNumber((top + bottom) / 2), ")\""));

  // The target, the trend and the daily peaks on top.
  svg.Line(kLeft, Y(target), kRight, Y(target),
           absl::StrCat("class=\"forecast-target\" stroke=\"", kDemandColor,
                        "\" stroke-width=\"1.8\" stroke-dasharray=\"10,4,2,4\""));
  if (draw_line) {
    svg.Line(X(line_from), Y(line_at(line_from)), X(line_to), Y(line_at(line_to)),
             absl::StrCat("class=\"trend\" stroke=\"", kTrendColor,
                          "\" stroke-width=\"2.2\" stroke-linecap=\"round\""));
  }
  for (const segroup::DailyPeak& p : f.daily_peaks) {
    svg.Raw(absl::StrCat("<circle class=\"daily-peak\" data-day=\"", DayText(p.day),
                         "\" data-value=\"", absl::StrFormat("%.2f", p.value), "\" cx=\"",
                         SvgNumber(X(day_x(p.day))), "\" cy=\"", SvgNumber(Y(p.value)),
                         "\" r=\"3.5\" fill=\"", kObservedColor,
                         "\" stroke=\"#ffffff\" stroke-width=\"1\"/>"));
  }
  svg.Text(kLeft, bottom + 56, ForecastCaption(chart),
           absl::StrCat("class=\"forecast-caption\" font-weight=\"bold\" fill=\"",
                        f.days_to_target.has_value() ? kDemandColor : kInk, "\""));

  // Legend.
  double ly = top + 4;
  svg.Raw(absl::StrCat("<circle cx=\"", SvgNumber(kLegendX + 15), "\" cy=\"", SvgNumber(ly),
                       "\" r=\"3.5\" ", "fill=\"", kObservedColor, "\"/>"));
  svg.Text(kLegendX + 38, ly + 4,
           sz::FormatCount(static_cast<int64_t>(f.daily_peaks.size()), "daily peak", "daily peaks"),
           "fill=\"#222222\"");
  ly += 22;
  if (has_line) {
    svg.Line(kLegendX, ly, kLegendX + 30, ly,
             absl::StrCat("stroke=\"", kTrendColor, "\" stroke-width=\"2.2\""));
    svg.Text(kLegendX + 38, ly + 4, absl::StrFormat("trend, %+.2f a day", *f.slope_per_day),
             "fill=\"#222222\"");
    svg.Text(kLegendX + 38, ly + 18,
             absl::StrFormat("(least squares, R² %.2f)", f.r_squared.value_or(0)),
             "fill=\"#666666\" font-size=\"10\"");
    ly += 36;
  }
  svg.Line(kLegendX, ly, kLegendX + 30, ly,
           absl::StrCat("stroke=\"", kDemandColor,
                        "\" stroke-width=\"1.8\" stroke-dasharray=\"10,4,2,4\""));
  svg.Text(kLegendX + 38, ly + 4, absl::StrCat("target ", TargetText(target)), "fill=\"#222222\"");
}

std::string SizingChartSvg(const ChartInput& input) {
  const sz::Workload& w = input.workload;
  const sz::Metric metric = input.metric;
  const sz::MetricInfo& info = sz::InfoOf(metric);
  int max_vcpus = std::max(w.max_vcpus_per_se, input.recommended.vcpus);
  if (input.given) max_vcpus = std::max(max_vcpus, input.given->vcpus);
  max_vcpus = std::clamp(max_vcpus, 2, sz::kMaxVcpus);

  // The curves, in base units.
  struct Point {
    int vcpus;
    sz::Figure figure;
  };
  std::vector<std::pair<sz::Platform, std::vector<Point>>> curves;
  double y_max = 0;
  for (sz::Platform p : sz::kAllPlatforms) {
    std::vector<Point> points;
    for (int v = 1; v <= max_vcpus; ++v) {
      std::optional<sz::Figure> f = CapacityAt(p, metric, v, 0);
      if (!f) continue;
      points.push_back({v, *f});
      y_max = std::max(y_max, f->value);
    }
    curves.emplace_back(p, std::move(points));
  }
  const std::optional<double>& demand = w.demand.Get(metric);
  const int se_count = std::max(1, input.recommended.se_count);
  double needed_per_se = 0;
  if (demand) {
    needed_per_se = *demand * 100.0 / w.target_utilization_pct / se_count;
    y_max = std::max(y_max, needed_per_se);
  }
  double observed_per_se = 0;
  if (input.observed) {
    observed_per_se = *input.observed * 100.0 / w.target_utilization_pct / se_count;
    y_max = std::max(y_max, observed_per_se);
  }
  std::optional<sz::Figure> rec =
      CapacityAt(w.platform, metric, input.recommended.vcpus, input.recommended.memory_mb);
  if (rec) y_max = std::max(y_max, rec->value);
  std::optional<sz::Figure> given;
  if (input.given) {
    given = CapacityAt(w.platform, metric, input.given->vcpus, input.given->memory_mb);
    if (given) y_max = std::max(y_max, given->value);
  }
  if (y_max <= 0) y_max = 1;
  const double step = NiceStep(y_max * 1.08, 5);
  const double y_top = std::ceil(y_max * 1.08 / step) * step;

  auto X = [&](double vcpus) { return kLeft + (vcpus - 1) * (kRight - kLeft) / (max_vcpus - 1); };
  auto Y = [&](double base) { return kBottom - base * (kBottom - kTop) / y_top; };

  SvgWriter svg(kWidth);
  const std::string title = absl::StrCat(info.label, " capacity of one SE by vCPUs (",
                                         sz::PlatformName(w.platform), " workload)");
  svg.Text(kLeft, 28, title, "font-size=\"16\" font-weight=\"bold\" fill=\"#222222\"");
  std::string subtitle = "No demand for this metric in the workload.";
  if (demand) {
    subtitle = absl::StrCat("Demand ", sz::FormatAmount(metric, *demand, sz::Rounding::kUp), " at ",
                            w.target_utilization_pct, "% target utilization on ",
                            sz::FormatSeCount(se_count), ": each SE needs ",
                            sz::FormatValue(metric, needed_per_se, sz::Rounding::kUp), ".");
  }
  // With two or more CPU-bound metrics the demand line is one part of a shared budget; the bars
  // below the chart show the whole budget (rule one-cpu-budget-per-se).
  const sz::CpuLoad budget = BudgetOf(w, input.recommended);
  const bool budget_of_many = budget.parts.size() >= 2;
  svg.Text(kLeft, 50, subtitle, "font-size=\"12\" fill=\"#444444\"");
  if (demand && budget_of_many && sz::SharesCpuBudget(metric)) {
    svg.Text(
        kLeft, 66,
        absl::StrCat("That is this metric alone: it shares the CPU with ", budget.parts.size() - 1,
                     budget.parts.size() == 2 ? " other metric" : " other metrics",
                     ", and the bar below adds them up."),
        "font-size=\"12\" fill=\"#444444\"");
  }

  // Grid and axes.
  for (double t = 0; t <= y_top + step / 2; t += step) {
    svg.Line(kLeft, Y(t), kRight, Y(t), absl::StrCat("stroke=\"", kGrid, "\" stroke-width=\"1\""));
    svg.Text(kLeft - 8, Y(t) + 4, sz::FormatValue(metric, t, sz::Rounding::kDown),
             "text-anchor=\"end\" fill=\"#444444\"");
  }
  const int x_step = max_vcpus <= 16 ? 1 : max_vcpus <= 32 ? 2 : 4;
  for (int v = 1; v <= max_vcpus; ++v) {
    if (v != 1 && v % x_step != 0) continue;
    svg.Line(X(v), kBottom, X(v), kBottom + 5, absl::StrCat("stroke=\"", kInk, "\""));
    svg.Text(X(v), kBottom + 19, absl::StrCat(v), "text-anchor=\"middle\" fill=\"#444444\"");
  }
  svg.Line(kLeft, kBottom, kRight, kBottom, absl::StrCat("stroke=\"", kInk, "\""));
  svg.Line(kLeft, kTop - 6, kLeft, kBottom, absl::StrCat("stroke=\"", kInk, "\""));
  svg.Text((kLeft + kRight) / 2, kBottom + 40, "vCPUs per SE (vcpus_per_se)",
           "text-anchor=\"middle\" fill=\"#222222\"");
  svg.Text(16, (kTop + kBottom) / 2, absl::StrCat(info.label, " per SE"),
           absl::StrCat("text-anchor=\"middle\" fill=\"#222222\" transform=\"rotate(-90 16 ",
                        SvgNumber((kTop + kBottom) / 2), ")\""));

  // Curves: the other profile first, so the workload's profile is drawn on top.
  bool any_cross_profile = false;
  bool any_extrapolated = false;
  std::stable_sort(curves.begin(), curves.end(), [&](const auto& a, const auto& b) {
    return (a.first != w.platform) > (b.first != w.platform);
  });
  for (const auto& [platform, points] : curves) {
    const bool main = platform == w.platform;
    const std::string width = main ? "2.6" : "1.6";
    const std::string opacity = main ? "1" : "0.55";
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      const sz::Basis basis =
          sz::WeakestBasis({points[i].figure.basis, points[i + 1].figure.basis});
      any_cross_profile |= basis == sz::Basis::kCrossProfile;
      any_extrapolated |= basis == sz::Basis::kExtrapolated;
      const std::string dash = DashOf(basis);
      svg.Line(X(points[i].vcpus), Y(points[i].figure.value), X(points[i + 1].vcpus),
               Y(points[i + 1].figure.value),
               absl::StrCat("class=\"", SegmentClass(basis), "\" data-profile=\"",
                            sz::PlatformName(platform), "\" stroke=\"", ColorOf(platform),
                            "\" stroke-width=\"", width, "\" stroke-opacity=\"", opacity, "\"",
                            dash.empty() ? "" : absl::StrCat(" stroke-dasharray=\"", dash, "\""),
                            " stroke-linecap=\"round\""));
    }
    // One dot per measured cell of this profile's table.
    const sz::Profile& profile = sz::ProfileOf(platform);
    for (const sz::MeasuredSize& s : profile.sizes) {
      const auto& cell = s.values[static_cast<int>(metric)];
      if (!cell.has_value() || s.vcpus > max_vcpus) continue;
      svg.Raw(absl::StrCat(
          "<circle class=\"measured\" data-profile=\"", sz::PlatformName(platform),
          "\" data-vcpus=\"", s.vcpus, "\" data-value=\"",
          sz::FormatValue(metric, static_cast<double>(*cell), sz::Rounding::kDown), "\" cx=\"",
          SvgNumber(X(s.vcpus)), "\" cy=\"", SvgNumber(Y(static_cast<double>(*cell))), "\" r=\"",
          main ? "4.5" : "3.5", "\" fill=\"", ColorOf(platform), "\" fill-opacity=\"", opacity,
          "\" stroke=\"#ffffff\" stroke-width=\"1\"/>"));
    }
  }

  // The demand line.
  if (demand) {
    svg.Line(kLeft, Y(needed_per_se), kRight, Y(needed_per_se),
             absl::StrCat("class=\"demand\" stroke=\"", kDemandColor,
                          "\" stroke-width=\"1.8\" stroke-dasharray=\"10,4,2,4\""));
    // At the left, where the curves are lowest, above the line.
    svg.Text(
        kLeft + 8, Y(needed_per_se) - 7,
        absl::StrCat("needed per SE: ", sz::FormatValue(metric, needed_per_se, sz::Rounding::kUp)),
        absl::StrCat("fill=\"", kDemandColor, "\""));
  }

  // The observed peak, on the demand line's scale.
  if (input.observed) {
    svg.Line(kLeft, Y(observed_per_se), kRight, Y(observed_per_se),
             absl::StrCat("class=\"observed\" stroke=\"", kObservedColor,
                          "\" stroke-width=\"1.8\" stroke-dasharray=\"3,3\""));
    svg.Text(kLeft + 8, Y(observed_per_se) - 7,
             absl::StrCat("observed peak, per SE: ",
                          sz::FormatValue(metric, observed_per_se, sz::Rounding::kUp)),
             absl::StrCat("fill=\"", kObservedColor, "\""));
  }

  // The recommended size, and the given one when it differs.
  if (rec) {
    const double cx = X(input.recommended.vcpus);
    const double cy = Y(rec->value);
    svg.Raw(absl::StrCat("<circle class=\"recommended\" data-vcpus=\"", input.recommended.vcpus,
                         "\" cx=\"", SvgNumber(cx), "\" cy=\"", SvgNumber(cy),
                         "\" r=\"9\" fill=\"none\" ", "stroke=\"", kMarkColor,
                         "\" stroke-width=\"2.5\"/>"));
    const bool left = input.recommended.vcpus > (max_vcpus + 1) / 2;
    // Above the ring: a size that carries the demand sits above the demand line.
    svg.Text(cx + (left ? 6 : -6), cy - 16,
             absl::StrCat("recommended: ", sz::FormatVcpus(input.recommended.vcpus), " (",
                          sz::FormatValue(metric, rec->value, sz::Rounding::kDown), ", ",
                          sz::BasisName(rec->basis), ")"),
             absl::StrCat("text-anchor=\"", left ? "end" : "start", "\" fill=\"", kMarkColor,
                          "\" font-weight=\"bold\""));
  }
  if (given && input.given &&
      (input.given->vcpus != input.recommended.vcpus ||
       input.given->memory_mb != input.recommended.memory_mb)) {
    const double cx = X(input.given->vcpus);
    const double cy = Y(given->value);
    svg.Raw(absl::StrCat("<path class=\"given\" data-vcpus=\"", input.given->vcpus, "\" d=\"M",
                         SvgNumber(cx - 7), " ", SvgNumber(cy - 7), " L", SvgNumber(cx + 7), " ",
                         SvgNumber(cy + 7), " M", SvgNumber(cx - 7), " ", SvgNumber(cy + 7), " L",
                         SvgNumber(cx + 7), " ", SvgNumber(cy - 7), "\" stroke=\"", kDemandColor,
                         "\" stroke-width=\"2.5\"/>"));
    svg.Text(cx + 12, cy - 10,
             absl::StrCat("your settings: ", sz::FormatVcpus(input.given->vcpus), " (",
                          sz::FormatValue(metric, given->value, sz::Rounding::kDown), ")"),
             absl::StrCat("fill=\"", kDemandColor, "\" font-weight=\"bold\""));
  }

  // Legend.
  double ly = kTop + 4;
  auto legend_line = [&](const std::string& stroke, const std::string& width,
                         const std::string& dash, const std::string& label) {
    svg.Line(kLegendX, ly, kLegendX + 30, ly,
             absl::StrCat("stroke=\"", stroke, "\" stroke-width=\"", width, "\"",
                          dash.empty() ? "" : absl::StrCat(" stroke-dasharray=\"", dash, "\"")));
    svg.Text(kLegendX + 38, ly + 4, label, "fill=\"#222222\"");
    ly += 22;
  };
  for (sz::Platform p : sz::kAllPlatforms) {
    const sz::Profile& profile = sz::ProfileOf(p);
    legend_line(ColorOf(p), p == w.platform ? "2.6" : "1.6", "",
                absl::StrCat(profile.name, " (Avi ", profile.avi_version, ")"));
  }
  svg.Raw(absl::StrCat("<circle cx=\"", SvgNumber(kLegendX + 15), "\" cy=\"", SvgNumber(ly),
                       "\" r=\"4.5\" ", "fill=\"#555555\"/>"));
  svg.Text(kLegendX + 38, ly + 4, "measured (seed table)", "fill=\"#222222\"");
  ly += 22;
  legend_line("#555555", "2", "", "interpolated");
  if (any_extrapolated || max_vcpus > 6) legend_line("#555555", "2", "7,5", "extrapolated");
  if (any_cross_profile) legend_line("#555555", "2", "2,4", "cross-profile");
  if (demand) {
    legend_line(kDemandColor, "1.8", "10,4,2,4",
                absl::StrCat("needed at ", w.target_utilization_pct, "% target"));
  }
  svg.Raw(absl::StrCat("<circle cx=\"", SvgNumber(kLegendX + 15), "\" cy=\"", SvgNumber(ly),
                       "\" r=\"7\" ", "fill=\"none\" stroke=\"", kMarkColor,
                       "\" stroke-width=\"2.5\"/>"));
  svg.Text(kLegendX + 38, ly + 4, LegendWithServiceUnits("recommended size", input.recommended),
           "fill=\"#222222\"");
  ly += 22;
  if (input.given) {
    svg.Raw(absl::StrCat("<path d=\"M", SvgNumber(kLegendX + 9), " ", SvgNumber(ly - 6), " L",
                         SvgNumber(kLegendX + 21), " ", SvgNumber(ly + 6), " M",
                         SvgNumber(kLegendX + 9), " ", SvgNumber(ly + 6), " L",
                         SvgNumber(kLegendX + 21), " ", SvgNumber(ly - 6), "\" stroke=\"",
                         kDemandColor, "\" stroke-width=\"2.5\"/>"));
    svg.Text(kLegendX + 38, ly + 4, LegendWithServiceUnits("your settings", *input.given),
             "fill=\"#222222\"");
    ly += 22;
  }
  ly += 8;
  const sz::Profile& profile = sz::ProfileOf(w.platform);
  svg.Text(kLegendX, ly, "Source:", "fill=\"#666666\" font-size=\"10\"");
  svg.Text(kLegendX, ly + 14, absl::StrCat("NSX ALB sizing tables, ", profile.name),
           "fill=\"#666666\" font-size=\"10\"");
  svg.Text(kLegendX, ly + 28, absl::StrCat("(Avi ", profile.avi_version, "), table memory"),
           "fill=\"#666666\" font-size=\"10\"");
  // The CPU budget of one SE, at the recommended shape and at the given one when it differs.
  double height = kHeight;
  if (!budget.Empty()) {
    BudgetBar(svg, height + 6,
              absl::StrCat("CPU budget per SE, recommended (", ShapeLabel(input.recommended),
                           "): ", sz::CpuLoadText(budget)),
              budget, w.target_utilization_pct);
    height += kBudgetRow;
    if (input.given && (input.given->vcpus != input.recommended.vcpus ||
                        input.given->memory_mb != input.recommended.memory_mb ||
                        input.given->se_count != input.recommended.se_count)) {
      const sz::CpuLoad given_budget = BudgetOf(w, *input.given);
      if (!given_budget.Empty()) {
        BudgetBar(svg, height + 6,
                  absl::StrCat("CPU budget per SE, your settings (", ShapeLabel(*input.given),
                               "): ", sz::CpuLoadText(given_budget)),
                  given_budget, w.target_utilization_pct);
        height += kBudgetRow;
      }
    }
  }
  if (input.forecast.has_value()) {
    DrawForecastPanel(svg, height + 6, *input.forecast);
    height += kForecastPanelHeight;
  }
  return svg.Document(title, height);
}

}  // namespace nsxalb::cli
