// Starts a provider plugin binary exactly as Terraform does, for tests and benchmarks.
//
// PluginProcess::Start builds go-plugin's client environment (the parent environment plus
// TF_PLUGIN_MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS, PLUGIN_MIN_PORT/PLUGIN_MAX_PORT and, with
// AutoMTLS, a per-run client certificate in PLUGIN_CLIENT_CERT: ECDSA P-521, self-signed, CN and
// SAN localhost, CA:TRUE, EKU client+server), spawns the binary with stdin on /dev/null, reads the
// handshake line and checks it as strictly as go-plugin does (ParseHandshakeLine), then opens a
// gRPC channel over mutual TLS on the plugin's unix socket, trusting only the certificate from the
// handshake and checking the name "localhost". Everything the plugin writes to stdout after the
// handshake and to stderr is captured. Every wait is bounded; the destructor kills a plugin that
// is still running.
#ifndef NSXALB_TESTS_HARNESS_PLUGIN_PROCESS_H_
#define NSXALB_TESTS_HARNESS_PLUGIN_PROCESS_H_

#include <grpcpp/channel.h>
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nsxalb::harness {

// Terraform's magic cookie (key and value).
inline constexpr char kMagicCookieKey[] = "TF_PLUGIN_MAGIC_COOKIE";
inline constexpr char kMagicCookieValue[] =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

// A handshake line, parsed.
struct Handshake {
  int core_version = 0;      // field 1, always 1
  int protocol_version = 0;  // field 2, one of the offered versions
  std::string network;       // field 3, "unix" or "tcp"
  std::string address;       // field 4, socket path or host:port
  std::string protocol;      // field 5, "grpc"
  std::string cert_der;      // field 6 decoded; empty when the field is empty (plaintext)
};

// Parses a handshake line the way go-plugin's client does, but strictly: surrounding whitespace
// is trimmed; there must be 5 or 6 '|'-separated fields (a 7th would corrupt the certificate for
// go-plugin v1.3); core version 1; the protocol version among `offered_versions`; network unix
// (an absolute path) or tcp; protocol "grpc"; a certificate field, when longer than 50
// characters, is unpadded standard base64 of a DER X.509 certificate. Any other non-empty
// certificate field is an error too. Errors quote go-plugin's wording where it has one.
absl::StatusOr<Handshake> ParseHandshakeLine(absl::string_view line,
                                             const std::vector<int>& offered_versions);

// How to start a plugin.
struct PluginProcessOptions {
  // Path of the plugin binary.
  std::string binary;
  // Arguments after the program name (Terraform passes none).
  std::vector<std::string> args;
  // PLUGIN_PROTOCOL_VERSIONS ("5" for Terraform v0.13, "5,6" for current Terraform).
  std::string protocol_versions = "5,6";
  // Set TF_PLUGIN_MAGIC_COOKIE (Terraform always does).
  bool magic_cookie = true;
  // AutoMTLS: set PLUGIN_CLIENT_CERT and connect with TLS. False is TF_DISABLE_PLUGIN_TLS mode.
  bool auto_mtls = true;
  // Connect presenting a different (freshly generated) certificate than PLUGIN_CLIENT_CERT,
  // which the plugin must refuse.
  bool present_other_client_cert = false;
  // Variables set (or overriding) in the child's environment after the ones above.
  std::map<std::string, std::string> env;
  // Variables removed from the inherited environment.
  std::vector<std::string> unset_env;
  // Wait for and check the handshake line, then open the channel. False only spawns (for tests
  // of failing starts and of --debug); use WaitForStdout/Wait then.
  bool expect_handshake = true;
  // Upper bound for the handshake (Terraform waits one minute).
  absl::Duration start_timeout = absl::Seconds(20);
};

// A running (or exited) plugin process. Not copyable. Methods may be called from one thread.
class PluginProcess {
 public:
  // Spawns the plugin. With expect_handshake, also waits for the handshake line, parses it with
  // ParseHandshakeLine and creates the channel; if anything fails the process is killed and the
  // error includes what the plugin wrote to stderr.
  static absl::StatusOr<std::unique_ptr<PluginProcess>> Start(const PluginProcessOptions& options);

  // Kills the process (SIGKILL) if it is still running and reaps it.
  ~PluginProcess();

  PluginProcess(const PluginProcess&) = delete;
  PluginProcess& operator=(const PluginProcess&) = delete;

  // The child's process id.
  pid_t pid() const { return pid_; }
  // The parsed handshake (expect_handshake only).
  const Handshake& handshake() const { return handshake_; }
  // The raw handshake line without its newline (expect_handshake only).
  const std::string& handshake_line() const { return handshake_line_; }
  // A channel to the plugin over mutual TLS (or plaintext); expect_handshake only.
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }
  // PEM of the certificate put in PLUGIN_CLIENT_CERT (empty without AutoMTLS).
  const std::string& client_cert_pem() const { return client_cert_pem_; }
  // Time from just before spawning to reading the complete handshake line.
  absl::Duration time_to_handshake() const { return time_to_handshake_; }

  // Everything the plugin wrote to stdout so far, and what followed the handshake line.
  std::string Stdout() const;
  std::string StdoutAfterHandshake() const;
  // Everything the plugin wrote to stderr so far.
  std::string Stderr() const;

  // Waits until stdout contains `needle` and returns all stdout so far; kDeadlineExceeded (with
  // the output so far) after `timeout`, kUnavailable if stdout closes first.
  absl::StatusOr<std::string> WaitForStdout(absl::string_view needle, absl::Duration timeout);

  // Waits for the process to exit and its output pipes to close. Returns the exit code, or 128
  // plus the signal number when a signal ended it; kDeadlineExceeded when still running.
  absl::StatusOr<int> Wait(absl::Duration timeout);

  // True while the process has not exited.
  bool Running();

  // Sends `signal` to the process.
  void Signal(int signal);

  // Calls plugin.GRPCController/Shutdown (deadline `timeout`), then waits up to `timeout` for the
  // process to exit. Returns the time from receiving the reply to the process exit; an error if
  // the call fails, the process does not exit in time, or it exits with a non-zero code.
  absl::StatusOr<absl::Duration> Shutdown(absl::Duration timeout = absl::Seconds(5));

 private:
  PluginProcess() = default;
  absl::Status Spawn(const PluginProcessOptions& options);
  absl::Status AwaitHandshake(const PluginProcessOptions& options);
  void ReadOutput();
  // Reaps the child if it has exited (non-blocking); returns true once reaped.
  bool Reap();

  pid_t pid_ = -1;
  int pidfd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  bool reaped_ = false;
  int exit_code_ = -1;
  std::chrono::steady_clock::time_point spawned_at_;
  std::chrono::steady_clock::time_point exited_at_;

  std::string client_cert_pem_;
  std::string presented_cert_pem_;
  std::string presented_key_pem_;
  std::string handshake_line_;
  Handshake handshake_;
  std::shared_ptr<grpc::Channel> channel_;
  absl::Duration time_to_handshake_ = absl::ZeroDuration();

  // Filled by the reader thread.
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::string stdout_;
  std::string stderr_;
  bool stdout_closed_ = false;
  bool stderr_closed_ = false;
  bool first_line_seen_ = false;
  std::chrono::steady_clock::time_point first_line_at_;
  bool stop_reader_ = false;
  std::thread reader_;
};

}  // namespace nsxalb::harness

#endif  // NSXALB_TESTS_HARNESS_PLUGIN_PROCESS_H_
