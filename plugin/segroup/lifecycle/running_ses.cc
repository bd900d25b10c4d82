// Implementation of running_ses.h.
#include "plugin/segroup/lifecycle/running_ses.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"

namespace nsxalb::segroup::lifecycle {

std::vector<RunningSe> RunningSesOf(const std::vector<controller::ServiceEngine>& tenant_ses,
                                    std::string_view group_uuid) {
  std::vector<RunningSe> out;
  for (const controller::ServiceEngine& se : tenant_ses) {
    absl::StatusOr<controller::ObjectRef> ref =
        controller::ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
    if (!ref.ok() || ref->uuid != group_uuid) continue;
    RunningSe running;
    running.uuid = se.uuid;
    running.name = se.name.empty() ? se.uuid : se.name;
    running.vcpus = se.num_vcpus;
    running.memory_mb = se.memory_mb;
    running.disk_gb = se.disk_gb;
    running.enable_state = se.enable_state;
    running.oper_state = se.oper_state;
    running.reboot_pending = se.reboot_pending;
    out.push_back(std::move(running));
  }
  std::sort(out.begin(), out.end(), [](const RunningSe& a, const RunningSe& b) {
    return std::tie(a.name, a.uuid) < std::tie(b.name, b.uuid);
  });
  return out;
}

absl::StatusOr<std::shared_ptr<const SharedSeListing::Listing>> SharedSeListing::Get(
    controller::Client& client, std::string_view tenant) {
  return cache_.Get(std::string(tenant),
                    [&client, tenant]() { return client.ListTenantServiceEngines(tenant); });
}

absl::StatusOr<std::vector<RunningSe>> SharedSeListing::GroupSes(controller::Client& client,
                                                                 std::string_view tenant,
                                                                 std::string_view group_uuid) {
  NSXALB_ASSIGN_OR_RETURN(std::shared_ptr<const Listing> listing, Get(client, tenant));
  return RunningSesOf(*listing, group_uuid);
}

}  // namespace nsxalb::segroup::lifecycle
