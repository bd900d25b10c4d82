// Terraform's side of the plugin protocol over real gRPC (see terraform_driver.h).
#include "tests/harness/terraform_driver.h"

#include <grpcpp/grpcpp.h>
#include <signal.h>

#include <chrono>
#include <initializer_list>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "plugin/common/status_macros.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"
#include "proto/tfplugin5.grpc.pb.h"

namespace nsxalb::harness {
namespace {

using Json = nlohmann::json;

// Go's names of gRPC codes, as Terraform prints "rpc error: code = X desc = ...".
const char* GoCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "Canceled";
    case grpc::StatusCode::UNKNOWN:
      return "Unknown";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "InvalidArgument";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DeadlineExceeded";
    case grpc::StatusCode::NOT_FOUND:
      return "NotFound";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "AlreadyExists";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PermissionDenied";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "ResourceExhausted";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FailedPrecondition";
    case grpc::StatusCode::ABORTED:
      return "Aborted";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OutOfRange";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "Unimplemented";
    case grpc::StatusCode::INTERNAL:
      return "Internal";
    case grpc::StatusCode::UNAVAILABLE:
      return "Unavailable";
    case grpc::StatusCode::DATA_LOSS:
      return "DataLoss";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "Unauthenticated";
    default:
      return "Unknown";
  }
}

std::string Quote(const std::string& s) { return absl::StrCat("\"", s, "\""); }

// Reads a response DynamicValue the way Terraform v0.13.7 does: an absent message is null; a
// present one must carry msgpack (v0.13/v0.14 never read `json`).
absl::StatusOr<cty::Value> DecodeDynamic(bool present, const tfplugin5::DynamicValue& dv,
                                         const cty::Type& type, const std::string& field,
                                         const Subject& subject) {
  if (!present) return cty::Value::Null(type);
  if (dv.msgpack().empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Provider produced invalid object: Provider ", Quote(subject.provider), " returned ", field,
        " for ", subject.address,
        dv.json().empty() ? " with neither msgpack nor json"
                          : " as JSON only; Terraform v0.13 and v0.14 read only msgpack",
        ", which Terraform cannot decode: msgpack: empty input"));
  }
  absl::StatusOr<cty::Value> v = cty::DecodeMsgpack(dv.msgpack(), type);
  if (!v.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Provider produced invalid object: Provider ", Quote(subject.provider),
                     " returned ", field, " for ", subject.address,
                     " that is not a value of the schema's type: ", v.status().message()));
  }
  return v;
}

std::string PathText(const tfplugin5::AttributePath& path) {
  return AttributePathFromProto(path).ToString();
}

// "Provider produced inconsistent result after apply: When applying changes to A, provider "P"
// produced an unexpected new value: D." becomes Terraform's final-plan wording, "Provider produced
// inconsistent final plan: When expanding the plan for A to include new values learned so far
// during apply, provider "P" produced an invalid new value for D."
absl::Status AsInconsistentFinalPlan(const absl::Status& compat) {
  constexpr absl::string_view kHead =
      "Provider produced inconsistent result after apply: When applying changes to ";
  constexpr absl::string_view kProvider = ", provider ";
  constexpr absl::string_view kTail = " produced an unexpected new value: ";
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(compat.message(), '\n')) {
    const size_t provider = line.find(kProvider);
    const size_t tail = line.find(kTail);
    if (!absl::StartsWith(line, kHead) || provider == absl::string_view::npos ||
        tail == absl::string_view::npos || tail < provider) {
      lines.push_back(absl::StrCat("Provider produced inconsistent final plan: ", line));
      continue;
    }
    const absl::string_view address = line.substr(kHead.size(), provider - kHead.size());
    const absl::string_view who =
        line.substr(provider + kProvider.size(), tail - provider - kProvider.size());
    const absl::string_view detail = line.substr(tail + kTail.size());
    lines.push_back(
        absl::StrCat("Provider produced inconsistent final plan: When expanding the plan for ",
                     address, " to include new values learned so far during apply, provider ", who,
                     " produced an invalid new value for ", detail));
  }
  return absl::FailedPreconditionError(
      absl::StrCat(absl::StrJoin(lines, "\n"),
                   "\nThis is a bug in the provider, which should be reported in the provider's "
                   "own issue tracker."));
}

}  // namespace

const char* PlanActionName(PlanAction action) {
  switch (action) {
    case PlanAction::kNoOp:
      return "NoOp";
    case PlanAction::kCreate:
      return "Create";
    case PlanAction::kUpdate:
      return "Update";
    case PlanAction::kReplace:
      return "DeleteThenCreate";
    case PlanAction::kDelete:
      return "Delete";
  }
  return "?";
}

std::string TypeOfAddress(const std::string& address) {
  std::string a = address;
  if (absl::StartsWith(a, "data.")) a = a.substr(5);
  return a.substr(0, a.find('.'));
}

// ---------------------------------------------------------------------------------------------
// Config normalisation (what HCL decoding produces)

