// The tfplugin5.Provider service: convert the request, call the engine, convert the response.
#include "plugin/wire/provider_service.h"

#include <chrono>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/framework/provider_server.h"
#include "plugin/wire/convert.h"

namespace nsxalb::wire {
namespace {

using framework::Diagnostics;

class ProviderService final : public tfplugin5::Provider::Service {
 public:
  explicit ProviderService(std::shared_ptr<framework::Provider> provider)
      : server_(std::move(provider)) {}

  grpc::Status GetSchema(grpc::ServerContext*, const tfplugin5::GetProviderSchema::Request*,
                         tfplugin5::GetProviderSchema::Response* resp) override {
    return Handle("GetSchema", resp, [&](Diagnostics& diags) {
      SchemaToProto(server_.provider_schema(), resp->mutable_provider());
      for (const auto& [name, schema] : server_.resource_schemas()) {
        SchemaToProto(schema, &(*resp->mutable_resource_schemas())[name]);
      }
      for (const auto& [name, schema] : server_.data_source_schemas()) {
        SchemaToProto(schema, &(*resp->mutable_data_source_schemas())[name]);
      }
      for (const auto& [name, definition] : server_.functions()) {
        FunctionToProto(definition, &(*resp->mutable_functions())[name]);
      }
      resp->mutable_server_capabilities()->set_move_resource_state(server_.move_resource_state());
      // The schema is fixed for the binary and no RPC needs GetSchema first: Terraform (1.6 and
      // later) gives every later instance of the provider in one command its cached copy instead
      // of asking again (three or four instances a plan or an apply).
      resp->mutable_server_capabilities()->set_get_provider_schema_optional(true);
      diags.Append(server_.schema_diagnostics());
    });
  }

  grpc::Status GetFunctions(grpc::ServerContext*, const tfplugin5::GetFunctions::Request*,
                            tfplugin5::GetFunctions::Response* resp) override {
    return Handle("GetFunctions", resp, [&](Diagnostics& diags) {
      for (const auto& [name, definition] : server_.functions()) {
        FunctionToProto(definition, &(*resp->mutable_functions())[name]);
      }
      diags.Append(server_.schema_diagnostics());
    });
  }

  grpc::Status CallFunction(grpc::ServerContext*, const tfplugin5::CallFunction::Request* req,
                            tfplugin5::CallFunction::Response* resp) override {
    return Handle("CallFunction", resp, [&](Diagnostics& diags) {
      auto def = server_.functions().find(req->name());
      if (def == server_.functions().end()) {
        diags.AddError("Unknown function",
                       absl::StrCat("This provider has no function \"", req->name(), "\"."));
        return;
      }
      const framework::FunctionDefinition& definition = def->second;
      std::vector<cty::Value> arguments;
      for (int i = 0; i < req->arguments_size(); ++i) {
        const framework::FunctionParameter* param =
            static_cast<size_t>(i) < definition.parameters.size()
                ? &definition.parameters[i]
                : (definition.variadic_parameter ? &*definition.variadic_parameter : nullptr);
        if (param == nullptr) break;  // the engine reports the count
        absl::StatusOr<cty::Value> arg = DecodeTypedValue(req->arguments(i), param->type);
        if (!arg.ok()) {
          tfplugin5::FunctionError* error = resp->mutable_error();
          error->set_text(
              absl::StrCat("The argument ", param->name,
                           " sent by Terraform could not be decoded: ", arg.status().message()));
          error->set_function_argument(i);
          return;
        }
        arguments.push_back(*std::move(arg));
      }
      if (static_cast<size_t>(req->arguments_size()) > arguments.size()) {
        arguments.resize(req->arguments_size());  // too many: let the engine say so
      }
      framework::CallFunctionResult r = server_.CallFunction(req->name(), arguments);
      if (r.error.has_value()) {
        resp->mutable_error()->set_text(r.error->text);
        if (r.error->argument.has_value()) {
          resp->mutable_error()->set_function_argument(*r.error->argument);
        }
        return;
      }
      if (absl::Status s =
              EncodeTypedValue(r.result, definition.return_type, resp->mutable_result());
          !s.ok()) {
        diags.AddError("Provider produced invalid result",
                       absl::StrCat("The result of function \"", req->name(),
                                    "\" could not be encoded: ", s.message(),
                                    ". This is a bug in the provider."));
      }
    });
  }

