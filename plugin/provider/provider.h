// The shipped nsxalb provider: the provider block (schema from provider_schema/provider.json), its
// validation and configuration, and the resource and data source types. Resources reach the
// Controller through Client(), which logs in lazily: a process that never needs the Controller
// (validate, sizing only, `plan -refresh=false` of settled groups) never contacts it.
#ifndef NSXALB_PLUGIN_PROVIDER_PROVIDER_H_
#define NSXALB_PLUGIN_PROVIDER_PROVIDER_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "plugin/controller/client.h"
#include "plugin/framework/function.h"
#include "plugin/framework/provider.h"
#include "plugin/provider/config.h"
#include "plugin/segroup/license_check.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/usage/current_load.h"

namespace nsxalb::provider {

// Terraform's address of this provider, as in `terraform providers schema -json`.
inline constexpr char kProviderAddress[] = "registry.terraform.io/nsxalb/nsxalb";

// Makes a Controller client for a configuration; tests substitute their own.
using ClientFactory = std::function<absl::StatusOr<std::shared_ptr<controller::Client>>(
    const controller::ClientConfig& config)>;

// The production factory: controller::NewClient.
ClientFactory DefaultClientFactory();

// The provider. Thread-safe.
class NsxalbProvider : public framework::Provider,
                       public framework::ProviderWithValidateConfig,
                       public framework::ProviderWithFunctions {
 public:
  // `env` supplies the environment defaults (the process environment by default); `clients`
  // makes the Controller client on first use; `destroy_run` says that the Terraform command that
  // started the process is a destroy (host::LaunchingTerraformRun).
  explicit NsxalbProvider(framework::EnvLookup env = framework::ProcessEnv(),
                          ClientFactory clients = DefaultClientFactory(), bool destroy_run = false);

  // The provider block schema, parsed from the embedded provider_schema/provider.json.
  framework::Schema GetSchema() const override;
  // Checks the block as written (PrepareProviderConfig).
  void ValidateConfig(const framework::ValidateProviderConfigRequest& request,
                      framework::ValidateProviderConfigResponse& response) override;
  // Applies environment defaults, checks everything and keeps the parsed configuration. Does not
  // contact the Controller.
  void Configure(const framework::ConfigureRequest& request,
                 framework::ConfigureResponse& response) override;
  // nsxalb_se_group.
  std::map<std::string, framework::ResourceFactory> Resources() override;
  // nsxalb_se_sizing, nsxalb_cloud and nsxalb_se_group.
  std::map<std::string, framework::DataSourceFactory> DataSources() override;
  // recommend, capacity and check (sizing_functions.h).
  std::map<std::string, framework::FunctionFactory> Functions() override;
  // Cancels the Controller client's in-flight and later calls, and notifies stop_requested().
  void Stop() override;

  // Notified once Terraform asked the provider to stop (StopProvider: Ctrl-C): a long apply step
  // such as the roll of the SEs ends after its current step.
  absl::Notification& stop_requested() { return stop_requested_; }

  // The configuration of the last successful Configure, or nullptr before one.
  std::shared_ptr<const ProviderConfig> config() const;

  // The Controller client, made on first use. FailedPrecondition saying what to set when the
  // provider has no Controller configured (or was not configured); the client's validation
  // error when its settings are invalid.
  absl::StatusOr<std::shared_ptr<controller::Client>> Client();

  // The tenant's SE listing, fetched once per process and shared by every resource and data
  // source (plugin/segroup/lifecycle/running_ses.h): one paged request for a plan of any number of
  // groups.
  segroup::lifecycle::SharedSeListing& se_listing() { return se_listing_; }

  // The provider's sizing policy ("warn" before Configure).
  segroup::SizingPolicy sizing_policy() const;

  // True when the process serves `terraform destroy`, `apply -destroy` or `plan -destroy`: every
  // PlanResourceChange of a normal-mode plan is then the refresh Terraform runs before the destroy
  // and discards, so the enforce gate does not fail it.
  bool destroy_run() const { return destroy_run_; }

  // The Controller's licence ledger, read once per process and shared by every resource and
  // data source (segroup::LicenseLedgerCache).
  segroup::LicenseLedgerCache& license_ledger() { return license_ledger_; }

  // The CPU and memory the tenant's SEs carry now, read once per process (one metrics request for
  // every group a plan would roll) and shared (segroup::SharedCurrentLoad).
  segroup::SharedCurrentLoad& current_load() { return current_load_; }

 private:
  framework::EnvLookup env_;
  ClientFactory client_factory_;
  const bool destroy_run_;
  mutable std::mutex mu_;
  std::shared_ptr<const ProviderConfig> config_;
  std::shared_ptr<controller::Client> client_;
  bool stopped_ = false;
  absl::Notification stop_requested_;
  segroup::lifecycle::SharedSeListing se_listing_;
  segroup::LicenseLedgerCache license_ledger_;
  segroup::SharedCurrentLoad current_load_;
};

// The provider served by terraform-provider-nsxalb; `destroy_run` as in NsxalbProvider.
std::shared_ptr<NsxalbProvider> NewProvider(bool destroy_run = false);

// The schemas of provider_schema/ parsed once; aborts nothing: a broken embedded schema (a build
// bug, caught by tests) gives an empty schema and an error in the log.
const framework::Schema& EmbeddedProviderSchema();

// The embedded schema of resource or data source `type_name` (provider_schema/resources or
// data_sources); an empty schema and an error in the log when there is none.
const framework::Schema& EmbeddedResourceSchema(const std::string& type_name);
const framework::Schema& EmbeddedDataSourceSchema(const std::string& type_name);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_PROVIDER_H_
