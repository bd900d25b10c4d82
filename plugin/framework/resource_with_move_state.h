// Opt-in capability: taking over state from another resource type, possibly of another provider
// (MoveResourceState, protocol 5.5, Terraform 1.8 and later), for a `moved { from = other_type.x
// to = this_type.x }` block. Terraform calls it on an unconfigured provider, with the source's
// state as the source provider stored it (raw JSON). The result must be wholly known; Terraform
// refreshes the moved object (Configure, then Read) before it plans, so Read can fill in what only
// the remote system knows.
//
// A move between two versions of the same resource type of this provider (the same type name,
// from a provider address of the type name's prefix) is handled by the engine, through the same
// path as UpgradeResourceState; the resource sees only moves from other types.
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MOVE_STATE_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MOVE_STATE_H_

#include <cstdint>
#include <string>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::framework {

struct MoveStateRequest {
  Context context;
  // The source's provider address, such as "registry.terraform.io/vmware/avi".
  std::string source_provider_address;
  // The source's resource type, such as "avi_serviceenginegroup".
  std::string source_type_name;
  // The schema version the source state was written with.
  int64_t source_schema_version = 0;
  // The source state's attributes as JSON, in the source provider's shape.
  std::string source_state_json;
  // The source's private data.
  std::string source_private;
};
struct MoveStateResponse {
  // Pre-filled with an empty object of the schema (null attributes, empty LIST/SET/MAP blocks).
  // On success, the moved state: wholly known and of the schema's type.
  cty::Value target_state;
  std::string target_private;
  // A source this resource does not take (another type or provider, a state it cannot read)
  // is an error that says which sources it takes.
  Diagnostics diagnostics;
};

// Implement alongside Resource to take over state from other resource types.
class ResourceWithMoveState {
 public:
  virtual ~ResourceWithMoveState() = default;
  virtual void MoveState(const MoveStateRequest& request, MoveStateResponse& response) = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MOVE_STATE_H_