  grpc::Status MoveResourceState(grpc::ServerContext*,
                                 const tfplugin5::MoveResourceState::Request* req,
                                 tfplugin5::MoveResourceState::Response* resp) override {
    return Handle("MoveResourceState", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->target_type_name(), diags);
      if (schema == nullptr) return;
      const tfplugin5::RawState& raw = req->source_state();
      if (raw.json().empty()) {
        diags.AddError(
            "Unsupported state format",
            absl::StrCat("Terraform sent no JSON state for the ", req->source_type_name(),
                         " being moved to ", req->target_type_name(), "."));
        return;
      }
      framework::MoveStateRequest request;
      request.source_provider_address = req->source_provider_address();
      request.source_type_name = req->source_type_name();
      request.source_schema_version = req->source_schema_version();
      request.source_state_json = raw.json();
      request.source_private = req->source_private();
      framework::MoveResourceStateResult r =
          server_.MoveResourceState(request, req->target_type_name());
      diags.Append(r.diagnostics);
      if (!r.diagnostics.HasError() && EncodeValue(r.target_state, schema->block, "moved state",
                                                   resp->mutable_target_state(), diags)) {
        resp->set_target_private(r.target_private);
      }
    });
  }

  grpc::Status PrepareProviderConfig(grpc::ServerContext*,
                                     const tfplugin5::PrepareProviderConfig::Request* req,
                                     tfplugin5::PrepareProviderConfig::Response* resp) override {
    return Handle("PrepareProviderConfig", resp, [&](Diagnostics& diags) {
      const framework::Block& block = server_.provider_schema().block;
      cty::Value config;
      if (!DecodeValue(req->has_config(), req->config(), block, "provider configuration", &config,
                       diags)) {
        return;
      }
      framework::PrepareProviderConfigResult r = server_.PrepareProviderConfig(config);
      diags.Append(r.diagnostics);
      EncodeValue(r.prepared_config, block, "prepared configuration",
                  resp->mutable_prepared_config(), diags);
    });
  }

