// Launching a plugin like Terraform's go-plugin client (see plugin_process.h).
#include "tests/harness/plugin_process.h"

#include <fcntl.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "plugin/common/status_macros.h"
#include "plugin/host/cert.h"
#include "proto/grpc_controller.grpc.pb.h"

extern char** environ;

namespace nsxalb::harness {
namespace {

using Clock = std::chrono::steady_clock;

absl::Duration ToDuration(Clock::duration d) { return absl::FromChrono(d); }

// go-plugin's client only decodes a certificate field longer than this.
constexpr size_t kMinCertFieldLength = 50;

// Terraform's per-call receive limit for GetSchema, used for every call here.
constexpr int kMaxReceiveBytes = 64 << 20;

std::string Tail(const std::string& text, size_t max = 4000) {
  return text.size() <= max ? text : absl::StrCat("...", text.substr(text.size() - max));
}

int PollTimeoutMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1000));
}

}  // namespace

absl::StatusOr<Handshake> ParseHandshakeLine(absl::string_view line,
                                             const std::vector<int>& offered_versions) {
  const std::string trimmed(absl::StripAsciiWhitespace(line));
  const std::vector<std::string> parts = absl::StrSplit(trimmed, '|');
  if (parts.size() < 4) {
    return absl::InvalidArgumentError(absl::StrCat("Unrecognized remote plugin message: ", trimmed,
                                                   " (fewer than 4 '|'-separated fields)"));
  }
  if (parts.size() < 5) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unsupported plugin protocol: no protocol field, which go-plugin reads as netrpc: ",
        trimmed));
  }
  if (parts.size() > 6) {
    return absl::InvalidArgumentError(
        absl::StrCat("handshake line has ", parts.size(),
                     " fields; go-plugin v1.3 splits into 6 and would glue the rest onto the "
                     "certificate: ",
                     trimmed));
  }
  Handshake out;
  if (!absl::SimpleAtoi(parts[0], &out.core_version) || out.core_version != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Incompatible core API version with plugin: \"", parts[0], "\" (want 1)"));
  }
  if (!absl::SimpleAtoi(parts[1], &out.protocol_version) ||
      std::find(offered_versions.begin(), offered_versions.end(), out.protocol_version) ==
          offered_versions.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Incompatible API version with plugin. Plugin version: ", parts[1],
                     ", Client versions: [", absl::StrJoin(offered_versions, " "), "]"));
  }
  out.network = parts[2];
  out.address = parts[3];
  if (out.network == "unix") {
    if (out.address.empty() || out.address[0] != '/') {
      return absl::InvalidArgumentError(
          absl::StrCat("unix address \"", out.address, "\" is not an absolute socket path"));
    }
  } else if (out.network == "tcp") {
    if (out.address.find(':') == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("tcp address \"", out.address, "\" is not host:port"));
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat("Unknown address type: ", out.network));
  }
  out.protocol = parts[4];
  if (out.protocol != "grpc") {
    return absl::InvalidArgumentError(
        absl::StrCat("Unsupported plugin protocol \"", out.protocol, "\". Supported: [grpc]"));
  }
  if (parts.size() == 6 && !parts[5].empty()) {
    const std::string& field = parts[5];
    if (field.size() <= kMinCertFieldLength) {
      return absl::InvalidArgumentError(
          absl::StrCat("certificate field \"", field,
                       "\" is too short to be a certificate; go-plugin would "
                       "ignore it and fail TLS"));
    }
    if (field.find('=') != std::string::npos) {
      return absl::InvalidArgumentError(
          "certificate field has '=' padding; go-plugin decodes it with base64.RawStdEncoding, "
          "which rejects padding");
    }
    for (char c : field) {
      if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/') {
        return absl::InvalidArgumentError(
            absl::StrCat("certificate field has a character outside standard base64: '",
                         std::string(1, c), "'"));
      }
    }
    if (field.size() % 4 == 1 || !absl::Base64Unescape(field, &out.cert_der)) {
      return absl::InvalidArgumentError("certificate field is not valid base64");
    }
    if (!host::CertificateDerToPem(out.cert_der).ok()) {
      return absl::InvalidArgumentError("certificate field does not decode to a DER certificate");
    }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<PluginProcess>> PluginProcess::Start(
    const PluginProcessOptions& options) {
  std::unique_ptr<PluginProcess> process(new PluginProcess());
  if (absl::Status s = process->Spawn(options); !s.ok()) return s;
  if (!options.expect_handshake) return process;
  if (absl::Status s = process->AwaitHandshake(options); !s.ok()) {
    process->Signal(SIGKILL);
    (void)process->Wait(absl::Seconds(5));
    return absl::Status(s.code(),
                        absl::StrCat(s.message(), "\nplugin stderr:\n", Tail(process->Stderr())));
  }
  return process;
}

