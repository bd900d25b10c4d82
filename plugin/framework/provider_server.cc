// The engine: schemas, validation, configure, upgrade, read, import, data sources and stop.
// Planning is in plan.cc and applying in apply.cc.
#include "plugin/framework/provider_server.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/common/log.h"
#include "plugin/cty/json.h"
#include "plugin/framework/plan.h"
#include "plugin/framework/resource_with_import_state.h"
#include "plugin/framework/resource_with_upgrade_state.h"
#include "plugin/framework/resource_with_validate_config.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {
namespace {

void CheckSchema(const std::string& what, const Schema& schema, Diagnostics& diags) {
  if (absl::Status s = ValidateSchema(schema); !s.ok()) {
    diags.AddError("Invalid provider schema",
                   absl::StrCat("The schema of ", what, " breaks Terraform's schema rules: ",
                                s.message(), "\n\nThis is a bug in the provider."));
  }
}

void DeprecationWarnings(const Block& block, const cty::Value& config, Diagnostics& diags) {
  if (config.IsNull() || !config.IsKnown()) return;
  for (const auto& [name, attr] : block.attributes) {
    if (!attr.deprecated) continue;
    const cty::Value v = GetAttr(config, name, attr.type);
    if (v.IsNull()) continue;
    diags.AddAttributeWarning(
        cty::AttributePath::Of(name), "Attribute Deprecated",
        absl::StrCat("The attribute \"", name, "\" is deprecated. ", attr.description));
  }
}

// Removes, recursively, the JSON object keys the block does not define. Returns true when
// something was removed.
bool StripUnknownKeys(const Block& block, nlohmann::json& obj) {
  if (!obj.is_object()) return false;
  bool changed = false;
  for (auto it = obj.begin(); it != obj.end();) {
    if (block.attributes.count(it.key()) == 0 && block.block_types.count(it.key()) == 0) {
      log::Debug(absl::StrCat("state upgrade: dropping attribute \"", it.key(),
                              "\" the schema no longer has"));
      it = obj.erase(it);
      changed = true;
    } else {
      ++it;
    }
  }
  for (const auto& [name, nested] : block.block_types) {
    auto it = obj.find(name);
    if (it == obj.end() || it->is_null()) continue;
    switch (nested.nesting) {
      case NestedBlock::Nesting::kSingle:
      case NestedBlock::Nesting::kGroup:
        changed = StripUnknownKeys(nested.block, *it) || changed;
        break;
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet:
        if (it->is_array()) {
          for (auto& e : *it) changed = StripUnknownKeys(nested.block, e) || changed;
        }
        break;
      case NestedBlock::Nesting::kMap:
        if (it->is_object()) {
          for (auto& [k, e] : it->items()) changed = StripUnknownKeys(nested.block, e) || changed;
        }
        break;
    }
  }
  return changed;
}

}  // namespace

ProviderServer::ProviderServer(std::shared_ptr<Provider> provider)
    : provider_(std::move(provider)), stopped_(std::make_shared<std::atomic<bool>>(false)) {
  provider_schema_ = provider_->GetSchema();
  CheckSchema("the provider", provider_schema_, schema_diagnostics_);
  resource_factories_ = provider_->Resources();
  for (const auto& [name, factory] : resource_factories_) {
    std::unique_ptr<Resource> r = factory ? factory() : nullptr;
    if (r == nullptr) {
      schema_diagnostics_.AddError(
          "Invalid provider",
          absl::StrCat("The factory of resource ", name, " made no resource. This is a bug."));
      continue;
    }
    resource_schemas_[name] = r->GetSchema();
    CheckSchema(absl::StrCat("resource ", name), resource_schemas_[name], schema_diagnostics_);
  }
  data_source_factories_ = provider_->DataSources();
  for (const auto& [name, factory] : data_source_factories_) {
    std::unique_ptr<DataSource> d = factory ? factory() : nullptr;
    if (d == nullptr) {
      schema_diagnostics_.AddError("Invalid provider",
                                   absl::StrCat("The factory of data source ", name,
                                                " made no data source. This is a bug."));
      continue;
    }
    data_source_schemas_[name] = d->GetSchema();
    CheckSchema(absl::StrCat("data source ", name), data_source_schemas_[name],
                schema_diagnostics_);
  }
  if (auto* with_functions = dynamic_cast<ProviderWithFunctions*>(provider_.get())) {
    function_factories_ = with_functions->Functions();
    for (const auto& [name, factory] : function_factories_) {
      std::unique_ptr<Function> f = factory ? factory() : nullptr;
      if (f == nullptr) {
        schema_diagnostics_.AddError(
            "Invalid provider",
            absl::StrCat("The factory of function ", name, " made no function. This is a bug."));
        continue;
      }
      functions_[name] = f->Definition();
    }
  }
}

