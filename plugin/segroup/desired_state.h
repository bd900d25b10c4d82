// Desired-state convergence of one SE group: read it, size the desired settings, merge them over
// what the Controller holds, and write only when something would change. What the Ansible
// modules need, through the binary's `controller apply-se-group` command; built from the same
// pieces as the nsxalb_se_group resource (sizing_plan.h, fields.h, the controller client), so
// both front ends size, merge and write the same way.
//
// The rules are the resource's (docs/design/se-group-resource.md): a workload fills the sizing
// settings that are not given; the findings are warnings, or errors under sizing_policy
// "enforce" only when the group would be created or changed (the enforce gate); an update is the
// client's read-modify-write, which keeps every field it does not manage; absent never sizes, so
// it never fails on sizing; Default-Group is never deleted.
#ifndef NSXALB_PLUGIN_SEGROUP_DESIRED_STATE_H_
#define NSXALB_PLUGIN_SEGROUP_DESIRED_STATE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// The cloud of an SE group that names none, as on the Controller.
inline constexpr char kDefaultCloud[] = "Default-Cloud";

// One SE group as it should be.
struct DesiredSeGroup {
  std::string name;
  std::string cloud = kDefaultCloud;  // name, uuid or ref
  std::string tenant;                 // empty: the client's
  bool present = true;                // false: absent
  // The typed settings given, by Avi field name (TypedFieldNames()); null members are unset.
  nlohmann::json settings = nlohmann::json::object();
  // The workload by its keys, or null.
  nlohmann::json workload = nullptr;
  // The sizing profile; unset: the cloud's type decides (PlatformOfCloud).
  std::optional<sizing::Platform> platform;
  SizingPolicy sizing_policy = SizingPolicy::kWarn;
  // Further ServiceEngineGroup fields (CheckExtraFields).
  nlohmann::json extra_fields = nlohmann::json::object();
};

// Reads the command's input: {"name", "cloud", "tenant", "state": "present"|"absent",
// "settings": {...}, "workload": {...}, "platform", "sizing_policy", "extra_fields": {...}}; only
// "name" is required, nulls are unset. InvalidArgument naming the member for anything else,
// unknown members and keys included.
absl::StatusOr<DesiredSeGroup> ParseDesiredSeGroup(const nlohmann::json& input);

// How Converge runs.
struct ConvergeOptions {
  // Read and plan only: no POST, PUT or DELETE (Ansible's check mode).
  bool dry_run = false;
  // The API version the client was pinned to, if any (for the fields a create may send).
  std::string pinned_api_version;
};

// What Converge did, or would do in a dry run.
struct Outcome {
  // Whether the group was (or would be) created, changed or deleted.
  bool changed = false;
  // The managed fields (Avi names) before and after: the fields sent, as the group held them and
  // as they are afterwards; {} for a group that does not exist on that side.
  nlohmann::json before = nlohmann::json::object();
  nlohmann::json after = nlohmann::json::object();
  // The group as the Controller holds it afterwards (in a dry run: as it would); null when
  // there is none.
  nlohmann::json se_group = nullptr;
  // SizingSummaryJson of the plan, or null without a workload.
  nlohmann::json sizing = nullptr;
  // The plan's workload and planned shape (SizingPlan::workload, planned_shape), for the
  // utilization at the running SEs' shape; unset without a workload or with an error.
  std::optional<sizing::Workload> workload;
  std::optional<sizing::Recommendation> planned_shape;
  // FindingText of the findings that are warnings for this operation.
  std::vector<std::string> warnings;
  // Why the operation fails without writing anything: findings that are errors for it (model
  // errors; under-sizing under "enforce" when it creates or changes the group), input errors.
  std::vector<std::string> errors;
};

// Brings the group to `desired`. Controller failures are the client's statuses (never holding a
// secret); a sizing failure is an Outcome with `errors`, after which nothing was sent.
absl::StatusOr<Outcome> Converge(controller::Client& client, const DesiredSeGroup& desired,
                                 const ConvergeOptions& options);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_DESIRED_STATE_H_
