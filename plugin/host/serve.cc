// The plugin host's serve loop (see serve.h).
#include "plugin/host/serve.h"

#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/host/cert.h"
#include "plugin/host/socket_dir.h"
#include "proto/grpc_controller.grpc.pb.h"

namespace nsxalb::host {
namespace {

// How long gRPC's server teardown may take before the process exits without it.
constexpr auto kTeardownBudget = std::chrono::milliseconds(50);

// Write end of the self-pipe that wakes Serve's main thread (signal handler, Shutdown RPC).
int g_wake_fd = -1;

void Wake() {
  if (g_wake_fd < 0) return;
  const char byte = 'w';
  // Async-signal-safe; a full pipe already means "wake up".
  [[maybe_unused]] const ssize_t n = write(g_wake_fd, &byte, 1);
}

void OnStopSignal(int /*signal*/) { Wake(); }

bool WriteAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Startup failures are always printed, whatever TF_LOG says: Terraform shows the plugin's
// stderr when it exits before the handshake.
int Fail(const absl::Status& status) {
  WriteAll(STDERR_FILENO, absl::StrCat("[ERROR] nsxalb plugin: ", status.message(), "\n"));
  return 1;
}

// Completes one Shutdown call and wakes Serve once the reply has been sent (OnDone runs after
// the call's last operation), so stopping the server cannot cut the reply off.
class ShutdownReactor final : public grpc::ServerUnaryReactor {
 public:
  ShutdownReactor() { Finish(grpc::Status::OK); }
  void OnDone() override {
    Wake();
    delete this;
  }
};

// go-plugin's controller: Terraform calls Shutdown when it closes a provider instance, then
// closes its connection and kills the process if it has not exited within 2 s.
class Controller final : public plugin::GRPCController::CallbackService {
 public:
  grpc::ServerUnaryReactor* Shutdown(grpc::CallbackServerContext* /*context*/,
                                     const plugin::Empty* /*request*/,
                                     plugin::Empty* /*response*/) override {
    log::Debug("nsxalb plugin: Shutdown requested by the client");
    return new ShutdownReactor();
  }
};

// Signal dispositions installed by Serve and put back when it returns.
class SignalSetup {
 public:
  explicit SignalSetup(bool debug) {
    struct sigaction stop = {};
    stop.sa_handler = OnStopSignal;
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = SA_RESTART;
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGTERM, &stop, &old_term_);
    // Ctrl-C reaches the whole process group; Terraform answers it with the Stop RPC, so a
    // managed plugin must survive it. In debug mode the user runs the plugin and stops it so.
    sigaction(SIGINT, debug ? &stop : &ignore, &old_int_);
    sigaction(SIGPIPE, &ignore, &old_pipe_);
  }
  ~SignalSetup() {
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGPIPE, &old_pipe_, nullptr);
  }
  SignalSetup(const SignalSetup&) = delete;
  SignalSetup& operator=(const SignalSetup&) = delete;

 private:
  struct sigaction old_term_ = {};
  struct sigaction old_int_ = {};
  struct sigaction old_pipe_ = {};
};

// The self-pipe, published through g_wake_fd while it exists.
class WakePipe {
 public:
  WakePipe() {
    if (pipe2(fds_, O_CLOEXEC | O_NONBLOCK) == 0) {
      g_wake_fd = fds_[1];
    } else {
      fds_[0] = fds_[1] = -1;
    }
  }
  ~WakePipe() {
    g_wake_fd = -1;
    if (fds_[0] >= 0) close(fds_[0]);
    if (fds_[1] >= 0) close(fds_[1]);
  }
  WakePipe(const WakePipe&) = delete;
  WakePipe& operator=(const WakePipe&) = delete;

  bool ok() const { return fds_[0] >= 0; }

  // Blocks until Wake() is called.
  void Wait() const {
    pollfd p = {fds_[0], POLLIN, 0};
    while (poll(&p, 1, -1) < 0 && errno == EINTR) {
    }
  }

 private:
  int fds_[2];
};

// Removes the socket directory when serving ends, however it ends.
class SocketDirCleanup {
 public:
  explicit SocketDirCleanup(SocketDir dir) : dir_(std::move(dir)) {}
  ~SocketDirCleanup() { RemoveSocketDir(dir_); }
  SocketDirCleanup(const SocketDirCleanup&) = delete;
  SocketDirCleanup& operator=(const SocketDirCleanup&) = delete;

 private:
  SocketDir dir_;
};

}  // namespace