const Schema* ProviderServer::ResourceSchema(const std::string& type_name) const {
  auto it = resource_schemas_.find(type_name);
  return it == resource_schemas_.end() ? nullptr : &it->second;
}

const Schema* ProviderServer::DataSourceSchema(const std::string& type_name) const {
  auto it = data_source_schemas_.find(type_name);
  return it == data_source_schemas_.end() ? nullptr : &it->second;
}

std::unique_ptr<Resource> ProviderServer::NewResource(const std::string& type_name,
                                                      const Schema** schema,
                                                      Diagnostics& diagnostics) const {
  *schema = ResourceSchema(type_name);
  auto it = resource_factories_.find(type_name);
  if (*schema == nullptr || it == resource_factories_.end()) {
    diagnostics.AddError("Unknown resource type",
                         absl::StrCat("This provider has no resource type \"", type_name, "\"."));
    return nullptr;
  }
  std::unique_ptr<Resource> resource = it->second();
  if (resource == nullptr) {
    diagnostics.AddError("Invalid provider",
                         absl::StrCat("The factory of resource ", type_name,
                                      " made no resource. This is a bug in the provider."));
  }
  return resource;
}

PrepareProviderConfigResult ProviderServer::PrepareProviderConfig(const cty::Value& config) {
  PrepareProviderConfigResult result;
  result.prepared_config = config;
  DeprecationWarnings(provider_schema_.block, config, result.diagnostics);
  if (auto* v = dynamic_cast<ProviderWithValidateConfig*>(provider_.get())) {
    ValidateProviderConfigRequest request{context(), config};
    ValidateProviderConfigResponse response;
    v->ValidateConfig(request, response);
    result.diagnostics.Append(response.diagnostics);
  }
  return result;
}

Diagnostics ProviderServer::Configure(const std::string& terraform_version,
                                      const cty::Value& config) {
  ConfigureRequest request{context(), terraform_version, config};
  ConfigureResponse response;
  provider_->Configure(request, response);
  return response.diagnostics;
}

Diagnostics ProviderServer::ValidateResourceConfig(const std::string& type_name,
                                                   const cty::Value& config) {
  Diagnostics diags;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, diags);
  if (resource == nullptr || config.IsNull()) return diags;
  DeprecationWarnings(schema->block, config, diags);
  if (auto* v = dynamic_cast<ResourceWithValidateConfig*>(resource.get())) {
    ValidateResourceConfigRequest request{context(), config};
    ValidateResourceConfigResponse response;
    v->ValidateConfig(request, response);
    diags.Append(response.diagnostics);
  }
  return diags;
}

Diagnostics ProviderServer::ValidateDataSourceConfig(const std::string& type_name,
                                                     const cty::Value& config) {
  Diagnostics diags;
  auto it = data_source_factories_.find(type_name);
  const Schema* schema = DataSourceSchema(type_name);
  if (it == data_source_factories_.end() || schema == nullptr) {
    diags.AddError("Unknown data source type",
                   absl::StrCat("This provider has no data source type \"", type_name, "\"."));
    return diags;
  }
  if (config.IsNull()) return diags;
  DeprecationWarnings(schema->block, config, diags);
  std::unique_ptr<DataSource> ds = it->second();
  if (auto* v = dynamic_cast<DataSourceWithValidateConfig*>(ds.get())) {
    ValidateDataSourceConfigRequest request{context(), config};
    ValidateDataSourceConfigResponse response;
    v->ValidateConfig(request, response);
    diags.Append(response.diagnostics);
  }
  return diags;
}

