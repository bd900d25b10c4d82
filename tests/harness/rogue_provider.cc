// nsxalb-rogue-provider: a deliberately small tfplugin5 provider, written directly against the
// generated gRPC service, that the harness's negative tests launch to prove the TerraformDriver
// fails exactly where Terraform would. It is never shipped.
//
// Usage: nsxalb-rogue-provider [MODE]   (default "good"; started like Terraform starts plugins)
//
// It does its own go-plugin handshake (AutoMTLS when PLUGIN_CLIENT_CERT is set) so that it can
// also misbehave on stdout and on Shutdown, which the real host (plugin/host) never allows.
// Its one resource, "rogue_thing", behaves correctly in mode "good"; every other mode breaks
// one response in one way:
//   invalid_plan             PlanResourceChange plans name != config ("Provider produced invalid
//   plan") plan_wrong_type          PlanResourceChange plans size as a string (non-conforming
//   object) missing_attribute        PlanResourceChange's planned object lacks the "size" attribute
//   inconsistent_apply       ApplyResourceChange returns a name other than planned
//   unknown_after_apply      ApplyResourceChange leaves id unknown
//   null_apply               ApplyResourceChange returns null for a create
//   destroy_non_null         ApplyResourceChange returns the prior object for a destroy
//   bad_requires_replace     PlanResourceChange names a non-existent attribute in requires_replace
//   inconsistent_final_plan  PlanResourceChange plans a fresh random id on each call
//   import_missing           ReadResource returns null (the remote object is gone)
//   error_diagnostic         ValidateResourceTypeConfig returns an error on .name
//   stdout_noise             writes to stdout after the handshake (in GetSchema)
//   slow_shutdown            waits 3 s after answering Shutdown before exiting
//   exit_nonzero             exits with code 3 after answering Shutdown
//   no_client_auth           serves TLS without requiring a client certificate
#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/host/cert.h"
#include "plugin/host/handshake.h"
#include "proto/grpc_controller.grpc.pb.h"
#include "proto/tfplugin5.grpc.pb.h"

