// Implementation of rollout_client.h.
#include "plugin/segroup/lifecycle/rollout_client.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/segroup/license_check.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/ha_mode.h"
#include "plugin/sizing/service_units.h"

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

// The whole number `field` of the group, else the catalog's default, else `fallback`.
int64_t GroupNumber(const nlohmann::json& body, const char* field, int64_t fallback) {
  auto it = body.find(field);
  if (it != body.end() && it->is_number_integer()) return it->get<int64_t>();
  const controller::SeGroupField* f = controller::FindSeGroupField(field);
  int64_t parsed = 0;
  if (f != nullptr && absl::SimpleAtoi(std::string(f->default_json), &parsed)) return parsed;
  return fallback;
}

}  // namespace

absl::StatusOr<RolloutInput> ReadRolloutInput(controller::Client& client,
                                              const controller::SeGroup& group,
                                              std::string_view tenant,
                                              const CapacityFigures& capacity) {
  RolloutInput in;
  in.group = group;
  NSXALB_ASSIGN_OR_RETURN(auto listing, client.ListTenantServiceEngines(tenant));
  std::vector<RunningSe> running = RunningSesOf(listing, group.uuid);
  in.running = static_cast<int>(running.size());
  // The reboot fields the Controller says an SE waits for are not named by it: every SE it
  // reports se_grp_reboot_pending lags for "the group's reboot-only settings".
  GroupSes matched = MatchSettings(std::move(running), group.body, RebootWait{});
  in.lagging = RollOrder(matched.lagging);
  in.ses = std::move(matched);
  in.target.num_vcpus = static_cast<int>(GroupNumber(group.body, "vcpus_per_se", 1));
  in.target.memory_mb = GroupNumber(group.body, "memory_per_se", 2048);
  in.guards.capacity = capacity;
  in.guards.capacity.running_ses = in.running;
  std::string ha = "HA_MODE_SHARED";
  if (auto it = group.body.find("ha_mode"); it != group.body.end() && it->is_string()) {
    ha = it->get<std::string>();
  }
  auto mode = sizing::ParseHaMode(ha);
  in.guards.capacity.ha_minimum_ses = mode.ok() ? sizing::MinActiveSes(*mode) : 1;
  std::string cloud_tier;
  if (!group.cloud_ref.empty()) {
    NSXALB_ASSIGN_OR_RETURN(auto cloud, client.ResolveCloud(group.cloud_ref));
    cloud_tier = cloud.license_tier;
    in.guards.cloud.name = cloud.name;
    // A cloud without orchestrator access (CLOUD_NONE) creates no SE. UNCONFIRMED for a vCenter
    // cloud in read or no access: CloudInfo does not carry the privilege, so it counts as one
    // that creates SEs, and the roll's replacement wait then stops it safely.
    in.guards.cloud.creates_ses = cloud.vtype != "CLOUD_NONE";
  }
  const bool replaces = std::any_of(in.lagging.begin(), in.lagging.end(), [](const LaggingSe& l) {
    return l.why == controller::TakesEffect::kNewSesOnly;
  });
  if (replaces) {
    LicenseFigures& license = in.guards.license;
    std::string group_tier;
    if (auto it = group.body.find("license_tier"); it != group.body.end() && it->is_string()) {
      group_tier = it->get<std::string>();
    }
    license.tier = LicenseTierOf(group_tier, cloud_tier);
    license.replacement_units =
        sizing::ServiceUnitsPerSe(in.target.num_vcpus, LicenceSettingsOf(group.body)).value;
    auto ledger = client.GetLicenseLedgerDetails();
    if (ledger.ok()) {
      license.known = true;
      license.remaining_units = LicensePoolOf(*ledger, license.tier).remaining;
    } else {
      license.unknown_reason = std::string(ledger.status().message());
    }
  }
  in.placement = PlacementSettingsOf(group.body);
  absl::StatusOr<std::vector<controller::ServiceEnginePlacement>> placements =
      client.ListServiceEnginePlacements(group.uuid, tenant);
  if (placements.ok()) {
    for (const controller::ServiceEnginePlacement& se : *placements) {
      std::vector<std::string>& names = in.virtual_services[se.uuid];
      for (const controller::PlacedVirtualService& vs : se.virtual_services) {
        names.push_back(vs.name.empty() ? vs.uuid : vs.name);
      }
    }
  } else if (placements.status().code() == absl::StatusCode::kCancelled) {
    return placements.status();
  } else {
    in.placement_known = false;
    in.placement_error = std::string(placements.status().message());
  }
  absl::StatusOr<controller::UpgradeStatus> upgrade = client.GetUpgradeStatus();
  if (upgrade.ok() && upgrade->known) {
    if (upgrade->SeGroupUpgrading(group.uuid) || upgrade->ControllerUpgrading()) {
      in.upgrade = upgrade->Describe();
    }
  } else if (upgrade.ok()) {
    in.upgrade_unknown = upgrade->Describe();
  } else if (upgrade.status().code() == absl::StatusCode::kCancelled) {
    return upgrade.status();
  } else {
    in.upgrade_unknown = std::string(upgrade.status().message());
  }
  return in;
}

RollInput RollInputOf(const RolloutInput& read, CurrentLoad load, const CapacityFigures& declared,
                      int max_unavailable, int spare_replacements) {
  RollInput in;
  in.ses = read.ses;
  in.virtual_services = read.virtual_services;
  in.placement_known = read.placement_known;
  in.load = std::move(load);
  in.declared = declared;
  in.placement = read.placement;
  in.target = read.target;
  in.target_pct = declared.known
                      ? declared.target_percent
                      : static_cast<double>(GroupNumber(read.group.body, "max_cpu_usage", 80));
  in.ha_minimum_ses = read.guards.capacity.ha_minimum_ses;
  in.license = read.guards.license;
  in.cloud = read.guards.cloud;
  in.upgrade_in_progress = read.upgrade;
  in.unknown_upgrade = read.upgrade_unknown;
  in.max_unavailable = max_unavailable;
  in.spare_replacements = spare_replacements;
  return in;
}

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
