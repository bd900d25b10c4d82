// The headroom forecast (plugin/segroup/usage/forecast.h): the complete 24-hour periods that end at
// the last point and their peaks (boundaries, partial periods), the
// least-squares line, days to the target and every reason a forecast is not made, non-finite and
// extreme input, and the binding forecast of several measures. Every expected number is worked by
// hand in the comment beside it.
#include "plugin/segroup/usage/forecast.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "tests/segroup/usage_test_support.h"

namespace nsxalb::segroup {
namespace {

using ::testing::HasSubstr;
using usage_testing::kMidnight;  // the end of most windows here

using Points = std::vector<std::pair<int64_t, double>>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();

absl::Time Day(int y, int m, int d) {
  return absl::FromCivil(absl::CivilDay(y, m, d), absl::UTCTimeZone());
}

int64_t Unix(absl::Time t) { return absl::ToUnixSeconds(t); }

// Hourly points over peaks.size() days from `first_day`, at 01:00, 02:00, ..., 24:00 of each day
// (so that the last point is the midnight that ends the last day, and the 24-hour periods that
// end at it are the UTC days): day i peaks at peaks[i] at 14:00 UTC; every other hour of it is 5
// lower.
Points Hourly(absl::Time first_day, const std::vector<double>& peaks) {
  Points points;
  for (size_t i = 0; i < peaks.size(); ++i) {
    for (int h = 1; h <= 24; ++h) {
      const absl::Time t = first_day + absl::Hours(24 * static_cast<int64_t>(i) + h);
      points.emplace_back(Unix(t), h == 14 ? peaks[i] : peaks[i] - 5);
    }
  }
  return points;
}

// `days` peaks from `first`, growing by `step` a day.
std::vector<double> Linear(double first, double step, int days) {
  std::vector<double> peaks(days);
  for (int i = 0; i < days; ++i) peaks[i] = first + step * i;
  return peaks;
}

// The window of `days` days ending at `end`.
ForecastInput Input(Points points, int days, absl::Time end = kMidnight, double target = 80) {
  ForecastInput input;
  input.measure = "cpu_pct";
  input.points = std::move(points);
  input.window_start = end - absl::Hours(24 * days);
  input.window_end = end;
  input.target = target;
  return input;
}

// Hourly points of `peaks` over the `peaks.size()`-day window ending at kMidnight.
ForecastInput DailyInput(const std::vector<double>& peaks, double target = 80) {
  const int days = static_cast<int>(peaks.size());
  return Input(Hourly(kMidnight - absl::Hours(24 * days), peaks), days, kMidnight, target);
}

// No double in `f` is NaN or infinite, and its times are finite.
void ExpectAllFinite(const Forecast& f) {
  for (const DailyPeak& p : f.daily_peaks) {
    EXPECT_TRUE(std::isfinite(p.value));
    EXPECT_NE(p.day, absl::InfinitePast());
    EXPECT_NE(p.day, absl::InfiniteFuture());
  }
  EXPECT_TRUE(std::isfinite(f.slope_per_day.value_or(0)));
  EXPECT_TRUE(std::isfinite(f.intercept.value_or(0)));
  EXPECT_GE(f.r_squared.value_or(0), 0);  // false for NaN
  EXPECT_LE(f.r_squared.value_or(0), 1);
  EXPECT_NE(f.reaches_at.value_or(absl::UnixEpoch()), absl::InfiniteFuture());
}

// A forecast is made exactly when there is no reason.
void ExpectNoForecast(const Forecast& f) {
  EXPECT_FALSE(f.days_to_target.has_value());
  EXPECT_FALSE(f.reaches_at.has_value());
  EXPECT_FALSE(f.reason.empty());
  ExpectAllFinite(f);
}

TEST(ForecastHeadroomTest, RisingOneADayOverFourteenDaysEndingAtMidnight) {
  // Nov 14 - Nov 27 peak at 40, 41, ..., 53. x = 0..13, y = 40 + x: x mean 6.5, y mean 46.5;
  // every (y - mean) equals (x - mean), so Sxy = Sxx, slope 1, intercept 46.5 - 6.5 = 40, R² 1.
  // The line is 53 at x = 13 and 80 at x = 40: 27 days after the last point (Nov 28 00:00, the end
  // of the period that holds Nov 27), on Dec 25 00:00.
  ForecastInput input = DailyInput(Linear(40, 1, 14));
  // A point after the window's inclusive end is ignored (it would be the last point, and the
  // peak of the period it ends).
  input.points.emplace_back(Unix(kMidnight + absl::Seconds(1)), 99);
  const Forecast f = ForecastHeadroom(input);

  EXPECT_EQ(f.measure, "cpu_pct");
  ASSERT_EQ(f.daily_peaks.size(), 14u);
  EXPECT_EQ(f.daily_peaks.front().day, Day(2026, 11, 15));
  EXPECT_EQ(f.daily_peaks.front().value, 40);
  EXPECT_EQ(f.daily_peaks.back().day, kMidnight);
  EXPECT_EQ(f.daily_peaks.back().value, 53);
  ASSERT_TRUE(f.slope_per_day.has_value());
  EXPECT_NEAR(*f.slope_per_day, 1.0, 1e-12);
  ASSERT_TRUE(f.intercept.has_value());
  EXPECT_NEAR(*f.intercept, 40.0, 1e-12);
  ASSERT_TRUE(f.r_squared.has_value());
  EXPECT_NEAR(*f.r_squared, 1.0, 1e-12);
  EXPECT_EQ(f.days_to_target, 27);
  EXPECT_EQ(f.reaches_at, Day(2026, 12, 25));
  EXPECT_EQ(f.reason, "");
}

// 5-minute points over `days` days ending at `last` (the last at `last`, the first at
// last - days x 24h + 5 min: days x 288 points); the point at `peak_minute` minutes into each
// 24-hour period ending at `last` is peaks[k] for the k-th period from the oldest, the others 10
// lower.
Points FiveMinute(absl::Time last, const std::vector<double>& peaks, int peak_minute = 600) {
  Points points;
  const int days = static_cast<int>(peaks.size());
  for (int k = 0; k < days; ++k) {
    const absl::Time start = last - absl::Hours(24 * static_cast<int64_t>(days - k));
    for (int m = 5; m <= 24 * 60; m += 5) {
      points.emplace_back(Unix(start + absl::Minutes(m)),
                          m == peak_minute ? peaks[k] : peaks[k] - 10);
    }
  }
  return points;
}

// An end that is not a UTC midnight: the periods are not calendar days.
const absl::Time kLast = kMidnight + absl::Hours(10) + absl::Minutes(35);

TEST(ForecastHeadroomTest, TheDefaultWindowForecastsSevenDaysOfFiveMinutePoints) {
  // The acceptance story (docs/sizing.md, "A forecast at the default window"): 7 days of 5-minute
  // points (2,016) ending at 10:35 UTC, whose daily peak rises 1.5 points a day from 40%; the
  // 7-day window ends 4 minutes after the last point. 7 periods: x = 0..6, y = 40, 41.5, ..., 49.
  // x mean 3, y mean 44.5; Sxx = 28, Sxy = 1.5 x 28 = 42: slope 1.5, intercept 44.5 - 4.5 = 40,
  // R² 1. The line is 49 at x = 6; 80 is (80 - 49) / 1.5 = 20.67 days later: 20 days, rounded
  // down, after the last point.
  const Points points = FiveMinute(kLast, Linear(40, 1.5, 7));
  ASSERT_EQ(points.size(), 2016u);
  const Forecast f = ForecastHeadroom(Input(points, 7, kLast + absl::Minutes(4)));
  ASSERT_EQ(f.daily_peaks.size(), 7u);
  EXPECT_EQ(f.daily_peaks.front().day, kLast - absl::Hours(24 * 6));
  EXPECT_EQ(f.daily_peaks.front().value, 40);
  EXPECT_EQ(f.daily_peaks.back().day, kLast);
  EXPECT_EQ(f.daily_peaks.back().value, 49);
  EXPECT_NEAR(f.slope_per_day.value_or(0), 1.5, 1e-12);
  EXPECT_NEAR(f.intercept.value_or(0), 40, 1e-12);
  EXPECT_NEAR(f.r_squared.value_or(0), 1, 1e-12);
  EXPECT_EQ(f.days_to_target, 20);
  EXPECT_EQ(f.reaches_at, kLast + absl::Hours(24 * 20));
  EXPECT_EQ(f.reason, "");

  // Flat: the same 7 periods, no forecast, with the reason.
  const Forecast flat =
      ForecastHeadroom(Input(FiveMinute(kLast, std::vector<double>(7, 40)), 7, kLast));
  ExpectNoForecast(flat);
  EXPECT_EQ(flat.daily_peaks.size(), 7u);
  EXPECT_EQ(flat.reason, "the daily peaks do not grow (slope 0.00 a day)");
}

TEST(ForecastDailyPeaksTest, SevenDaysOfFiveMinutePointsAreSevenCompletePeriods) {
  // The oldest period, (kLast - 7 d, kLast - 6 d], starts before the window by as long as the
  // window ends after the last point: up to kMaxUncoveredPeriodStart (1 hour) it is complete.
  const Points points = FiveMinute(kLast, Linear(40, 1.5, 7));
  const auto count = [&](absl::Duration after_last) {
    return DailyPeaks(points, kLast + after_last - absl::Hours(24 * 7), kLast + after_last).size();
  };
  EXPECT_EQ(count(absl::ZeroDuration()), 7u);
  EXPECT_EQ(count(absl::Minutes(4)), 7u);
  EXPECT_EQ(count(absl::Minutes(60)), 7u);
  // 61 minutes: the oldest period starts more than an hour before the window: partial, so 6.
  EXPECT_EQ(count(absl::Minutes(61)), 6u);
  // 2 hours: 6, and the forecast says so.
  const Forecast f = ForecastHeadroom(Input(points, 7, kLast + absl::Hours(2)));
  EXPECT_EQ(f.daily_peaks.size(), 6u);
  EXPECT_EQ(f.reason, "6 complete days of data; a forecast needs at least 7");
}

TEST(ForecastDailyPeaksTest, PartialOldestPeriodIsNotCounted) {
  // A 7.5-day window of 5-minute points ending at the last point: 7 complete periods; the half
  // period before them lies 12 hours before the window's start, and its points (40 x 10 = 400,
  // above every complete peak) count for nothing.
  Points points = FiveMinute(kLast, Linear(40, 1.5, 7));
  const absl::Time oldest_start = kLast - absl::Hours(24 * 7);
  for (int m = 5; m <= 12 * 60; m += 5) {
    points.emplace_back(Unix(oldest_start - absl::Minutes(m)), 400);
  }
  const absl::Time window_start = kLast - absl::Hours(24 * 7 + 12);
  const std::vector<DailyPeak> peaks = DailyPeaks(points, window_start, kLast);
  ASSERT_EQ(peaks.size(), 7u);
  EXPECT_EQ(peaks.front().day, kLast - absl::Hours(24 * 6));
  EXPECT_EQ(peaks.front().value, 40);
  for (const DailyPeak& p : peaks) EXPECT_LT(p.value, 400);
}

TEST(ForecastDailyPeaksTest, APointOnABoundaryEndsTheOlderPeriod) {
  // Period k is (last - (k+1) d, last - k d]: a point exactly 24 hours before the last one ends
  // period 1 (peak 50 there, not in period 0); one a second later opens period 0.
  const absl::Time last = kLast;
  const Points points = {{Unix(last), 10},
                         {Unix(last - absl::Hours(24)), 50},
                         {Unix(last - absl::Hours(24) + absl::Seconds(1)), 20},
                         {Unix(last - absl::Hours(48) + absl::Seconds(1)), 30}};
  const std::vector<DailyPeak> peaks = DailyPeaks(points, last - absl::Hours(48), last);
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].day, last - absl::Hours(24));
  EXPECT_EQ(peaks[0].value, 50);
  EXPECT_EQ(peaks[1].day, last);
  EXPECT_EQ(peaks[1].value, 20);
}

