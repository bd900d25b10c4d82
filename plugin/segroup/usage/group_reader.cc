// One SE group's observed load read from the Controller.
#include "plugin/segroup/usage/group_reader.h"

#include <string>
#include <utility>

#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"
#include "plugin/segroup/usage/collection_stream.h"
#include "plugin/segroup/usage/decode.h"

namespace nsxalb::segroup {

namespace {

// Reads the metrics of `input.ses`, streamed, and analyses them.
absl::StatusOr<UsageReport> AnalyzeGroupOf(controller::Client& client, std::string_view tenant,
                                           const UsageInput& input) {
  usage_internal::CollectionDecoder decoder(input.ses,
                                            absl::ToUnixSeconds(input.now - input.query.window),
                                            absl::ToUnixSeconds(input.now));
  if (!input.ses.empty()) {
    const absl::Status read = usage_internal::StreamCollection(
        client, UsageCollectionRequest(input.ses, input.query, input.now), tenant, decoder);
    if (!read.ok()) {
      if (read.code() == absl::StatusCode::kCancelled) return read;
      return UsageUnavailableReport(input.ses, input.query, read);
    }
  }
  std::vector<size_t> all(input.ses.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return AnalyzeDecoded(input, decoder, all, 0);
}

}  // namespace

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
  std::vector<controller::ServiceEngine> listed;
  if (request.tenant_ses != nullptr) {
    // The group's SEs out of the tenant's listing, chosen as ListServiceEngines chooses them.
    std::string group(group_uuid);
    if (!controller::LooksLikeUuid(group)) {
      NSXALB_ASSIGN_OR_RETURN(
          controller::ObjectRef parsed,
          controller::ParseRef(group_uuid, "serviceenginegroup", "se_group_uuid"));
      group = parsed.uuid;
    }
    for (const controller::ServiceEngine& se : *request.tenant_ses) {
      absl::StatusOr<controller::ObjectRef> ref =
          controller::ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
      if (ref.ok() && ref->uuid == group) listed.push_back(se);
    }
  } else {
    NSXALB_ASSIGN_OR_RETURN(listed, client.ListServiceEngines(group_uuid, tenant));
  }
  UsageInput input;
  input.ses = ObservedSes(listed);
  input.query = request.query;
  input.now = request.now;
  input.platform = request.platform;
  input.settings = settings.is_object() ? settings : nlohmann::json::object();
  input.declared_workload = request.declared_workload;
  return AnalyzeGroupOf(client, tenant, input);
}

}  // namespace nsxalb::segroup
