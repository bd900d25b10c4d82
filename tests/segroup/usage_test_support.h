// Helpers the observed-load tests share (usage_test.cc, headroom_test.cc): times, an analytics
// collection response built series by series, AnalyzeUsage that expects success, and finding
// look-ups.
#ifndef NSXALB_TESTS_SEGROUP_USAGE_TEST_SUPPORT_H_
#define NSXALB_TESTS_SEGROUP_USAGE_TEST_SUPPORT_H_

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
