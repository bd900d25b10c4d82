// One CPU budget per SE (rule one-cpu-budget-per-se): the CPU-bound metrics of a workload share
// the same cores, so their utilizations add up.
//
// Seed 000: "CPU scales very linearly as more cores are added. CPU is a primary factor in SSL
// handshakes (TPS), throughput, compression, and WAF inspection." Avi's own sizing guidance adds
// the requirements of each metric (TPS cores plus throughput cores). So an SE's CPU utilization is
// the sum, over ECC SSL TPS, RSA SSL TPS, L7 RPS, L4 CPS and L7 SSL throughput, of the demand on
// that SE divided by its capacity for that metric at its size; the workload is carried when the
// sum is within the target utilization. L4 and L7 plain throughput (bound by the hypervisor's PPS
// and the NIC) and open connections (bound by memory) are judged each alone.
#ifndef NSXALB_PLUGIN_SIZING_CPU_BUDGET_H_
#define NSXALB_PLUGIN_SIZING_CPU_BUDGET_H_

#include <string>
#include <vector>

#include "plugin/sizing/profiles.h"

namespace nsxalb::sizing {

struct MetricLoad;

// True for the metrics that share the CPU budget.
bool SharesCpuBudget(Metric metric);

// One metric's part of the CPU budget: its demand on one SE over that SE's capacity for it.
struct CpuPart {
  Metric metric = Metric::kL7Rps;
  double utilization_pct = 0;
};

// The CPU budget of one SE of a group under a workload.
struct CpuLoad {
  std::vector<CpuPart> parts;  // the demanded CPU-bound metrics, largest part first
  double utilization_pct = 0;  // the sum of the parts
  bool carried = true;         // the sum is within the target utilization

  // True when the workload demands no CPU-bound metric.
  bool Empty() const { return parts.empty(); }
};

// The rule's arithmetic, added up one part at a time: CpuLoadOf and the model's search for a shape
// (recommend.cc) both use it. With one part the budget is carried exactly when that metric is (the
// exact integer comparison of the metric); with more, when the sum computed in double is at most
// the target (a tie of two or more parts may round against the workload: the conservative side).
class CpuBudgetSum {
 public:
  // Adds one part: its utilization, and whether the metric alone is carried at the target.
  void Add(double utilization_pct, bool carried_alone) {
    utilization_pct_ += utilization_pct;
    carried_alone_ = carried_alone;
    ++parts_;
  }
  // The sum of the parts.
  double UtilizationPct() const { return utilization_pct_; }
  // Whether the parts fit within `target_utilization_pct` (true without parts).
  bool Carried(int target_utilization_pct) const {
    return parts_ <= 1 ? carried_alone_ : utilization_pct_ <= target_utilization_pct;
  }

 private:
  double utilization_pct_ = 0;
  int parts_ = 0;
  bool carried_alone_ = true;
};

// The CPU budget of the loads (LoadsOn in recommend.h) at `target_utilization_pct`
// (CpuBudgetSum's rule).
CpuLoad CpuLoadOf(const std::vector<MetricLoad>& loads, int target_utilization_pct);

// "CPU 104.2% = L7 RPS 54.1% + ECC SSL TPS 50.0%": the sum and its parts, largest part first,
// each to one decimal.
std::string CpuLoadText(const CpuLoad& cpu);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_CPU_BUDGET_H_
