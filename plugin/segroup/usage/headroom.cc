#include "plugin/segroup/usage/headroom.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "plugin/segroup/usage/report.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using Json = nlohmann::json;

// True when the declared plan's configuration sets `name` (it is not recommended) and the plan
// has it at all.
bool HandSet(const SizingPlan& declared, const char* name) {
  return declared.recommended.count(name) == 0;
}

// "3 SEs of 8 vCPUs": the SEs the group runs now, by their real vCPUs ("3 SEs of 4-8 vCPUs" when
// they differ).
std::string SesNowText(const UsageReport& report) {
  int low = 0, high = 0;
  for (const SeUsage& se : report.service_engines) {
    if (se.vcpus <= 0) continue;
    low = low == 0 ? se.vcpus : std::min(low, se.vcpus);
    high = std::max(high, se.vcpus);
  }
  const int count = static_cast<int>(report.service_engines.size());
  if (low == high) return sz::FormatShape(count, high);
  return absl::StrCat(sz::FormatCount(count, "SE", "SEs"), " of ", low, "-", high, " vCPUs");
}

// Where observed-capacity-unused stands: the hand-set size that holds the capacity.
std::string CapacityAttribute(const UsageReport& report, const SizingPlan& declared) {
  if (!declared.planned_shape.has_value() || !report.recommendation.has_value() ||
      !report.recommendation->planned_shape.has_value()) {
    return "workload";
  }
  const sz::Recommendation& planned = *declared.planned_shape;
  const sz::Recommendation& needed = *report.recommendation->planned_shape;
  if (HandSet(declared, "vcpus_per_se") && planned.vcpus_per_se.value > needed.vcpus_per_se.value) {
    return "vcpus_per_se";
  }
  if (HandSet(declared, "max_se") && planned.max_se.value > needed.max_se.value) return "max_se";
  if (HandSet(declared, "min_scaleout_per_vs") &&
      planned.min_scaleout_per_vs.value > needed.min_scaleout_per_vs.value) {
    return "min_scaleout_per_vs";
  }
  return "workload";
}

// "the buffer SE included", "the standby included", or "" for active/active.
std::string HaIncludedText(const sz::Recommendation& shape) {
  switch (shape.ha_mode) {
    case sz::HaMode::kShared:
      return shape.buffer_se == 0   ? ""
             : shape.buffer_se == 1 ? "the buffer SE included"
                                    : "the buffer SEs included";
    case sz::HaMode::kLegacyActiveStandby:
      return "the standby included";
    case sz::HaMode::kSharedPair:
      return "";
  }
  return "";
}

// "Jan 1": a day as the forecast names it.
std::string DayText(absl::Time day) { return absl::FormatTime("%b %-d", day, absl::UTCTimeZone()); }

}  // namespace

std::optional<double> ServiceUnitsNow(const std::vector<int>& se_vcpus,
                                      const sz::ServiceUnitSettings& settings) {
  if (se_vcpus.empty()) return std::nullopt;
  double total = 0;
  for (int vcpus : se_vcpus) {
    if (vcpus <= 0) return std::nullopt;
    total += sz::ServiceUnitsPerSe(vcpus, settings).value;
  }
  return total;
}

ServiceUnitsUsage ReclaimableServiceUnits(std::optional<double> now,
                                          std::optional<double> recommended, int samples,
                                          int expected_samples) {
  ServiceUnitsUsage out;
  out.now = now;
  out.recommended = recommended;
  if (!now.has_value()) {
    out.reason = "the vCPUs of the group's SEs are not known";
  } else if (!recommended.has_value()) {
    out.reason = "no recommendation from the observed load";
  } else if (samples * 2 < expected_samples) {
    out.reason = absl::StrCat("the window holds ", sz::FormatInt(samples), " of ",
                              sz::FormatInt(expected_samples),
                              " samples, fewer than half: a peak among the missing ones is not "
                              "seen (rule ",
                              rules::kReclaimNeedsHalfTheSamples, ")");
  } else {
    out.reclaimable = std::max(0.0, *now - *recommended);
  }
  return out;
}