absl::StatusOr<cty::Value> NormalizeConfig(const Block& block, const cty::Value& config) {
  const cty::Type implied = ImpliedType(block);
  if (!config.IsKnown()) return config;
  if (config.IsNull()) return absl::InvalidArgumentError("configuration must not be null");
  if (config.type().kind() != cty::Type::Kind::kObject) {
    return absl::InvalidArgumentError(
        absl::StrCat("configuration must be an object, got ", config.type().FriendlyName()));
  }
  for (const auto& [name, value] : config.entries()) {
    if (block.FindAttribute(name) == nullptr && block.FindBlockType(name) == nullptr) {
      return cty::PathError(cty::AttributePath().Attribute(name),
                            absl::StrCat("Unsupported argument: An argument named ", Quote(name),
                                         " is not expected here."));
    }
  }
  std::map<std::string, cty::Value> out;
  for (const Attribute& a : block.attributes) {
    const cty::Value* v = config.GetAttribute(a.name);
    out[a.name] = v != nullptr ? *v : cty::Value::Null(a.type);
  }
  for (const NestedBlock& nb : block.block_types) {
    const cty::Value* v = config.GetAttribute(nb.type_name);
    const cty::Type& t = implied.attributes().at(nb.type_name);
    const bool given = v != nullptr && !v->IsNull() && v->IsKnown();
    auto wrap = [&nb](absl::Status s) {
      std::optional<cty::AttributePath> p = cty::ErrorPath(s);
      cty::AttributePath at = cty::AttributePath().Attribute(nb.type_name);
      if (p.has_value()) {
        std::vector<cty::AttributePath::Step> steps = at.steps();
        steps.insert(steps.end(), p->steps().begin(), p->steps().end());
        at = cty::AttributePath(steps);
      }
      return cty::PathError(at, std::string(s.message()));
    };
    if (v != nullptr && !v->IsKnown()) {
      out[nb.type_name] = *v;
      continue;
    }
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
      case NestedBlock::Nesting::kGroup: {
        if (!given) {
          out[nb.type_name] = nb.nesting == NestedBlock::Nesting::kSingle ? cty::Value::Null(t)
                                                                          : EmptyValue(nb.block);
          break;
        }
        absl::StatusOr<cty::Value> inner = NormalizeConfig(nb.block, *v);
        if (!inner.ok()) return wrap(inner.status());
        out[nb.type_name] = *inner;
        break;
      }
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet: {
        std::vector<cty::Value> elements;
        if (given) {
          for (const cty::Value& e : v->elements()) {
            absl::StatusOr<cty::Value> inner = NormalizeConfig(nb.block, e);
            if (!inner.ok()) return wrap(inner.status());
            elements.push_back(*inner);
          }
        }
        if (t.kind() == cty::Type::Kind::kDynamic) {
          out[nb.type_name] = cty::Value::Tuple(elements);
        } else if (nb.nesting == NestedBlock::Nesting::kList) {
          out[nb.type_name] = cty::Value::List(t.element(), elements);
        } else {
          out[nb.type_name] = cty::Value::Set(t.element(), elements);
        }
        break;
      }
      case NestedBlock::Nesting::kMap: {
        std::map<std::string, cty::Value> entries;
        if (given) {
          for (const auto& [key, e] : v->entries()) {
            absl::StatusOr<cty::Value> inner = NormalizeConfig(nb.block, e);
            if (!inner.ok()) return wrap(inner.status());
            entries[key] = *inner;
          }
        }
        out[nb.type_name] = t.kind() == cty::Type::Kind::kDynamic
                                ? cty::Value::Object(entries)
                                : cty::Value::Map(t.element(), entries);
        break;
      }
      case NestedBlock::Nesting::kInvalid:
        return absl::InvalidArgumentError(
            absl::StrCat("block ", Quote(nb.type_name), " has an invalid nesting mode"));
    }
  }
  cty::Value result = cty::Value::Object(out);
  if (absl::Status s = cty::CheckConformance(result, implied); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Incorrect attribute value type: ", s.message()));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// ProviderSession

absl::StatusOr<std::unique_ptr<ProviderSession>> ProviderSession::Open(
    const DriverOptions& options, const std::string& walk, std::vector<std::string>* log) {
  std::unique_ptr<ProviderSession> s(new ProviderSession());
  s->options_ = options;
  s->options_.process.expect_handshake = true;
  s->walk_ = walk;
  s->log_ = log;
  absl::StatusOr<std::unique_ptr<PluginProcess>> process =
      PluginProcess::Start(s->options_.process);
  if (!process.ok()) {
    return absl::Status(
        process.status().code(),
        absl::StrCat("Failed to instantiate provider ", Quote(options.provider_address),
                     " to obtain schema: ", process.status().message()));
  }
  s->process_ = *std::move(process);
  s->stub_ = tfplugin5::Provider::NewStub(s->process_->channel());
  if (absl::Status st = s->CallGetSchema(); !st.ok()) {
    (void)s->Close();
    return st;
  }
  return s;
}

ProviderSession::~ProviderSession() = default;  // PluginProcess kills a live process

void ProviderSession::Record(const char* rpc) {
  if (log_ != nullptr) log_->push_back(absl::StrCat(walk_, ": ", rpc));
}

Subject ProviderSession::SubjectFor(const std::string& address) const {
  Subject s;
  s.provider = options_.provider_address;
  s.address = address;
  return s;
}

absl::Status ProviderSession::CheckDiagnostics(
    const char* rpc, const google::protobuf::RepeatedPtrField<tfplugin5::Diagnostic>& diagnostics) {
  std::vector<std::string> errors;
  for (const tfplugin5::Diagnostic& d : diagnostics) {
    std::string text = absl::StrCat(d.summary(), d.detail().empty() ? "" : ": ", d.detail());
    if (d.has_attribute() && d.attribute().steps_size() > 0) {
      absl::StrAppend(&text, " (attribute ", PathText(d.attribute()), ")");
    }
    if (d.severity() == tfplugin5::Diagnostic::WARNING) {
      warnings_.push_back(absl::StrCat(rpc, ": ", text));
    } else if (d.severity() == tfplugin5::Diagnostic::ERROR) {
      errors.push_back(absl::StrCat("Error: ", text));
    } else {
      errors.push_back(
          absl::StrCat("Error: diagnostic with INVALID severity (neither error nor "
                       "warning): ",
                       text));
    }
  }
  if (errors.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(absl::StrJoin(errors, "\n"), "\n(from ", rpc, ", ", walk_, " walk)"));
}

namespace {

using Stub = tfplugin5::Provider::StubInterface;

// Runs one unary RPC with a deadline; a failed call becomes Terraform's "rpc error" text.
template <typename Req, typename Resp>
absl::StatusOr<Resp> Invoke(Stub& stub, ProviderMethod<Req, Resp> method, const Req& req,
                            absl::Duration timeout) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(timeout));
  Resp resp;
  const grpc::Status status = (stub.*method)(&context, req, &resp);
  if (status.ok()) return resp;
  return absl::UnavailableError(absl::StrCat("rpc error: code = ", GoCodeName(status.error_code()),
                                             " desc = ", status.error_message()));
}

