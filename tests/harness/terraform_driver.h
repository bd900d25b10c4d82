// TerraformDriver: plays Terraform core's side of the plugin protocol against a built provider
// binary, over real gRPC, for the integration tests.
//
// Each "walk" launches a fresh provider process exactly as Terraform does (PluginProcess: cookie,
// protocol versions, per-run AutoMTLS client certificate), calls GetSchema first, plays the RPC
// sequence Terraform v0.13.7 was observed to play for that command (reference §1.6), and ends
// with plugin.GRPCController/Shutdown. Values travel as msgpack of the schema's implied type.
// Every response is checked with Terraform's rules (terraform_rules.h); a violation, an error
// diagnostic, a failed RPC, output on stdout after the handshake line or a process that does not
// exit within a second of Shutdown fails the walk with Terraform's wording. The driver keeps an
// in-memory state (per resource address: attributes as the JSON a state file holds, private
// bytes, schema version) that goes through UpgradeResourceState at the start of every walk.
#ifndef NSXALB_TESTS_HARNESS_TERRAFORM_DRIVER_H_
#define NSXALB_TESTS_HARNESS_TERRAFORM_DRIVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugin/cty/value.h"
#include "proto/tfplugin5.grpc.pb.h"
#include "proto/tfplugin5.pb.h"
#include "tests/harness/plugin_process.h"
#include "tests/harness/terraform_rules.h"

namespace nsxalb::harness {

// How to run the provider and what to call it in messages.
struct DriverOptions {
  // How each provider process is started (binary, args, env, AutoMTLS...). expect_handshake is
  // forced on.
  PluginProcessOptions process;
  // The provider's address in Terraform's messages.
  std::string provider_address = "registry.terraform.io/nsxalb/nsxalb";
  // The provider block's configuration: an object with any subset of the provider schema's
  // attributes (the rest become null), as Terraform would decode it from HCL.
  cty::Value provider_config = cty::Value::Object({});
  // Deadline of every RPC.
  absl::Duration rpc_timeout = absl::Seconds(10);
  // How long a provider may take to exit after answering Shutdown.
  absl::Duration exit_limit = absl::Seconds(1);
  // Configure.terraform_version.
  std::string terraform_version = "0.13.7";
};

// One resource instance as a state file holds it.
struct InstanceState {
  std::string type_name;
  std::string attributes_json;  // the "attributes" object, cty JSON of the schema that wrote it
  std::string private_data;     // opaque bytes ("private", base64 in a real state file)
  int64_t schema_version = 0;
};

// What a plan decided for one resource instance.
enum class PlanAction { kNoOp, kCreate, kUpdate, kReplace, kDelete };

// Terraform's name for an action ("Create", "Update", "DeleteThenCreate", ...).
const char* PlanActionName(PlanAction action);

// The result of a PlanResourceChange sequence (one call, or two on replace).
struct PlannedChange {
  PlanAction action = PlanAction::kNoOp;
  cty::Value prior;             // the (refreshed, upgraded) prior state; null on create
  cty::Value after;             // the planned new value
  std::string planned_private;  // what ApplyResourceChange will get
  std::string replace_private;  // on replace: the first call's planned_private
  std::vector<cty::AttributePath> replace_paths;  // requires_replace paths that changed
};

// A unary tfplugin5 client method, such as &tfplugin5::Provider::StubInterface::Configure.
template <typename Req, typename Resp>
using ProviderMethod = grpc::Status (tfplugin5::Provider::StubInterface::*)(grpc::ClientContext*,
                                                                            const Req&, Resp*);

// A walk's provider process: one launched plugin and the typed RPCs Terraform makes on it, each
// checked against Terraform's rules. Made by TerraformDriver; also usable directly by tests.
class ProviderSession {
 public:
  // Launches the provider as Terraform does and calls GetSchema, which must succeed, have no
  // error diagnostics, and pass InternalValidate. `walk` names the walk in messages and the log.
  static absl::StatusOr<std::unique_ptr<ProviderSession>> Open(const DriverOptions& options,
                                                               const std::string& walk,
                                                               std::vector<std::string>* log);
  // Kills the process if Close was not called.
  ~ProviderSession();