namespace nsxalb::harness {
namespace {

constexpr char kType[] = "rogue_thing";

std::string g_mode;  // set once in main before serving

bool Mode(const char* m) { return g_mode == m; }

cty::Type RuleType() { return cty::Type::Object({{"port", cty::Type::Number()}}); }

// The implied type of rogue_thing.
cty::Type ThingType() {
  return cty::Type::Object({{"id", cty::Type::String()},
                            {"name", cty::Type::String()},
                            {"size", cty::Type::Number()},
                            {"flavor", cty::Type::String()},
                            {"rule", cty::Type::List(RuleType())}});
}

void AddAttribute(tfplugin5::Schema::Block* block, const std::string& name,
                  const std::string& type_json, bool required, bool optional, bool computed) {
  tfplugin5::Schema::Attribute* a = block->add_attributes();
  a->set_name(name);
  a->set_type(type_json);
  a->set_required(required);
  a->set_optional(optional);
  a->set_computed(computed);
  a->set_description(absl::StrCat("The ", name, "."));
}

void Error(google::protobuf::RepeatedPtrField<tfplugin5::Diagnostic>* diags,
           const std::string& summary, const std::string& detail,
           const std::string& attribute = "") {
  tfplugin5::Diagnostic* d = diags->Add();
  d->set_severity(tfplugin5::Diagnostic::ERROR);
  d->set_summary(summary);
  d->set_detail(detail);
  if (!attribute.empty()) d->mutable_attribute()->add_steps()->set_attribute_name(attribute);
}

// Decodes a DynamicValue of rogue_thing; an absent or empty value is null.
absl::StatusOr<cty::Value> Decode(const tfplugin5::DynamicValue& dv) {
  if (dv.msgpack().empty()) return cty::Value::Null(ThingType());
  return cty::DecodeMsgpack(dv.msgpack(), ThingType());
}

void Encode(const cty::Value& v, tfplugin5::DynamicValue* out) {
  absl::StatusOr<std::string> bytes = cty::EncodeMsgpack(v, ThingType());
  if (bytes.ok()) {
    out->set_msgpack(*bytes);
  } else {
    // Encode with the value's own type: only the misbehaving modes get here on purpose.
    absl::StatusOr<std::string> raw = cty::EncodeMsgpack(v, v.type());
    out->set_msgpack(raw.ok() ? *raw : std::string("\xc0", 1));
  }
}

std::string RandomId() {
  std::random_device rd;
  return absl::StrCat("rnd-", rd(), "-", rd());
}

class RogueProvider final : public tfplugin5::Provider::Service {
 public:
  grpc::Status GetSchema(grpc::ServerContext*, const tfplugin5::GetProviderSchema::Request*,
                         tfplugin5::GetProviderSchema::Response* resp) override {
    if (Mode("stdout_noise")) {
      std::printf("rogue provider: hello from stdout\n");
      std::fflush(stdout);
    }
    resp->mutable_provider()->mutable_block();
    tfplugin5::Schema& s = (*resp->mutable_resource_schemas())[kType];
    s.set_version(0);
    tfplugin5::Schema::Block* b = s.mutable_block();
    AddAttribute(b, "id", "\"string\"", false, false, true);
    AddAttribute(b, "name", "\"string\"", true, false, false);
    AddAttribute(b, "size", "\"number\"", false, true, false);
    AddAttribute(b, "flavor", "\"string\"", false, true, false);
    tfplugin5::Schema::NestedBlock* rule = b->add_block_types();
    rule->set_type_name("rule");
    rule->set_nesting(tfplugin5::Schema::NestedBlock::LIST);
    AddAttribute(rule->mutable_block(), "port", "\"number\"", true, false, false);
    return grpc::Status::OK;
  }

  grpc::Status PrepareProviderConfig(grpc::ServerContext*,
                                     const tfplugin5::PrepareProviderConfig::Request* req,
                                     tfplugin5::PrepareProviderConfig::Response* resp) override {
    *resp->mutable_prepared_config() = req->config();
    return grpc::Status::OK;
  }

  grpc::Status ValidateResourceTypeConfig(
      grpc::ServerContext*, const tfplugin5::ValidateResourceTypeConfig::Request*,
      tfplugin5::ValidateResourceTypeConfig::Response* resp) override {
    if (Mode("error_diagnostic")) {
      Error(resp->mutable_diagnostics(), "Invalid name", "rogue refuses every name", "name");
    }
    return grpc::Status::OK;
  }

  grpc::Status UpgradeResourceState(grpc::ServerContext*,
                                    const tfplugin5::UpgradeResourceState::Request* req,
                                    tfplugin5::UpgradeResourceState::Response* resp) override {
    absl::StatusOr<cty::Value> v = cty::DecodeJson(req->raw_state().json(), ThingType());
    if (!v.ok()) {
      Error(resp->mutable_diagnostics(), "Bad state", std::string(v.status().message()));
      return grpc::Status::OK;
    }
    Encode(*v, resp->mutable_upgraded_state());
    return grpc::Status::OK;
  }

  grpc::Status Configure(grpc::ServerContext*, const tfplugin5::Configure::Request*,
                         tfplugin5::Configure::Response*) override {
    return grpc::Status::OK;
  }

  grpc::Status ReadResource(grpc::ServerContext*, const tfplugin5::ReadResource::Request* req,
                            tfplugin5::ReadResource::Response* resp) override {
    if (Mode("import_missing")) {
      resp->mutable_new_state()->set_msgpack(std::string("\xc0", 1));
      return grpc::Status::OK;
    }
    *resp->mutable_new_state() = req->current_state();
    resp->set_private_(req->private_());
    return grpc::Status::OK;
  }