absl::Status PluginProcess::Spawn(const PluginProcessOptions& options) {
  // Environment: the parent's, minus go-plugin's variables, then the client's settings.
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string item(*entry);
    const size_t eq = item.find('=');
    if (eq != std::string::npos) env[item.substr(0, eq)] = item.substr(eq + 1);
  }
  for (const char* key : {kMagicCookieKey, "PLUGIN_PROTOCOL_VERSIONS", "PLUGIN_CLIENT_CERT",
                          "PLUGIN_MIN_PORT", "PLUGIN_MAX_PORT", "PLUGIN_UNIX_SOCKET_DIR"}) {
    env.erase(key);
  }
  for (const std::string& key : options.unset_env) env.erase(key);
  if (options.magic_cookie) env[kMagicCookieKey] = kMagicCookieValue;
  env["PLUGIN_PROTOCOL_VERSIONS"] = options.protocol_versions;
  env["PLUGIN_MIN_PORT"] = "10000";
  env["PLUGIN_MAX_PORT"] = "25000";
  if (options.auto_mtls) {
    host::CertificateOptions cert_options;
    cert_options.curve = host::KeyCurve::kP521;
    cert_options.organization = "HashiCorp";
    NSXALB_ASSIGN_OR_RETURN(host::Certificate cert,
                            host::GenerateSelfSignedCertificate(cert_options));
    client_cert_pem_ = cert.cert_pem;
    presented_cert_pem_ = cert.cert_pem;
    presented_key_pem_ = cert.key_pem;
    env["PLUGIN_CLIENT_CERT"] = client_cert_pem_;
    if (options.present_other_client_cert) {
      NSXALB_ASSIGN_OR_RETURN(host::Certificate other,
                              host::GenerateSelfSignedCertificate(cert_options));
      presented_cert_pem_ = other.cert_pem;
      presented_key_pem_ = other.key_pem;
    }
  }
  for (const auto& [key, value] : options.env) env[key] = value;

  std::vector<std::string> env_strings;
  for (const auto& [key, value] : env) env_strings.push_back(absl::StrCat(key, "=", value));
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings = {options.binary};
  arg_strings.insert(arg_strings.end(), options.args.begin(), options.args.end());
  std::vector<char*> argv;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe2 failed");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return absl::InternalError("pipe2 failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child starts with default signal dispositions and an empty mask, whatever the test
  // runner set.
  sigset_t all_signals;
  sigset_t no_signals;
  sigfillset(&all_signals);
  sigemptyset(&no_signals);
  posix_spawnattr_setsigdefault(&attr, &all_signals);
  posix_spawnattr_setsigmask(&attr, &no_signals);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  spawned_at_ = Clock::now();
  const int rc =
      posix_spawn(&pid_, options.binary.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    pid_ = -1;
    return absl::NotFoundError(
        absl::StrCat("cannot start plugin \"", options.binary, "\": ", std::strerror(rc)));
  }
  stdout_fd_ = out_pipe[0];
  stderr_fd_ = err_pipe[0];
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  reader_ = std::thread([this] { ReadOutput(); });
  return absl::OkStatus();
}