int Serve(grpc::Service* provider_service, const HostOptions& options) {
  SignalSetup signals(options.debug);
  const Environment env =
      options.environment.has_value() ? *options.environment : ProcessEnvironment();

  HostConfig config;
  if (options.debug) {
    config.socket_parent_dir = SocketParentDir(env);
  } else {
    if (!HasMagicCookie(env)) {
      WriteAll(STDERR_FILENO, absl::StrCat(kNotAPluginMessage, "\n"));
      return 1;
    }
    absl::StatusOr<HostConfig> parsed = ParseHostEnvironment(env);
    if (!parsed.ok()) return Fail(parsed.status());
    config = *std::move(parsed);
  }

  std::shared_ptr<grpc::ServerCredentials> credentials;
  std::string cert_der;
  if (!config.client_cert_pem.empty()) {
    absl::StatusOr<std::string> client_der =
        CertificatePemToDer(config.client_cert_pem, "PLUGIN_CLIENT_CERT");
    if (!client_der.ok()) return Fail(client_der.status());
    absl::StatusOr<Certificate> cert = GenerateSelfSignedCertificate(CertificateOptions{});
    if (!cert.ok()) return Fail(cert.status());
    grpc::SslServerCredentialsOptions tls(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    tls.pem_root_certs = config.client_cert_pem;
    tls.pem_key_cert_pairs.push_back({cert->key_pem, cert->cert_pem});
    credentials = grpc::SslServerCredentials(tls);
    cert_der = std::move(cert->cert_der);
  } else {
    credentials = grpc::InsecureServerCredentials();
  }

  absl::StatusOr<SocketDir> socket_dir = CreateSocketDir(config.socket_parent_dir);
  if (!socket_dir.ok()) return Fail(socket_dir.status());
  const std::string socket_path = socket_dir->socket_path;
  SocketDirCleanup cleanup(*socket_dir);

  WakePipe wake;
  if (!wake.ok()) return Fail(absl::InternalError("cannot create the shutdown pipe"));

  Controller controller;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat("unix:", socket_path), credentials);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  builder.RegisterService(provider_service);
  builder.RegisterService(&controller);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) {
    return Fail(
        absl::UnavailableError(absl::StrCat("cannot listen on unix socket \"", socket_path, "\"")));
  }
  server->GetHealthCheckService()->SetServingStatus("plugin", true);
  log::Debug(absl::StrCat("nsxalb plugin: serving plugin protocol ", config.protocol_version,
                          " on unix:", socket_path,
                          cert_der.empty() ? " in plaintext" : " with mutual TLS"));

  if (options.debug) {
    const std::string reattach =
        FormatReattachProviders(options.provider_address, config.protocol_version,
                                static_cast<int>(getpid()), "unix", socket_path);
    WriteAll(STDOUT_FILENO,
             absl::StrCat("Provider started in debug mode. To attach Terraform, set this in the "
                          "environment of the shell that runs it:\n\n\tTF_REATTACH_PROVIDERS='",
                          reattach, "'\n\nStop the provider with Ctrl-C (or SIGTERM).\n"));
  } else {
    const bool written = WriteAll(
        STDOUT_FILENO, FormatHandshakeLine(config.protocol_version, "unix", socket_path, cert_der));
    // From here on stdout belongs to nobody: stray prints from any library land in stderr,
    // which Terraform logs, instead of corrupting the plugin protocol.
    dup2(STDERR_FILENO, STDOUT_FILENO);
    if (!written) {
      server->Shutdown(std::chrono::system_clock::now());
      return Fail(absl::UnavailableError("cannot write the handshake line to stdout"));
    }
  }

  wake.Wait();
  log::Debug("nsxalb plugin: shutting down");
  server->GetHealthCheckService()->SetServingStatus("plugin", false);
  // Like go-plugin's server (grpc-go Server.Stop), stop at once: cancel whatever is still in
  // flight and drop the connections. gRPC's own teardown can still take a few hundred
  // milliseconds (its sync-server pollers wake up on a timer), so it gets a short budget; past
  // that the process exits without it, as Terraform expects a prompt exit after Shutdown.
  std::promise<void> stopped;
  std::future<void> stopped_future = stopped.get_future();
  std::thread teardown([&server, &stopped] {
    server->Shutdown(std::chrono::system_clock::now());
    stopped.set_value();
  });
  if (stopped_future.wait_for(kTeardownBudget) != std::future_status::ready) {
    log::Debug("nsxalb plugin: gRPC teardown is slow; exiting without waiting for it");
    RemoveSocketDir(*socket_dir);
    _exit(0);
  }
  teardown.join();
  // The server is stopped and no handler runs any more. Destroying it would close the
  // connections gracefully, which can take another few hundred milliseconds; the process is
  // about to exit, so the object is deliberately left alive. Parking it in a global keeps it
  // reachable, which is what it is: not a leak (LeakSanitizer agrees).
  [[maybe_unused]] static grpc::Server* volatile stopped_server = nullptr;
  stopped_server = server.release();
  return 0;
}

}  // namespace nsxalb::host