  grpc::Status PlanResourceChange(grpc::ServerContext*,
                                  const tfplugin5::PlanResourceChange::Request* req,
                                  tfplugin5::PlanResourceChange::Response* resp) override {
    absl::StatusOr<cty::Value> prior = Decode(req->prior_state());
    absl::StatusOr<cty::Value> proposed = Decode(req->proposed_new_state());
    if (!prior.ok() || !proposed.ok()) {
      Error(resp->mutable_diagnostics(), "Bad request",
            std::string((!prior.ok() ? prior : proposed).status().message()));
      return grpc::Status::OK;
    }
    // Private data grows by one '.' per plan that received some, so tests can follow it.
    resp->set_planned_private(req->prior_private().empty()
                                  ? std::string("rogue-private")
                                  : absl::StrCat(req->prior_private(), "."));
    if (proposed->IsNull()) {
      Encode(*proposed, resp->mutable_planned_state());
      return grpc::Status::OK;
    }
    cty::Value planned = *proposed;
    const bool create = prior->IsNull();
    if (create) {
      planned = planned.WithAttribute("id", cty::Value::Unknown(cty::Type::String()));
    } else {
      planned = planned.WithAttribute("id", *prior->GetAttribute("id"));
      const cty::Value* old_flavor = prior->GetAttribute("flavor");
      const cty::Value* new_flavor = proposed->GetAttribute("flavor");
      if (!old_flavor->Equals(*new_flavor)) {
        resp->add_requires_replace()->add_steps()->set_attribute_name("flavor");
      }
    }
    if (Mode("invalid_plan")) {
      planned = planned.WithAttribute("name", cty::Value::String("not-what-you-wrote"));
    } else if (Mode("plan_wrong_type")) {
      planned = planned.WithAttribute("size", cty::Value::String("big"));
    } else if (Mode("missing_attribute")) {
      std::map<std::string, cty::Value> attrs = planned.entries();
      attrs.erase("size");
      planned = cty::Value::Object(attrs);
    } else if (Mode("bad_requires_replace") && !create) {
      tfplugin5::AttributePath* path = resp->add_requires_replace();
      path->add_steps()->set_attribute_name("no_such_attribute");
    } else if (Mode("inconsistent_final_plan")) {
      planned = planned.WithAttribute("id", cty::Value::String(RandomId()));
    }
    Encode(planned, resp->mutable_planned_state());
    return grpc::Status::OK;
  }

  grpc::Status ApplyResourceChange(grpc::ServerContext*,
                                   const tfplugin5::ApplyResourceChange::Request* req,
                                   tfplugin5::ApplyResourceChange::Response* resp) override {
    absl::StatusOr<cty::Value> prior = Decode(req->prior_state());
    absl::StatusOr<cty::Value> planned = Decode(req->planned_state());
    if (!prior.ok() || !planned.ok()) {
      Error(resp->mutable_diagnostics(), "Bad request",
            std::string((!prior.ok() ? prior : planned).status().message()));
      return grpc::Status::OK;
    }
    resp->set_private_(req->planned_private());
    if (planned->IsNull() && req->planned_private().empty()) {
      Error(resp->mutable_diagnostics(), "Missing private data",
            "a destroy must carry the private data of the state or of the replace plan");
      return grpc::Status::OK;
    }
    if (planned->IsNull()) {
      Encode(Mode("destroy_non_null") ? *prior : *planned, resp->mutable_new_state());
      return grpc::Status::OK;
    }
    cty::Value result = *planned;
    if (!result.GetAttribute("id")->IsKnown() && !Mode("unknown_after_apply")) {
      result = result.WithAttribute(
          "id",
          cty::Value::String(absl::StrCat("thing-", planned->GetAttribute("name")->AsString())));
    }
    if (Mode("inconsistent_apply")) {
      result = result.WithAttribute("name", cty::Value::String("renamed-by-provider"));
    }
    if (Mode("null_apply")) result = cty::Value::Null(ThingType());
    Encode(result, resp->mutable_new_state());
    return grpc::Status::OK;
  }

