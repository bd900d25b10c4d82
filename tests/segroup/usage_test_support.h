// Helpers the observed-load tests share (usage_test.cc, headroom_test.cc, decode_test.cc,
// estate_reader_test.cc, forecast_test.cc): times, series and an analytics collection response
// built series by series, the analysis' input, AnalyzeUsage that expects success, and finding
// look-ups.
#ifndef NSXALB_TESTS_SEGROUP_USAGE_TEST_SUPPORT_H_
#define NSXALB_TESTS_SEGROUP_USAGE_TEST_SUPPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/sizing/recommend.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup::usage_testing {

// A UTC minute.
inline absl::Time At(int y, int mo, int d, int h, int mi) {
  return absl::FromCivil(absl::CivilMinute(y, mo, d, h, mi), absl::UTCTimeZone());
}

// A time as the analytics API writes it: "2026-11-28T15:00:00+00:00".
inline std::string Iso(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%S+00:00", t, absl::UTCTimeZone());
}

// The end of the windows of the capacity tests ("now").
inline const absl::Time kNow = At(2026, 11, 28, 15, 0);

// The end of the forecast windows and their last point: a UTC midnight, so that the 24-hour
// periods that end at it (rule forecast-daily-peaks) are the UTC days before it.
inline const absl::Time kMidnight = At(2026, 11, 28, 0, 0);

// A series of `metric` for `entity` whose last value is at `last`, one value per `step` seconds;
// nullopt is a gap the Controller padded (is_null).
inline nlohmann::json Series(const std::string& metric, const std::string& entity,
                             const std::vector<std::optional<double>>& values,
                             absl::Time last = kNow, int step = 300) {
  nlohmann::json data = nlohmann::json::array();
  const int n = static_cast<int>(values.size());
  for (int i = 0; i < n; ++i) {
    const std::string ts = Iso(last - absl::Seconds(static_cast<int64_t>(n - 1 - i) * step));
    if (values[i].has_value()) {
      data.push_back({{"timestamp", ts}, {"value", *values[i]}});
    } else {
      data.push_back({{"timestamp", ts}, {"value", 0}, {"is_null", true}});
    }
  }
  return {{"header", {{"name", metric}, {"entity_uuid", entity}, {"units", "PER_SECOND"}}},
          {"data", data}};
}

// `n` values of `v`, for Series.
inline std::vector<std::optional<double>> Constant(int n, double v) {
  return std::vector<std::optional<double>>(n, v);
}

// The analysis' input: `ses` answering `response` over `window` ending at `now` on NSX-T, with
// the group's `settings` and the `declared` workload.
inline UsageInput Input(std::vector<ObservedSe> ses, nlohmann::json response, absl::Duration window,
                        nlohmann::json settings = nlohmann::json::object(),
                        nlohmann::json declared = nullptr, absl::Time now = kNow) {
  UsageInput in;
  in.ses = std::move(ses);
  in.collection_response = std::move(response);
  in.query.window = window;
  in.now = now;
  in.platform = sizing::Platform::kNsxt;
  in.settings = std::move(settings);
  in.declared_workload = std::move(declared);
  return in;
}

// A collection response with SE stats and per-SE virtual-service series.
class Response {
 public:
  Response& Se(const std::string& se, nlohmann::json series) {
    body_["series"][kSeStatsRequestId][se].push_back(std::move(series));
    return *this;
  }
  Response& Vs(const std::string& se, nlohmann::json series, const std::string& entity = "*") {
    body_["series"][std::string(kVsOnSeRequestPrefix) + se][entity].push_back(std::move(series));
    return *this;
  }
  nlohmann::json json() const { return body_; }

 private:
  nlohmann::json body_ = {{"series", nlohmann::json::object()}};
};

// AnalyzeUsage, expected to succeed (an empty report otherwise).
inline UsageReport Analyze(const UsageInput& in) {
  absl::StatusOr<UsageReport> r = AnalyzeUsage(in);
  EXPECT_THAT(r, ::nsxalb::testing::IsOk());
  return r.ok() ? *std::move(r) : UsageReport();
}

// The first finding of `rule`, or nullptr.
inline const Finding* FindRule(const std::vector<Finding>& findings, const std::string& rule) {
  for (const Finding& f : findings) {
    if (f.finding.rule == rule) return &f;
  }
  return nullptr;
}

// Every finding's text, a line each, for failure messages.
inline std::string AllText(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) absl::StrAppend(&out, FindingText(f), "\n");
  return out;
}

}  // namespace nsxalb::segroup::usage_testing

#endif  // NSXALB_TESTS_SEGROUP_USAGE_TEST_SUPPORT_H_
