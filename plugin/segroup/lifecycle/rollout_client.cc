// Implementation of rollout_client.h.
#include "plugin/segroup/lifecycle/rollout_client.h"

#include <string>
#include <utility>
#include <vector>

#include "plugin/common/status_macros.h"

namespace nsxalb::segroup::lifecycle {
namespace {

// The roll's view of an SE and its runtime.
ObservedSe View(const controller::ServiceEngine& se, const controller::ServiceEngineRuntime& rt) {
  ObservedSe out;
  out.uuid = se.uuid;
  out.name = se.name;
  out.num_vcpus = se.num_vcpus;
  out.memory_mb = se.memory_mb;
  out.oper_state = rt.oper_state;
  out.migrate_state = rt.migrate_state;
  out.migration_failed = rt.migration_failed;
  out.virtual_services = static_cast<int>(rt.virtual_services.size());
  out.reboot_pending = rt.reboot_pending;
  return out;
}

}  // namespace

ClientRolloutOperations::ClientRolloutOperations(controller::Client& client, std::string group_uuid,
                                                 std::string tenant,
                                                 RestoreClientFactory restore_client)
    : client_(client),
      group_uuid_(std::move(group_uuid)),
      tenant_(std::move(tenant)),
      restore_client_(std::move(restore_client)) {}

absl::Status ClientRolloutOperations::Disable(const std::string& uuid) {
  return client_.SetServiceEngineEnableState(uuid, controller::kSeStateDisabled, tenant_).status();
}

absl::Status ClientRolloutOperations::Enable(const std::string& uuid) {
  return client_.SetServiceEngineEnableState(uuid, controller::kSeStateEnabled, tenant_).status();
}

absl::Status ClientRolloutOperations::Restore(const std::string& uuid) {
  if (!restore_client_) return Enable(uuid);
  NSXALB_ASSIGN_OR_RETURN(auto client, restore_client_());
  return client->SetServiceEngineEnableState(uuid, controller::kSeStateEnabled, tenant_).status();
}

absl::StatusOr<ObservedSe> ClientRolloutOperations::Observe(const std::string& uuid) {
  NSXALB_ASSIGN_OR_RETURN(auto se, client_.GetServiceEngine(uuid, tenant_));
  NSXALB_ASSIGN_OR_RETURN(auto runtime, client_.GetServiceEngineRuntime(uuid, tenant_));
  return View(se, runtime);
}

absl::StatusOr<std::vector<ObservedSe>> ClientRolloutOperations::ListGroup() {
  NSXALB_ASSIGN_OR_RETURN(auto ses, client_.ListServiceEngines(group_uuid_, tenant_));
  std::vector<ObservedSe> out;
  for (const controller::ServiceEngine& se : ses) {
    auto runtime = client_.GetServiceEngineRuntime(se.uuid, tenant_);
    if (!runtime.ok()) {
      // Deleted between the listing and this read: not in the group any more.
      if (runtime.status().code() == absl::StatusCode::kNotFound) continue;
      return runtime.status();
    }
    out.push_back(View(se, *runtime));
  }
  return out;
}

absl::Status ClientRolloutOperations::Delete(const std::string& uuid) {
  return client_.DeleteServiceEngine(uuid, tenant_);
}

absl::Status ClientRolloutOperations::Reboot(const std::string& uuid) {
  return client_.RebootServiceEngine(uuid, tenant_);
}

}  // namespace nsxalb::segroup::lifecycle
