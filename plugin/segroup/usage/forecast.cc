#include "plugin/segroup/usage/forecast.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/format.h"

namespace nsxalb::segroup {
namespace {

using usage_internal::PercentText;

constexpr absl::Duration kDay = absl::Hours(24);

// Rule forecast-days-to-target rounds down; a line that reaches the target on a whole day in exact
// arithmetic may come out a hair short of it in doubles (26.9999999999 for 27). The slack, far
// below a second, keeps such a day whole without moving the forecast later by anything a reader
// could see.
constexpr double kDaysSlack = 1e-9;

constexpr uint64_t kDaySeconds = uint64_t{24} * 60 * 60;

// Days from `from` to `to`, two period ends: a whole number.
double DaysBetween(absl::Time from, absl::Time to) { return absl::FDivDuration(to - from, kDay); }

// The slope to 2 decimals, never "-0.00".
std::string SlopeText(double slope) {
  double hundredths = std::round(slope * 100) / 100;
  if (hundredths == 0) hundredths = 0;  // -0.0 prints as "-0.00"
  return absl::StrFormat("%.2f", hundredths);
}

// R² to 2 decimals, rounded down so that a fit below the bar never reads as at it ("0.49", not
// "0.50", for 0.497). The slack absorbs 0.29 * 100 = 28.999999999999996.
std::string RSquaredText(double r_squared) {
  return absl::StrFormat("%.2f", std::floor(r_squared * 100 + 1e-9) / 100);
}

}  // namespace

std::vector<DailyPeak> DailyPeaks(const std::vector<std::pair<int64_t, double>>& points,
                                  absl::Time window_start, absl::Time window_end) {
  const auto in_window = [&](int64_t seconds, double value) {
    const absl::Time t = absl::FromUnixSeconds(seconds);
    return std::isfinite(value) && t > window_start && t <= window_end;
  };
  std::optional<int64_t> last;
  for (const auto& [seconds, value] : points) {
    if (in_window(seconds, value) && (!last.has_value() || seconds > *last)) last = seconds;
  }
  if (!last.has_value()) return {};
  // Period k is (last - (k+1) x 24h, last - k x 24h]. The difference is taken unsigned: it is
  // never negative, and it fits in 64 bits for any two int64 seconds.
  std::map<uint64_t, double> peak_by_period;
  for (const auto& [seconds, value] : points) {
    if (!in_window(seconds, value)) continue;
    const uint64_t behind = static_cast<uint64_t>(*last) - static_cast<uint64_t>(seconds);
    const uint64_t k = behind / kDaySeconds;
    auto [it, inserted] = peak_by_period.try_emplace(k, value);
    if (!inserted) it->second = std::max(it->second, value);
  }
  const absl::Time last_time = absl::FromUnixSeconds(*last);
  const absl::Time earliest_start = window_start - kMaxUncoveredPeriodStart;
  std::vector<DailyPeak> peaks;
  peaks.reserve(peak_by_period.size());
  // Oldest (largest k) first.
  for (auto it = peak_by_period.rbegin(); it != peak_by_period.rend(); ++it) {
    const absl::Time end = last_time - kDay * static_cast<int64_t>(it->first);
    const absl::Time start = end - kDay;
    // A period at the edge of absl::Time's range (some 292 billion years away) has no finite
    // bounds.
    if (start == absl::InfinitePast() || start == absl::InfiniteFuture()) continue;
    if (start < earliest_start) continue;  // partial: the window does not cover it
    peaks.push_back(DailyPeak{end, it->second});
  }
  return peaks;
}

// Ordinary least squares through (days since the first peak's day, peak). The peaks are scaled by
// a power of two (exact) so that the sums of squares cannot overflow for any finite peak.
std::optional<TrendLine> FitTrendLine(const std::vector<DailyPeak>& peaks) {
  if (peaks.size() < 2) return std::nullopt;
  double max_abs = 0;
  for (const DailyPeak& p : peaks) max_abs = std::max(max_abs, std::fabs(p.value));
  int exponent = 0;
  if (max_abs > 0) std::frexp(max_abs, &exponent);

  const double n = static_cast<double>(peaks.size());
  std::vector<double> xs;
  std::vector<double> ys;
  xs.reserve(peaks.size());
  ys.reserve(peaks.size());
  double x_sum = 0;
  double y_sum = 0;
  for (const DailyPeak& p : peaks) {
    xs.push_back(DaysBetween(peaks.front().day, p.day));
    ys.push_back(std::ldexp(p.value, -exponent));
    x_sum += xs.back();
    y_sum += ys.back();
  }
  const double x_mean = x_sum / n;
  const double y_mean = y_sum / n;
  double sxx = 0;
  double sxy = 0;
  double syy = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double dx = xs[i] - x_mean;
    const double dy = ys[i] - y_mean;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) return std::nullopt;  // not reached: the days are distinct

