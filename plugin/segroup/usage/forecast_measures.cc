// Implementation of forecast_measures.h.
#include "plugin/segroup/usage/forecast_measures.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup::usage_internal {
namespace {

namespace sz = ::nsxalb::sizing;

// The forecast of one CPU-bound rate of the group as a percent of the capacity of its SEs (at
// 100%, the model's per-SE figure at each SE's real size): the handshakes split as the
// calibration splits them. Unset when an SE's size is one the model does not know.
std::optional<ForecastInput> RateForecastInput(const UsageInput& in, const GroupSamples& group,
                                               Series series, double ecc_share,
                                               const UsageReport& r) {
  // The capacity of the group's SEs, per second at 100%, for one unit of the series.
  double capacity = 0;
  for (const ObservedSe& se : in.ses) {
    if (se.vcpus < sz::kMinVcpus || se.vcpus > sz::kMaxVcpus) return std::nullopt;
    absl::StatusOr<sz::SeCapacity> c = se.memory_mb > 0
                                           ? sz::CapacityOf(in.platform, se.vcpus, se.memory_mb)
                                           : sz::CapacityOf(in.platform, se.vcpus);
    if (!c.ok()) return std::nullopt;
    if (series == kTps) {
      const double ecc = c->Of(sz::Metric::kSslTpsEcc).value;
      const double rsa = c->Of(sz::Metric::kSslTpsRsa).value;
      if (!(ecc > 0) || !(rsa > 0)) return std::nullopt;
      capacity += 1 / (ecc_share / ecc + (1 - ecc_share) / rsa);
    } else {
      capacity += c->Of(series == kRps ? sz::Metric::kL7Rps : sz::Metric::kL4Cps).value;
    }
  }
  if (!(capacity > 0)) return std::nullopt;
  ForecastInput out;
  out.measure = series == kRps   ? "l7_rps_pct_of_capacity"
                : series == kTps ? "ssl_tps_pct_of_capacity"
                                 : "l4_cps_pct_of_capacity";
  for (const auto& [t, s] : group) {
    if (s.Has(series)) out.points.emplace_back(t, s.value[series] * 100 / capacity);
  }
  out.window_start = in.now - in.query.window;
  out.window_end = in.now;
  out.target = r.target_pct;
  return out;
}

}  // namespace

void AddForecast(const UsageInput& in, const SeSamplesOfGroup& per_se, const GroupSamples& group,
                 UsageReport& r) {
  if (in.query.window < kMinForecastWindow) {
    r.forecast.reason = absl::StrCat("the window (", UsageWindowProse(in.query.window),
                                     ") is shorter than 7 days: a forecast needs at least ",
                                     kMinForecastDailyPeaks, " daily peaks");
    return;
  }
  std::vector<Forecast> forecasts;
  std::vector<std::string> subjects;
  // The highest SE's CPU at each timestamp, spoken of as the SE with the highest statistic.
  std::map<int64_t, double> highest;
  for (const SeSamples* se : per_se) {
    for (const auto& [t, s] : *se) {
      if (!s.Has(kCpu)) continue;
      auto [it, fresh] = highest.emplace(t, s.value[kCpu]);
      if (!fresh) it->second = std::max(it->second, s.value[kCpu]);
    }
  }
  const SeUsage* busiest = nullptr;
  for (const SeUsage& u : r.service_engines) {
    if (u.cpu.value.has_value() && (busiest == nullptr || *u.cpu.value > *busiest->cpu.value)) {
      busiest = &u;
    }
  }
  ForecastInput cpu;
  cpu.measure = kCpuForecastMeasure;
  cpu.points.assign(highest.begin(), highest.end());
  cpu.window_start = in.now - in.query.window;
  cpu.window_end = in.now;
  cpu.target = r.target_pct;
  forecasts.push_back(ForecastHeadroom(cpu));
  subjects.push_back(busiest != nullptr ? SeLabel(*busiest) : "the busiest SE");
  for (Series series : {kRps, kTps, kCps}) {
    if (std::optional<ForecastInput> rate = RateForecastInput(in, group, series, r.ecc_share, r)) {
      if (rate->points.empty()) continue;
      forecasts.push_back(ForecastHeadroom(*rate));
      const sz::Metric metric = series == kRps   ? sz::Metric::kL7Rps
                                : series == kTps ? sz::Metric::kSslTpsEcc
                                                 : sz::Metric::kL4Cps;
      subjects.push_back(absl::StrCat(
          "the group's ", series == kTps ? std::string("SSL TPS") : sz::InfoOf(metric).label,
          " (as a share of its SEs' capacity)"));
    }
  }
  std::map<std::string, std::string> subject_of;  // by measure
  for (size_t i = 0; i < forecasts.size(); ++i) subject_of[forecasts[i].measure] = subjects[i];
  r.forecast = BindingForecast(std::move(forecasts));
  r.forecast_subject = subject_of[r.forecast.measure];
}

}  // namespace nsxalb::segroup::usage_internal