TEST(ForecastHeadroomTest, DaysToTargetRoundDown) {
  // Peaks 40.5 + x for x = 0..13: slope 1, intercept 40.5, 53.5 at x = 13; 80 is 26.5 days
  // later, rounded down to 26 (Dec 24 00:00, 26 days after the last point).
  const Forecast f = ForecastHeadroom(DailyInput(Linear(40.5, 1, 14)));
  EXPECT_NEAR(f.intercept.value_or(0), 40.5, 1e-12);
  EXPECT_EQ(f.days_to_target, 26);
  EXPECT_EQ(f.reaches_at, Day(2026, 12, 24));
}

TEST(ForecastHeadroomTest, RoundingErrorDoesNotCostADay) {
  // Peaks 40.0, 40.1, ..., 40.6 at x = 0..6: slope 0.1, 40.6 at x = 6; 41.5 is reached at x = 15,
  // 9 days later. 0.1 is not exact in binary and the fit in doubles gives 8.99999999999992 days,
  // which must still be 9, not 8.
  const Forecast f = ForecastHeadroom(DailyInput(Linear(40, 0.1, 7), 41.5));
  EXPECT_EQ(f.days_to_target, 9);
}

TEST(ForecastHeadroomTest, FlatSeriesDoesNotGrow) {
  // Every peak 60: Sxy = 0, so slope 0; all y equal (Syy = 0), so R² is 0 by definition.
  const Forecast f = ForecastHeadroom(DailyInput(std::vector<double>(14, 60)));
  ExpectNoForecast(f);
  EXPECT_EQ(f.daily_peaks.size(), 14u);
  EXPECT_EQ(f.slope_per_day, 0.0);
  EXPECT_EQ(f.r_squared, 0.0);
  EXPECT_EQ(f.reason, "the daily peaks do not grow (slope 0.00 a day)");
}