// Encodes each value as msgpack of `type` (requests always carry msgpack, like Terraform's) into
// its request field.
absl::Status EncodeInto(
    const cty::Type& type,
    std::initializer_list<std::pair<const cty::Value*, tfplugin5::DynamicValue*>> fields) {
  for (const auto& [value, field] : fields) {
    absl::StatusOr<std::string> bytes = cty::EncodeMsgpack(*value, type);
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("harness cannot encode a request value: ", bytes.status().message()));
    }
    field->set_msgpack(*std::move(bytes));
  }
  return absl::OkStatus();
}

// A request naming `type` with `config` as the object of the type's schema: what
// ValidateResourceTypeConfig, ValidateDataSourceConfig and ReadDataSource send.
template <typename Req>
absl::StatusOr<Req> ConfigRequest(const Schema& schema, const std::string& type,
                                  const cty::Value& config) {
  Req req;
  req.set_type_name(type);
  NSXALB_RETURN_IF_ERROR(EncodeInto(ImpliedType(schema.block), {{&config, req.mutable_config()}}));
  return req;
}

// A value the provider answered (`present` says whether the message holds it), decoded as
// Terraform reads it and checked with Terraform's `rule` for that answer.
absl::StatusOr<cty::Value> ReadAnswer(
    bool present, const tfplugin5::DynamicValue& dv, const Block& block, const std::string& field,
    const Subject& subject, absl::Status (*rule)(const Block&, const cty::Value&, const Subject&)) {
  NSXALB_ASSIGN_OR_RETURN(cty::Value value,
                          DecodeDynamic(present, dv, ImpliedType(block), field, subject));
  NSXALB_RETURN_IF_ERROR(rule(block, value, subject));
  return value;
}

// A provider other than the legacy Go SDK set legacy_type_system in `rpc`'s answer.
absl::Status LegacyTypeSystemError(const std::string& provider, const char* rpc,
                                   const std::string& address, absl::string_view consequence) {
  return absl::FailedPreconditionError(
      absl::StrCat("Provider ", Quote(provider), " set legacy_type_system in ", rpc, " for ",
                   address, "; only the legacy Go SDK may set it", consequence));
}

}  // namespace

template <typename Req, typename Resp>
absl::StatusOr<Resp> ProviderSession::Rpc(const char* name, ProviderMethod<Req, Resp> method,
                                          const Req& req, Resp* refused) {
  Record(name);
  absl::StatusOr<Resp> resp = Invoke(*stub_, method, req, options_.rpc_timeout);
  if (!resp.ok()) {
    return absl::Status(
        resp.status().code(),
        absl::StrCat(name, " failed: ", resp.status().message(), " (", walk_, " walk)"));
  }
  if (absl::Status diagnostics = CheckDiagnostics(name, resp->diagnostics()); !diagnostics.ok()) {
    if (refused != nullptr) *refused = *std::move(resp);
    return diagnostics;
  }
  return resp;
}

absl::Status ProviderSession::CallGetSchema() {
  NSXALB_ASSIGN_OR_RETURN(
      raw_schema_, Rpc("GetSchema", &Stub::GetSchema, tfplugin5::GetProviderSchema::Request()));
  absl::StatusOr<Schema> provider = SchemaFromProto(raw_schema_.provider());
  if (!provider.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Invalid provider schema: provider block: ", provider.status().message()));
  }
  provider_schema_ = *std::move(provider);
  std::vector<std::string> problems;
  auto load = [&](const google::protobuf::Map<std::string, tfplugin5::Schema>& in,
                  std::map<std::string, Schema>* out, const char* what) {
    for (const auto& [name, schema] : in) {
      if (absl::Status v = ValidateSchema(schema, name); !v.ok()) {
        problems.push_back(absl::StrCat(what, " ", name, ": ", v.message()));
        continue;
      }
      absl::StatusOr<Schema> s = SchemaFromProto(schema);
      if (!s.ok()) {
        problems.push_back(absl::StrCat(what, " ", name, ": ", s.status().message()));
        continue;
      }
      (*out)[name] = *std::move(s);
    }
  };
  load(raw_schema_.resource_schemas(), &resources_, "resource type");
  load(raw_schema_.data_source_schemas(), &data_sources_, "data source");
  if (!problems.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Invalid provider schema: ", absl::StrJoin(problems, "\n")));
  }
  return absl::OkStatus();
}

namespace {

// The schema of `type` among `schemas`, or Terraform's error for a type the provider does not
// have: "`summary`: The provider P does not support `kind` "type"."
absl::StatusOr<const Schema*> FindSchema(const std::map<std::string, Schema>& schemas,
                                         const std::string& provider, absl::string_view summary,
                                         absl::string_view kind, const std::string& type) {
  auto it = schemas.find(type);
  if (it == schemas.end()) {
    return absl::NotFoundError(absl::StrCat(summary, ": The provider ", provider,
                                            " does not support ", kind, " ", Quote(type), "."));
  }
  return &it->second;
}

}  // namespace

absl::StatusOr<const Schema*> ProviderSession::ResourceSchema(const std::string& type) const {
  return FindSchema(resources_, options_.provider_address, "Invalid resource type", "resource type",
                    type);
}

absl::StatusOr<const Schema*> ProviderSession::DataSourceSchema(const std::string& type) const {
  return FindSchema(data_sources_, options_.provider_address, "Invalid data source", "data source",
                    type);
}

absl::StatusOr<cty::Value> ProviderSession::PrepareProviderConfig(const cty::Value& config) {
  tfplugin5::PrepareProviderConfig::Request req;
  NSXALB_RETURN_IF_ERROR(
      EncodeInto(ImpliedType(provider_schema_.block), {{&config, req.mutable_config()}}));
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::PrepareProviderConfig::Response resp,
                          Rpc("PrepareProviderConfig", &Stub::PrepareProviderConfig, req));
  const Subject subject =
      SubjectFor(absl::StrCat("provider[", Quote(options_.provider_address), "]"));
  if (!resp.has_prepared_config()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Provider produced invalid object: PrepareProviderConfig returned no "
                     "prepared_config for ",
                     subject.address,
                     "; Terraform v0.13 decodes it unconditionally and fails on an empty value"));
  }
  return ReadAnswer(true, resp.prepared_config(), provider_schema_.block, "prepared_config",
                    subject, AssertConforms);
}

