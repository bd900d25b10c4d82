// Opt-in capability: upgrading state written by an older schema version (UpgradeResourceState).
// State at the current version is decoded by the engine itself; this is called only when the
// stored version is lower than the schema's.
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_UPGRADE_STATE_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_UPGRADE_STATE_H_

#include <cstdint>
#include <string>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::framework {

struct UpgradeStateRequest {
  Context context;
  // The stored schema version (lower than the current one).
  int64_t version = 0;
  // The state's attributes as JSON, in the shape that version wrote.
  std::string raw_state_json;
};
struct UpgradeStateResponse {
  // The state converted to the current schema. Must be set when no error is reported.
  cty::Value upgraded_state;
  Diagnostics diagnostics;
};

// Implement alongside Resource when the schema version is above 0.
class ResourceWithUpgradeState {
 public:
  virtual ~ResourceWithUpgradeState() = default;
  virtual void UpgradeState(const UpgradeStateRequest& request, UpgradeStateResponse& response) = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_UPGRADE_STATE_H_
