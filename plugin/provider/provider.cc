// The nsxalb provider.
#include "plugin/provider/provider.h"

#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/framework/schema_json.h"
#include "plugin/provider/se_sizing_data_source.h"
#include "provider_schema/embedded.h"

namespace nsxalb::provider {

const framework::Schema& EmbeddedProviderSchema() {
  static const framework::Schema* const kSchema = [] {
    absl::StatusOr<framework::Schema> parsed =
        framework::ParseSchemaJson(provider_schema::ProviderJson());
    if (!parsed.ok()) {
      log::Error(absl::StrCat("provider_schema/provider.json: ", parsed.status().message()));
      return new framework::Schema();
    }
    return new framework::Schema(*std::move(parsed));
  }();
  return *kSchema;
}

NsxalbProvider::NsxalbProvider(framework::EnvLookup env) : env_(std::move(env)) {}

framework::Schema NsxalbProvider::GetSchema() const { return EmbeddedProviderSchema(); }

void NsxalbProvider::ValidateConfig(const framework::ValidateProviderConfigRequest& request,
                                    framework::ValidateProviderConfigResponse& response) {
  response.diagnostics.Append(CheckConfig(EmbeddedProviderSchema().block, request.config,
                                          ConfigPhase::kValidate, env_, nullptr));
}

void NsxalbProvider::Configure(const framework::ConfigureRequest& request,
                               framework::ConfigureResponse& response) {
  auto parsed = std::make_shared<ProviderConfig>();
  response.diagnostics.Append(CheckConfig(EmbeddedProviderSchema().block, request.config,
                                          ConfigPhase::kConfigure, env_, parsed.get()));
  if (response.diagnostics.HasError()) return;
  log::Debug(absl::StrCat("provider configured for ", parsed->controller, " as ", parsed->username,
                          " (tenant ", parsed->tenant, ")"));
  std::lock_guard<std::mutex> lock(mu_);
  config_ = std::move(parsed);
}

std::map<std::string, framework::ResourceFactory> NsxalbProvider::Resources() { return {}; }

std::map<std::string, framework::DataSourceFactory> NsxalbProvider::DataSources() {
  return {{kSeSizingDataSource, NewSeSizingDataSource}};
}

std::shared_ptr<const ProviderConfig> NsxalbProvider::config() const {
  std::lock_guard<std::mutex> lock(mu_);
  return config_;
}

std::shared_ptr<NsxalbProvider> NewProvider() { return std::make_shared<NsxalbProvider>(); }

}  // namespace nsxalb::provider