TEST(ForecastHeadroomTest, FallingSeriesDoesNotGrow) {
  // Peaks 60 - 0.2 x: slope -0.2 (R² 1, but the slope is checked first).
  const Forecast f = ForecastHeadroom(DailyInput(Linear(60, -0.2, 14)));
  ExpectNoForecast(f);
  EXPECT_NEAR(f.slope_per_day.value_or(0), -0.2, 1e-9);
  EXPECT_NEAR(f.r_squared.value_or(0), 1.0, 1e-9);
  EXPECT_EQ(f.reason, "the daily peaks do not grow (slope -0.20 a day)");
  // Falling by 0.001 a day: slope -0.001, written to 2 decimals as 0.00, not "-0.00".
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(60, -0.001, 14))).reason,
            "the daily peaks do not grow (slope 0.00 a day)");
}

TEST(ForecastHeadroomTest, ThreeDaysAreTooFew) {
  // A 3-day window: 3 peaks (40, 41, 42). The line is still fitted (slope 1), but no forecast.
  const Forecast f = ForecastHeadroom(DailyInput(Linear(40, 1, 3)));
  ExpectNoForecast(f);
  EXPECT_EQ(f.daily_peaks.size(), 3u);
  EXPECT_NEAR(f.slope_per_day.value_or(0), 1.0, 1e-12);
  EXPECT_EQ(f.reason, "3 complete days of data; a forecast needs at least 7");
}