std::string AtRiskReason(const UsageReport& report, int forecast_days) {
  const SeUsage* hottest = nullptr;
  for (const SeUsage& se : report.service_engines) {
    if (se.cpu.value.has_value() && *se.cpu.value > report.target_pct &&
        (hottest == nullptr || *se.cpu.value > *hottest->cpu.value)) {
      hottest = &se;
    }
  }
  if (hottest != nullptr) {
    return absl::StrCat(SeLabel(*hottest), " ran at ",
                        usage_internal::PercentText(*hottest->cpu.value), " CPU, over the group's ",
                        report.target_pct, "% target");
  }
  const std::optional<int>& days = report.forecast.days_to_target;
  if (days.has_value() && *days <= forecast_days) {
    return absl::StrCat("the forecast reaches ", report.target_pct, "% in ",
                        sz::FormatCount(*days, "day", "days"), ", within ", forecast_days);
  }
  return "";
}

void WithholdReclaim(UsageReport& report, int forecast_days) {
  ServiceUnitsUsage& su = report.service_units;
  if (!su.reclaimable.has_value()) return;
  std::string why = AtRiskReason(report, forecast_days);
  if (!why.empty()) {
    absl::StrAppend(&why, ": a group at risk gives nothing back");
  } else if (!report.cpu_floor.met && report.cpu_floor.used_vcpus.has_value()) {
    why = absl::StrCat("the recommendation does not hold the ",
                       absl::StrFormat("%.2f", *report.cpu_floor.used_vcpus),
                       " vCPUs the SEs used at their peak at the ", report.target_pct, "% target");
  } else {
    return;
  }
  su.reclaimable = 0;
  su.reason = absl::StrCat(why, " (rule ", rules::kObservedCpuFloor, ")");
}

std::string RecommendationText(const UsageReport& report) {
  if (!report.recommendation.has_value() || !report.recommendation->planned_shape.has_value() ||
      !report.recommendation->summary.has_value()) {
    return "";
  }
  const sz::Recommendation& shape = *report.recommendation->planned_shape;
  std::string out = sz::FormatShape(shape.se_count.value, shape.vcpus_per_se.value);
  // The SUs count max_se: say what the HA mode adds to the active SEs.
  if (const int extra = shape.max_se.value - shape.se_count.value; extra > 0) {
    absl::StrAppend(&out, " + ",
                    shape.ha_mode == sz::HaMode::kLegacyActiveStandby
                        ? sz::FormatCount(extra, "standby", "standbys")
                        : sz::FormatCount(extra, "buffer SE", "buffer SEs"));
  }
  if (report.recommendation->summary->service_units.has_value()) {
    absl::StrAppend(&out, ", ",
                    sz::FormatServiceUnits(*report.recommendation->summary->service_units));
  }
  return out;
}