absl::Status ProviderSession::Configure(const cty::Value& config) {
  tfplugin5::Configure::Request req;
  req.set_terraform_version(options_.terraform_version);
  NSXALB_RETURN_IF_ERROR(
      EncodeInto(ImpliedType(provider_schema_.block), {{&config, req.mutable_config()}}));
  return Rpc("Configure", &Stub::Configure, req).status();
}

template <typename Req, typename Resp>
absl::Status ProviderSession::ValidateConfig(const char* name, ProviderMethod<Req, Resp> method,
                                             const Schema& schema, const std::string& type,
                                             const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(Req req, ConfigRequest<Req>(schema, type, config));
  return Rpc(name, method, req).status();
}

absl::Status ProviderSession::ValidateResourceTypeConfig(const std::string& type,
                                                         const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(type));
  return ValidateConfig("ValidateResourceTypeConfig", &Stub::ValidateResourceTypeConfig, *schema,
                        type, config);
}

absl::Status ProviderSession::ValidateDataSourceConfig(const std::string& type,
                                                       const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, DataSourceSchema(type));
  return ValidateConfig("ValidateDataSourceConfig", &Stub::ValidateDataSourceConfig, *schema, type,
                        config);
}

absl::StatusOr<cty::Value> ProviderSession::UpgradeResourceState(const std::string& address,
                                                                 const InstanceState& state) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(state.type_name));
  if (state.schema_version > schema->version) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Resource instance managed by newer provider version: The current state of ", address,
        " was created by a newer provider version than is currently selected. Upgrade the ",
        Quote(options_.provider_address), " provider to work with this state."));
  }
  tfplugin5::UpgradeResourceState::Request req;
  req.set_type_name(state.type_name);
  req.set_version(state.schema_version);
  req.mutable_raw_state()->set_json(state.attributes_json);
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::UpgradeResourceState::Response resp,
                          Rpc("UpgradeResourceState", &Stub::UpgradeResourceState, req));
  return ReadAnswer(resp.has_upgraded_state(), resp.upgraded_state(), schema->block,
                    "upgraded_state", SubjectFor(address), AssertUpgradeResult);
}

absl::StatusOr<cty::Value> ProviderSession::ReadResource(const std::string& address,
                                                         const std::string& type,
                                                         const cty::Value& current,
                                                         std::string* private_data) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(type));
  tfplugin5::ReadResource::Request req;
  req.set_type_name(type);
  req.set_private_(*private_data);
  NSXALB_RETURN_IF_ERROR(
      EncodeInto(ImpliedType(schema->block), {{&current, req.mutable_current_state()}}));
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::ReadResource::Response resp,
                          Rpc("ReadResource", &Stub::ReadResource, req));
  absl::StatusOr<cty::Value> read =
      ReadAnswer(resp.has_new_state(), resp.new_state(), schema->block, "new_state",
                 SubjectFor(address), AssertReadResult);
  if (read.ok()) *private_data = resp.private_();
  return read;
}

absl::StatusOr<PlannedChange> ProviderSession::Plan(const std::string& address,
                                                    const std::string& type,
                                                    const cty::Value& prior,
                                                    const std::string& prior_private,
                                                    const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(type));
  const Block& block = schema->block;
  const cty::Type implied = ImpliedType(block);
  const Subject subject = SubjectFor(address);

  struct Call {
    cty::Value planned;
    std::vector<cty::AttributePath> requires_replace;
    std::string planned_private;
  };
  auto plan_once = [&](const cty::Value& prior_value,
                       const std::string& private_in) -> absl::StatusOr<Call> {
    const cty::Value proposed = ProposedNewObject(block, prior_value, config);
    tfplugin5::PlanResourceChange::Request req;
    req.set_type_name(type);
    req.set_prior_private(private_in);
    NSXALB_RETURN_IF_ERROR(EncodeInto(implied, {{&prior_value, req.mutable_prior_state()},
                                                {&proposed, req.mutable_proposed_new_state()},
                                                {&config, req.mutable_config()}}));
    NSXALB_ASSIGN_OR_RETURN(tfplugin5::PlanResourceChange::Response resp,
                            Rpc("PlanResourceChange", &Stub::PlanResourceChange, req));
    if (resp.legacy_type_system()) {
      return LegacyTypeSystemError(options_.provider_address, "PlanResourceChange", address,
                                   ", and it turns Terraform's plan checks into warnings");
    }
    NSXALB_ASSIGN_OR_RETURN(cty::Value planned,
                            DecodeDynamic(resp.has_planned_state(), resp.planned_state(), implied,
                                          "planned_state", subject));
    Call out;
    out.planned = planned;
    for (const tfplugin5::AttributePath& p : resp.requires_replace()) {
      out.requires_replace.push_back(AttributePathFromProto(p));
    }
    out.planned_private = resp.planned_private();
    NSXALB_RETURN_IF_ERROR(
        AssertPlanResult(block, prior_value, config, out.planned, out.requires_replace, subject));
    return out;
  };

  NSXALB_ASSIGN_OR_RETURN(Call first, plan_once(prior, prior_private));
  PlannedChange change;
  change.prior = prior;
  change.after = first.planned;
  change.planned_private = first.planned_private;
  if (prior.IsNull()) {
    change.action = PlanAction::kCreate;
    return change;
  }
  change.replace_paths = ReplacePaths(prior, first.planned, first.requires_replace);
  if (change.replace_paths.empty()) {
    change.action = first.planned.Equals(prior) ? PlanAction::kNoOp : PlanAction::kUpdate;
    return change;
  }
  // Replace: plan the create half again from a null prior, passing the first plan's private.
  NSXALB_ASSIGN_OR_RETURN(Call second, plan_once(cty::Value::Null(implied), first.planned_private));
  change.action = PlanAction::kReplace;
  change.after = second.planned;
  change.planned_private = second.planned_private;
  change.replace_private = first.planned_private;
  return change;
}