TEST(ForecastHeadroomTest, SixDaysAreTooFewSevenAreEnough) {
  // The bar is kMinForecastDailyPeaks = 7. Peaks 40 + x: with 7 days, 46 at x = 6 and 80 is 34
  // days later; with 6, no forecast.
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(40, 1, 6))).reason,
            "6 complete days of data; a forecast needs at least 7");
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(40, 1, 7))).days_to_target, 34);
}

TEST(ForecastHeadroomTest, NoisySeriesExplainsTooLittle) {
  // Seven peaks 50, 60, 50, 60, 50, 60, 55 at x = 0..6. x mean 3, y mean 385 / 7 = 55.
  // x - 3: -3 -2 -1 0 1 2 3; y - 55: -5 5 -5 5 -5 5 0.
  // Sxx = 9+4+1+0+1+4+9 = 28; Sxy = 15-10+5+0-5+10+0 = 15; Syy = 6 x 25 = 150.
  // slope = 15 / 28 = 0.5357 (growing), R² = 15² / (28 x 150) = 225 / 4200 = 0.0536.
  const Forecast f = ForecastHeadroom(DailyInput({50, 60, 50, 60, 50, 60, 55}));
  ExpectNoForecast(f);
  EXPECT_NEAR(f.slope_per_day.value_or(0), 15.0 / 28.0, 1e-12);
  EXPECT_NEAR(f.intercept.value_or(0), 55 - 3 * 15.0 / 28.0, 1e-12);
  EXPECT_NEAR(f.r_squared.value_or(0), 225.0 / 4200.0, 1e-12);
  EXPECT_EQ(f.reason, "the trend explains too little of the daily peaks (R² 0.05, below 0.5)");
}

