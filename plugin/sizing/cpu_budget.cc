#include "plugin/sizing/cpu_budget.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::sizing {

bool SharesCpuBudget(Metric metric) {
  switch (metric) {
    case Metric::kSslTpsEcc:
    case Metric::kSslTpsRsa:
    case Metric::kL7Rps:
    case Metric::kL4Cps:
    case Metric::kL7SslGbps:
      return true;
    case Metric::kL4OpenConns:
    case Metric::kL4Gbps:
    case Metric::kL7Gbps:
      return false;
  }
  return false;
}

CpuLoad CpuLoadOf(const std::vector<MetricLoad>& loads, int target_utilization_pct) {
  CpuLoad cpu;
  CpuBudgetSum sum;
  for (const MetricLoad& load : loads) {
    if (!SharesCpuBudget(load.metric)) continue;
    cpu.parts.push_back({load.metric, load.utilization_pct});
    sum.Add(load.utilization_pct, load.carried);
  }
  cpu.utilization_pct = sum.UtilizationPct();
  cpu.carried = sum.Carried(target_utilization_pct);
  // Stable, so equal parts keep metric order.
  std::stable_sort(cpu.parts.begin(), cpu.parts.end(), [](const CpuPart& a, const CpuPart& b) {
    return a.utilization_pct > b.utilization_pct;
  });
  return cpu;
}

std::string CpuLoadText(const CpuLoad& cpu) {
  std::string out = absl::StrCat("CPU ", FormatPercent(cpu.utilization_pct));
  for (size_t i = 0; i < cpu.parts.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? " = " : " + ", InfoOf(cpu.parts[i].metric).label, " ",
                    FormatPercent(cpu.parts[i].utilization_pct));
  }
  return out;
}

}  // namespace nsxalb::sizing
