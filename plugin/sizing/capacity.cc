#include "plugin/sizing/capacity.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing {
namespace {

// Index of `vcpus` in kMeasuredVcpus, or -1.
int MeasuredIndex(int vcpus) {
  for (int i = 0; i < static_cast<int>(kMeasuredVcpus.size()); ++i) {
    if (kMeasuredVcpus[i] == vcpus) return i;
  }
  return -1;
}

std::string Cell(const Profile& p, int index) {
  return absl::StrCat(p.name, " ", SizeName(p.sizes[index]), " (", p.seed_file, ")");
}

std::string Cells(const Profile& p, int a, int b) {
  return absl::StrCat(p.name, " ", SizeName(p.sizes[a]), " and ", SizeName(p.sizes[b]), " (",
                      p.seed_file, ")");
}

// Evaluates a series measured at 1, 2, 4 and 6 vCPUs at `vcpus` (1-64). Above 6 vCPUs the series
// either holds its 6-vCPU value or grows at half the 4-to-6 difference per vCPU.
Figure Series(const Profile& p, const std::array<double, 4>& y, int vcpus, bool hold_above,
              const char* above_rule) {
  Figure f;
  const int i = MeasuredIndex(vcpus);
  if (i >= 0) {
    f.value = y[i];
    f.basis = Basis::kMeasured;
    f.source = Cell(p, i);
  } else if (vcpus < kMeasuredVcpus[3]) {
    // 3 lies between indexes 1 and 2, 5 between 2 and 3.
    const int lo = vcpus == 3 ? 1 : 2;
    f.value = (y[lo] + y[lo + 1]) / 2;
    f.basis = Basis::kInterpolated;
    f.rules.push_back(rules::kInterpolate);
    f.source = Cells(p, lo, lo + 1);
  } else {
    f.value = hold_above ? y[3] : y[3] + (vcpus - 6) * (y[3] - y[2]) / 2;
    f.basis = Basis::kExtrapolated;
    f.rules.push_back(above_rule);
    f.source = hold_above ? Cell(p, 3) : Cells(p, 2, 3);
  }
  return f;
}

std::array<double, 4> MetricSeries(const Profile& p, Metric metric) {
  std::array<double, 4> y{};
  for (int i = 0; i < 4; ++i) {
    y[i] = static_cast<double>(p.sizes[i].values[static_cast<int>(metric)].value_or(0));
  }
  return y;
}

std::array<double, 4> MemorySeries(const Profile& p) {
  std::array<double, 4> y{};
  for (int i = 0; i < 4; ++i) y[i] = static_cast<double>(p.sizes[i].memory_gb * kMbPerGb);
  return y;
}

Figure OpenConnections(Platform platform, int vcpus, int64_t memory_mb) {
  const Profile& own = ProfileOf(platform);
  const bool borrowed = !own.sizes[0].values[static_cast<int>(Metric::kL4OpenConns)].has_value();
  const Profile& ref = borrowed ? ProfileOf(Platform::kVcenter) : own;
  const std::array<double, 4> conns = MetricSeries(ref, Metric::kL4OpenConns);
  Figure base;
  double ref_memory_mb = 0;
  if (vcpus <= kMeasuredVcpus[3]) {
    base = Series(ref, conns, vcpus, /*hold_above=*/false, rules::kExtrapolateCpu);
    ref_memory_mb = Series(ref, MemorySeries(ref), vcpus, false, rules::kTableMemory).value;
  } else {
    // Connections per GB of the 6-vCPU point, applied to this SE's memory.
    base.value = conns[3];
    base.basis = Basis::kExtrapolated;
    base.rules.push_back(rules::kOpenConnsDensity);
    base.source = Cell(ref, 3);
    ref_memory_mb = ref.sizes[3].memory_gb * kMbPerGb;
  }
  Figure f = base;
  f.value = std::floor(base.value * static_cast<double>(memory_mb) / ref_memory_mb);
  if (static_cast<double>(memory_mb) != ref_memory_mb || vcpus > kMeasuredVcpus[3]) {
    f.rules.push_back(rules::kOpenConnsMemory);
    // Below the table memory the seed's rule scales the figure down. Above it nothing was
    // measured, and the seed itself shows that memory alone does not set the figure (1C/2G holds
    // 40,000 and 2C/2G 80,000), so the figure is at most extrapolated.
    f.basis =
        WeakestBasis({f.basis, static_cast<double>(memory_mb) > ref_memory_mb ? Basis::kExtrapolated
                                                                              : Basis::kRule});
  }
  if (borrowed) {
    f.rules.insert(f.rules.begin(), rules::kCrossProfile);
    f.basis = WeakestBasis({f.basis, Basis::kCrossProfile});
  }
  return f;
}

}  // namespace

