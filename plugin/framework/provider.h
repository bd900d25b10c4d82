// The provider interface: the provider block's schema, its validation and configuration, and the
// resource and data source types it offers. Resources reach the configured provider through the
// factories (closures that capture what they need).
#ifndef NSXALB_PLUGIN_FRAMEWORK_PROVIDER_H_
#define NSXALB_PLUGIN_FRAMEWORK_PROVIDER_H_

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/data_source.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/resource.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// Configure: called before any resource operation in plan, apply, refresh and import. Values
// may be unknown when the provider block refers to resources not created yet.
struct ConfigureRequest {
  Context context;
  std::string terraform_version;
  cty::Value config;
};
struct ConfigureResponse {
  Diagnostics diagnostics;
};

// PrepareProviderConfig (validate walk, and before Configure in current Terraform).
struct ValidateProviderConfigRequest {
  Context context;
  cty::Value config;
};
struct ValidateProviderConfigResponse {
  Diagnostics diagnostics;
};

// A provider.
class Provider {
 public:
  virtual ~Provider() = default;

  // The provider block's schema.
  virtual Schema GetSchema() const = 0;
  // Configures the provider (Configure RPC).
  virtual void Configure(const ConfigureRequest& request, ConfigureResponse& response) = 0;
  // Resource types by name ("nsxalb_se_group"); called once when the server starts.
  virtual std::map<std::string, ResourceFactory> Resources() = 0;
  // Data source types by name; called once when the server starts.
  virtual std::map<std::string, DataSourceFactory> DataSources() = 0;
  // Called on the Stop RPC after the context is marked stopped; release blocking waits. Must be
  // safe to call concurrently with other methods.
  virtual void Stop() {}
};

// Opt-in capability: validating the provider configuration.
class ProviderWithValidateConfig {
 public:
  virtual ~ProviderWithValidateConfig() = default;
  virtual void ValidateConfig(const ValidateProviderConfigRequest& request,
                              ValidateProviderConfigResponse& response) = 0;
};

// Looks up an environment variable; returns nullopt when unset. Injectable for tests.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment (getenv); empty values count as unset.
EnvLookup ProcessEnv();

// Returns `config` (an object of `block`'s implied type) with every null top-level string, number
// or bool attribute that has `env` annotations filled from the first set variable. A variable
// that does not parse as the attribute's type is reported as an attribute error naming the
// variable (not its value). Unknown and non-null values are kept.
cty::Value ApplyEnvDefaults(const Block& block, const cty::Value& config, const EnvLookup& env,
                            Diagnostics& diagnostics);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_PROVIDER_H_