absl::StatusOr<std::pair<cty::Value, std::string>> ProviderSession::Apply(
    const std::string& address, const std::string& type, const cty::Value& prior,
    const cty::Value& planned, const cty::Value& config, const std::string& planned_private,
    std::optional<std::pair<cty::Value, std::string>>* partial) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(type));
  const Block& block = schema->block;
  const cty::Type implied = ImpliedType(block);
  const Subject subject = SubjectFor(address);
  tfplugin5::ApplyResourceChange::Request req;
  req.set_type_name(type);
  req.set_planned_private(planned_private);
  NSXALB_RETURN_IF_ERROR(EncodeInto(implied, {{&prior, req.mutable_prior_state()},
                                              {&planned, req.mutable_planned_state()},
                                              {&config, req.mutable_config()}}));
  // The answer when its diagnostics hold an error: its new state, if any, is saved as partial.
  tfplugin5::ApplyResourceChange::Response refused;
  absl::StatusOr<tfplugin5::ApplyResourceChange::Response> resp =
      Rpc("ApplyResourceChange", &Stub::ApplyResourceChange, req, &refused);
  const tfplugin5::ApplyResourceChange::Response& answer = resp.ok() ? *resp : refused;
  absl::StatusOr<cty::Value> new_state =
      DecodeDynamic(answer.has_new_state(), answer.new_state(), implied, "new_state", subject);
  if (!resp.ok()) {
    if (partial != nullptr && new_state.ok() && !new_state->IsNull()) {
      *partial = std::make_pair(cty::UnknownAsNull(*new_state), answer.private_());
    }
    return resp.status();
  }
  NSXALB_RETURN_IF_ERROR(new_state.status());
  if (resp->legacy_type_system()) {
    return LegacyTypeSystemError(options_.provider_address, "ApplyResourceChange", address, "");
  }
  NSXALB_RETURN_IF_ERROR(AssertApplyResult(block, planned, *new_state, subject));
  return std::make_pair(*new_state, resp->private_());
}

absl::StatusOr<std::vector<ProviderSession::Imported>> ProviderSession::ImportResourceState(
    const std::string& address, const std::string& type, const std::string& id) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, ResourceSchema(type));
  tfplugin5::ImportResourceState::Request req;
  req.set_type_name(type);
  req.set_id(id);
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::ImportResourceState::Response resp,
                          Rpc("ImportResourceState", &Stub::ImportResourceState, req));
  std::vector<Imported> out;
  for (const auto& r : resp.imported_resources()) {
    const std::string at = out.empty() ? address : absl::StrCat(address, "-", out.size());
    const Subject subject = SubjectFor(at);
    if (r.type_name().empty()) {
      NSXALB_RETURN_IF_ERROR(
          AssertImportedResource(schema->block, "", cty::Value::Null(cty::Type()), subject));
    }
    NSXALB_ASSIGN_OR_RETURN(const Schema* rs, ResourceSchema(r.type_name()));
    NSXALB_ASSIGN_OR_RETURN(
        cty::Value state,
        DecodeDynamic(r.has_state(), r.state(), ImpliedType(rs->block), "imported state", subject));
    NSXALB_RETURN_IF_ERROR(AssertImportedResource(rs->block, r.type_name(), state, subject));
    out.push_back({r.type_name(), state, r.private_()});
  }
  if (out.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Import failed: the provider returned no objects for ", address, " (id ", Quote(id), ")"));
  }
  return out;
}

absl::StatusOr<cty::Value> ProviderSession::ReadDataSource(const std::string& address,
                                                           const std::string& type,
                                                           const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, DataSourceSchema(type));
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::ReadDataSource::Request req,
                          ConfigRequest<tfplugin5::ReadDataSource::Request>(*schema, type, config));
  NSXALB_ASSIGN_OR_RETURN(tfplugin5::ReadDataSource::Response resp,
                          Rpc("ReadDataSource", &Stub::ReadDataSource, req));
  return ReadAnswer(resp.has_state(), resp.state(), schema->block, "state", SubjectFor(address),
                    AssertDataSourceResult);
}

absl::Status ProviderSession::Close() {
  if (closed_) return absl::OkStatus();
  closed_ = true;
  Record("Shutdown");
  absl::StatusOr<absl::Duration> took = process_->Shutdown(options_.exit_limit);
  std::vector<std::string> problems;
  if (!took.ok()) {
    if (took.status().code() == absl::StatusCode::kDeadlineExceeded) {
      problems.push_back(absl::StrCat(
          "provider process did not exit within ", absl::FormatDuration(options_.exit_limit),
          " of plugin.GRPCController/Shutdown (go-plugin waits 2s, then kills it): ",
          took.status().message()));
    } else {
      problems.push_back(absl::StrCat("Shutdown: ", took.status().message()));
    }
  }
  const std::string noise = process_->StdoutAfterHandshake();
  if (!noise.empty()) {
    problems.push_back(
        absl::StrCat("provider wrote ", noise.size(),
                     " bytes to stdout after the handshake line (Terraform discards them; only the "
                     "handshake line may go to stdout): ",
                     Quote(noise.substr(0, 200))));
  }
  if (problems.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(absl::StrJoin(problems, "\n"), " (", walk_, " walk)"));
}

// ---------------------------------------------------------------------------------------------
// TerraformDriver

TerraformDriver::TerraformDriver(DriverOptions options) : options_(std::move(options)) {}

absl::StatusOr<std::unique_ptr<ProviderSession>> TerraformDriver::Open(const std::string& walk) {
  NSXALB_ASSIGN_OR_RETURN(std::unique_ptr<ProviderSession> s,
                          ProviderSession::Open(options_, walk, &log_));
  for (const auto& [name, schema] : s->resource_schemas()) latest_schemas_[name] = schema;
  return s;
}

absl::Status TerraformDriver::Finish(ProviderSession* session, absl::Status body) {
  absl::Status closed = session->Close();
  warnings_.insert(warnings_.end(), session->warnings().begin(), session->warnings().end());
  if (!body.ok()) {
    if (closed.ok()) return body;
    return absl::Status(body.code(), absl::StrCat(body.message(), "\n", closed.message()));
  }
  return closed;
}