std::optional<Finding> CapacityUnusedFinding(const UsageReport& report,
                                             const SizingPlan& declared) {
  const ServiceUnitsUsage& su = report.service_units;
  if (!su.reclaimable.has_value() || !su.now.has_value() || !su.recommended.has_value() ||
      !report.recommendation.has_value() || !report.recommendation->planned_shape.has_value()) {
    return std::nullopt;
  }
  const double reclaimable = *su.reclaimable;
  if (reclaimable < kMinReclaimServiceUnits || reclaimable < kMinReclaimShare * *su.now) {
    return std::nullopt;
  }
  const SizingPlan& rec = *report.recommendation;
  const sz::Recommendation& shape = *rec.planned_shape;
  // The recommendation counts its max_se: the active SEs and what the HA mode adds.
  const int max_se = shape.max_se.value;
  std::string needed = absl::StrCat(sz::FormatShape(max_se, shape.vcpus_per_se.value), " (",
                                    sz::FormatServiceUnits(*su.recommended));
  if (const std::string ha = HaIncludedText(shape); !ha.empty()) absl::StrAppend(&needed, ", ", ha);
  absl::StrAppend(&needed, ")");
  std::string at;
  if (rec.summary.has_value() && rec.summary->utilization_pct.has_value()) {
    at = absl::StrCat(" at ", sz::FormatPercent(*rec.summary->utilization_pct));
  }
  const bool is_max = report.statistic == UsageStatistic::kMax;
  const std::string what = is_max
                               ? "an observed peak"
                               : absl::StrCat("an observed ", UsageStatisticName(report.statistic));
  std::string summary =
      absl::StrCat(SesNowText(report), " (", sz::FormatServiceUnits(*su.now), ") carried ", what,
                   " that ", needed, sz::Agree(max_se, " carries", " carry"), at, ": ",
                   sz::FormatServiceUnits(reclaimable), " reclaimable");
  std::string detail = absl::StrCat(
      "Over the last ", UsageWindowProse(report.window), ", the group's SEs consumed ",
      sz::FormatServiceUnits(*su.now), " (rule ", rules::kServiceUnitsNow,
      ") and the observed load needs ", sz::FormatServiceUnits(*su.recommended),
      " at the group's target, in its HA mode. An over-sized group is waste, not a risk: this "
      "is a warning under every sizing_policy.");
  const std::optional<double> declared_units =
      declared.summary.has_value() ? declared.summary->service_units : std::nullopt;
  if (declared_units.has_value() && *declared_units > *su.recommended) {
    absl::StrAppend(&detail, " The declared workload plans ",
                    sz::FormatServiceUnits(*declared_units), ", the observed load needs ",
                    sz::FormatServiceUnits(*su.recommended),
                    ": lower the declared workload to what was observed, or keep the capacity for "
                    "a peak you know is coming.");
  }
  return ObservedLoadWarning(rules::kObservedCapacityUnused, CapacityAttribute(report, declared),
                             std::move(summary), std::move(detail));
}

std::optional<Finding> ForecastFinding(const UsageReport& report, int forecast_days) {
  const Forecast& f = report.forecast;
  if (!f.days_to_target.has_value() || *f.days_to_target > forecast_days ||
      !f.slope_per_day.has_value() || !f.r_squared.has_value() || f.daily_peaks.empty()) {
    return std::nullopt;
  }
  const int days = static_cast<int>(f.daily_peaks.size());
  const bool cpu = f.measure == kCpuForecastMeasure;
  const std::string unit = cpu ? "CPU point" : "point";
  const std::string slope = absl::StrFormat("%+.1f", *f.slope_per_day);
  std::string when = *f.days_to_target == 0
                         ? std::string("already")
                         : absl::StrCat("in ", sz::FormatCount(*f.days_to_target, "day", "days"));
  if (f.reaches_at.has_value() && *f.days_to_target > 0) {
    absl::StrAppend(&when, " (", DayText(*f.reaches_at), ")");
  }
  std::string summary =
      absl::StrFormat("at the %d-day trend (%s %s%s a day, R² %.2f) %s reaches %s %s", days, slope,
                      unit, std::fabs(*f.slope_per_day) == 1.0 ? "" : "s", *f.r_squared,
                      report.forecast_subject, absl::StrCat(report.target_pct, "%"), when);
  std::string detail = absl::StrCat(
      "A least-squares line through the daily peaks of ", report.forecast_subject,
      " over the last ", UsageWindowProse(report.window), " reaches the group's ",
      report.target_pct, "% target within observed_load's forecast_days (", forecast_days,
      "). A forecast is not a measurement: this is a warning under every sizing_policy. Plan the "
      "capacity before that day: ",
      RecommendationText(report).empty()
          ? std::string("raise the workload to the growth you expect.")
          : absl::StrCat("the observed load today needs ", RecommendationText(report), "."));
  return ObservedLoadWarning(rules::kForecastReachesTarget, "workload", std::move(summary),
                             std::move(detail));
}

}  // namespace nsxalb::segroup