void PluginProcess::ReadOutput() {
  char buffer[16384];
  for (;;) {
    pollfd fds[2];
    int count = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_reader_) break;
      if (!stdout_closed_) fds[count++] = {stdout_fd_, POLLIN, 0};
      if (!stderr_closed_) fds[count++] = {stderr_fd_, POLLIN, 0};
    }
    if (count == 0) break;
    const int ready = poll(fds, count, 50);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < count && ready > 0; ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      const auto now = Clock::now();
      std::lock_guard<std::mutex> lock(mu_);
      const bool is_stdout = fds[i].fd == stdout_fd_;
      if (n <= 0) {
        (is_stdout ? stdout_closed_ : stderr_closed_) = true;
      } else if (is_stdout) {
        stdout_.append(buffer, static_cast<size_t>(n));
        if (!first_line_seen_ && stdout_.find('\n') != std::string::npos) {
          first_line_seen_ = true;
          first_line_at_ = now;
        }
      } else {
        stderr_.append(buffer, static_cast<size_t>(n));
      }
      cv_.notify_all();
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  stdout_closed_ = stderr_closed_ = true;
  cv_.notify_all();
}

absl::Status PluginProcess::AwaitHandshake(const PluginProcessOptions& options) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    const bool got = cv_.wait_for(lock, absl::ToChronoMilliseconds(options.start_timeout),
                                  [this] { return first_line_seen_ || stdout_closed_; });
    if (!got) {
      return absl::DeadlineExceededError("timeout while waiting for plugin to start");
    }
    if (!first_line_seen_) {
      return absl::UnavailableError(absl::StrCat(
          "plugin exited before we could connect (stdout closed without a handshake line",
          stdout_.empty() ? "" : absl::StrCat("; stdout: ", Tail(stdout_)), ")"));
    }
    handshake_line_ = stdout_.substr(0, stdout_.find('\n'));
    time_to_handshake_ = ToDuration(first_line_at_ - spawned_at_);
  }

  std::vector<int> offered;
  for (absl::string_view part : absl::StrSplit(options.protocol_versions, ',')) {
    int version = 0;
    if (absl::SimpleAtoi(part, &version)) offered.push_back(version);
  }
  NSXALB_ASSIGN_OR_RETURN(handshake_, ParseHandshakeLine(handshake_line_, offered));

  const std::string target =
      handshake_.network == "unix" ? absl::StrCat("unix:", handshake_.address) : handshake_.address;
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxReceiveBytes);
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.auto_mtls) {
    if (handshake_.cert_der.empty()) {
      return absl::FailedPreconditionError(
          "AutoMTLS is on (PLUGIN_CLIENT_CERT set) but the handshake line has no server "
          "certificate");
    }
    NSXALB_ASSIGN_OR_RETURN(std::string server_pem, host::CertificateDerToPem(handshake_.cert_der));
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = server_pem;
    tls.pem_private_key = presented_key_pem_;
    tls.pem_cert_chain = presented_cert_pem_;
    credentials = grpc::SslCredentials(tls);
    args.SetSslTargetNameOverride("localhost");
  } else {
    if (!handshake_.cert_der.empty()) {
      return absl::FailedPreconditionError(
          "AutoMTLS is off (no PLUGIN_CLIENT_CERT) but the handshake line carries a certificate");
    }
    credentials = grpc::InsecureChannelCredentials();
  }
  channel_ = grpc::CreateCustomChannel(target, credentials, args);
  return absl::OkStatus();
}

