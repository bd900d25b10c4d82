// Headroom forecast from observed load: when will an SE group's load reach its target, if the
// growth of its daily peaks goes on? Pure, deterministic domain code: no network, no Terraform
// types, no clock (the window is given). A front end reads one series per measure (the highest
// SE's CPU, L7 RPS as a percent of capacity, ...), forecasts each with ForecastHeadroom and
// reports the BindingForecast.
//
// Rules:
// - forecast-daily-peaks: the daily peaks are those of the 24-hour periods that end at the last
//   point in the window (window_start, window_end]: period k is (last - (k+1) x 24h,
//   last - k x 24h], so a point exactly on a boundary belongs to the older period, which it ends.
//   A period counts when it is complete: the window covers it, all but at most its first
//   kMaxUncoveredPeriodStart (the Controller's latest point lags the window's end by up to a step,
//   so the periods measured back from it start up to a step before the window does), and it holds
//   a point. Its peak is the max of its points. Points outside the window and non-finite points
//   are ignored. So 7 days of 5-minute points ending at the last one (2,016 points) make exactly
//   7 periods in a 7-day window that ends at that point or up to an hour after it; a 7.5-day
//   window holds 7 (the half period before them is partial), and a 7-day window that ends 2 hours
//   after the last point holds 6.
// - forecast-needs-7-daily-peaks: no forecast from fewer than kMinForecastDailyPeaks daily peaks.
// - forecast-least-squares: ordinary least squares through (x = days since the first daily peak's
//   period ended, y = the peak).
// - forecast-fit-r-squared: no forecast when the line explains less than kMinForecastRSquared of
//   the variance of the peaks (R² = 0 when all peaks are equal).
// - forecast-days-to-target: whole days from the last point (the end of the last period) until the
//   line reaches the
//   target, rounded down (a forecast warns no later than the line says); 0 when the line at the
//   last day is already at or above the target.
// - forecast-at-most-365-days: no forecast beyond kMaxForecastDays.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"

namespace nsxalb::segroup {

// How much of a period's start may lie before the window for the period to count as complete (rule
// forecast-daily-peaks).
inline constexpr absl::Duration kMaxUncoveredPeriodStart = absl::Hours(1);
// The fewest daily peaks a forecast is made from (rule forecast-needs-7-daily-peaks).
inline constexpr int kMinForecastDailyPeaks = 7;
// The least R² of the fitted line a forecast is made from (rule forecast-fit-r-squared).
inline constexpr double kMinForecastRSquared = 0.5;
// The furthest a forecast looks ahead, in days (rule forecast-at-most-365-days).
inline constexpr int kMaxForecastDays = 365;

// The peak of one complete 24-hour period (rule forecast-daily-peaks).
struct DailyPeak {
  // The end of the period: the last point's time minus whole days (the report's JSON gives its
  // UTC date). Consecutive periods' ends are exactly 24 hours apart.
  absl::Time day;
  double value = 0;
};

// One measure's points over one window, and the level to forecast.
struct ForecastInput {
  // What the points measure, e.g. "cpu_pct" (the highest SE's CPU) or "l7_rps_pct_of_capacity".
  std::string measure;
  // (unix seconds, value) in any order; duplicates allowed; non-finite values are dropped.
  std::vector<std::pair<int64_t, double>> points;
  absl::Time window_start;  // exclusive start of the window (now - window)
  absl::Time window_end;    // inclusive end of the window (now)
  double target = 80;       // the level, in the points' unit (percent)
};

// The forecast of one measure. No member is ever NaN or infinite.
struct Forecast {
  std::string measure;
  std::vector<DailyPeak> daily_peaks;  // complete 24-hour periods only, ascending
  // The fitted line (rule forecast-least-squares); set when there are at least 2 daily peaks and
  // the fit is finite. `intercept` is the line's value at x = 0, the first daily peak's day.
  std::optional<double> slope_per_day;
  std::optional<double> intercept;
  // The share of the peaks' variance the line explains, 0-1; 0 when all peaks are equal.
  std::optional<double> r_squared;
  // Whole days from the last daily peak's day to the target (rule forecast-days-to-target); unset,
  // with `reason` saying why, when no forecast is made.
  std::optional<int> days_to_target;
  // The last daily peak's period end (the last point) + days_to_target days; set with
  // days_to_target.
  std::optional<absl::Time> reaches_at;
  // Why days_to_target is unset, in the order checked: "3 complete days of data; a forecast needs
  // at least 7", "the daily peaks are too large or too far apart to fit a line" (the fit overflowed
  // a double), "the daily peaks do not grow (slope -0.20 a day)", "the trend explains too little of
  // the daily peaks (R² 0.31, below 0.5)", "the target is not a finite number", "the trend reaches
  // 80% in more than 365 days". "" when days_to_target is set.
  std::string reason;
};

// The daily peaks of `points` in the window (window_start, window_end] (rule
// forecast-daily-peaks), ascending by day.
std::vector<DailyPeak> DailyPeaks(const std::vector<std::pair<int64_t, double>>& points,
                                  absl::Time window_start, absl::Time window_end);

// The line of rule forecast-least-squares through a series of daily peaks.
struct TrendLine {
  double slope_per_day = 0;
  double intercept = 0;  // the line's value at x = 0, the first daily peak's day
  double r_squared = 0;  // 0-1; 0 when all peaks are equal
};

// The least-squares line through `peaks` (ascending, distinct days), as ForecastHeadroom fits it;
// nullopt for fewer than 2 peaks or a fit that does not fit in a double. A chart that has only the
// daily peaks (a usage report's JSON) draws its trend with it.
std::optional<TrendLine> FitTrendLine(const std::vector<DailyPeak>& peaks);

// Forecasts when `input`'s daily peaks reach input.target (see the file comment for the rules).
// Never fails: a forecast that cannot be made has days_to_target unset and a reason.
Forecast ForecastHeadroom(const ForecastInput& input);

// The forecast that binds among several measures': the one with the smallest days_to_target (the
// first of equals); when none has one, the first (its reason stands). For an empty vector, a
// Forecast with the reason "no measure to forecast".
Forecast BindingForecast(std::vector<Forecast> forecasts);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_FORECAST_H_
