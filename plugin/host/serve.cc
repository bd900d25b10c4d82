// The plugin host's serve loop (see serve.h).
#include "plugin/host/serve.h"

#include <fcntl.h>
#include <grpc/support/log.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/server_builder.h>
#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
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

// gRPC's log, routed through log.h so that Terraform sees its levels ("[ERROR] grpc: ...").
// It also collects the errors gRPC logs while the server is built: gRPC reports a server whose
// TLS credentials cannot become a TLS context (an unusable OpenSSL configuration, say) only in
// its log, starts anyway and then drops every connection; Serve fails loudly instead.
class GrpcLog {
 public:
  static void Install() { gpr_set_log_function(&GrpcLog::Write); }

  // Starts collecting errors.
  static void Collect() {
    absl::MutexLock lock(&mu_);
    collecting_ = true;
    errors_.clear();
  }

  // Stops collecting; returns the errors logged since Collect, "; "-separated.
  static std::string TakeErrors() {
    absl::MutexLock lock(&mu_);
    collecting_ = false;
    return std::move(errors_);
  }

 private:
  static void Write(gpr_log_func_args* args) {
    const log::Level level = args->severity == GPR_LOG_SEVERITY_ERROR  ? log::Level::kError
                             : args->severity == GPR_LOG_SEVERITY_INFO ? log::Level::kInfo
                                                                       : log::Level::kDebug;
    log::Write(level, absl::StrCat("grpc: ", args->message));
    if (args->severity != GPR_LOG_SEVERITY_ERROR) return;
    absl::MutexLock lock(&mu_);
    if (collecting_) absl::StrAppend(&errors_, errors_.empty() ? "" : "; ", args->message);
  }

  static inline absl::Mutex mu_;
  static inline bool collecting_ ABSL_GUARDED_BY(mu_) = false;
  static inline std::string errors_ ABSL_GUARDED_BY(mu_);
};

// OpenSSL reads its configuration file (OPENSSL_CONF, else openssl.cnf in its directory) on
// first use, ~1.8 M instructions. Nothing before the handshake line needs it (the certificate
// is plain elliptic-curve arithmetic, cert.cc), so the constructor turns the automatic load off
// and Load() reads the file explicitly, with the flags of the automatic load, after the line and
// before gRPC builds its TLS context. An administrator's configuration (providers, FIPS,
// system-wide TLS settings) still applies to every TLS connection this process serves. The
// Controller client is unaffected either way: libcurl brings its own shared OpenSSL.
//
// The constructor also turns off OpenSSL's exit handler (OPENSSL_INIT_NO_ATEXIT). Serve returns
// while gRPC's executor threads may still be ending; OpenSSL 3.0's handler frees every thread's
// thread-local block from the main thread, and a thread that ends at the same moment frees its
// own again (a double free AddressSanitizer caught in CI). The kernel reclaims the memory anyway.
class OpenSslConfig {
 public:
  OpenSslConfig() {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ATEXIT, nullptr);
  }
  void Load() {
    CONF_modules_load_file(nullptr, nullptr,
                           CONF_MFLAGS_DEFAULT_SECTION | CONF_MFLAGS_IGNORE_MISSING_FILE |
                               CONF_MFLAGS_IGNORE_RETURN_CODES);
  }
};

// Accepts connections on the socket Serve listens on before its handshake line, and hands each
// to gRPC, which runs the TLS handshake and HTTP/2 on it. This is what lets the line go out
// before gRPC has built its server: a client that connects early waits in the kernel's backlog.
class ConnectionAcceptor {
 public:
  explicit ConnectionAcceptor(int listen_fd) : listen_fd_(listen_fd) {}
  ~ConnectionAcceptor() {
    Stop();
    close(listen_fd_);
  }
  ConnectionAcceptor(const ConnectionAcceptor&) = delete;
  ConnectionAcceptor& operator=(const ConnectionAcceptor&) = delete;

  // Starts accepting, on a thread of its own, for `server` (started, and alive until Stop).
  void Start(grpc::experimental::ExternalConnectionAcceptor* server) {
    thread_ = std::thread([this, server] { Run(server); });
  }

  // Stops accepting; connections already handed over stay with gRPC. Idempotent.
  void Stop() {
    if (!thread_.joinable()) return;
    stopping_ = true;
    shutdown(listen_fd_, SHUT_RDWR);  // wakes the blocked accept4 (EINVAL)
    thread_.join();
  }

