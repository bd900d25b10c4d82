// Implementation of series.h.
#include "plugin/segroup/usage/series.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace nsxalb::segroup::usage_internal {
namespace {

constexpr double kBitsPerGbps = 1e9;

int Percentile(UsageStatistic s) {
  switch (s) {
    case UsageStatistic::kMax:
      return 100;
    case UsageStatistic::kP99:
      return 99;
    case UsageStatistic::kP95:
      return 95;
  }
  return 100;
}

}  // namespace

ObservedPeak StatisticOf(const std::vector<std::pair<int64_t, double>>& points,
                         UsageStatistic statistic, double scale) {
  ObservedPeak out;
  if (points.empty()) return out;
  const size_t n = points.size();
  const int p = Percentile(statistic);
  // rank = ceil(p x n / 100), in integers so that 95% of 20 is exactly 19.
  const size_t rank = std::max<size_t>(1, (static_cast<size_t>(p) * n + 99) / 100);
  std::vector<double> values;
  values.reserve(n);
  for (const auto& [t, v] : points) values.push_back(v);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                   values.end());
  const double chosen = values[rank - 1];
  int64_t at = std::numeric_limits<int64_t>::max();
  for (const auto& [t, v] : points) {
    if (v == chosen) at = std::min(at, t);
  }
  out.value = chosen / scale;
  out.at = absl::FromUnixSeconds(at);
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

GroupSamples AddSeriesFigures(const SeSamplesOfGroup& per_se, UsageStatistic statistic,
                              UsageReport& r) {
  // Per SE: its CPU and samples. The group: sums per timestamp.
  GroupSamples group;
  std::vector<std::pair<int64_t, double>> points;
  for (size_t i = 0; i < per_se.size(); ++i) {
    SeUsage& u = r.service_engines[i];
    u.samples = static_cast<int>(per_se[i]->size());
    points.clear();
    for (const auto& [t, s] : *per_se[i]) {
      if (s.Has(kCpu)) points.emplace_back(t, s.value[kCpu]);
      Sample& g = group[t];
      for (int k : {kRps, kTps, kCps, kOpenConns, kVsBandwidth}) {
        if (s.Has(k)) g.Add(k, s.value[k]);
      }
    }
    u.cpu = StatisticOf(points, statistic);
  }
  r.samples = static_cast<int>(group.size());
  const std::pair<ObservedKey, Series> kGroupKeys[] = {
      {ObservedKey::kL7Rps, kRps},
      {ObservedKey::kSslTps, kTps},
      {ObservedKey::kL4Cps, kCps},
      {ObservedKey::kL4OpenConns, kOpenConns},
      {ObservedKey::kThroughputGbps, kVsBandwidth}};
  for (const auto& [key, series] : kGroupKeys) {
    points.clear();
    for (const auto& [t, s] : group) {
      if (s.Has(series)) points.emplace_back(t, s.value[series]);
    }
    r.observed[static_cast<int>(key)] =
        StatisticOf(points, statistic, series == kVsBandwidth ? kBitsPerGbps : 1);
  }
  // cpu_pct: the highest of any one SE (the first SE on a tie).
  ObservedPeak& cpu = r.observed[static_cast<int>(ObservedKey::kCpuPct)];
  for (const SeUsage& u : r.service_engines) {
    if (u.cpu.value.has_value() && (!cpu.value.has_value() || *u.cpu.value > *cpu.value)) {
      cpu = u.cpu;
    }
  }

  return group;
}

}  // namespace nsxalb::segroup::usage_internal
