// Serving a tfplugin5 Provider service the way go-plugin expects.
//
// Serve is the whole plugin host: it reads the environment Terraform sets (env.h), picks
// mutual TLS with a fresh certificate when PLUGIN_CLIENT_CERT is set (cert.h) or plaintext
// otherwise, listens on a unix socket in a private directory (socket_dir.h), prints the one
// handshake line (handshake.h), then builds the gRPC server on that socket with the provider
// service next to go-plugin's GRPCController and the gRPC health service ("plugin" is SERVING),
// and serves until Terraform calls plugin.GRPCController/Shutdown (or SIGTERM arrives). SIGINT
// is ignored: Terraform sends the Stop RPC instead. After the handshake, file descriptor 1 is
// pointed at stderr so nothing else can ever reach stdout.
//
// The line goes out as soon as the socket listens, before the provider service and gRPC's TLS
// context are built: Terraform's connection waits in the socket's backlog meanwhile, and both
// sides do their set-up at the same time (docs/design/host.md, "Start-up time and memory").
#ifndef NSXALB_PLUGIN_HOST_SERVE_H_
#define NSXALB_PLUGIN_HOST_SERVE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "plugin/common/limits.h"
#include "plugin/host/env.h"
#include "plugin/host/handshake.h"

namespace grpc {
class Service;
}  // namespace grpc

namespace nsxalb::host {

// How to serve.
struct HostOptions {
  // Debug mode (`--debug`): no magic cookie needed, plaintext, and instead of the handshake line
  // print a TF_REATTACH_PROVIDERS value on stdout; SIGINT and SIGTERM stop the server.
  bool debug = false;
  // The environment to read; unset means the process environment.
  std::optional<Environment> environment;
  // The provider address printed in debug mode.
  std::string provider_address = kProviderAddress;
  // Largest gRPC message accepted or sent, in bytes (limits::kMaxGrpcMessageBytes). Terraform
  // itself accepts up to 64 MiB from GetSchema and sends state of any size, so this is well
  // above gRPC's 4 MiB default.
  int max_message_bytes = limits::kMaxGrpcMessageBytes;
};

// Makes the tfplugin5.Provider service; Serve calls it once, after the handshake line.
using ServiceFactory = std::function<std::shared_ptr<grpc::Service>()>;

// Serves the service `make_provider_service` returns until shutdown. Returns the process exit
// code: 0 after a Shutdown RPC or SIGTERM, 1 when the environment is wrong (missing magic
// cookie, protocol 5 not offered, bad PLUGIN_CLIENT_CERT, socket path too long) or serving
// fails (also after the handshake line, if gRPC cannot build its server); the reason is on
// stderr.
// Call it last in main and return its result: when gRPC's teardown after Shutdown exceeds a
// short budget, Serve removes the socket directory and ends the process itself (_exit(0)) so
// that Terraform sees a prompt exit.
int Serve(const ServiceFactory& make_provider_service, const HostOptions& options);

// The same for a service made beforehand (not owned; must outlive the call).
int Serve(grpc::Service* provider_service, const HostOptions& options);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_SERVE_H_
