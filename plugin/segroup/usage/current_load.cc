// Implementation of current_load.h.
#include "plugin/segroup/usage/current_load.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/segroup/usage/group_reader.h"
#include "plugin/segroup/usage/report.h"

namespace nsxalb::segroup {

UsageQuery RollLoadQuery(const UsageQuery* observed) {
  if (observed != nullptr) return *observed;
  UsageQuery query;
  query.window = kRollLoadWindow;
  query.statistic = UsageStatistic::kMax;
  return query;
}

absl::StatusOr<lifecycle::CurrentLoad> ReadCurrentLoad(
    controller::Client& client, std::string_view group_uuid, std::string_view tenant,
    const nlohmann::json& settings, const UsageQuery& query, sizing::Platform platform,
    const std::vector<controller::ServiceEngine>* tenant_ses) {
  GroupUsageRequest request;
  request.query = query;
  request.platform = platform;
  request.now = absl::Now();
  request.tenant_ses = tenant_ses;
  absl::StatusOr<UsageReport> report =
      ReadGroupUsage(client, group_uuid, tenant, settings, request);
  if (!report.ok()) return report.status();
  lifecycle::CurrentLoad load;
  const std::string statistic =
      query.statistic == UsageStatistic::kMax
          ? "the highest sample"
          : absl::StrCat("the ", UsageStatisticName(query.statistic), " of the samples");
  load.source = absl::StrCat("the Controller's se_stats.avg_cpu_usage of each SE, ", statistic,
                             " of the last ", UsageWindowProse(query.window), " (",
                             report->step_seconds > 0 ? report->step_seconds : 300, " s samples)");
  for (const SeUsage& se : report->service_engines) {
    if (se.cpu.value.has_value()) load.cpu_pct[se.uuid] = *se.cpu.value;
  }
  if (load.cpu_pct.empty()) {
    load.missing_reason = absl::StrCat("no sample of se_stats.avg_cpu_usage in the last ",
                                       UsageWindowProse(query.window), " for the group's ",
                                       report->service_engines.size(), " SEs");
  }
  return load;
}

}  // namespace nsxalb::segroup