  grpc::Status ValidateResourceTypeConfig(
      grpc::ServerContext*, const tfplugin5::ValidateResourceTypeConfig::Request* req,
      tfplugin5::ValidateResourceTypeConfig::Response* resp) override {
    return Handle("ValidateResourceTypeConfig", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      cty::Value config;
      if (schema == nullptr || !DecodeValue(req->has_config(), req->config(), schema->block,
                                            "configuration", &config, diags)) {
        return;
      }
      diags.Append(server_.ValidateResourceConfig(req->type_name(), config));
    });
  }

  grpc::Status ValidateDataSourceConfig(
      grpc::ServerContext*, const tfplugin5::ValidateDataSourceConfig::Request* req,
      tfplugin5::ValidateDataSourceConfig::Response* resp) override {
    return Handle("ValidateDataSourceConfig", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = DataSourceSchema(req->type_name(), diags);
      cty::Value config;
      if (schema == nullptr || !DecodeValue(req->has_config(), req->config(), schema->block,
                                            "configuration", &config, diags)) {
        return;
      }
      diags.Append(server_.ValidateDataSourceConfig(req->type_name(), config));
    });
  }

  grpc::Status UpgradeResourceState(grpc::ServerContext*,
                                    const tfplugin5::UpgradeResourceState::Request* req,
                                    tfplugin5::UpgradeResourceState::Response* resp) override {
    return Handle("UpgradeResourceState", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      if (schema == nullptr) return;
      const tfplugin5::RawState& raw = req->raw_state();
      if (raw.json().empty()) {
        if (raw.flatmap_size() > 0) {
          diags.AddError("Unsupported state format",
                         absl::StrCat("The state of this ", req->type_name(),
                                      " is in the legacy flatmap format of Terraform before "
                                      "0.12, which this provider does not read. Recreate or "
                                      "re-import the resource."));
        } else {
          diags.AddError(
              "Missing resource state",
              absl::StrCat("Terraform sent no stored state for this ", req->type_name(), "."));
        }
        return;
      }
      framework::UpgradeResourceStateResult r =
          server_.UpgradeResourceState(req->type_name(), req->version(), raw.json());
      diags.Append(r.diagnostics);
      if (!r.diagnostics.HasError()) {
        EncodeValue(r.upgraded_state, schema->block, "upgraded state",
                    resp->mutable_upgraded_state(), diags);
      }
    });
  }

  grpc::Status Configure(grpc::ServerContext*, const tfplugin5::Configure::Request* req,
                         tfplugin5::Configure::Response* resp) override {
    return Handle("Configure", resp, [&](Diagnostics& diags) {
      cty::Value config;
      if (!DecodeValue(req->has_config(), req->config(), server_.provider_schema().block,
                       "provider configuration", &config, diags)) {
        return;
      }
      diags.Append(server_.Configure(req->terraform_version(), config));
    });
  }

  grpc::Status ReadResource(grpc::ServerContext*, const tfplugin5::ReadResource::Request* req,
                            tfplugin5::ReadResource::Response* resp) override {
    return Handle("ReadResource", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      cty::Value current;
      if (schema == nullptr || !DecodeValue(req->has_current_state(), req->current_state(),
                                            schema->block, "current_state", &current, diags)) {
        return;
      }
      framework::ReadResourceResult r =
          server_.ReadResource(req->type_name(), current, req->private_());
      diags.Append(r.diagnostics);
      resp->set_private_(r.private_data);
      if (!EncodeValue(r.new_state, schema->block, "new_state", resp->mutable_new_state(), diags)) {
        EncodeValue(current, schema->block, "new_state", resp->mutable_new_state(), diags);
      }
    });
  }

  grpc::Status PlanResourceChange(grpc::ServerContext*,
                                  const tfplugin5::PlanResourceChange::Request* req,
                                  tfplugin5::PlanResourceChange::Response* resp) override {
    return Handle("PlanResourceChange", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      if (schema == nullptr) return;
      cty::Value prior, proposed, config;
      if (!DecodeValue(req->has_prior_state(), req->prior_state(), schema->block, "prior_state",
                       &prior, diags) ||
          !DecodeValue(req->has_proposed_new_state(), req->proposed_new_state(), schema->block,
                       "proposed_new_state", &proposed, diags) ||
          !DecodeValue(req->has_config(), req->config(), schema->block, "configuration", &config,
                       diags)) {
        return;
      }
      framework::PlanResourceChangeResult r = server_.PlanResourceChange(
          req->type_name(), prior, proposed, config, req->prior_private());
      diags.Append(r.diagnostics);
      resp->set_planned_private(r.planned_private);
      EncodeValue(r.planned_state, schema->block, "planned_state", resp->mutable_planned_state(),
                  diags);
      if (!diags.HasError()) {
        for (const cty::AttributePath& p : r.requires_replace) {
          PathToProto(p, resp->add_requires_replace());
        }
      }
    });
  }

  grpc::Status ApplyResourceChange(grpc::ServerContext*,
                                   const tfplugin5::ApplyResourceChange::Request* req,
                                   tfplugin5::ApplyResourceChange::Response* resp) override {
    return Handle("ApplyResourceChange", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      if (schema == nullptr) return;
      cty::Value prior, planned, config;
      if (!DecodeValue(req->has_prior_state(), req->prior_state(), schema->block, "prior_state",
                       &prior, diags) ||
          !DecodeValue(req->has_planned_state(), req->planned_state(), schema->block,
                       "planned_state", &planned, diags) ||
          !DecodeValue(req->has_config(), req->config(), schema->block, "configuration", &config,
                       diags)) {
        // Keep what Terraform knows: the prior object, if it could be read.
        if (req->has_prior_state()) *resp->mutable_new_state() = req->prior_state();
        return;
      }
      framework::ApplyResourceChangeResult r = server_.ApplyResourceChange(
          req->type_name(), prior, planned, config, req->planned_private());
      diags.Append(r.diagnostics);
      resp->set_private_(r.private_data);
      if (!EncodeValue(r.new_state, schema->block, "new_state", resp->mutable_new_state(), diags)) {
        EncodeValue(prior, schema->block, "new_state", resp->mutable_new_state(), diags);
      }
    });
  }

  grpc::Status ImportResourceState(grpc::ServerContext*,
                                   const tfplugin5::ImportResourceState::Request* req,
                                   tfplugin5::ImportResourceState::Response* resp) override {
    return Handle("ImportResourceState", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = ResourceSchema(req->type_name(), diags);
      if (schema == nullptr) return;
      framework::ImportResourceStateResult r =
          server_.ImportResourceState(req->type_name(), req->id());
      diags.Append(r.diagnostics);
      for (const framework::ImportedResource& imported : r.imported) {
        const framework::Schema* s = server_.ResourceSchema(imported.type_name);
        if (s == nullptr) continue;
        tfplugin5::ImportResourceState::ImportedResource* out = resp->add_imported_resources();
        out->set_type_name(imported.type_name);
        out->set_private_(imported.private_data);
        EncodeValue(imported.state, s->block, "imported state", out->mutable_state(), diags);
      }
    });
  }

  grpc::Status ReadDataSource(grpc::ServerContext*, const tfplugin5::ReadDataSource::Request* req,
                              tfplugin5::ReadDataSource::Response* resp) override {
    return Handle("ReadDataSource", resp, [&](Diagnostics& diags) {
      const framework::Schema* schema = DataSourceSchema(req->type_name(), diags);
      cty::Value config;
      if (schema == nullptr || !DecodeValue(req->has_config(), req->config(), schema->block,
                                            "configuration", &config, diags)) {
        return;
      }
      framework::ReadDataSourceResult r = server_.ReadDataSource(req->type_name(), config);
      diags.Append(r.diagnostics);
      if (!EncodeValue(r.state, schema->block, "state", resp->mutable_state(), diags)) {
        EncodeValue(config, schema->block, "state", resp->mutable_state(), diags);
      }
    });
  }

  grpc::Status Stop(grpc::ServerContext*, const tfplugin5::Stop::Request*,
                    tfplugin5::Stop::Response* resp) override {
    try {
      resp->set_error(server_.Stop());
    } catch (const std::exception& e) {
      resp->set_error(absl::StrCat("stop failed: ", e.what()));
    } catch (...) {
      resp->set_error("stop failed");
    }
    return grpc::Status::OK;
  }

 private:
  // The one shape of every handler: run `body` with a diagnostics collector, turn anything
  // thrown into an error diagnostic, and copy the diagnostics into the response. At TRACE it
  // logs how long that took ("served tfplugin5.Provider/RPC in N us"; terraform-plugin-go logs
  // "Served request" with tf_req_duration_ms the same way); bench/rpc reads these lines.
  template <typename Response, typename Body>
  grpc::Status Handle(const char* rpc, Response* resp, Body body) {
    const auto start = std::chrono::steady_clock::now();
    Diagnostics diags;
    try {
      body(diags);
    } catch (const std::exception& e) {
      log::Error(absl::StrCat(rpc, ": unexpected exception: ", e.what()));
      diags.AddError("Internal provider error",
                     absl::StrCat("The provider failed while handling ", rpc, ": ", e.what(),
                                  ". This is a bug in the provider."));
    } catch (...) {
      log::Error(absl::StrCat(rpc, ": unexpected exception"));
      diags.AddError("Internal provider error",
                     absl::StrCat("The provider failed while handling ", rpc,
                                  ". This is a bug in the provider."));
    }
    if (diags.HasError()) log::Debug(absl::StrCat(rpc, ": ", diags.ToString()));
    WriteDiagnostics(diags, resp);
    if (log::Threshold() <= log::Level::kTrace) {
      const std::chrono::duration<double, std::micro> took =
          std::chrono::steady_clock::now() - start;
      log::Trace(absl::StrCat("served tfplugin5.Provider/", rpc, " in ", took.count(), " us"));
    }
    return grpc::Status::OK;
  }

  // Diagnostics travel in the response's diagnostics field...
  template <typename Response>
  static void WriteDiagnostics(const Diagnostics& diags, Response* resp) {
    DiagnosticsToProto(diags, resp->mutable_diagnostics());
  }
  // ...except for CallFunction, whose response has only an error: the error diagnostics' text,
  // unless the handler already set a more precise error. Warnings have no place there.
  static void WriteDiagnostics(const Diagnostics& diags, tfplugin5::CallFunction::Response* resp) {
    if (!diags.HasError() || resp->has_error()) return;
    resp->clear_result();
    resp->mutable_error()->set_text(diags.ToString());
  }

  const framework::Schema* ResourceSchema(const std::string& type_name, Diagnostics& diags) {
    const framework::Schema* schema = server_.ResourceSchema(type_name);
    if (schema == nullptr) {
      diags.AddError("Unknown resource type",
                     absl::StrCat("This provider has no resource type \"", type_name, "\"."));
    }
    return schema;
  }

  const framework::Schema* DataSourceSchema(const std::string& type_name, Diagnostics& diags) {
    const framework::Schema* schema = server_.DataSourceSchema(type_name);
    if (schema == nullptr) {
      diags.AddError("Unknown data source type",
                     absl::StrCat("This provider has no data source type \"", type_name, "\"."));
    }
    return schema;
  }

  framework::ProviderServer server_;
};

}  // namespace

std::unique_ptr<tfplugin5::Provider::Service> NewProviderService(
    std::shared_ptr<framework::Provider> provider) {
  return std::make_unique<ProviderService>(std::move(provider));
}

}  // namespace nsxalb::wire