UpgradeResourceStateResult ProviderServer::UpgradeResourceState(const std::string& type_name,
                                                                int64_t version,
                                                                std::string_view raw_state_json) {
  UpgradeResourceStateResult result;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  const cty::Type type = ImpliedType(schema->block);
  result.upgraded_state = cty::Value::Null(type);
  if (version > schema->version) {
    result.diagnostics.AddError(
        "Resource instance managed by newer provider version",
        absl::StrCat("The state of this ", type_name, " was written with schema version ", version,
                     ", but this provider only knows up to version ", schema->version,
                     ". Upgrade the provider."));
    return result;
  }
  if (version < schema->version) {
    auto* upgrader = dynamic_cast<ResourceWithUpgradeState*>(resource.get());
    if (upgrader == nullptr) {
      result.diagnostics.AddError(
          "Unable to upgrade resource state",
          absl::StrCat("The state of this ", type_name, " has schema version ", version,
                       " and the provider has no upgrade from it to version ", schema->version,
                       ". This is a bug in the provider."));
      return result;
    }
    UpgradeStateRequest request{context(), version, std::string(raw_state_json)};
    UpgradeStateResponse response;
    response.upgraded_state = cty::Value::Null(type);
    upgrader->UpgradeState(request, response);
    result.diagnostics.Append(response.diagnostics);
    if (result.diagnostics.HasError()) return result;
    if (response.upgraded_state.IsNull()) {
      result.diagnostics.AddError("Unable to upgrade resource state",
                                  "The resource's upgrader returned no state. This is a bug in "
                                  "the provider.");
      return result;
    }
    if (absl::Status s = cty::CheckConformance(response.upgraded_state, type); !s.ok()) {
      result.diagnostics.AddStatusError(
          "Unable to upgrade resource state",
          absl::StrCat("the upgraded state does not conform to the schema (", s.message(),
                       "). This is a bug in the provider."),
          s);
      return result;
    }
    result.upgraded_state = NormalizeBlocks(schema->block, response.upgraded_state);
    return result;
  }
  // Current version: decode; if that fails, drop attributes the schema no longer has and decode
  // again (parsing the JSON a second time only for state that needs it).
  absl::StatusOr<cty::Value> decoded = cty::DecodeJson(raw_state_json, type);
  if (!decoded.ok()) {
    std::string json(raw_state_json);
    nlohmann::json doc =
        nlohmann::json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {
      result.diagnostics.AddError(
          "Unable to read resource state",
          absl::StrCat("The stored state of this ", type_name, " is not valid JSON."));
      return result;
    }
    if (StripUnknownKeys(schema->block, doc)) decoded = cty::DecodeJson(doc.dump(), type);
  }
  if (!decoded.ok()) {
    result.diagnostics.AddStatusError(
        "Unable to read resource state",
        absl::StrCat("The stored state of this ", type_name,
                     " does not match the schema: ", decoded.status().message()),
        decoded.status());
    return result;
  }
  result.upgraded_state = NormalizeBlocks(schema->block, *decoded);
  return result;
}

ReadResourceResult ProviderServer::ReadResource(const std::string& type_name,
                                                const cty::Value& current_state,
                                                const std::string& private_data) {
  ReadResourceResult result;
  result.private_data = private_data;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  const cty::Type type = ImpliedType(schema->block);
  result.new_state = current_state;
  if (current_state.IsNull()) return result;
  ReadRequest request{context(), current_state, private_data};
  ReadResponse response;
  response.new_state = current_state;
  response.private_data = private_data;
  resource->Read(request, response);
  result.diagnostics.Append(response.diagnostics);
  result.private_data = response.private_data;
  if (absl::Status s = cty::CheckConformance(response.new_state, type); !s.ok()) {
    result.diagnostics.AddStatusError("Provider produced invalid object",
                                      absl::StrCat("The state read for ", type_name,
                                                   " does not conform to the schema: ", s.message(),
                                                   ". This is a bug in the provider."),
                                      s);
    return result;  // keep the current state
  }
  if (response.new_state.IsNull()) {
    result.new_state = cty::Value::Null(type);
    return result;
  }
  if (auto unknown = FirstUnknown(response.new_state)) {
    result.diagnostics.AddAttributeError(
        *unknown, "Provider produced invalid object",
        absl::StrCat("The state read for ", type_name, " has an unknown value at ",
                     unknown->ToString(), ". This is a bug in the provider."));
  }
  result.new_state = NormalizeBlocks(schema->block, cty::UnknownAsNull(response.new_state));
  return result;
}