TEST(ForecastHeadroomTest, VerySlowGrowthIsBeyondAYear) {
  // Peaks 40 + 0.01 x for x = 0..13: 40.13 at x = 13; 80 is 39.87 / 0.01 = 3987 days later.
  const Forecast f = ForecastHeadroom(DailyInput(Linear(40, 0.01, 14)));
  ExpectNoForecast(f);
  EXPECT_NEAR(f.slope_per_day.value_or(0), 0.01, 1e-9);
  EXPECT_EQ(f.reason, "the trend reaches 80% in more than 365 days");
}

TEST(ForecastHeadroomTest, ThreeHundredSixtyFiveDaysIsTheLastForecast) {
  // Peaks 40 + x / 8 (exact in binary) for x = 0..13: 41.625 at x = 13. A target of
  // 41.625 + 365 / 8 = 87.25 is 365 days later (allowed); 87.375 is 366 days later, and the
  // reason writes it to a tenth: 87.4%.
  const std::vector<double> peaks = Linear(40, 0.125, 14);
  const Forecast at = ForecastHeadroom(DailyInput(peaks, 87.25));
  EXPECT_EQ(at.days_to_target, 365);
  EXPECT_EQ(at.reaches_at, kMidnight + absl::Hours(24 * 365));
  const Forecast beyond = ForecastHeadroom(DailyInput(peaks, 87.375));
  ExpectNoForecast(beyond);
  EXPECT_EQ(beyond.reason, "the trend reaches 87.4% in more than 365 days");
}

TEST(ForecastHeadroomTest, TargetIsWrittenAsAPercent) {
  // Peaks 40 + 0.01 x: the line is 40.13 at x = 13 and grows 0.01 a day, so any target from 44
  // up is more than 365 days away (40.13 + 3.66 = 43.79). The target is written to a tenth
  // without a trailing ".0"; a target too large to multiply by 10 is written as it is; -0 as 0.
  const std::vector<double> peaks = Linear(40, 0.01, 14);
  EXPECT_EQ(ForecastHeadroom(DailyInput(peaks, 90)).reason,
            "the trend reaches 90% in more than 365 days");
  EXPECT_EQ(ForecastHeadroom(DailyInput(peaks, 75.25)).reason,
            "the trend reaches 75.3% in more than 365 days");
  EXPECT_EQ(ForecastHeadroom(DailyInput(peaks, kMax)).reason,
            "the trend reaches 1.79769e+308% in more than 365 days");
  // Peaks -100 + 0.01 x: -99.87 at x = 13, and 0 is 9987 days later.
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(-100, 0.01, 14), -0.0)).reason,
            "the trend reaches 0% in more than 365 days");
}

TEST(ForecastHeadroomTest, AlreadyAtOrAboveTargetIsZeroDays) {
  // Peaks 75 + x: the line is 88 at x = 13, above 80: 0 days, at the last point (Nov 28 00:00).
  const Forecast above = ForecastHeadroom(DailyInput(Linear(75, 1, 14)));
  EXPECT_EQ(above.days_to_target, 0);
  EXPECT_EQ(above.reaches_at, kMidnight);
  EXPECT_EQ(above.reason, "");
  // Peaks 67 + x: the line is exactly 80 at x = 13: at the target counts, 0 days.
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(67, 1, 14))).days_to_target, 0);
  // Peaks 66 + x: 79 at x = 13, 80 a day later.
  EXPECT_EQ(ForecastHeadroom(DailyInput(Linear(66, 1, 14))).days_to_target, 1);
}