  ProviderSession(const ProviderSession&) = delete;
  ProviderSession& operator=(const ProviderSession&) = delete;

  // The GetSchema answer and its converted schemas.
  const tfplugin5::GetProviderSchema::Response& raw_schema() const { return raw_schema_; }
  const Schema& provider_schema() const { return provider_schema_; }
  // The schema of a resource or data source type; NotFound naming the type when absent
  // (Terraform: "provider does not support resource type").
  absl::StatusOr<const Schema*> ResourceSchema(const std::string& type) const;
  absl::StatusOr<const Schema*> DataSourceSchema(const std::string& type) const;
  const std::map<std::string, Schema>& resource_schemas() const { return resources_; }
  const std::map<std::string, Schema>& data_source_schemas() const { return data_sources_; }
  PluginProcess& process() { return *process_; }

  // The RPCs. `address` is the resource address for messages ("nsxalbtest_thing.a").
  absl::StatusOr<cty::Value> PrepareProviderConfig(const cty::Value& config);
  absl::Status Configure(const cty::Value& config);
  absl::Status ValidateResourceTypeConfig(const std::string& type, const cty::Value& config);
  absl::Status ValidateDataSourceConfig(const std::string& type, const cty::Value& config);
  // UpgradeResourceState with the stored JSON and version; returns the upgraded object.
  absl::StatusOr<cty::Value> UpgradeResourceState(const std::string& address,
                                                  const InstanceState& state);
  // ReadResource; the result is null when the remote object is gone. `private_data` in/out.
  absl::StatusOr<cty::Value> ReadResource(const std::string& address, const std::string& type,
                                          const cty::Value& current, std::string* private_data);
  // The plan for `config` from `prior` (null to create): PlanResourceChange with the proposed
  // new state, and a second call with a null prior when requires_replace paths changed.
  absl::StatusOr<PlannedChange> Plan(const std::string& address, const std::string& type,
                                     const cty::Value& prior, const std::string& prior_private,
                                     const cty::Value& config);
  // ApplyResourceChange; returns the new state (null after a destroy) and its private data.
  // On error diagnostics with a non-null new state, `*partial` receives it (if given).
  absl::StatusOr<std::pair<cty::Value, std::string>> Apply(
      const std::string& address, const std::string& type, const cty::Value& prior,
      const cty::Value& planned, const cty::Value& config, const std::string& planned_private,
      std::optional<std::pair<cty::Value, std::string>>* partial = nullptr);
  // ImportResourceState; each imported object with its type name and private data.
  struct Imported {
    std::string type_name;
    cty::Value state;
    std::string private_data;
  };
  absl::StatusOr<std::vector<Imported>> ImportResourceState(const std::string& address,
                                                            const std::string& type,
                                                            const std::string& id);
  absl::StatusOr<cty::Value> ReadDataSource(const std::string& address, const std::string& type,
                                            const cty::Value& config);

  // Shutdown: the process must exit (code 0) within exit_limit of the reply, and must not have
  // written anything to stdout after the handshake line.
  absl::Status Close();

  // Warnings the provider returned so far ("RPC: summary: detail").
  const std::vector<std::string>& warnings() const { return warnings_; }

  // What Terraform's rules name in their messages: this provider and `address`.
  Subject SubjectFor(const std::string& address) const;

 private:
  ProviderSession() = default;
  absl::Status CallGetSchema();
  // Appends "walk: rpc" to the log.
  void Record(const char* rpc);
  // Turns error diagnostics into a failed status, collects warnings.
  absl::Status CheckDiagnostics(
      const char* rpc,
      const google::protobuf::RepeatedPtrField<tfplugin5::Diagnostic>& diagnostics);
  // One RPC as Terraform makes it, the shape every RPC method above shares: appends "walk: name"
  // to the log, calls `method` with the rpc_timeout deadline, and fails on a failed call ("name
  // failed: rpc error: ...") or on error diagnostics (CheckDiagnostics). When the diagnostics
  // fail it, `*refused` (if given) receives the answer, e.g. for the partial state of an apply.
  template <typename Req, typename Resp>
  absl::StatusOr<Resp> Rpc(const char* name, ProviderMethod<Req, Resp> method, const Req& req,
                           Resp* refused = nullptr);
  // ValidateResourceTypeConfig and ValidateDataSourceConfig: `config`, named `type`, as the object
  // of `schema`, through Rpc.
  template <typename Req, typename Resp>
  absl::Status ValidateConfig(const char* name, ProviderMethod<Req, Resp> method,
                              const Schema& schema, const std::string& type,
                              const cty::Value& config);