absl::Status TerraformDriver::RunWalk(const std::string& walk, ProviderSetup setup,
                                      absl::FunctionRef<absl::Status(ProviderSession&)> body) {
  NSXALB_ASSIGN_OR_RETURN(std::unique_ptr<ProviderSession> s, Open(walk));
  ProviderSession& session = *s;
  auto run = [&]() -> absl::Status {
    if (setup != ProviderSetup::kNone) {
      NSXALB_ASSIGN_OR_RETURN(
          cty::Value provider_config,
          NormalizeConfig(session.provider_schema().block, options_.provider_config));
      if (setup == ProviderSetup::kPrepare) {
        NSXALB_RETURN_IF_ERROR(session.PrepareProviderConfig(provider_config).status());
      } else {
        NSXALB_RETURN_IF_ERROR(session.Configure(provider_config));
      }
    }
    return body(session);
  };
  return Finish(&session, run());
}

absl::Status TerraformDriver::SchemaOnlyWalk() {
  return RunWalk("schema", ProviderSetup::kNone, [](ProviderSession&) { return absl::OkStatus(); });
}

absl::StatusOr<cty::Value> TerraformDriver::Normalize(const ProviderSession& session,
                                                      const std::string& type,
                                                      const cty::Value& config,
                                                      bool data_source) const {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, data_source ? session.DataSourceSchema(type)
                                                            : session.ResourceSchema(type));
  absl::StatusOr<cty::Value> v = NormalizeConfig(schema->block, config);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("configuration of ", type, ": ", v.status().message()));
  }
  return v;
}

absl::StatusOr<cty::Value> TerraformDriver::Upgrade(ProviderSession& session,
                                                    const std::string& address) {
  auto it = state_.find(address);
  if (it == state_.end()) {
    return absl::NotFoundError(absl::StrCat(address, " is not in the state"));
  }
  return session.UpgradeResourceState(address, it->second);
}

absl::Status TerraformDriver::Store(const std::string& address, const std::string& type,
                                    const Schema& schema, const cty::Value& value,
                                    const std::string& private_data) {
  const cty::Value saved = cty::UnknownAsNull(value);
  absl::StatusOr<std::string> json = cty::EncodeJson(saved, ImpliedType(schema.block));
  if (!json.ok()) {
    return absl::InternalError(
        absl::StrCat("cannot save ", address, " as state JSON: ", json.status().message()));
  }
  InstanceState& s = state_[address];
  s.type_name = type;
  s.attributes_json = *std::move(json);
  s.private_data = private_data;
  s.schema_version = schema.version;
  return absl::OkStatus();
}

absl::Status TerraformDriver::Validate(const std::string& type, const cty::Value& config) {
  NSXALB_RETURN_IF_ERROR(SchemaOnlyWalk());
  return RunWalk("validate", ProviderSetup::kPrepare, [&](ProviderSession& session) {
    NSXALB_ASSIGN_OR_RETURN(cty::Value cfg, Normalize(session, type, config, false));
    return session.ValidateResourceTypeConfig(type, cfg);
  });
}

absl::StatusOr<TerraformDriver::WalkPlan> TerraformDriver::PlanResource(ProviderSession& session,
                                                                        const std::string& address,
                                                                        const std::string& type,
                                                                        const cty::Value& config) {
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, session.ResourceSchema(type));
  cty::Value prior = cty::Value::Null(ImpliedType(schema->block));
  std::string prior_private;
  if (state_.count(address) != 0) {
    NSXALB_ASSIGN_OR_RETURN(prior, Upgrade(session, address));
    prior_private = state_[address].private_data;
  }
  WalkPlan out;
  NSXALB_ASSIGN_OR_RETURN(out.config, Normalize(session, type, config, false));
  NSXALB_RETURN_IF_ERROR(session.ValidateResourceTypeConfig(type, out.config));
  NSXALB_ASSIGN_OR_RETURN(out.change,
                          session.Plan(address, type, prior, prior_private, out.config));
  return out;
}

absl::StatusOr<PlannedChange> TerraformDriver::Apply(const std::string& address,
                                                     const cty::Value& config) {
  const std::string type = TypeOfAddress(address);
  NSXALB_RETURN_IF_ERROR(Validate(type, config));
  if (state_.count(address) != 0) NSXALB_RETURN_IF_ERROR(Refresh(address));

  PlannedChange saved;
  NSXALB_RETURN_IF_ERROR(
      RunWalk("plan", ProviderSetup::kConfigure, [&](ProviderSession& session) -> absl::Status {
        NSXALB_ASSIGN_OR_RETURN(WalkPlan plan, PlanResource(session, address, type, config));
        saved = std::move(plan.change);
        return absl::OkStatus();
      }));
  if (saved.action == PlanAction::kNoOp) return saved;

  // Apply walk: re-plan, check the final plan against the saved one, then apply.
  NSXALB_RETURN_IF_ERROR(RunWalk("apply", ProviderSetup::kConfigure, [&](ProviderSession& session) {
    return ApplySaved(session, address, type, config, saved);
  }));
  return saved;
}

