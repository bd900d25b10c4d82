// Opt-in capability: a resource that checks its configuration beyond what the schema says
// (ValidateResourceTypeConfig, called by `terraform validate` and before every plan).
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_VALIDATE_CONFIG_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_VALIDATE_CONFIG_H_

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::framework {

// The configuration as written; values may be unknown (they depend on other resources).
struct ValidateResourceConfigRequest {
  Context context;
  cty::Value config;
};
struct ValidateResourceConfigResponse {
  Diagnostics diagnostics;
};

// Implement alongside Resource to validate configurations.
class ResourceWithValidateConfig {
 public:
  virtual ~ResourceWithValidateConfig() = default;
  // Adds attribute diagnostics for invalid values; skip values that are unknown.
  virtual void ValidateConfig(const ValidateResourceConfigRequest& request,
                              ValidateResourceConfigResponse& response) = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_VALIDATE_CONFIG_H_