ImportResourceStateResult ProviderServer::ImportResourceState(const std::string& type_name,
                                                              const std::string& id) {
  ImportResourceStateResult result;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  auto* importer = dynamic_cast<ResourceWithImportState*>(resource.get());
  if (importer == nullptr) {
    result.diagnostics.AddError(
        "Resource Import Not Implemented",
        absl::StrCat("The resource type ", type_name, " does not support import."));
    return result;
  }
  const cty::Type type = ImpliedType(schema->block);
  ImportStateRequest request{context(), id};
  ImportStateResponse response;
  response.state = EmptyObject(schema->block);
  importer->ImportState(request, response);
  result.diagnostics.Append(response.diagnostics);
  if (result.diagnostics.HasError()) return result;
  if (response.state.IsNull() || !response.state.IsKnown()) {
    result.diagnostics.AddError(
        "Import failed", absl::StrCat("The resource returned no state for ", type_name, " ID \"",
                                      id, "\". This is a bug in the provider."));
    return result;
  }
  if (absl::Status s = cty::CheckConformance(response.state, type); !s.ok()) {
    result.diagnostics.AddStatusError(
        "Provider produced invalid object",
        absl::StrCat("The imported state does not conform to the schema: ", s.message(),
                     ". This is a bug in the provider."),
        s);
    return result;
  }
  result.imported.push_back(ImportedResource{
      type_name, NormalizeBlocks(schema->block, cty::UnknownAsNull(response.state)),
      response.private_data});
  return result;
}

ReadDataSourceResult ProviderServer::ReadDataSource(const std::string& type_name,
                                                    const cty::Value& config) {
  ReadDataSourceResult result;
  result.state = config;
  auto it = data_source_factories_.find(type_name);
  const Schema* schema = DataSourceSchema(type_name);
  if (it == data_source_factories_.end() || schema == nullptr) {
    result.diagnostics.AddError(
        "Unknown data source type",
        absl::StrCat("This provider has no data source type \"", type_name, "\"."));
    return result;
  }
  const cty::Type type = ImpliedType(schema->block);
  if (config.IsNull() || !config.IsWhollyKnown()) {
    result.diagnostics.AddError("Invalid data source request",
                                absl::StrCat("Terraform sent a read of ", type_name,
                                             " with a null or not wholly known configuration."));
    return result;
  }
  std::unique_ptr<DataSource> ds = it->second();
  ReadDataSourceRequest request{context(), config};
  ReadDataSourceResponse response;
  response.state = config;
  ds->Read(request, response);
  result.diagnostics.Append(response.diagnostics);
  if (result.diagnostics.HasError()) {
    if (!cty::CheckConformance(response.state, type).ok() || response.state.IsNull()) {
      result.state = config;
    } else {
      result.state = cty::UnknownAsNull(response.state);
    }
    return result;
  }
  if (response.state.IsNull()) {
    result.diagnostics.AddError("Provider produced null object",
                                absl::StrCat("The data source ", type_name,
                                             " returned no value. This is a bug in the "
                                             "provider."));
    return result;
  }
  if (absl::Status s = cty::CheckConformance(response.state, type); !s.ok()) {
    result.diagnostics.AddStatusError("Provider produced invalid object",
                                      absl::StrCat("The data read for ", type_name,
                                                   " does not conform to the schema: ", s.message(),
                                                   ". This is a bug in the provider."),
                                      s);
    return result;
  }
  if (auto unknown = FirstUnknown(response.state)) {
    result.diagnostics.AddAttributeError(
        *unknown, "Provider produced invalid object",
        absl::StrCat("The data read for ", type_name, " has an unknown value at ",
                     unknown->ToString(), ". This is a bug in the provider."));
    result.state = cty::UnknownAsNull(response.state);
    return result;
  }
  const cty::Value planned =
      plan::MarkComputedUnknown(schema->block, config, config, cty::Value::Null(type));
  plan::AssertObjectCompatible(absl::StrCat("reading data source ", type_name), schema->block,
                               planned, response.state, result.diagnostics);
  result.state = NormalizeBlocks(schema->block, response.state);
  return result;
}

std::string ProviderServer::Stop() {
  stopped_->store(true);
  provider_->Stop();
  return "";
}

}  // namespace nsxalb::framework
