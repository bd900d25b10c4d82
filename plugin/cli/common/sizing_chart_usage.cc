// Implementation of sizing_chart_usage.h: reads the members the chart draws, each checked for its
// JSON type and named by its path when it cannot be read.
#include "plugin/cli/common/sizing_chart_usage.h"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "plugin/common/status_macros.h"
#include "plugin/segroup/usage/forecast.h"

namespace nsxalb::cli {
namespace {

using Json = nlohmann::json;

absl::Status Invalid(const std::string& path, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", what));
}

// "a number is needed, not a string".
std::string Needed(const char* kind, const Json& value) {
  return absl::StrCat(kind, " is needed, not ", value.is_null() ? "null" : value.type_name());
}

// The member `key` of `object`; nullptr when it is absent or null.
const Json* Member(const Json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A finite number.
absl::StatusOr<double> Number(const Json& value, const std::string& path) {
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    return Invalid(path, Needed("a number", value));
  }
  return value.get<double>();
}

// A day as UsageReportJson writes it, "2026-11-14": 00:00 UTC of that day.
absl::StatusOr<absl::Time> Day(const Json& value, const std::string& path) {
  if (!value.is_string()) return Invalid(path, Needed("a day (YYYY-MM-DD)", value));
  absl::Time day;
  std::string error;
  if (!absl::ParseTime("%Y-%m-%d", value.get<std::string>(), absl::UTCTimeZone(), &day, &error)) {
    return Invalid(path,
                   absl::StrCat("\"", value.get<std::string>(), "\" is not a day (YYYY-MM-DD)"));
  }
  return day;
}

// The string member `key` of `object` at `path`; "" when absent or null.
absl::StatusOr<std::string> OptionalText(const Json& object, const std::string& path,
                                         const char* key) {
  const Json* value = Member(object, key);
  if (value == nullptr) return std::string();
  if (!value->is_string()) return Invalid(absl::StrCat(path, ".", key), Needed("a string", *value));
  return value->get<std::string>();
}

// The daily peaks at `path`: a list of {day, value} in ascending, distinct days.
absl::StatusOr<std::vector<segroup::DailyPeak>> DailyPeaks(const Json& forecast,
                                                           const std::string& path) {
  const Json* list = Member(forecast, "daily_peaks");
  if (list == nullptr || !list->is_array()) {
    return Invalid(path, Needed("a list", list == nullptr ? Json() : *list));
  }
  std::vector<segroup::DailyPeak> peaks;
  peaks.reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& item = (*list)[i];
    const std::string at = absl::StrCat(path, "[", i, "]");
    if (!item.is_object()) return Invalid(at, Needed("an object {day, value}", item));
    const Json* day = Member(item, "day");
    const Json* value = Member(item, "value");
    segroup::DailyPeak peak;
    NSXALB_ASSIGN_OR_RETURN(peak.day, Day(day == nullptr ? Json() : *day, at + ".day"));
    NSXALB_ASSIGN_OR_RETURN(peak.value, Number(value == nullptr ? Json() : *value, at + ".value"));
    if (!peaks.empty() && peak.day <= peaks.back().day) {
      return Invalid(at + ".day", absl::StrCat(day->get<std::string>(),
                                               " is not after the day before it (the days "
                                               "ascend, one peak each)"));
    }
    peaks.push_back(peak);
  }
  return peaks;
}

}  // namespace

absl::StatusOr<ChartForecast> ChartForecastFromUsageJson(const Json& usage) {
  if (!usage.is_object()) return Invalid("the usage report", Needed("an object", usage));
  const Json* forecast = Member(usage, "forecast");
  if (forecast == nullptr) {
    return Invalid("forecast",
                   "missing (`terraform-provider-nsxalb controller usage NAME --json` "
                   "writes it)");
  }
  if (!forecast->is_object()) return Invalid("forecast", Needed("an object", *forecast));

  ChartForecast chart;
  segroup::Forecast& f = chart.forecast;
  NSXALB_ASSIGN_OR_RETURN(f.daily_peaks, DailyPeaks(*forecast, "forecast.daily_peaks"));
  const Json* target = Member(*forecast, "target_pct");
  NSXALB_ASSIGN_OR_RETURN(chart.target_pct,
                          Number(target == nullptr ? Json() : *target, "forecast.target_pct"));
  if (const Json* days = Member(*forecast, "days_to_target")) {
    NSXALB_ASSIGN_OR_RETURN(const double n, Number(*days, "forecast.days_to_target"));
    if (n != std::floor(n) || n < 0 || n > segroup::kMaxForecastDays) {
      return Invalid("forecast.days_to_target",
                     absl::StrCat(days->dump(), " is not a whole number of days 0-",
                                  segroup::kMaxForecastDays));
    }
    f.days_to_target = static_cast<int>(n);
  }
  if (const Json* reaches_on = Member(*forecast, "reaches_on")) {
    NSXALB_ASSIGN_OR_RETURN(f.reaches_at, Day(*reaches_on, "forecast.reaches_on"));
  }
  NSXALB_ASSIGN_OR_RETURN(f.reason, OptionalText(*forecast, "forecast", "reason"));
  NSXALB_ASSIGN_OR_RETURN(f.measure, OptionalText(*forecast, "forecast", "measure"));
  NSXALB_ASSIGN_OR_RETURN(chart.subject, OptionalText(*forecast, "forecast", "subject"));
  if (const std::optional<segroup::TrendLine> line = segroup::FitTrendLine(f.daily_peaks)) {
    f.slope_per_day = line->slope_per_day;
    f.intercept = line->intercept;
    f.r_squared = line->r_squared;
  }
  return chart;
}

absl::StatusOr<std::optional<double>> ObservedPeakFromUsageJson(const Json& usage,
                                                                sizing::Metric metric) {
  if (!usage.is_object()) return Invalid("the usage report", Needed("an object", usage));
  std::string key;
  switch (metric) {
    case sizing::Metric::kL7Rps:
      key = "l7_rps";
      break;
    case sizing::Metric::kL4Cps:
      key = "l4_cps";
      break;
    case sizing::Metric::kL4OpenConns:
      key = "l4_open_conns";
      break;
    case sizing::Metric::kSslTpsEcc:
    case sizing::Metric::kSslTpsRsa:
      return std::nullopt;  // observed-handshakes-split-as-declared
    default: {
      // Throughput: the report observes one kind, the one it assumed.
      const Json* assumptions = Member(usage, "assumptions");
      const Json* kind = assumptions != nullptr && assumptions->is_object()
                             ? Member(*assumptions, "throughput_key")
                             : nullptr;
      if (kind == nullptr || !kind->is_string() ||
          kind->get<std::string>() != sizing::InfoOf(metric).key) {
        return std::nullopt;
      }
      key = "throughput_gbps";
    }
  }
  const Json* observed = Member(usage, "observed");
  if (observed == nullptr) return std::nullopt;
  if (!observed->is_object()) return Invalid("observed", Needed("an object", *observed));
  const Json* value = Member(*observed, key.c_str());
  if (value == nullptr) return std::nullopt;
  NSXALB_ASSIGN_OR_RETURN(const double peak, Number(*value, absl::StrCat("observed.", key)));
  if (peak < 0) return Invalid(absl::StrCat("observed.", key), "a peak is 0 or more");
  return peak;
}

}  // namespace nsxalb::cli