absl::Status TerraformDriver::ApplySaved(ProviderSession& session, const std::string& address,
                                         const std::string& type, const cty::Value& config,
                                         const PlannedChange& saved) {
  NSXALB_ASSIGN_OR_RETURN(WalkPlan final_walk, PlanResource(session, address, type, config));
  const PlannedChange& final_plan = final_walk.change;
  if (final_plan.action != saved.action) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Provider produced inconsistent final plan: When expanding the plan for ", address,
        " to include new values learned so far during apply, provider ",
        Quote(options_.provider_address), " changed the planned action from ",
        PlanActionName(saved.action), " to ", PlanActionName(final_plan.action),
        ".\nThis is a bug in the provider, which should be reported in the provider's own "
        "issue tracker."));
  }
  NSXALB_ASSIGN_OR_RETURN(const Schema* schema, session.ResourceSchema(type));
  const Block& block = schema->block;
  if (absl::Status compat =
          AssertObjectCompatible(block, saved.after, final_plan.after, session.SubjectFor(address));
      !compat.ok()) {
    return AsInconsistentFinalPlan(compat);
  }
  const cty::Value null_value = cty::Value::Null(ImpliedType(block));
  cty::Value prior = final_plan.prior;
  if (final_plan.action == PlanAction::kReplace) {
    // Destroy half: planned null, config null, the replace plan's private.
    NSXALB_RETURN_IF_ERROR(
        session.Apply(address, type, prior, null_value, null_value, final_plan.replace_private)
            .status());
    state_.erase(address);
    prior = null_value;
  }
  std::optional<std::pair<cty::Value, std::string>> partial;
  absl::StatusOr<std::pair<cty::Value, std::string>> applied =
      session.Apply(address, type, prior, final_plan.after, final_walk.config,
                    final_plan.planned_private, &partial);
  if (!applied.ok()) {
    if (partial.has_value()) {
      (void)Store(address, type, *schema, partial->first, partial->second);
    }
    return applied.status();
  }
  return Store(address, type, *schema, applied->first, applied->second);
}

absl::Status TerraformDriver::Refresh(const std::string& address) {
  if (state_.count(address) == 0) {
    return absl::NotFoundError(absl::StrCat(address, " is not in the state"));
  }
  const std::string type = state_[address].type_name;
  return RunWalk("refresh", ProviderSetup::kConfigure, [&](ProviderSession& session) {
    NSXALB_ASSIGN_OR_RETURN(cty::Value prior, Upgrade(session, address));
    std::string private_data = state_[address].private_data;
    NSXALB_ASSIGN_OR_RETURN(cty::Value read,
                            session.ReadResource(address, type, prior, &private_data));
    if (read.IsNull()) {
      state_.erase(address);
      return absl::OkStatus();
    }
    NSXALB_ASSIGN_OR_RETURN(const Schema* schema, session.ResourceSchema(type));
    return Store(address, type, *schema, read, private_data);
  });
}

absl::Status TerraformDriver::Import(const std::string& address, const std::string& id) {
  const std::string type = TypeOfAddress(address);
  NSXALB_RETURN_IF_ERROR(SchemaOnlyWalk());
  if (state_.count(address) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Resource already managed by Terraform: Terraform is already managing a remote object "
        "for ",
        address, "."));
  }
  return RunWalk("import", ProviderSetup::kConfigure, [&](ProviderSession& session) {
    NSXALB_ASSIGN_OR_RETURN(std::vector<ProviderSession::Imported> imported,
                            session.ImportResourceState(address, type, id));
    for (size_t i = 0; i < imported.size(); ++i) {
      const ProviderSession::Imported& obj = imported[i];
      const std::string at = i == 0 ? address : absl::StrCat(address, "-", i);
      NSXALB_ASSIGN_OR_RETURN(const Schema* schema, session.ResourceSchema(obj.type_name));
      std::string private_data;  // Terraform v0.13.7 reads an imported object with no private
      NSXALB_ASSIGN_OR_RETURN(cty::Value read,
                              session.ReadResource(at, obj.type_name, obj.state, &private_data));
      NSXALB_RETURN_IF_ERROR(AssertImportReadResult(schema->block, read, session.SubjectFor(at)));
      NSXALB_RETURN_IF_ERROR(Store(at, obj.type_name, *schema, read, private_data));
    }
    return absl::OkStatus();
  });
}

absl::Status TerraformDriver::Destroy(const std::string& address) {
  if (state_.count(address) == 0) {
    return absl::NotFoundError(absl::StrCat(address, " is not in the state"));
  }
  const std::string type = state_[address].type_name;
  NSXALB_RETURN_IF_ERROR(
      RunWalk("plan-destroy", ProviderSetup::kNone,
              [&](ProviderSession& session) { return Upgrade(session, address).status(); }));
  return RunWalk("destroy", ProviderSetup::kConfigure, [&](ProviderSession& session) {
    NSXALB_ASSIGN_OR_RETURN(cty::Value prior, Upgrade(session, address));
    NSXALB_ASSIGN_OR_RETURN(const Schema* schema, session.ResourceSchema(type));
    const cty::Value null_object = cty::Value::Null(ImpliedType(schema->block));
    NSXALB_RETURN_IF_ERROR(
        session.Apply(address, type, prior, null_object, null_object, state_[address].private_data)
            .status());
    state_.erase(address);
    return absl::OkStatus();
  });
}

absl::StatusOr<cty::Value> TerraformDriver::ReadDataSource(const std::string& type,
                                                           const cty::Value& config) {
  const std::string address = absl::StrCat("data.", type, ".this");
  cty::Value result;
  NSXALB_RETURN_IF_ERROR(
      RunWalk("plan", ProviderSetup::kConfigure, [&](ProviderSession& session) -> absl::Status {
        NSXALB_ASSIGN_OR_RETURN(cty::Value cfg, Normalize(session, type, config, true));
        NSXALB_RETURN_IF_ERROR(session.ValidateDataSourceConfig(type, cfg));
        NSXALB_ASSIGN_OR_RETURN(result, session.ReadDataSource(address, type, cfg));
        return absl::OkStatus();
      }));
  return result;
}

absl::Status TerraformDriver::CheckRefusesOtherClientCertificate() {
  if (!options_.process.auto_mtls) {
    return absl::FailedPreconditionError("the client certificate check needs AutoMTLS");
  }
  PluginProcessOptions options = options_.process;
  options.expect_handshake = true;
  options.present_other_client_cert = true;
  NSXALB_ASSIGN_OR_RETURN(std::unique_ptr<PluginProcess> process, PluginProcess::Start(options));
  log_.push_back("other-cert: GetSchema");
  auto stub = tfplugin5::Provider::NewStub(process->channel());
  const absl::Status call =
      Invoke(*stub, &Stub::GetSchema, tfplugin5::GetProviderSchema::Request(), absl::Seconds(5))
          .status();
  const bool survived = process->Running();
  process->Signal(SIGTERM);
  (void)process->Wait(absl::Seconds(2));
  if (call.ok()) {
    return absl::FailedPreconditionError(
        "the provider answered GetSchema over a TLS connection whose client certificate is not "
        "the one in PLUGIN_CLIENT_CERT; it must require and verify the client certificate");
  }
  if (!survived) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the provider exited instead of refusing a TLS client with the wrong certificate (",
        call.message(), ")"));
  }
  return absl::OkStatus();
}