 private:
  void Run(grpc::experimental::ExternalConnectionAcceptor* server) {
    while (!stopping_) {
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd >= 0) {
        grpc::experimental::ExternalConnectionAcceptor::NewConnectionParameters connection;
        connection.listener_fd = listen_fd_;
        connection.fd = fd;  // owned by gRPC from here on
        server->HandleNewConnection(&connection);
        continue;
      }
      const int error = errno;
      if (stopping_ || error == EINVAL || error == EBADF) return;
      if (error == EINTR || error == ECONNABORTED) continue;
      // Out of descriptors or memory: say so, and retry shortly rather than spin.
      log::Warn(absl::StrCat("nsxalb plugin: accept failed: ", std::strerror(error)));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  const int listen_fd_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace

int Serve(const ServiceFactory& make_provider_service, const HostOptions& options) {
  SignalSetup signals(options.debug);
  GrpcLog::Install();
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

  // Up to the handshake line only what the line needs: the certificate (a fresh key, one
  // signature) and a listening socket. OpenSSL's configuration file is read after the line,
  // before gRPC builds its TLS context from it (see OpenSslConfig).
  OpenSslConfig openssl_config;
  std::optional<Certificate> cert;
  if (!config.client_cert_pem.empty()) {
    absl::StatusOr<std::string> client_der =
        CertificatePemToDer(config.client_cert_pem, "PLUGIN_CLIENT_CERT");
    if (!client_der.ok()) return Fail(client_der.status());
    absl::StatusOr<Certificate> generated = GenerateSelfSignedCertificate(CertificateOptions{});
    if (!generated.ok()) return Fail(generated.status());
    cert = *std::move(generated);
  }

  absl::StatusOr<SocketDir> socket_dir = CreateSocketDir(config.socket_parent_dir);
  if (!socket_dir.ok()) return Fail(socket_dir.status());
  const std::string socket_path = socket_dir->socket_path;
  SocketDirCleanup cleanup(*socket_dir);
  absl::StatusOr<int> listen_fd = ListenOnSocket(*socket_dir);
  if (!listen_fd.ok()) return Fail(listen_fd.status());
  ConnectionAcceptor acceptor(*listen_fd);

  WakePipe wake;
  if (!wake.ok()) return Fail(absl::InternalError("cannot create the shutdown pipe"));

  // The socket already takes connections (the kernel queues them), so the line can go out now;
  // Terraform's TLS handshake waits in the backlog until the server below accepts it.
  if (options.debug) {
    const std::string reattach =
        FormatReattachProviders(options.provider_address, config.protocol_version,
                                static_cast<int>(getpid()), "unix", socket_path);
    WriteAll(STDOUT_FILENO,
             absl::StrCat("Provider started in debug mode. To attach Terraform, set this in the "
                          "environment of the shell that runs it:\n\n\tTF_REATTACH_PROVIDERS='",
                          reattach, "'\n\nStop the provider with Ctrl-C (or SIGTERM).\n"));
  } else {
    const bool written =
        WriteAll(STDOUT_FILENO, FormatHandshakeLine(config.protocol_version, "unix", socket_path,
                                                    cert.has_value() ? cert->cert_der : ""));
    // From here on stdout belongs to nobody: stray prints from any library land in stderr,
    // which Terraform logs, instead of corrupting the plugin protocol.
    dup2(STDERR_FILENO, STDOUT_FILENO);
    if (!written) return Fail(absl::UnavailableError("cannot write the handshake line to stdout"));
  }

  std::shared_ptr<grpc::ServerCredentials> credentials;
  if (cert.has_value()) {
    openssl_config.Load();
    grpc::SslServerCredentialsOptions tls(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    tls.pem_root_certs = config.client_cert_pem;
    tls.pem_key_cert_pairs.push_back({cert->key_pem, cert->cert_pem});
    credentials = grpc::SslServerCredentials(tls);
  } else {
    credentials = grpc::InsecureServerCredentials();
  }
  const std::shared_ptr<grpc::Service> provider_service = make_provider_service();
  Controller controller;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> connections =
      builder.experimental().AddExternalConnectionAcceptor(
          grpc::ServerBuilder::experimental_type::ExternalConnectionType::FROM_FD, credentials);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  builder.RegisterService(provider_service.get());
  builder.RegisterService(&controller);
  GrpcLog::Collect();
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  const std::string build_errors = GrpcLog::TakeErrors();
  if (server == nullptr || !build_errors.empty()) {
    if (server != nullptr) server->Shutdown(std::chrono::system_clock::now());
    return Fail(absl::UnavailableError(
        absl::StrCat("cannot serve on unix socket \"", socket_path, "\"",
                     build_errors.empty() ? "" : absl::StrCat(": ", build_errors))));
  }
  server->GetHealthCheckService()->SetServingStatus("plugin", true);
  acceptor.Start(connections.get());
  log::Debug(absl::StrCat("nsxalb plugin: serving plugin protocol ", config.protocol_version,
                          " on unix:", socket_path,
                          cert.has_value() ? " with mutual TLS" : " in plaintext"));

  wake.Wait();
  log::Debug("nsxalb plugin: shutting down");
  acceptor.Stop();
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

int Serve(grpc::Service* provider_service, const HostOptions& options) {
  // Borrowed: the caller owns the service, so the pointer handed over deletes nothing.
  return Serve(
      [provider_service] {
        return std::shared_ptr<grpc::Service>(provider_service, [](grpc::Service*) {});
      },
      options);
}

}  // namespace nsxalb::host