Figure TableMemoryMb(Platform platform, int vcpus) {
  const Profile& p = ProfileOf(platform);
  Figure f = Series(p, MemorySeries(p), vcpus, /*hold_above=*/false, rules::kTableMemory);
  if (f.basis != Basis::kMeasured) {
    f.rules.insert(f.rules.begin(), rules::kTableMemory);
    f.rules.erase(std::unique(f.rules.begin(), f.rules.end()), f.rules.end());
  }
  f.value = std::min(f.value, static_cast<double>(kMaxMemoryMb));
  return f;
}

Figure MetricCapacity(Platform platform, Metric metric, int vcpus, int64_t memory_mb) {
  const MetricInfo& info = InfoOf(metric);
  if (info.kind == MetricKind::kConnections) return OpenConnections(platform, vcpus, memory_mb);
  const Profile& p = ProfileOf(platform);
  const bool hold = info.kind == MetricKind::kThroughput;
  return Series(p, MetricSeries(p, metric), vcpus, hold,
                hold ? rules::kHoldThroughput : rules::kExtrapolateCpu);
}

absl::StatusOr<SeCapacity> CapacityOf(Platform platform, int vcpus,
                                      std::optional<int64_t> memory_mb) {
  if (vcpus < kMinVcpus || vcpus > kMaxVcpus) {
    return absl::InvalidArgumentError(
        absl::StrCat("vcpus_per_se: must be ", VcpuRangeText(), ", got ", vcpus));
  }
  SeCapacity c;
  c.platform = platform;
  c.vcpus = vcpus;
  c.table_memory_mb = TableMemoryMb(platform, vcpus);
  c.memory_mb = memory_mb.value_or(static_cast<int64_t>(c.table_memory_mb.value));
  if (c.memory_mb < kMinMemoryMb || c.memory_mb > kMaxMemoryMb) {
    return absl::InvalidArgumentError(
        absl::StrCat("memory_per_se: must be ", MemoryRangeText(), " MB, got ", c.memory_mb));
  }
  for (Metric m : kAllMetrics) {
    c.metrics[static_cast<int>(m)] = MetricCapacity(platform, m, vcpus, c.memory_mb);
  }
  return c;
}

int64_t MinimumDiskGb(int64_t memory_mb) {
  const int64_t ram_gb = (memory_mb + kMbPerGb - 1) / kMbPerGb;
  return std::max<int64_t>(15, 2 * ram_gb + 5);
}

Figure RecommendedDiskGb(Platform platform, int vcpus, int64_t memory_mb) {
  Figure f;
  f.value = static_cast<double>(MinimumDiskGb(memory_mb));
  f.basis = Basis::kRule;
  f.rules.push_back(rules::kDisk);
  f.source = "000_e5a429f3661e1e94.txt, Disk";
  const Profile& p = ProfileOf(platform);
  if (!p.sizes[0].disk_gb.has_value()) return f;
  std::array<double, 4> tested{};
  for (int i = 0; i < 4; ++i) tested[i] = *p.sizes[i].disk_gb;
  Figure t = Series(p, tested, vcpus, /*hold_above=*/true, rules::kDiskTested);
  if (t.value > f.value) {
    f.value = t.value;
    f.basis = t.basis;
    f.rules.push_back(rules::kDiskTested);
    for (const std::string& r : t.rules) {
      if (r != rules::kDiskTested) f.rules.push_back(r);
    }
    f.source = t.source;
  }
  return f;
}

}  // namespace nsxalb::sizing
