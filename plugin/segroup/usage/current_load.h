// The load the SEs carry now, for the roll's decision (lifecycle/roll_decision.h): each SE's CPU,
// memory and bandwidth over a recent window, as the Controller measured them. One metrics request
// reads every SE of a tenant's listing (rule estate-requests-bounded's spirit: never a request per
// group or per SE), and a provider process shares the answer (SharedCurrentLoad), so a plan that
// would roll any number of groups asks the Controller once. No Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugin/common/once_per_key.h"
#include "plugin/controller/client.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/usage/query.h"

namespace nsxalb::segroup {

// The window "now" means for a roll when the resource has no observed_load block: the last hour
// (twelve 5-minute samples, the Controller's finest step without realtime metrics), its highest
// sample.
inline constexpr absl::Duration kRollLoadWindow = absl::Hours(1);

// The query a roll reads the load with: `observed` (observed_load's window and statistic) when
// the resource sets the block, else kRollLoadWindow and max.
UsageQuery RollLoadQuery(const UsageQuery* observed);

// The metrics the roll reads of each SE, in the one SE request: its CPU and its memory (what open
// connections bind on), both percentages of the SE, and its interface bandwidth (bits/s), which
// the roll judges when the workload states throughput. Always asked, so that one answer per
// tenant serves every group whatever its workload (docs/design/roll-decision.md weighs the
// cost: one series more per SE, or per interface).
inline constexpr char kRollLoadMetricIds[] =
    "se_stats.avg_cpu_usage,se_stats.avg_mem_usage,se_if.avg_bandwidth";

// The CPU, memory and bandwidth of a tenant's SEs now.
struct SesLoadNow {
  std::map<std::string, double> cpu_pct;  // SE uuid -> the statistic of its CPU samples, percent
  std::map<std::string, double> mem_pct;  // SE uuid -> the statistic of its memory samples
  // SE uuid -> the statistic of its bandwidth (bits/s): at each timestamp, the sum of every
  // se_if.avg_bandwidth series the Controller gives for the SE (one per interface, UNCONFIRMED;
  // the emulator gives one per SE).
  std::map<std::string, double> bandwidth_bps;
  // "the Controller's se_stats.avg_cpu_usage and se_stats.avg_mem_usage of each SE, the highest
  // sample of the last 1 hour (300 s samples)".
  std::string source;
  std::string failure;  // why there are no figures, when the metrics call failed
  absl::Duration window;
};

// Each SE of `ses` (a tenant's listing): the statistic of its se_stats.avg_cpu_usage, of its
// se_stats.avg_mem_usage and of its se_if.avg_bandwidth samples (summed per timestamp over its
// series) over `query`'s window ending `now`, from one POST
// /api/analytics/metrics/collection with one request for all of them (UsageCollectionRequest's
// SE request asking kRollLoadMetricIds; no virtual-service series). A failed metrics call is a
// SesLoadNow without figures and with `failure`, except Cancelled (Terraform's Stop), which is
// returned.
absl::StatusOr<SesLoadNow> ReadSesLoadNow(controller::Client& client, std::string_view tenant,
                                          const std::vector<controller::ServiceEngine>& ses,
                                          const UsageQuery& query, absl::Time now);

// The current load of the running SEs `group` from `all`: missing_reason when none of them has a
// CPU figure, memory_missing_reason when none has a memory figure, bandwidth_missing_reason when
// none has a bandwidth figure.
lifecycle::CurrentLoad CurrentLoadOf(const SesLoadNow& all,
                                     const std::vector<lifecycle::RunningSe>& group);

// ReadSesLoadNow once per (tenant, window, statistic) for the life of this object, for every
// group a provider process plans (common::OncePerKey: concurrent callers wait for the one in
// flight; a failure is not kept).
class SharedCurrentLoad {
 public:
  // The CPU, memory and bandwidth of `tenant`'s SEs `ses` (the process's shared listing of that
  // tenant) over `query`'s window ending `now` (the first caller's).
  absl::StatusOr<std::shared_ptr<const SesLoadNow>> Get(
      controller::Client& client, std::string_view tenant,
      const std::vector<controller::ServiceEngine>& ses, const UsageQuery& query, absl::Time now);

  // How many metrics reads were made (for tests).
  uint64_t Fetches(std::string_view tenant, const UsageQuery& query);

 private:
  static std::string Key(std::string_view tenant, const UsageQuery& query);
  common::OncePerKey<SesLoadNow> cache_;
};

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_