  DriverOptions options_;
  std::string walk_;
  std::vector<std::string>* log_ = nullptr;
  std::unique_ptr<PluginProcess> process_;
  std::unique_ptr<tfplugin5::Provider::StubInterface> stub_;
  tfplugin5::GetProviderSchema::Response raw_schema_;
  Schema provider_schema_;
  std::map<std::string, Schema> resources_;
  std::map<std::string, Schema> data_sources_;
  std::vector<std::string> warnings_;
  bool closed_ = false;
};

// Terraform's commands over a provider binary, with an in-memory state.
class TerraformDriver {
 public:
  explicit TerraformDriver(DriverOptions options);

  // `terraform validate`: a schema-only process (GetSchema, Shutdown), then the validate walk:
  // GetSchema, PrepareProviderConfig, ValidateResourceTypeConfig.
  absl::Status Validate(const std::string& type, const cty::Value& config);

  // `terraform apply` of `config` (any subset of the schema's attributes and blocks; the rest
  // become null / empty) at `address` ("TYPE.NAME"). With state, a refresh walk first (Configure,
  // UpgradeResourceState, ReadResource). Then the validate walk, the plan walk (Configure,
  // [UpgradeResourceState], ValidateResourceTypeConfig, PlanResourceChange, a second
  // PlanResourceChange on replace) and, unless the plan is a no-op, the apply walk, which re-plans
  // and requires the new plan to be compatible with the first ("Provider produced inconsistent
  // final plan") before ApplyResourceChange (destroy then create on replace). Returns the plan.
  absl::StatusOr<PlannedChange> Apply(const std::string& address, const cty::Value& config);

  // `terraform refresh`: Configure, UpgradeResourceState, ReadResource. A null result removes
  // the instance from state.
  absl::Status Refresh(const std::string& address);

  // `terraform import ADDRESS ID`: GetSchema-only process, then Configure, ImportResourceState,
  // and ReadResource of each imported object with an empty private ("Cannot import non-existent
  // remote object" when it returns null). Extra objects go to ADDRESS-1, ADDRESS-2, ...
  absl::Status Import(const std::string& address, const std::string& id);

  // `terraform destroy`: a plan process (UpgradeResourceState only), then Configure,
  // UpgradeResourceState and ApplyResourceChange with planned = null and config = null, whose
  // result must be null. Removes the instance from state.
  absl::Status Destroy(const std::string& address);

  // A data source read in the plan walk: Configure, ValidateDataSourceConfig, ReadDataSource.
  absl::StatusOr<cty::Value> ReadDataSource(const std::string& type, const cty::Value& config);

  // Starts the provider presenting a client certificate other than PLUGIN_CLIENT_CERT and calls
  // GetSchema: OK when the provider refuses the connection, an error when it answers.
  absl::Status CheckRefusesOtherClientCertificate();

  // The options used for the next walk; tests change them between walks (e.g. another binary
  // mode, as when the provider is upgraded between two Terraform runs).
  DriverOptions& mutable_options() { return options_; }

  // The state of `address`, or nullptr.
  const InstanceState* State(const std::string& address) const;
  // Replaces the state of `address`, e.g. with attributes written by an older schema version.
  void PutState(const std::string& address, InstanceState state);
  // The state of `address` decoded with the latest schema seen (no unknowns, by construction).
  absl::StatusOr<cty::Value> StateValue(const std::string& address) const;
  // Addresses in state.
  std::vector<std::string> Addresses() const;

