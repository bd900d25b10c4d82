// Implementation of upgrade_status.h.
#include "plugin/controller/upgrade_status.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/absl_view.h"

namespace nsxalb::controller {
namespace {

using Json = nlohmann::json;

using internal::AbslView;

constexpr const char* kFinishedStates[] = {
    "",
    "UPGRADE_FSM_INIT",
    "UPGRADE_FSM_COMPLETED",
    "UPGRADE_FSM_ABORTED",
    "UPGRADE_PRE_CHECK_SUCCESS",
    "UPGRADE_PRE_CHECK_WARNING",
    "UPGRADE_PRE_CHECK_ERROR",
};

}  // namespace

bool UpgradeStateUnfinished(std::string_view state) {
  for (const char* finished : kFinishedStates) {
    if (state == finished) return false;
  }
  return true;
}

bool UpgradeStatus::ControllerUpgrading() const {
  for (const UpgradeNode& n : nodes) {
    if (n.node_type == kUpgradeNodeControllerCluster && n.unfinished) return true;
  }
  return false;
}

bool UpgradeStatus::SystemUpgrading() const {
  for (const UpgradeNode& n : nodes) {
    if (n.node_type == kUpgradeNodeControllerCluster && n.unfinished && n.system) return true;
  }
  return false;
}

std::vector<UpgradeNode> UpgradeStatus::SeGroupsUpgrading() const {
  std::vector<UpgradeNode> out;
  for (const UpgradeNode& n : nodes) {
    if (n.node_type == kUpgradeNodeSeGroup && n.unfinished) out.push_back(n);
  }
  return out;
}

bool UpgradeStatus::SeGroupUpgrading(std::string_view se_group_uuid) const {
  if (SystemUpgrading()) return true;
  for (const UpgradeNode& n : nodes) {
    if (n.node_type == kUpgradeNodeSeGroup && n.unfinished && n.uuid == se_group_uuid) return true;
  }
  return false;
}

bool UpgradeStatus::InProgress() const {
  return ControllerUpgrading() || !SeGroupsUpgrading().empty();
}

std::string UpgradeStatus::Describe() const {
  if (!known) return "unknown (the Controller has no /api/upgradestatusinfo)";
  std::vector<std::string> parts;
  for (const UpgradeNode& n : nodes) {
    if (!n.unfinished) continue;
    if (n.node_type == kUpgradeNodeControllerCluster) {
      parts.push_back(absl::StrCat(n.system ? "a system upgrade" : "an upgrade of the Controller",
                                   " (", n.state, ")"));
    } else if (n.node_type == kUpgradeNodeSeGroup) {
      parts.push_back(absl::StrCat("the upgrade of SE group ", n.name.empty() ? n.uuid : n.name,
                                   " (", n.state, ")"));
    }
  }
  return parts.empty() ? "no upgrade" : absl::StrJoin(parts, "; ");
}

absl::StatusOr<UpgradeStatus> DecodeUpgradeStatus(const std::vector<Json>& entries) {
  UpgradeStatus out;
  out.known = true;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Json& e = entries[i];
    const std::string at = absl::StrCat("upgradestatusinfo[", i, "]");
    const auto bad = [&at](std::string_view field, std::string_view expected) {
      return absl::InternalError(absl::StrCat("controller: ", at, field.empty() ? "" : ".",
                                              AbslView(field), ": expected ", AbslView(expected)));
    };
    if (!e.is_object()) return bad("", "an object");
    UpgradeNode node;
    const auto text = [&e, &bad](const char* key, std::string* slot) -> absl::Status {
      if (!e.contains(key) || e[key].is_null()) return absl::OkStatus();
      if (!e[key].is_string()) return bad(key, "a string");
      *slot = e[key].get<std::string>();
      return absl::OkStatus();
    };
    for (const auto& [key, slot] :
         std::vector<std::pair<const char*, std::string*>>{{"uuid", &node.uuid},
                                                           {"name", &node.name},
                                                           {"node_type", &node.node_type},
                                                           {"reason", &node.reason},
                                                           {"upgrade_ops", &node.upgrade_ops},
                                                           {"version", &node.version}}) {
      absl::Status s = text(key, slot);
      if (!s.ok()) return s;
    }
    if (node.uuid.empty()) return bad("uuid", "a non-empty string");
    if (e.contains("system") && !e["system"].is_null()) {
      if (!e["system"].is_boolean()) return bad("system", "a boolean");
      node.system = e["system"].get<bool>();
    }
    if (e.contains("state") && !e["state"].is_null()) {
      const Json& state = e["state"];
      if (!state.is_object()) return bad("state", "an object");
      if (state.contains("state") && !state["state"].is_null()) {
        if (!state["state"].is_string()) return bad("state.state", "a string");
        node.state = state["state"].get<std::string>();
      }
      if (state.contains("reason") && state["reason"].is_string()) {
        node.reason = state["reason"].get<std::string>();
      }
    }
    node.unfinished = UpgradeStateUnfinished(node.state);
    out.nodes.push_back(std::move(node));
  }
  return out;
}

}  // namespace nsxalb::controller
