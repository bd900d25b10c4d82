// Implementation of query.h.
#include "plugin/segroup/usage/query.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/civil_time.h"
#include "plugin/common/limits.h"

namespace nsxalb::segroup {
namespace {

using Json = nlohmann::json;

constexpr int kShortStepSeconds = 300;
constexpr int kLongStepSeconds = 3600;
constexpr absl::Duration kShortStepUpTo = absl::Hours(24 * 7);

}  // namespace

absl::StatusOr<UsageStatistic> ParseUsageStatistic(std::string_view text) {
  if (text == "max") return UsageStatistic::kMax;
  if (text == "p99") return UsageStatistic::kP99;
  if (text == "p95") return UsageStatistic::kP95;
  return absl::InvalidArgumentError(absl::StrCat(
      "statistic must be \"max\", \"p99\" or \"p95\", got \"", std::string(text), "\""));
}

const char* UsageStatisticName(UsageStatistic statistic) {
  switch (statistic) {
    case UsageStatistic::kMax:
      return "max";
    case UsageStatistic::kP99:
      return "p99";
    case UsageStatistic::kP95:
      return "p95";
  }
  return "max";
}

absl::StatusOr<absl::Duration> ParseUsageWindow(std::string_view text) {
  const std::string range = absl::StrCat("from ", UsageWindowText(kMinUsageWindow), " to ",
                                         UsageWindowText(kMaxUsageWindow));
  absl::Duration d;
  bool parsed = false;
  if (text.size() >= 2 && text.size() <= 7 && text.back() == 'd') {
    int days = 0;
    const std::string_view digits = text.substr(0, text.size() - 1);
    if (std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit) &&
        absl::SimpleAtoi(absl::string_view(digits.data(), digits.size()), &days)) {
      d = absl::Hours(24) * days;
      parsed = true;
    }
  }
  if (!parsed) parsed = absl::ParseDuration(std::string(text), &d);
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "window \"", std::string(text),
        "\" is not a duration: use a number and a unit (such as \"24h\", \"90m\" or \"7d\"), ",
        range));
  }
  if (d < kMinUsageWindow || d > kMaxUsageWindow) {
    return absl::InvalidArgumentError(
        absl::StrCat("window must be ", range, ", got \"", std::string(text), "\""));
  }
  return d;
}

std::string UsageWindowText(absl::Duration window) {
  const absl::Duration day = absl::Hours(24);
  if (window > absl::ZeroDuration() && window % day == absl::ZeroDuration()) {
    return absl::StrCat(window / day, "d");
  }
  return absl::FormatDuration(window);
}

std::string UsageWindowProse(absl::Duration window) {
  const auto plural = [](int64_t n, const char* unit) {
    return absl::StrCat(n, " ", unit, n == 1 ? "" : "s");
  };
  const absl::Duration day = absl::Hours(24);
  if (window >= 2 * day && window % day == absl::ZeroDuration()) {
    return plural(window / day, "day");
  }
  if (window % absl::Hours(1) == absl::ZeroDuration()) {
    return plural(window / absl::Hours(1), "hour");
  }
  if (window % absl::Minutes(1) == absl::ZeroDuration()) {
    return plural(window / absl::Minutes(1), "minute");
  }
  return absl::FormatDuration(window);
}

int UsageStepSeconds(absl::Duration window) {
  return window <= kShortStepUpTo ? kShortStepSeconds : kLongStepSeconds;
}

int UsageExpectedSamples(absl::Duration window) {
  absl::Duration rest;
  const int64_t n = absl::IDivDuration(window, absl::Seconds(UsageStepSeconds(window)), &rest);
  return static_cast<int>(
      std::clamp<int64_t>(n, 0, static_cast<int64_t>(limits::kMaxUsagePointsPerSeries)));
}

Json UsageCollectionRequest(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                            absl::Time now) {
  const int step = UsageStepSeconds(query.window);
  const int limit = UsageExpectedSamples(query.window);
  const std::string start = UsageIsoTime(now - query.window);
  const std::string stop = UsageIsoTime(now);
  const auto window = [&](Json request) {
    request["step"] = step;
    request["limit"] = limit;
    request["start"] = start;
    request["stop"] = stop;
    request["pad_missing_data"] = false;
    return request;
  };
  std::vector<std::string> uuids;
  uuids.reserve(ses.size());
  for (const ObservedSe& se : ses) uuids.push_back(se.uuid);
  Json requests = Json::array();
  requests.push_back(window(Json{{"id", kSeStatsRequestId},
                                 {"entity_uuid", absl::StrJoin(uuids, ",")},
                                 {"metric_id", kSeStatsMetricIds}}));
  for (const ObservedSe& se : ses) {
    requests.push_back(window(Json{{"id", absl::StrCat(kVsOnSeRequestPrefix, se.uuid)},
                                   {"entity_uuid", "*"},
                                   {"serviceengine_uuid", se.uuid},
                                   {"aggregate_entity", true},
                                   {"metric_id", kVsOnSeMetricIds}}));
  }
  return Json{{"metric_requests", std::move(requests)}};
}

std::string UsageTimeText(absl::Time t) {
  return absl::StrCat(absl::FormatTime("%b ", t, absl::UTCTimeZone()),
                      absl::ToCivilDay(t, absl::UTCTimeZone()).day(),
                      absl::FormatTime(" %H:%M UTC", t, absl::UTCTimeZone()));
}

std::string UsageIsoTime(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

}  // namespace nsxalb::segroup