TEST(ForecastHeadroomTest, NonFinitePointsAreDropped) {
  // The series of the first test, with NaN and infinite points at every day's 14:00 and 15:00:
  // were +inf kept it would be every peak, were NaN compared it would poison the max. Dropped,
  // the answer is the first test's: 14 peaks 40..53, 27 days.
  ForecastInput input = DailyInput(Linear(40, 1, 14));
  for (int i = 0; i < 14; ++i) {
    const absl::Time day = Day(2026, 11, 14) + absl::Hours(24 * i);
    input.points.emplace_back(Unix(day + absl::Hours(14)), kNaN);
    input.points.emplace_back(Unix(day + absl::Hours(15)), kInf);
    input.points.emplace_back(Unix(day + absl::Hours(15)), -kInf);
  }
  const Forecast f = ForecastHeadroom(input);
  ExpectAllFinite(f);
  ASSERT_EQ(f.daily_peaks.size(), 14u);
  EXPECT_EQ(f.daily_peaks.front().value, 40);
  EXPECT_EQ(f.daily_peaks.back().value, 53);
  EXPECT_EQ(f.days_to_target, 27);
}

TEST(ForecastHeadroomTest, EmptyInputHasNoPeaks) {
  const Forecast f = ForecastHeadroom(Input({}, 14));
  ExpectNoForecast(f);
  EXPECT_TRUE(f.daily_peaks.empty());
  EXPECT_FALSE(f.slope_per_day.has_value());
  EXPECT_FALSE(f.intercept.has_value());
  EXPECT_FALSE(f.r_squared.has_value());
  EXPECT_EQ(f.reason, "0 complete days of data; a forecast needs at least 7");
}

TEST(ForecastHeadroomTest, OneDayIsNotFitted) {
  // One peak: no line (it needs two), and the count in the singular.
  const Forecast f = ForecastHeadroom(DailyInput({40}));
  ExpectNoForecast(f);
  EXPECT_EQ(f.daily_peaks.size(), 1u);
  EXPECT_FALSE(f.slope_per_day.has_value());
  EXPECT_EQ(f.reason, "1 complete day of data; a forecast needs at least 7");
}

TEST(ForecastHeadroomTest, NonFiniteTargetIsNoForecast) {
  for (double target : {kNaN, kInf, -kInf}) {
    const Forecast f = ForecastHeadroom(DailyInput(Linear(40, 1, 14), target));
    ExpectNoForecast(f);
    EXPECT_EQ(f.reason, "the target is not a finite number");
  }
}

TEST(ForecastHeadroomTest, HugePeaksGiveNoInfinity) {
  // Seven days at -max, seven at +max (a step): in doubles, y - mean and the sums of squares
  // would overflow. Scaled: y = -1, +1 around mean 0; Sxy = 2 x (0.5 + 1.5 + ... + 6.5) = 49,
  // Sxx = 227.5, slope 0.215 a day times 2^1024 fits, but the intercept, -6.5 x slope, does not:
  // no line, with its reason.
  std::vector<double> step(7, -kMax);
  step.insert(step.end(), 7, kMax);
  const Forecast f = ForecastHeadroom(DailyInput(step));
  ExpectNoForecast(f);
  EXPECT_EQ(f.daily_peaks.size(), 14u);
  EXPECT_FALSE(f.slope_per_day.has_value());
  EXPECT_EQ(f.reason, "the daily peaks are too large or too far apart to fit a line");

  // Alternating -max, +max: y = -1, +1 scaled, Sxy = (1+3+...+13) - (0+2+...+12) = 49 - 42 = 7,
  // slope 7 / 227.5 (x 2^1024 = 5.5e306), intercept -6.5 x that, R² = 7² / (227.5 x 14) = 0.0154.
  std::vector<double> alternating(14);
  for (int i = 0; i < 14; ++i) alternating[i] = i % 2 == 0 ? -kMax : kMax;
  const Forecast g = ForecastHeadroom(DailyInput(alternating));
  ExpectNoForecast(g);
  EXPECT_NEAR(g.r_squared.value_or(-1), 49 / (227.5 * 14), 1e-12);
  EXPECT_NEAR(g.slope_per_day.value_or(0) / kMax, 7 / 227.5, 1e-6);
  EXPECT_EQ(g.reason, "the trend explains too little of the daily peaks (R² 0.01, below 0.5)");
}