  const double slope = sxy / sxx;
  TrendLine line;
  line.slope_per_day = std::ldexp(slope, exponent);
  line.intercept = std::ldexp(y_mean - slope * x_mean, exponent);
  // All peaks equal (syy = 0): the line explains nothing, by definition.
  line.r_squared = syy > 0 ? std::clamp((sxy / sxx) * (sxy / syy), 0.0, 1.0) : 0.0;
  if (!std::isfinite(line.slope_per_day) || !std::isfinite(line.intercept) ||
      !std::isfinite(line.r_squared)) {
    return std::nullopt;
  }
  return line;
}

Forecast ForecastHeadroom(const ForecastInput& input) {
  Forecast forecast;
  forecast.measure = input.measure;
  forecast.daily_peaks = DailyPeaks(input.points, input.window_start, input.window_end);
  const std::optional<TrendLine> line = FitTrendLine(forecast.daily_peaks);
  if (line.has_value()) {
    forecast.slope_per_day = line->slope_per_day;
    forecast.intercept = line->intercept;
    forecast.r_squared = line->r_squared;
  }

  const int peak_count = static_cast<int>(forecast.daily_peaks.size());
  if (peak_count < kMinForecastDailyPeaks) {
    forecast.reason = absl::StrFormat(
        "%s of data; a forecast needs at least %d",
        sizing::FormatCount(peak_count, "complete day", "complete days"), kMinForecastDailyPeaks);
    return forecast;
  }
  if (!line.has_value()) {
    forecast.reason = "the daily peaks are too large or too far apart to fit a line";
    return forecast;
  }
  if (!(line->slope_per_day > 0)) {
    forecast.reason = absl::StrFormat("the daily peaks do not grow (slope %s a day)",
                                      SlopeText(line->slope_per_day));
    return forecast;
  }
  if (line->r_squared < kMinForecastRSquared) {
    forecast.reason =
        absl::StrFormat("the trend explains too little of the daily peaks (R² %s, below %g)",
                        RSquaredText(line->r_squared), kMinForecastRSquared);
    return forecast;
  }
  if (!std::isfinite(input.target)) {
    forecast.reason = "the target is not a finite number";
    return forecast;
  }

  // The last period ends at the last point.
  const absl::Time last_day = forecast.daily_peaks.back().day;
  const double last_x = DaysBetween(forecast.daily_peaks.front().day, last_day);
  const double at_last = line->intercept + line->slope_per_day * last_x;
  double days = 0;
  if (!(at_last >= input.target)) {
    // Infinite when the distance overflows; then above kMaxForecastDays, never NaN (slope > 0).
    days = std::floor((input.target - at_last) / line->slope_per_day + kDaysSlack);
  }
  if (!(days <= kMaxForecastDays)) {
    forecast.reason = absl::StrFormat("the trend reaches %s in more than %d days",
                                      PercentText(input.target), kMaxForecastDays);
    return forecast;
  }
  forecast.days_to_target = static_cast<int>(days);
  forecast.reaches_at = last_day + kDay * *forecast.days_to_target;
  return forecast;
}

Forecast BindingForecast(std::vector<Forecast> forecasts) {
  if (forecasts.empty()) {
    Forecast none;
    none.reason = "no measure to forecast";
    return none;
  }
  size_t binding = 0;
  for (size_t i = 0; i < forecasts.size(); ++i) {
    const std::optional<int>& days = forecasts[i].days_to_target;
    if (!days.has_value()) continue;
    const std::optional<int>& best = forecasts[binding].days_to_target;
    if (!best.has_value() || *days < *best) binding = i;
  }
  return std::move(forecasts[binding]);
}

}  // namespace nsxalb::segroup