  grpc::Status ImportResourceState(grpc::ServerContext*,
                                   const tfplugin5::ImportResourceState::Request* req,
                                   tfplugin5::ImportResourceState::Response* resp) override {
    tfplugin5::ImportResourceState::ImportedResource* r = resp->add_imported_resources();
    r->set_type_name(req->type_name());
    r->set_private_("from-import");
    Encode(cty::Value::ObjectOf(ThingType(), {{"id", cty::Value::String(req->id())},
                                              {"name", cty::Value::String("imported")},
                                              {"rule", cty::Value::List(RuleType(), {})}}),
           r->mutable_state());
    return grpc::Status::OK;
  }

  grpc::Status Stop(grpc::ServerContext*, const tfplugin5::Stop::Request*,
                    tfplugin5::Stop::Response*) override {
    return grpc::Status::OK;
  }
};

class RogueController final : public plugin::GRPCController::Service {
 public:
  explicit RogueController(absl::Notification* done) : done_(done) {}
  grpc::Status Shutdown(grpc::ServerContext*, const plugin::Empty*, plugin::Empty*) override {
    if (!done_->HasBeenNotified()) done_->Notify();
    return grpc::Status::OK;
  }

 private:
  absl::Notification* done_;
};

int Run(const std::string& mode) {
  g_mode = mode;
  signal(SIGINT, SIG_IGN);
  const char* cookie = std::getenv("TF_PLUGIN_MAGIC_COOKIE");
  if (cookie == nullptr) {
    std::cerr << "This binary is a plugin. These are not meant to be executed directly.\n";
    return 1;
  }
  char dir_template[] = "/tmp/nsxalb-rogue-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::cerr << "[ERROR] mkdtemp failed\n";
    return 1;
  }
  const std::string socket_path = absl::StrCat(dir_template, "/plugin.sock");

  std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
  std::string cert_der;
  const char* client_cert = std::getenv("PLUGIN_CLIENT_CERT");
  if (client_cert != nullptr && client_cert[0] != '\0') {
    absl::StatusOr<host::Certificate> cert =
        host::GenerateSelfSignedCertificate(host::CertificateOptions());
    if (!cert.ok()) {
      std::cerr << "[ERROR] " << cert.status() << "\n";
      return 1;
    }
    grpc::SslServerCredentialsOptions tls(
        Mode("no_client_auth") ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                               : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    tls.pem_root_certs = client_cert;
    tls.pem_key_cert_pairs.push_back({cert->key_pem, cert->cert_pem});
    creds = grpc::SslServerCredentials(tls);
    cert_der = cert->cert_der;
  }

  RogueProvider provider;
  absl::Notification shutdown;
  RogueController controller(&shutdown);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat("unix:", socket_path), creds);
  builder.RegisterService(&provider);
  builder.RegisterService(&controller);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) {
    std::cerr << "[ERROR] cannot listen on " << socket_path << "\n";
    return 1;
  }
  std::cout << host::FormatHandshakeLine(5, "unix", socket_path, cert_der) << std::flush;

  shutdown.WaitForNotification();
  if (Mode("slow_shutdown")) std::this_thread::sleep_for(std::chrono::seconds(3));
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  unlink(socket_path.c_str());
  rmdir(dir_template);
  // Leave without running gRPC's global destructors (prompt, like the real host).
  std::cout.flush();
  _exit(Mode("exit_nonzero") ? 3 : 0);
}

}  // namespace
}  // namespace nsxalb::harness

int main(int argc, char** argv) {
  if (argc > 2) {
    std::cerr << "usage: nsxalb-rogue-provider [MODE]   (default: good)\n";
    return 2;
  }
  return nsxalb::harness::Run(argc == 2 ? argv[1] : "good");
}