TEST(ForecastHeadroomTest, ExtremeTimestampsGiveNoInfinity) {
  // Points at the ends of int64 seconds and between, in a window without bounds: whatever days
  // they fall on, nothing in the forecast is NaN or infinite.
  ForecastInput input;
  input.window_start = absl::InfinitePast();
  input.window_end = absl::InfiniteFuture();
  const int64_t lo = std::numeric_limits<int64_t>::min();
  const int64_t hi = std::numeric_limits<int64_t>::max();
  input.points = {{lo, 1}, {lo / 2, 2}, {lo / 4, 3}, {0, 4}, {hi / 4, 5}, {hi / 2, 6}, {hi, 7}};
  const Forecast f = ForecastHeadroom(input);
  ExpectNoForecast(f);
}

TEST(ForecastDailyPeaksTest, WindowStartIsExclusiveAndEndInclusive) {
  // The 1-day window (Nov 27 00:00, Nov 28 00:00]. A point at its exclusive start (99), one after
  // its end (98) and one before it (97) are outside. Inside, in any order with a duplicate: 10,
  // 20, 20, 15, the last at 23:00: one period, (Nov 26 23:00, Nov 27 23:00], which starts an hour
  // before the window (kMaxUncoveredPeriodStart): complete, peak 20.
  const absl::Time day = Day(2026, 11, 27);
  const Points points = {
      {Unix(day + absl::Hours(23)), 20}, {Unix(day), 99},
      {Unix(day + absl::Hours(1)), 10},  {Unix(kMidnight + absl::Seconds(1)), 98},
      {Unix(day + absl::Hours(23)), 20}, {Unix(day - absl::Hours(2)), 97},
      {Unix(day + absl::Hours(12)), 15}};
  const std::vector<DailyPeak> peaks = DailyPeaks(points, day, kMidnight);
  ASSERT_EQ(peaks.size(), 1u);
  EXPECT_EQ(peaks[0].day, day + absl::Hours(23));
  EXPECT_EQ(peaks[0].value, 20);
  // The point at the inclusive end is inside: it is the last point, and the peak of its period.
  const Points at_end = {{Unix(day + absl::Hours(12)), 15}, {Unix(kMidnight), 30}};
  const std::vector<DailyPeak> end_peaks = DailyPeaks(at_end, day, kMidnight);
  ASSERT_EQ(end_peaks.size(), 1u);
  EXPECT_EQ(end_peaks[0].day, kMidnight);
  EXPECT_EQ(end_peaks[0].value, 30);
}

TEST(ForecastDailyPeaksTest, PeriodsWithoutFinitePointsGiveNoPeak) {
  // The last point is Nov 27 03:00 (30). Period 1, (Nov 25 03:00, Nov 26 03:00], has only NaN and
  // infinite points; period 2 holds 10 (Nov 25 02:00) and starts at Nov 24 03:00, within the
  // window (Nov 24 00:00, ...]: two peaks, ascending.
  const absl::Time first = Day(2026, 11, 25);
  const Points points = {{Unix(first + absl::Hours(51)), 30},
                         {Unix(first + absl::Hours(26)), kNaN},
                         {Unix(first + absl::Hours(27)), kInf},
                         {Unix(first + absl::Hours(2)), 10}};
  const std::vector<DailyPeak> peaks = DailyPeaks(points, first - absl::Hours(24), kMidnight);
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].day, first + absl::Hours(3));
  EXPECT_EQ(peaks[0].value, 10);
  EXPECT_EQ(peaks[1].day, first + absl::Hours(51));
  EXPECT_EQ(peaks[1].value, 30);
}

TEST(ForecastDailyPeaksTest, PeriodsBefore1970) {
  // The last point is 0 s (7): period 0 is (-86400, 0] and holds -1 s (5) and 0 s: peak 7; -86400
  // s ends period 1: peak 3.
  const Points points = {{-1, 5}, {-86400, 3}, {0, 7}};
  const std::vector<DailyPeak> peaks =
      DailyPeaks(points, absl::InfinitePast(), absl::InfiniteFuture());
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].day, absl::FromUnixSeconds(-86400));
  EXPECT_EQ(peaks[0].value, 3);
  EXPECT_EQ(peaks[1].day, absl::UnixEpoch());
  EXPECT_EQ(peaks[1].value, 7);
}

