// Opt-in capability: `terraform import ADDR ID`. The resource turns the user's ID into a state
// that is complete enough for Read, which Terraform calls right afterwards.
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_IMPORT_STATE_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_IMPORT_STATE_H_

#include <string>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::framework {

struct ImportStateRequest {
  Context context;
  std::string id;
};
struct ImportStateResponse {
  // Pre-filled with an empty object of the schema (null attributes, empty LIST/SET/MAP blocks).
  // Set at least the attributes Read needs, typically "id".
  cty::Value state;
  std::string private_data;
  Diagnostics diagnostics;
};

// Implement alongside Resource to support import.
class ResourceWithImportState {
 public:
  virtual ~ResourceWithImportState() = default;
  virtual void ImportState(const ImportStateRequest& request, ImportStateResponse& response) = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_IMPORT_STATE_H_
