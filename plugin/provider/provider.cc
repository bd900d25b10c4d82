// The nsxalb provider.
#include "plugin/provider/provider.h"

#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/framework/schema_json.h"
#include "plugin/provider/cloud_data_source.h"
#include "plugin/provider/license_usage_data_source.h"
#include "plugin/provider/se_group_data_source.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/provider/se_group_usage_data_source.h"
#include "plugin/provider/se_groups_usage_data_source.h"
#include "plugin/provider/se_sizing_data_source.h"
#include "plugin/provider/sizing_functions.h"
#include "provider_schema/embedded.h"

namespace nsxalb::provider {
namespace {

// Parses one embedded schema; a broken one (a build bug, caught by tests) is logged and empty.
framework::Schema ParseEmbedded(std::string_view what, std::string_view json) {
  absl::StatusOr<framework::Schema> parsed = framework::ParseSchemaJson(json);
  if (!parsed.ok()) {
    log::Error(
        absl::StrCat("provider_schema/", std::string(what), ": ", parsed.status().message()));
    return framework::Schema();
  }
  return *std::move(parsed);
}

// The embedded schemas of one kind, parsed once.
std::map<std::string, framework::Schema> ParseAll(
    const char* folder, const std::vector<provider_schema::EmbeddedSchema>& list) {
  std::map<std::string, framework::Schema> out;
  for (const auto& entry : list) {
    out.emplace(
        std::string(entry.name),
        ParseEmbedded(absl::StrCat(folder, "/", std::string(entry.name), ".json"), entry.json));
  }
  return out;
}

const framework::Schema& Lookup(const std::map<std::string, framework::Schema>& schemas,
                                const char* folder, const std::string& type_name) {
  static const framework::Schema* const kEmpty = new framework::Schema();
  auto it = schemas.find(type_name);
  if (it == schemas.end()) {
    log::Error(absl::StrCat("provider_schema/", folder, "/", type_name, ".json is missing"));
    return *kEmpty;
  }
  return it->second;
}

}  // namespace

const framework::Schema& EmbeddedProviderSchema() {
  static const framework::Schema* const kSchema =
      new framework::Schema(ParseEmbedded("provider.json", provider_schema::ProviderJson()));
  return *kSchema;
}

const framework::Schema& EmbeddedResourceSchema(const std::string& type_name) {
  static const auto* const kSchemas = new std::map<std::string, framework::Schema>(
      ParseAll("resources", provider_schema::ResourceJson()));
  return Lookup(*kSchemas, "resources", type_name);
}

const framework::Schema& EmbeddedDataSourceSchema(const std::string& type_name) {
  static const auto* const kSchemas = new std::map<std::string, framework::Schema>(
      ParseAll("data_sources", provider_schema::DataSourceJson()));
  return Lookup(*kSchemas, "data_sources", type_name);
}

ClientFactory DefaultClientFactory() {
  return [](const controller::ClientConfig& config)
             -> absl::StatusOr<std::shared_ptr<controller::Client>> {
    NSXALB_ASSIGN_OR_RETURN(std::unique_ptr<controller::Client> client,
                            controller::NewClient(config));
    return std::shared_ptr<controller::Client>(std::move(client));
  };
}

NsxalbProvider::NsxalbProvider(framework::EnvLookup env, ClientFactory clients, bool destroy_run)
    : env_(std::move(env)), client_factory_(std::move(clients)), destroy_run_(destroy_run) {}

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
  if (parsed->missing_controller_settings.empty()) {
    log::Debug(absl::StrCat("provider configured for ", parsed->client.controller, " as ",
                            parsed->client.username, " (tenant ", parsed->client.tenant, ")"));
  } else {
    log::Debug("provider configured without a Controller (sizing only)");
  }
  std::lock_guard<std::mutex> lock(mu_);
  config_ = std::move(parsed);
  client_.reset();  // a new configuration gets a new session on first use
}

std::map<std::string, framework::ResourceFactory> NsxalbProvider::Resources() {
  return {{kSeGroupResourceType, [this] { return std::make_unique<SeGroupResource>(this); }}};
}

std::map<std::string, framework::DataSourceFactory> NsxalbProvider::DataSources() {
  return {
      {kCloudDataSourceType, [this] { return std::make_unique<CloudDataSource>(this); }},
      {kLicenseUsageDataSourceType,
       [this] { return std::make_unique<LicenseUsageDataSource>(this); }},
      {kSeGroupDataSourceType, [this] { return std::make_unique<SeGroupDataSource>(this); }},
      {kSeGroupUsageDataSourceType,
       [this] { return std::make_unique<SeGroupUsageDataSource>(this); }},
      {kSeGroupsUsageDataSourceType,
       [this] { return std::make_unique<SeGroupsUsageDataSource>(this); }},
      {kSeSizingDataSource, NewSeSizingDataSource},
  };
}

std::map<std::string, framework::FunctionFactory> NsxalbProvider::Functions() {
  return SizingFunctions();
}

void NsxalbProvider::Stop() {
  std::shared_ptr<controller::Client> client;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    client = client_;
    if (!stop_requested_.HasBeenNotified()) stop_requested_.Notify();
  }
  if (client != nullptr) client->Cancel();
}

std::shared_ptr<const ProviderConfig> NsxalbProvider::config() const {
  std::lock_guard<std::mutex> lock(mu_);
  return config_;
}

segroup::SizingPolicy NsxalbProvider::sizing_policy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return config_ == nullptr ? segroup::SizingPolicy::kWarn : config_->sizing_policy;
}

absl::StatusOr<std::shared_ptr<controller::Client>> NsxalbProvider::Client() {
  std::lock_guard<std::mutex> lock(mu_);
  if (client_ != nullptr) return client_;
  if (config_ == nullptr) {
    return absl::FailedPreconditionError(
        "The provider is not configured: Terraform did not call Configure before this "
        "operation.");
  }
  if (!config_->missing_controller_settings.empty()) {
    return absl::FailedPreconditionError(config_->missing_controller_settings);
  }
  NSXALB_ASSIGN_OR_RETURN(std::shared_ptr<controller::Client> client,
                          client_factory_(config_->client));
  client_ = std::move(client);
  if (stopped_) client_->Cancel();
  return client_;
}

std::shared_ptr<NsxalbProvider> NewProvider(bool destroy_run) {
  return std::make_shared<NsxalbProvider>(framework::ProcessEnv(), DefaultClientFactory(),
                                          destroy_run);
}

}  // namespace nsxalb::provider