// A forecast of `measure` reaching the target in `days` days, or none (with a reason).
Forecast Made(const std::string& measure, std::optional<int> days) {
  Forecast f;
  f.measure = measure;
  f.days_to_target = days;
  if (!days.has_value()) f.reason = "the daily peaks do not grow (slope 0.00 a day)";
  return f;
}

// The fit on its own, as a chart that has only the daily peaks calls it: peaks 40, 42, 41, 43 on
// 4 consecutive days. x = 0..3 (mean 1.5), y mean 41.5; Sxx = 5, Sxy = (-1.5)(-1.5) + (-0.5)(0.5)
// + (0.5)(-0.5) + (1.5)(1.5) = 4, so slope 0.8 and intercept 41.5 - 0.8 x 1.5 = 40.3; Syy = 5,
// R² = 4² / (5 x 5) = 0.64. The same line ForecastHeadroom reports for them.
TEST(ForecastTrendLineTest, FitsTheDailyPeaksAsTheForecastDoes) {
  const std::vector<DailyPeak> peaks = {{Day(2026, 11, 1), 40},
                                        {Day(2026, 11, 2), 42},
                                        {Day(2026, 11, 3), 41},
                                        {Day(2026, 11, 4), 43}};
  const std::optional<TrendLine> line = FitTrendLine(peaks);
  ASSERT_TRUE(line.has_value());
  EXPECT_NEAR(line->slope_per_day, 0.8, 1e-12);
  EXPECT_NEAR(line->intercept, 40.3, 1e-12);
  EXPECT_NEAR(line->r_squared, 0.64, 1e-12);

  ForecastInput in;
  in.points = Hourly(Day(2026, 11, 1), {40, 42, 41, 43});
  in.window_start = Day(2026, 11, 1) - absl::Seconds(1);
  in.window_end = Day(2026, 11, 5);
  const Forecast f = ForecastHeadroom(in);
  EXPECT_EQ(f.slope_per_day, line->slope_per_day);
  EXPECT_EQ(f.intercept, line->intercept);
  EXPECT_EQ(f.r_squared, line->r_squared);

  EXPECT_FALSE(FitTrendLine({peaks[0]}).has_value());
  EXPECT_FALSE(FitTrendLine({}).has_value());
}

TEST(ForecastBindingTest, PicksTheSoonest) {
  const Forecast f =
      BindingForecast({Made("cpu_pct", std::nullopt), Made("l7_rps_pct_of_capacity", 27),
                       Made("ssl", 5), Made("l4", 5), Made("throughput", 40)});
  EXPECT_EQ(f.measure, "ssl");  // 5 days, the first of equals
  EXPECT_EQ(f.days_to_target, 5);
}

TEST(ForecastBindingTest, PicksTheSoonestOfRealForecasts) {
  // CPU: peaks 40 + x, 27 days (first test). L7: peaks 60 + 2x, 86 at x = 13, already above 80:
  // 0 days. L7 binds.
  ForecastInput cpu = DailyInput(Linear(40, 1, 14));
  ForecastInput l7 = DailyInput(Linear(60, 2, 14));
  l7.measure = "l7_rps_pct_of_capacity";
  const Forecast f = BindingForecast({ForecastHeadroom(cpu), ForecastHeadroom(l7)});
  EXPECT_EQ(f.measure, "l7_rps_pct_of_capacity");
  EXPECT_EQ(f.days_to_target, 0);
}

TEST(ForecastBindingTest, NoneMadeGivesTheFirstWithItsReason) {
  ForecastInput few = DailyInput(Linear(40, 1, 3));
  few.measure = "few";
  const Forecast f = BindingForecast(
      {ForecastHeadroom(few), ForecastHeadroom(DailyInput(std::vector<double>(14, 60)))});
  EXPECT_EQ(f.measure, "few");
  EXPECT_FALSE(f.days_to_target.has_value());
  EXPECT_THAT(f.reason, HasSubstr("needs at least 7"));
}

TEST(ForecastBindingTest, EmptyHasAReason) {
  const Forecast f = BindingForecast({});
  EXPECT_FALSE(f.days_to_target.has_value());
  EXPECT_EQ(f.reason, "no measure to forecast");
}

}  // namespace
}  // namespace nsxalb::segroup