const InstanceState* TerraformDriver::State(const std::string& address) const {
  auto it = state_.find(address);
  return it == state_.end() ? nullptr : &it->second;
}

void TerraformDriver::PutState(const std::string& address, InstanceState state) {
  state_[address] = std::move(state);
}

absl::StatusOr<cty::Value> TerraformDriver::StateValue(const std::string& address) const {
  const InstanceState* s = State(address);
  if (s == nullptr) return absl::NotFoundError(absl::StrCat(address, " is not in the state"));
  auto it = latest_schemas_.find(s->type_name);
  if (it == latest_schemas_.end()) {
    return absl::NotFoundError(absl::StrCat("no schema seen for ", s->type_name));
  }
  return cty::DecodeJson(s->attributes_json, ImpliedType(it->second.block));
}

std::vector<std::string> TerraformDriver::Addresses() const {
  std::vector<std::string> out;
  for (const auto& [address, unused] : state_) out.push_back(address);
  return out;
}

// ---------------------------------------------------------------------------------------------
// `terraform providers schema -json` from a GetSchema answer

namespace {

const char* KindName(tfplugin5::StringKind kind) {
  return kind == tfplugin5::MARKDOWN ? "markdown" : "plain";
}

const char* NestingModeName(tfplugin5::Schema::NestedBlock::NestingMode mode) {
  switch (mode) {
    case tfplugin5::Schema::NestedBlock::SINGLE:
      return "single";
    case tfplugin5::Schema::NestedBlock::LIST:
      return "list";
    case tfplugin5::Schema::NestedBlock::SET:
      return "set";
    case tfplugin5::Schema::NestedBlock::MAP:
      return "map";
    case tfplugin5::Schema::NestedBlock::GROUP:
      return "group";
    default:
      return "invalid";
  }
}

Json BlockJson(const tfplugin5::Schema::Block& block) {
  Json out = Json::object();
  if (block.attributes_size() > 0) {
    Json attrs = Json::object();
    for (const auto& a : block.attributes()) {
      Json j = Json::object();
      Json type = Json::parse(a.type(), nullptr, /*allow_exceptions=*/false);
      j["type"] = type.is_discarded() ? Json(a.type()) : type;
      if (!a.description().empty()) j["description"] = a.description();
      j["description_kind"] = KindName(a.description_kind());
      if (a.deprecated()) j["deprecated"] = true;
      if (a.required()) j["required"] = true;
      if (a.optional()) j["optional"] = true;
      if (a.computed()) j["computed"] = true;
      if (a.sensitive()) j["sensitive"] = true;
      attrs[a.name()] = std::move(j);
    }
    out["attributes"] = std::move(attrs);
  }
  if (block.block_types_size() > 0) {
    Json types = Json::object();
    for (const auto& b : block.block_types()) {
      Json j = Json::object();
      j["nesting_mode"] = NestingModeName(b.nesting());
      j["block"] = BlockJson(b.block());
      if (b.min_items() != 0) j["min_items"] = b.min_items();
      if (b.max_items() != 0) j["max_items"] = b.max_items();
      types[b.type_name()] = std::move(j);
    }
    out["block_types"] = std::move(types);
  }
  if (!block.description().empty()) out["description"] = block.description();
  out["description_kind"] = KindName(block.description_kind());
  if (block.deprecated()) out["deprecated"] = true;
  return out;
}

Json SchemaJson(const tfplugin5::Schema& schema) {
  Json out = Json::object();
  out["version"] = schema.version();
  out["block"] = BlockJson(schema.block());
  return out;
}

// Fills the maps Terraform leaves out when empty, so both spellings compare equal.
void FillEmptyMaps(Json* doc) {
  if (!doc->is_object()) return;
  auto it = doc->find("provider_schemas");
  if (it == doc->end() || !it->is_object()) return;
  for (auto& [address, entry] : it->items()) {
    (void)address;
    if (!entry.is_object()) continue;
    if (!entry.contains("resource_schemas")) entry["resource_schemas"] = Json::object();
    if (!entry.contains("data_source_schemas")) entry["data_source_schemas"] = Json::object();
  }
}

}  // namespace

std::string ProviderSchemasJsonFromProto(const std::string& provider_address,
                                         const tfplugin5::GetProviderSchema::Response& schema) {
  Json entry = Json::object();
  entry["provider"] = SchemaJson(schema.provider());
  if (!schema.resource_schemas().empty()) {
    Json res = Json::object();
    for (const auto& [name, s] : schema.resource_schemas()) res[name] = SchemaJson(s);
    entry["resource_schemas"] = std::move(res);
  }
  if (!schema.data_source_schemas().empty()) {
    Json ds = Json::object();
    for (const auto& [name, s] : schema.data_source_schemas()) ds[name] = SchemaJson(s);
    entry["data_source_schemas"] = std::move(ds);
  }
  Json doc = Json::object();
  doc["format_version"] = "1.0";
  doc["provider_schemas"] = Json::object();
  doc["provider_schemas"][provider_address] = std::move(entry);
  return doc.dump(2);
}

bool SameProviderSchemasJson(const std::string& a, const std::string& b, std::string* why) {
  Json ja = Json::parse(a, nullptr, /*allow_exceptions=*/false);
  Json jb = Json::parse(b, nullptr, /*allow_exceptions=*/false);
  if (ja.is_discarded() || jb.is_discarded()) {
    if (why != nullptr)
      *why = ja.is_discarded() ? "first document is not JSON" : "second document is not JSON";
    return false;
  }
  FillEmptyMaps(&ja);
  FillEmptyMaps(&jb);
  if (ja == jb) return true;
  if (why != nullptr) {
    const Json patch = Json::diff(ja, jb);
    *why = patch.empty() ? "documents differ" : patch.front().dump();
  }
  return false;
}

}  // namespace nsxalb::harness
