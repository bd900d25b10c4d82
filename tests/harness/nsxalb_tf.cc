// nsxalb-tf: a small demo and debugging tool that plays Terraform's side of the plugin handshake
// (not shipped; built with the tests).
//
//   nsxalb-tf handshake BINARY   launch BINARY exactly as Terraform does (cookie, protocol
//                                versions, per-run P-521 client certificate), print the handshake
//                                summary, the negotiated protocol, the time to handshake and the
//                                RSS at handshake, then call Shutdown and print the time to exit.
//   nsxalb-tf schema BINARY      launch the same way, call GetSchema over mutual TLS and print the
//                                provider block's attributes and types and the resource and data
//                                source type names, then Shutdown.
//
// Options (before BINARY): --protocols=5 (PLUGIN_PROTOCOL_VERSIONS, default "5,6"),
// --no-mtls (TF_DISABLE_PLUGIN_TLS mode: no client certificate, plaintext).
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "proto/tfplugin5.grpc.pb.h"
#include "tests/harness/plugin_process.h"

namespace nsxalb::harness {
namespace {

constexpr absl::Duration kRpcTimeout = absl::Seconds(10);

int Usage() {
  std::cerr << "usage: nsxalb-tf [--protocols=5,6] [--no-mtls] handshake BINARY\n"
               "       nsxalb-tf [--protocols=5,6] [--no-mtls] schema BINARY\n";
  return 2;
}

// Resident set size of `pid` in KiB from /proc, or -1.
long RssKib(pid_t pid) {
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (absl::StartsWith(line, "VmRSS:")) return std::atol(line.c_str() + 6);
  }
  return -1;
}

std::string Ms(absl::Duration d) {
  return absl::StrFormat("%.2f ms", absl::ToDoubleMilliseconds(d));
}

std::string Flags(const tfplugin5::Schema::Attribute& a) {
  std::vector<std::string> f;
  if (a.required()) f.push_back("required");
  if (a.optional()) f.push_back("optional");
  if (a.computed()) f.push_back("computed");
  if (a.sensitive()) f.push_back("sensitive");
  std::string out;
  for (const std::string& s : f) out = out.empty() ? s : absl::StrCat(out, ", ", s);
  return out;
}

int RunHandshake(std::unique_ptr<PluginProcess> p) {
  const long rss = RssKib(p->pid());
  const Handshake& h = p->handshake();
  std::cout << "handshake line:     " << p->handshake_line().substr(0, 60)
            << (p->handshake_line().size() > 60 ? "..." : "") << "\n"
            << "core protocol:      " << h.core_version << "\n"
            << "plugin protocol:    " << h.protocol_version << " (tfplugin" << h.protocol_version
            << ")\n"
            << "transport:          " << h.network << " " << h.address << " " << h.protocol << "\n"
            << "server certificate: "
            << (h.cert_der.empty() ? std::string("none (plaintext)")
                                   : absl::StrCat(h.cert_der.size(), " bytes DER, mutual TLS"))
            << "\n"
            << "time to handshake:  " << Ms(p->time_to_handshake()) << "\n"
            << "RSS at handshake:   "
            << (rss < 0 ? std::string("unknown") : absl::StrFormat("%.1f MiB", rss / 1024.0))
            << "\n";
  absl::StatusOr<absl::Duration> exit_time = p->Shutdown(absl::Seconds(5));
  if (!exit_time.ok()) {
    std::cerr << "nsxalb-tf: shutdown: " << exit_time.status().message() << "\n";
    return 1;
  }
  std::cout << "time to exit:       " << Ms(*exit_time) << " after the Shutdown reply\n";
  const std::string noise = p->StdoutAfterHandshake();
  std::cout << "stdout after line:  "
            << (noise.empty() ? std::string("nothing") : absl::StrCat(noise.size(), " bytes (!)"))
            << "\n";
  return noise.empty() ? 0 : 1;
}

int RunSchema(std::unique_ptr<PluginProcess> p) {
  auto stub = tfplugin5::Provider::NewStub(p->channel());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(kRpcTimeout));
  tfplugin5::GetProviderSchema::Response resp;
  const grpc::Status status =
      stub->GetSchema(&context, tfplugin5::GetProviderSchema::Request(), &resp);
  if (!status.ok()) {
    std::cerr << "nsxalb-tf: GetSchema failed: " << status.error_message() << "\n";
    return 1;
  }
  int errors = 0;
  for (const tfplugin5::Diagnostic& d : resp.diagnostics()) {
    std::cout << (d.severity() == tfplugin5::Diagnostic::ERROR ? "Error: " : "Warning: ")
              << d.summary() << "\n";
    errors += d.severity() == tfplugin5::Diagnostic::ERROR;
  }
  std::cout << "provider (schema version " << resp.provider().version() << "):\n";
  for (const auto& a : resp.provider().block().attributes()) {
    std::cout << "  " << a.name() << "  " << a.type() << "  (" << Flags(a) << ")\n";
  }
  for (const auto& b : resp.provider().block().block_types()) {
    std::cout << "  block " << b.type_name() << "\n";
  }
  std::cout << "resources: " << resp.resource_schemas().size() << "\n";
  std::map<std::string, int64_t> resources;  // sorted for stable output
  for (const auto& [name, s] : resp.resource_schemas()) resources[name] = s.version();
  for (const auto& [name, version] : resources) {
    std::cout << "  " << name << " (schema version " << version << ")\n";
  }
  std::map<std::string, int64_t> data_sources;
  for (const auto& [name, s] : resp.data_source_schemas()) data_sources[name] = s.version();
  std::cout << "data sources: " << data_sources.size() << "\n";
  for (const auto& [name, version] : data_sources) std::cout << "  " << name << "\n";
  absl::StatusOr<absl::Duration> exit_time = p->Shutdown(absl::Seconds(5));
  if (!exit_time.ok()) {
    std::cerr << "nsxalb-tf: shutdown: " << exit_time.status().message() << "\n";
    return 1;
  }
  return errors == 0 ? 0 : 1;
}

int Main(int argc, char** argv) {
  PluginProcessOptions options;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--protocols=")) {
      options.protocol_versions = arg.substr(12);
    } else if (arg == "--no-mtls") {
      options.auto_mtls = false;
    } else if (absl::StartsWith(arg, "--")) {
      return Usage();
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return Usage();
  const std::string& command = positional[0];
  if (command != "handshake" && command != "schema") return Usage();
  options.binary = positional[1];
  absl::StatusOr<std::unique_ptr<PluginProcess>> process = PluginProcess::Start(options);
  if (!process.ok()) {
    std::cerr << "nsxalb-tf: " << process.status().message() << "\n";
    return 1;
  }
  return command == "handshake" ? RunHandshake(*std::move(process))
                                : RunSchema(*std::move(process));
}

}  // namespace
}  // namespace nsxalb::harness

int main(int argc, char** argv) { return nsxalb::harness::Main(argc, argv); }
