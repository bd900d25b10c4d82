// Implementation of upgrade.h.
#include "emulator/upgrade.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "emulator/random_id.h"
#include "plugin/controller/upgrade_status.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

// UpgradeOpsState.state (swagger UpgradeStatusInfo.yaml, 22.1.7).
constexpr const char* kStates[] = {
    "UPGRADE_FSM_INIT",
    "UPGRADE_FSM_STARTED",
    "UPGRADE_FSM_WAITING",
    "UPGRADE_FSM_IN_PROGRESS",
    "UPGRADE_FSM_ENQUEUED",
    "UPGRADE_FSM_ERROR",
    "UPGRADE_FSM_SUSPENDED",
    "UPGRADE_FSM_ENQUEUE_FAILED",
    "UPGRADE_FSM_PAUSED",
    "UPGRADE_FSM_COMPLETED",
    "UPGRADE_FSM_ABORT_IN_PROGRESS",
    "UPGRADE_FSM_ABORTED",
    "UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS",
    "UPGRADE_FSM_CONTROLLER_COMPLETED",
    "UPGRADE_PRE_CHECK_STARTED",
    "UPGRADE_PRE_CHECK_IN_PROGRESS",
    "UPGRADE_PRE_CHECK_SUCCESS",
    "UPGRADE_PRE_CHECK_ERROR",
    "UPGRADE_PRE_CHECK_WARNING",
};

bool KnownState(const json& v) {
  return v.is_string() && std::find(std::begin(kStates), std::end(kStates), v.get<std::string>()) !=
                              std::end(kStates);
}

absl::Status BadState(const std::string& key, const json& v) {
  return absl::InvalidArgumentError(
      absl::StrCat(key,
                   ": must be an UpgradeOpsState.state (UPGRADE_FSM_IN_PROGRESS, "
                   "UPGRADE_FSM_COMPLETED, ...), not ",
                   v.dump()));
}

json StateJson(const std::string& state, int64_t since_ms) {
  return {{"state", state},
          {"last_changed_time", {{"secs", since_ms / 1000}, {"usecs", (since_ms % 1000) * 1000}}}};
}

}  // namespace

Upgrades::Upgrades(std::function<int64_t()> clock_ms)
    : clock_ms_(std::move(clock_ms)), cluster_uuid_(absl::StrCat("cluster-", NewUuid4())) {
  system_.since_ms = clock_ms_();
}

absl::Status Upgrades::Update(
    const json& body,
    const std::function<absl::StatusOr<std::string>(const std::string&)>& group_uuid) {
  if (!body.is_object()) return absl::InvalidArgumentError("upgrade body must be a JSON object");
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (it.key() != "reset" && it.key() != "system" && it.key() != "se_groups") {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown key: ", it.key(), " (expected reset, system, se_groups)"));
    }
  }
  bool reset = false;
  if (body.contains("reset")) {
    if (!body["reset"].is_boolean()) return absl::InvalidArgumentError("reset: must be a boolean");
    reset = body["reset"].get<bool>();
  }
  if (body.contains("system") && !KnownState(body["system"])) {
    return BadState("system", body["system"]);
  }
  std::map<std::string, std::string> group_states;
  if (body.contains("se_groups")) {
    if (!body["se_groups"].is_object()) {
      return absl::InvalidArgumentError("se_groups: must be an object of group to state");
    }
    for (auto it = body["se_groups"].begin(); it != body["se_groups"].end(); ++it) {
      const std::string key = absl::StrCat("se_groups.", it.key());
      if (!KnownState(it.value())) return BadState(key, it.value());
      absl::StatusOr<std::string> uuid = group_uuid(it.key());
      if (!uuid.ok()) {
        return absl::Status(uuid.status().code(), absl::StrCat(key, ": ", uuid.status().message()));
      }
      group_states[*uuid] = it.value().get<std::string>();
    }
  }
  const int64_t now = clock_ms_();
  absl::MutexLock lock(&mu_);
  if (reset) {
    system_ = State{"UPGRADE_FSM_COMPLETED", now};
    for (auto& [uuid, state] : groups_) state = State{"UPGRADE_FSM_COMPLETED", now};
  }
  if (body.contains("system")) {
    system_ = State{body["system"].get<std::string>(), now};
    system_flag_ = true;
  }
  for (const auto& [uuid, state] : group_states) groups_[uuid] = State{state, now};
  return absl::OkStatus();
}

json Upgrades::ToJson() {
  absl::MutexLock lock(&mu_);
  json groups = json::object();
  for (const auto& [uuid, state] : groups_) groups[uuid] = state.state;
  return {{"system", system_.state}, {"se_groups", groups}};
}

std::vector<json> Upgrades::Entries(const std::vector<json>& groups, const std::string& base_url,
                                    const std::string& version) {
  absl::MutexLock lock(&mu_);
  const auto progress = [](const std::string& state) {
    return controller::UpgradeStateUnfinished(state) ? 50 : 100;
  };
  std::vector<json> out;
  out.push_back({{"uuid", cluster_uuid_},
                 {"name", "cluster-0-1"},
                 {"url", absl::StrCat(base_url, "/api/upgradestatusinfo/", cluster_uuid_)},
                 {"node_type", "NODE_CONTROLLER_CLUSTER"},
                 {"tenant_ref", absl::StrCat(base_url, "/api/tenant/admin")},
                 {"state", StateJson(system_.state, system_.since_ms)},
                 {"system", system_flag_},
                 {"upgrade_ops", "UPGRADE"},
                 {"version", version},
                 {"progress", progress(system_.state)}});
  for (const json& g : groups) {
    const std::string uuid = g.value("uuid", "");
    State state;
    state.since_ms = system_.since_ms;
    if (auto it = groups_.find(uuid); it != groups_.end()) state = it->second;
    out.push_back({{"uuid", uuid},
                   {"name", g.value("name", "")},
                   {"url", absl::StrCat(base_url, "/api/upgradestatusinfo/", uuid)},
                   {"node_type", "NODE_SE_GROUP"},
                   {"obj_cloud_ref",
                    absl::StrCat(base_url, "/api/cloud/", UuidOfRef(g.value("cloud_ref", "")))},
                   {"tenant_ref",
                    absl::StrCat(base_url, "/api/tenant/", UuidOfRef(g.value("tenant_ref", "")))},
                   {"state", StateJson(state.state, state.since_ms)},
                   {"upgrade_ops", "UPGRADE"},
                   {"version", version},
                   {"progress", progress(state.state)}});
  }
  return out;
}

std::string Upgrades::Blocking(const std::string& group_uuid) {
  absl::MutexLock lock(&mu_);
  if (controller::UpgradeStateUnfinished(system_.state)) {
    return absl::StrCat("a system upgrade is in progress (", system_.state,
                        "): the configuration and placement of virtual services are blocked "
                        "until all the SEs are upgraded");
  }
  auto it = groups_.find(group_uuid);
  if (it != groups_.end() && controller::UpgradeStateUnfinished(it->second.state)) {
    return absl::StrCat("the SE group's upgrade is in progress (", it->second.state,
                        "): placement is paused for the group until it completes");
  }
  return "";
}

}  // namespace nsxalb::emulator