  // Every RPC made, in order, as "walk: Rpc" (e.g. "apply: ApplyResourceChange").
  const std::vector<std::string>& log() const { return log_; }
  void ClearLog() { log_.clear(); }
  // Every warning diagnostic seen.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // What a walk asks of the provider before its own RPCs, as Terraform's walks do: nothing
  // (GetSchema only), PrepareProviderConfig (validate) or Configure (every other walk).
  enum class ProviderSetup { kNone, kPrepare, kConfigure };
  // One walk: launches its process, sets the provider up with the normalized provider
  // configuration, runs `body` and closes the process; the first error of the walk and of Close
  // wins.
  absl::Status RunWalk(const std::string& walk, ProviderSetup setup,
                       absl::FunctionRef<absl::Status(ProviderSession&)> body);
  // A walk that only launches the provider (GetSchema, Shutdown), as `terraform validate` and
  // `terraform import` start.
  absl::Status SchemaOnlyWalk();
  // Launches a walk's process.
  absl::StatusOr<std::unique_ptr<ProviderSession>> Open(const std::string& walk);
  // Closes `session`; the first error of `body` and of Close wins.
  absl::Status Finish(ProviderSession* session, absl::Status body);
  // A resource's plan in a configured walk, as both the plan and the apply walk make it: the
  // prior state (upgraded; null when `address` is not in state), the normalized `config`
  // validated, and PlanResourceChange.
  struct WalkPlan {
    PlannedChange change;
    cty::Value config;  // normalized
  };
  absl::StatusOr<WalkPlan> PlanResource(ProviderSession& session, const std::string& address,
                                        const std::string& type, const cty::Value& config);
  // The apply walk's body: plans again (PlanResource), requires the final plan to keep `saved`'s
  // action and be compatible with it ("Provider produced inconsistent final plan"), then applies
  // it (destroy, then create, on replace) and stores the result, or the partial state of a
  // failed apply.
  absl::Status ApplySaved(ProviderSession& session, const std::string& address,
                          const std::string& type, const cty::Value& config,
                          const PlannedChange& saved);
  // UpgradeResourceState of the stored instance; NotFound when not in state.
  absl::StatusOr<cty::Value> Upgrade(ProviderSession& session, const std::string& address);
  // Saves a new value (unknowns as null) with the schema's version.
  absl::Status Store(const std::string& address, const std::string& type, const Schema& schema,
                     const cty::Value& value, const std::string& private_data);
  absl::StatusOr<cty::Value> Normalize(const ProviderSession& session, const std::string& type,
                                       const cty::Value& config, bool data_source) const;

  DriverOptions options_;
  std::map<std::string, InstanceState> state_;
  std::map<std::string, Schema> latest_schemas_;
  std::vector<std::string> log_;
  std::vector<std::string> warnings_;
};

// The resource type of an address "TYPE.NAME" (or "TYPE.NAME-1").
std::string TypeOfAddress(const std::string& address);

// Fills in what HCL decoding gives for absent arguments and blocks: null attributes, null SINGLE
// blocks, empty-valued GROUP blocks, empty LIST/SET/MAP blocks, recursively. Unknown attributes
// of the block are an error naming them ("Unsupported argument").
absl::StatusOr<cty::Value> NormalizeConfig(const Block& block, const cty::Value& config);

// `terraform providers schema -json` of one provider, built from a GetSchema answer the way
// Terraform's jsonprovider package does (empty maps and false flags left out, description_kind
// always present), pretty-printed.
std::string ProviderSchemasJsonFromProto(const std::string& provider_address,
                                         const tfplugin5::GetProviderSchema::Response& schema);

// True when two `terraform providers schema -json` documents describe the same schemas
// (JSON equality, treating an absent resource_schemas / data_source_schemas as empty). On
// difference, `*why` gets the first differing JSON pointer.
bool SameProviderSchemasJson(const std::string& a, const std::string& b, std::string* why);

}  // namespace nsxalb::harness

#endif  // NSXALB_TESTS_HARNESS_TERRAFORM_DRIVER_H_
