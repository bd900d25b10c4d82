// The nsxalb provider block: its parsed form and its validation. Shared by the provider's
// ValidateConfig (PrepareProviderConfig) and Configure, and kept for the resources.
#ifndef NSXALB_PLUGIN_PROVIDER_CONFIG_H_
#define NSXALB_PLUGIN_PROVIDER_CONFIG_H_

#include <string>

#include "plugin/controller/config.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/provider.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/se_group_sizing.h"

namespace nsxalb::provider {

// The provider configuration after environment defaults.
struct ProviderConfig {
  // The Controller client's settings: `controller` holds the normalised base URL, `ca_file` /
  // `ca_pem` whichever was set, `total_timeout` from timeout_seconds. Never log `password` or
  // `auth_token`.
  controller::ClientConfig client;
  // The provider's sizing_policy (resources may override it).
  segroup::SizingPolicy sizing_policy = segroup::SizingPolicy::kWarn;
  // What is missing to reach a Controller (controller, username, credentials), as a sentence
  // naming the arguments and environment variables to set; empty when the Controller is fully
  // configured. A configuration without a Controller is valid: nsxalb_se_sizing needs none.
  std::string missing_controller_settings;
};

// When the configuration is checked.
enum class ConfigPhase {
  // `terraform validate` (PrepareProviderConfig): only what is written; unknowns are skipped.
  kValidate,
  // Configure: environment defaults applied; every value must be known. Missing Controller
  // settings are not an error (see ProviderConfig::missing_controller_settings).
  kConfigure,
};

// Checks `config` (an object of the provider schema's implied type). Errors and warnings carry
// the attribute path; secret values never appear in them. In kConfigure, environment defaults
// from `env` are applied first (password/auth_token and ca_file/ca_pem take no environment
// default when the configuration sets the other one), and `out` is filled when there is no
// error. `out` may be null.
framework::Diagnostics CheckConfig(const framework::Block& schema, const cty::Value& config,
                                   ConfigPhase phase, const framework::EnvLookup& env,
                                   ProviderConfig* out);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_CONFIG_H_