PluginProcess::~PluginProcess() {
  if (pid_ > 0 && !Reap()) {
    kill(pid_, SIGKILL);
    (void)Wait(absl::Seconds(5));
  }
  // A provider that was killed (or broke its Shutdown) cannot remove its socket; clean up after
  // it so that test runs leave nothing behind. rmdir only removes the directory when it is empty.
  if (handshake_.network == "unix" && !handshake_.address.empty()) {
    unlink(handshake_.address.c_str());
    const size_t slash = handshake_.address.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      rmdir(handshake_.address.substr(0, slash).c_str());
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_reader_ = true;
  }
  if (reader_.joinable()) reader_.join();
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (stderr_fd_ >= 0) close(stderr_fd_);
  if (pidfd_ >= 0) close(pidfd_);
}

std::string PluginProcess::Stdout() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stdout_;
}

std::string PluginProcess::StdoutAfterHandshake() const {
  std::lock_guard<std::mutex> lock(mu_);
  const size_t newline = stdout_.find('\n');
  return newline == std::string::npos ? std::string() : stdout_.substr(newline + 1);
}

std::string PluginProcess::Stderr() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stderr_;
}

absl::StatusOr<std::string> PluginProcess::WaitForStdout(absl::string_view needle,
                                                         absl::Duration timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  const std::string wanted(needle);
  cv_.wait_for(lock, absl::ToChronoMilliseconds(timeout),
               [&] { return stdout_.find(wanted) != std::string::npos || stdout_closed_; });
  if (stdout_.find(wanted) != std::string::npos) return stdout_;
  if (stdout_closed_) {
    return absl::UnavailableError(
        absl::StrCat("stdout closed without \"", wanted, "\"; stdout: ", Tail(stdout_)));
  }
  return absl::DeadlineExceededError(
      absl::StrCat("no \"", wanted, "\" on stdout in time; stdout: ", Tail(stdout_)));
}

bool PluginProcess::Reap() {
  if (reaped_) return true;
  if (pid_ <= 0) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r != pid_) return false;
  reaped_ = true;
  exited_at_ = Clock::now();
  exit_code_ =
      WIFEXITED(status) ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1);
  return true;
}

absl::StatusOr<int> PluginProcess::Wait(absl::Duration timeout) {
  const auto deadline = Clock::now() + absl::ToChronoMilliseconds(timeout);
  while (!Reap()) {
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat(
          "plugin (pid ", pid_, ") still running after ", absl::FormatDuration(timeout)));
    }
    if (pidfd_ >= 0) {
      pollfd p = {pidfd_, POLLIN, 0};
      poll(&p, 1, PollTimeoutMs(deadline));
    } else {
      usleep(1000);
    }
  }
  // The pipes close when the process is gone (unless it left children holding them).
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_until(lock, std::max(deadline, Clock::now() + std::chrono::seconds(1)),
                 [this] { return stdout_closed_ && stderr_closed_; });
  return exit_code_;
}

bool PluginProcess::Running() { return pid_ > 0 && !Reap(); }

void PluginProcess::Signal(int signal) {
  if (Running()) kill(pid_, signal);
}

absl::StatusOr<absl::Duration> PluginProcess::Shutdown(absl::Duration timeout) {
  if (channel_ == nullptr) return absl::FailedPreconditionError("no channel to the plugin");
  auto stub = plugin::GRPCController::NewStub(channel_);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(timeout));
  plugin::Empty request;
  plugin::Empty response;
  const grpc::Status status = stub->Shutdown(&context, request, &response);
  const auto replied_at = Clock::now();
  if (!status.ok()) {
    return absl::UnavailableError(
        absl::StrCat("plugin.GRPCController/Shutdown failed: ", status.error_message()));
  }
  NSXALB_ASSIGN_OR_RETURN(int code, Wait(timeout));
  const absl::Duration took = ToDuration(exited_at_ - replied_at);
  if (code != 0) {
    return absl::InternalError(absl::StrCat("plugin exited with code ", code,
                                            " after Shutdown; stderr: ", Tail(Stderr())));
  }
  return took;
}

}  // namespace nsxalb::harness
