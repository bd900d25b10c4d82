// One SE group's observed load read from the Controller.
#include "plugin/segroup/group_usage.h"

#include <utility>

#include "plugin/common/status_macros.h"

namespace nsxalb::segroup {

std::vector<ObservedSe> ObservedSes(const std::vector<controller::ServiceEngine>& ses) {
  std::vector<ObservedSe> out;
  out.reserve(ses.size());
  for (const controller::ServiceEngine& se : ses) {
    out.push_back({se.uuid, se.name, se.num_vcpus, se.memory_mb});
  }
  return out;
}

absl::StatusOr<UsageReport> ReadGroupUsage(controller::Client& client, std::string_view group_uuid,
                                           std::string_view tenant, const nlohmann::json& settings,
                                           const GroupUsageRequest& request) {
  NSXALB_ASSIGN_OR_RETURN(std::vector<controller::ServiceEngine> listed,
                          client.ListServiceEngines(group_uuid, tenant));
  UsageInput input;
  input.ses = ObservedSes(listed);
  input.query = request.query;
  input.now = request.now;
  input.platform = request.platform;
  input.settings = settings.is_object() ? settings : nlohmann::json::object();
  input.declared_workload = request.declared_workload;
  if (!input.ses.empty()) {
    absl::StatusOr<nlohmann::json> answer = client.QueryMetricsCollection(
        UsageCollectionRequest(input.ses, input.query, input.now), tenant);
    if (!answer.ok()) {
      if (answer.status().code() == absl::StatusCode::kCancelled) return answer.status();
      return UsageUnavailableReport(input.ses, input.query, answer.status());
    }
    input.collection_response = *std::move(answer);
  }
  return AnalyzeUsage(input);
}

}  // namespace nsxalb::segroup
