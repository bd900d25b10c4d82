// The shipped nsxalb provider: the provider block (schema from provider_schema/provider.json),
// its validation and configuration. Resources and data sources arrive in a later issue; the
// parsed configuration is kept for them (config()).
#ifndef NSXALB_PLUGIN_PROVIDER_PROVIDER_H_
#define NSXALB_PLUGIN_PROVIDER_PROVIDER_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "plugin/framework/provider.h"
#include "plugin/provider/config.h"

namespace nsxalb::provider {

// Terraform's address of this provider, as in `terraform providers schema -json`.
inline constexpr char kProviderAddress[] = "registry.terraform.io/nsxalb/nsxalb";

// The provider. Thread-safe.
class NsxalbProvider : public framework::Provider, public framework::ProviderWithValidateConfig {
 public:
  // `env` supplies the NSXALB_* environment defaults (the process environment by default).
  explicit NsxalbProvider(framework::EnvLookup env = framework::ProcessEnv());

  // The provider block schema, parsed from the embedded provider_schema/provider.json.
  framework::Schema GetSchema() const override;
  // Checks the block as written (PrepareProviderConfig).
  void ValidateConfig(const framework::ValidateProviderConfigRequest& request,
                      framework::ValidateProviderConfigResponse& response) override;
  // Applies environment defaults, checks everything and keeps the parsed configuration.
  void Configure(const framework::ConfigureRequest& request,
                 framework::ConfigureResponse& response) override;
  // The resource types built from provider_schema/resources (none yet).
  std::map<std::string, framework::ResourceFactory> Resources() override;
  // The data source types built from provider_schema/data_sources (none yet).
  std::map<std::string, framework::DataSourceFactory> DataSources() override;

  // The configuration of the last successful Configure, or nullptr before one.
  std::shared_ptr<const ProviderConfig> config() const;

 private:
  framework::EnvLookup env_;
  mutable std::mutex mu_;
  std::shared_ptr<const ProviderConfig> config_;
};

// The provider served by terraform-provider-nsxalb.
std::shared_ptr<NsxalbProvider> NewProvider();

// The schemas of provider_schema/ parsed once; aborts nothing: a broken embedded schema (a build
// bug, caught by tests) gives an empty schema and an error in the log.
const framework::Schema& EmbeddedProviderSchema();

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_PROVIDER_H_
