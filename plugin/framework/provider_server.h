// The engine between the wire and a Provider: one method per tfplugin5 RPC, in framework types.
// It owns Terraform's rules so that resources don't have to: the plan rules (plan.h), the apply
// checks (apply.cc), state upgrades and the result checks of read, import and data sources. Every
// problem, including a resource breaking a rule, comes back as a diagnostic; it never throws.
//
// Thread-safe: Terraform calls RPCs concurrently. Schemas are fixed at construction.
#ifndef NSXALB_PLUGIN_FRAMEWORK_PROVIDER_SERVER_H_
#define NSXALB_PLUGIN_FRAMEWORK_PROVIDER_SERVER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plugin/cty/path.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/function.h"
#include "plugin/framework/provider.h"
#include "plugin/framework/resource_with_move_state.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// Result of PrepareProviderConfig.
struct PrepareProviderConfigResult {
  cty::Value prepared_config;
  Diagnostics diagnostics;
};

// Result of UpgradeResourceState.
struct UpgradeResourceStateResult {
  cty::Value upgraded_state;
  Diagnostics diagnostics;
};

// Result of ReadResource.
struct ReadResourceResult {
  cty::Value new_state;
  std::string private_data;
  Diagnostics diagnostics;
};

// Result of PlanResourceChange.
struct PlanResourceChangeResult {
  cty::Value planned_state;
  std::vector<cty::AttributePath> requires_replace;
  std::string planned_private;
  Diagnostics diagnostics;
};

// Result of ApplyResourceChange.
struct ApplyResourceChangeResult {
  cty::Value new_state;
  std::string private_data;
  Diagnostics diagnostics;
};

// One object returned by ImportResourceState.
struct ImportedResource {
  std::string type_name;
  cty::Value state;
  std::string private_data;
};

// Result of ImportResourceState.
struct ImportResourceStateResult {
  std::vector<ImportedResource> imported;
  Diagnostics diagnostics;
};

// Result of MoveResourceState.
struct MoveResourceStateResult {
  cty::Value target_state;
  std::string target_private;
  Diagnostics diagnostics;
};

// Result of CallFunction: a wholly known result of the return type, or an error.
struct CallFunctionResult {
  cty::Value result;
  std::optional<FunctionError> error;
};

// Result of ReadDataSource.
struct ReadDataSourceResult {
  cty::Value state;
  Diagnostics diagnostics;
};

// Serves one Provider.
class ProviderServer {
 public:
  // Collects the provider's, resources' and data sources' schemas. A schema breaking Terraform's
  // rules is reported by schema_diagnostics() (and by GetSchema on the wire).
  explicit ProviderServer(std::shared_ptr<Provider> provider);

  // Schemas, for the wire to decode and encode values.
  const Schema& provider_schema() const { return provider_schema_; }
  const std::map<std::string, Schema>& resource_schemas() const { return resource_schemas_; }
  const std::map<std::string, Schema>& data_source_schemas() const { return data_source_schemas_; }
  // The schema of a resource or data source type, or nullptr when the type is unknown.
  const Schema* ResourceSchema(const std::string& type_name) const;
  const Schema* DataSourceSchema(const std::string& type_name) const;
  // The provider's functions by name (empty unless it implements ProviderWithFunctions).
  const std::map<std::string, FunctionDefinition>& functions() const { return functions_; }
  // True: MoveResourceState is served (server_capabilities.move_resource_state). Moves between
  // versions of one of this provider's types always work; other sources need the target resource
  // to implement ResourceWithMoveState.
  bool move_resource_state() const { return true; }
  // Problems found in the schemas at construction.
  const Diagnostics& schema_diagnostics() const { return schema_diagnostics_; }

  // PrepareProviderConfig: validates the provider block; the prepared config is the config.
  PrepareProviderConfigResult PrepareProviderConfig(const cty::Value& config);
  // Configure.
  Diagnostics Configure(const std::string& terraform_version, const cty::Value& config);
  // ValidateResourceTypeConfig: deprecation warnings, then the resource's own validation.
  Diagnostics ValidateResourceConfig(const std::string& type_name, const cty::Value& config);
  // ValidateDataSourceConfig.
  Diagnostics ValidateDataSourceConfig(const std::string& type_name, const cty::Value& config);
  // UpgradeResourceState from RawState JSON: decoded directly at the current version (dropping
  // attributes the schema no longer has), through the resource's upgrader below it, an error
  // above it.
  UpgradeResourceStateResult UpgradeResourceState(const std::string& type_name, int64_t version,
                                                  std::string_view raw_state_json);
  // ReadResource.
  ReadResourceResult ReadResource(const std::string& type_name, const cty::Value& current_state,
                                  const std::string& private_data);
  // PlanResourceChange: Terraform's plan rules, the resource's ModifyPlan, then a check of the
  // result against the rules.
  PlanResourceChangeResult PlanResourceChange(const std::string& type_name,
                                              const cty::Value& prior_state,
                                              const cty::Value& proposed_new_state,
                                              const cty::Value& config,
                                              const std::string& prior_private);
  // ApplyResourceChange: create, update or delete, then a check of the result.
  ApplyResourceChangeResult ApplyResourceChange(const std::string& type_name,
                                                const cty::Value& prior_state,
                                                const cty::Value& planned_state,
                                                const cty::Value& config,
                                                const std::string& planned_private);
  // ImportResourceState.
  ImportResourceStateResult ImportResourceState(const std::string& type_name,
                                                const std::string& id);
  // MoveResourceState (move.cc): from the same type of this provider (the source address ends in
  // "/<prefix>" where <prefix> is the type name up to its first "_", Terraform's implied
  // provider), through UpgradeResourceState; from anything else, through the target resource's
  // MoveState. The result is checked: wholly known, of the schema's type.
  MoveResourceStateResult MoveResourceState(const MoveStateRequest& request,
                                            const std::string& target_type_name);
  // CallFunction (function.cc): checks the name and the argument count; answers unknown of the
  // return type, without calling the function, when an argument is not wholly known and its
  // parameter does not allow unknowns (as Terraform does); otherwise calls the function and
  // checks that its result is wholly known and of the return type.
  CallFunctionResult CallFunction(const std::string& name,
                                  const std::vector<cty::Value>& arguments);
  // ReadDataSource.
  ReadDataSourceResult ReadDataSource(const std::string& type_name, const cty::Value& config);
  // Stop: marks every Context stopped and tells the provider. Returns an error text or "".
  std::string Stop();

 private:
  Context context() const { return Context(stopped_); }
  std::unique_ptr<Resource> NewResource(const std::string& type_name, const Schema** schema,
                                        Diagnostics& diagnostics) const;

  std::shared_ptr<Provider> provider_;
  std::shared_ptr<std::atomic<bool>> stopped_;
  Schema provider_schema_;
  std::map<std::string, Schema> resource_schemas_;
  std::map<std::string, Schema> data_source_schemas_;
  std::map<std::string, ResourceFactory> resource_factories_;
  std::map<std::string, DataSourceFactory> data_source_factories_;
  std::map<std::string, FunctionDefinition> functions_;
  std::map<std::string, FunctionFactory> function_factories_;
  Diagnostics schema_diagnostics_;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_PROVIDER_SERVER_H_
