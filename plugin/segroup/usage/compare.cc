// Implementation of compare.h.
#include "plugin/segroup/usage/compare.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/segroup/usage/headroom.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/cpu_budget.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using usage_internal::PercentText;

}  // namespace

std::vector<Finding> CompareWithDeclared(const UsageReport& report, const SizingPlan& declared,
                                         int target_pct) {
  std::vector<Finding> out;
  if (!declared.workload.has_value()) return out;
  const sz::Workload& w = *declared.workload;
  const std::string window = UsageWindowProse(report.window);
  const bool is_max = report.statistic == UsageStatistic::kMax;
  const std::string observed_word =
      is_max ? "observed peak" : absl::StrCat("observed ", UsageStatisticName(report.statistic));
  const auto when = [&](const ObservedPeak& p) {
    return p.at.has_value() ? absl::StrCat(UsageTimeText(*p.at), ", ", window) : window;
  };
  const auto demand = [&](sz::Metric m) { return w.demand.Get(m).value_or(0); };
  // " (its recommendation: 2 SEs of 6 vCPUs, 18 SUs)", or "" without one.
  const std::string recommendation =
      RecommendationText(report).empty()
          ? std::string()
          : absl::StrCat(" (its recommendation: ", RecommendationText(report), ")");

  // One observed figure against its declared demand (both in base units).
  const auto compare = [&](const ObservedPeak& peak, sz::Metric metric, double declared_base,
                           const std::string& label, const std::string& attribute) {
    if (!peak.value.has_value()) return;
    const double observed_base = sz::BaseFromDisplay(metric, *peak.value);
    if (sz::RoundForDisplay(metric, observed_base, sz::Rounding::kUp) <=
        sz::RoundForDisplay(metric, declared_base, sz::Rounding::kUp)) {
      return;
    }
    const std::string declared_text =
        declared_base > 0
            ? absl::StrCat(sz::FormatValue(metric, declared_base, sz::Rounding::kUp), " ", label)
            : absl::StrCat("no ", label);
    out.push_back(ObservedLoadWarning(
        rules::kObservedAboveDeclared, attribute,
        absl::StrCat("declared ", declared_text, "; ", observed_word, " ",
                     sz::FormatValue(metric, observed_base, sz::Rounding::kUp), " (", when(peak),
                     ")"),
        absl::StrCat("The plan is sized for the declared workload, and the group carried more; "
                     "raise ",
                     attribute, " to the observed figure, or size from the observed load",
                     recommendation, "."),
        true));
  };
  const auto key_of = [](sz::Metric m) { return absl::StrCat("workload.", sz::InfoOf(m).key); };
  compare(report.Observed(ObservedKey::kL7Rps), sz::Metric::kL7Rps, demand(sz::Metric::kL7Rps),
          sz::InfoOf(sz::Metric::kL7Rps).label, key_of(sz::Metric::kL7Rps));
  {
    const double ecc = demand(sz::Metric::kSslTpsEcc), rsa = demand(sz::Metric::kSslTpsRsa);
    const std::string attribute = rsa > 0 && ecc == 0   ? key_of(sz::Metric::kSslTpsRsa)
                                  : ecc > 0 && rsa == 0 ? key_of(sz::Metric::kSslTpsEcc)
                                                        : std::string("workload");
    compare(report.Observed(ObservedKey::kSslTps), sz::Metric::kSslTpsEcc, ecc + rsa, "SSL TPS",
            attribute);
  }
  compare(report.Observed(ObservedKey::kL4Cps), sz::Metric::kL4Cps, demand(sz::Metric::kL4Cps),
          sz::InfoOf(sz::Metric::kL4Cps).label, key_of(sz::Metric::kL4Cps));
  compare(report.Observed(ObservedKey::kL4OpenConns), sz::Metric::kL4OpenConns,
          demand(sz::Metric::kL4OpenConns), sz::InfoOf(sz::Metric::kL4OpenConns).label,
          key_of(sz::Metric::kL4OpenConns));
  if (const std::optional<sz::Metric> t = sz::MetricFromKey(report.throughput_key)) {
    compare(report.Observed(ObservedKey::kThroughputGbps), *t, demand(*t), sz::InfoOf(*t).label,
            key_of(*t));
  }

  // SEs above the target.
  for (const SeUsage& se : report.service_engines) {
    if (!se.cpu.value.has_value() || !(*se.cpu.value > target_pct)) continue;
    const std::string at = se.cpu.at.has_value() ? UsageTimeText(*se.cpu.at) : window;
    out.push_back(ObservedLoadWarning(
        rules::kObservedCpuAboveTarget, "workload",
        is_max ? absl::StrCat("SE ", SeLabel(se), " peaked at ", PercentText(*se.cpu.value),
                              " CPU (", at, ") against the group's ", target_pct, "% target")
               : absl::StrCat("SE ", SeLabel(se), " ran at ", PercentText(*se.cpu.value), " CPU (",
                              UsageStatisticName(report.statistic), ", ", at,
                              ") against the group's ", target_pct, "% target"),
        absl::StrCat("Avi rebalances and scales out above max_cpu_usage; this SE ran above it in "
                     "the last ",
                     window, ", so the group was short of capacity at its peak."),
        true));
  }

  // A calibration that the planned shape does not survive.
  if (report.calibration.ratio.has_value() && *report.calibration.ratio > 1 &&
      declared.planned_shape.has_value()) {
    const sz::Recommendation& shape = *declared.planned_shape;
    const double ratio = *report.calibration.ratio;
    sz::Workload calibrated = w;
    for (sz::Metric m : sz::kAllMetrics) {
      if (sz::SharesCpuBudget(m) && calibrated.demand.Get(m).has_value()) {
        calibrated.demand.Set(m, *calibrated.demand.Get(m) * ratio);
      }
    }
    const int vcpus = shape.vcpus_per_se.value;
    const int64_t memory = shape.memory_per_se.value;
    const int count = shape.se_count.value;
    if (sz::Carries(w, vcpus, memory, count) && !sz::Carries(calibrated, vcpus, memory, count)) {
      std::string cpu_text;
      if (absl::StatusOr<sz::SeCapacity> c = sz::CapacityOf(w.platform, vcpus, memory); c.ok()) {
        const sz::CpuLoad load =
            sz::CpuLoadOf(sz::LoadsOn(calibrated, *c, count), calibrated.target_utilization_pct);
        cpu_text = absl::StrCat(" (", sz::FormatPercent(load.utilization_pct), " CPU against the ",
                                calibrated.target_utilization_pct, "% target)");
      }
      out.push_back(ObservedLoadWarning(
          rules::kCalibrationUnderSized, "workload",
          absl::StrCat(
              absl::StrFormat("The SEs used %.2fx the CPU the tables predict; at that rate "
                              "the planned ",
                              ratio),
              sz::FormatShape(count, vcpus), sz::Agree(count, " does", " do"),
              " not carry the declared workload"),
          absl::StrCat("Calibrated over ", report.calibration.samples, " samples in the last ",
                       window, cpu_text,
                       "; the tables were measured on other hardware. Size from the observed "
                       "load",
                       RecommendationText(report).empty()
                           ? std::string(" (its recommendation applies the ratio)")
                           : absl::StrCat(" (its recommendation applies the ratio: ",
                                          RecommendationText(report), ")"),
                       "."),
          true));
    }
  }
  return out;
}

}  // namespace nsxalb::segroup
