// Implementation of the emulator launcher: posix_spawn, a bounded wait for the ready line, and a
// verified HTTPS client for the control endpoint.
#include "tests/support/emulator_process.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace nsxalb::testing {
namespace {

#ifndef NSXALB_EMULATOR_BINARY
#error "NSXALB_EMULATOR_BINARY must be defined by tests/support/CMakeLists.txt"
#endif

constexpr char kBinary[] = NSXALB_EMULATOR_BINARY;

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return absl::StrCat("was killed by signal ", WTERMSIG(status));
  return absl::StrCat("ended with wait status ", status);
}

// Waits up to `timeout_ms` for `pid` to end. Returns true and sets `status` when it did.
bool WaitBounded(pid_t pid, int timeout_ms, int* status) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // Not our child any more; nothing to wait for.
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<EmulatorProcess>> EmulatorProcess::Start(const Options& options) {
  if (access(kBinary, X_OK) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("emulator binary not found or not executable: ", kBinary));
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe2: ", std::strerror(errno)));
  }
  // --exit-with-parent: if this test process dies, the emulator stops instead of lingering.
  std::vector<std::string> args = {kBinary,
                                   "--port",
                                   "0",
                                   "--exit-with-parent",
                                   "--controller-version",
                                   options.controller_version};
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const auto started = std::chrono::steady_clock::now();
  pid_t pid = -1;
  int rc = posix_spawn(&pid, kBinary, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return absl::InternalError(absl::StrCat("posix_spawn ", kBinary, ": ", std::strerror(rc)));
  }

  std::unique_ptr<EmulatorProcess> proc(new EmulatorProcess());
  proc->pid_ = pid;
  proc->stdout_fd_ = fds[0];

  // Read until the first newline, bounded by the deadline.
  std::string line;
  const auto deadline = started + std::chrono::milliseconds(options.ready_timeout_ms);
  while (line.find('\n') == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      return absl::DeadlineExceededError(absl::StrCat(
          "emulator did not print its ready line within ", options.ready_timeout_ms, " ms"));
    }
    pollfd p{proc->stdout_fd_, POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    char buf[1024];
    ssize_t got = read(proc->stdout_fd_, buf, sizeof(buf));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      int status = 0;
      std::string how = "closed its stdout";
      if (WaitBounded(pid, 2000, &status)) {
        how = DescribeWaitStatus(status);
        proc->pid_ = -1;
      }
      return absl::UnavailableError(
          absl::StrCat("emulator ", how, " before printing its ready line (see its stderr)"));
    }
    line.append(buf, static_cast<size_t>(got));
  }
  proc->startup_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  line.resize(line.find('\n'));

  nlohmann::json ready = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!ready.is_object() || ready.value("event", "") != "ready" || !ready["url"].is_string() ||
      !ready["port"].is_number_integer() || !ready["ca_file"].is_string()) {
    return absl::InternalError(absl::StrCat("emulator printed an unexpected ready line: ", line));
  }
  proc->url_ = ready["url"].get<std::string>();
  proc->port_ = ready["port"].get<int>();
  proc->ca_file_ = ready["ca_file"].get<std::string>();
  // url is https://HOST:PORT or https://[HOST]:PORT.
  std::string rest = proc->url_.substr(std::strlen("https://"));
  if (absl::StartsWith(rest, "[")) {
    proc->host_ = rest.substr(1, rest.find(']') - 1);
  } else {
    proc->host_ = rest.substr(0, rest.rfind(':'));
  }
  return proc;
}

absl::Status EmulatorProcess::Stop() {
  absl::Status result;
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    if (!WaitBounded(pid_, 5000, &status)) {
      kill(pid_, SIGKILL);
      WaitBounded(pid_, 5000, &status);
      result = absl::DeadlineExceededError("emulator did not exit within 5 s of SIGTERM");
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      result = absl::InternalError(absl::StrCat("emulator ", DescribeWaitStatus(status)));
    }
    pid_ = -1;
  }
  if (stdout_fd_ >= 0) {
    close(stdout_fd_);
    stdout_fd_ = -1;
  }
  return result;
}

EmulatorProcess::~EmulatorProcess() { Stop().IgnoreError(); }

absl::StatusOr<nlohmann::json> EmulatorProcess::Control(const std::string& method,
                                                        const std::string& path,
                                                        const nlohmann::json& body) {
  if (method != "GET" && method != "POST" && method != "PUT" && method != "DELETE") {
    return absl::InvalidArgumentError(absl::StrCat("unsupported control method: ", method));
  }
  const std::string full = absl::StartsWith(path, "/") ? path : absl::StrCat("/_emulator/", path);
  const std::string url = absl::StrCat(url_, full);
  const std::string payload = body.is_null() ? std::string() : body.dump();
  std::string response;
  // libcurl rather than cpp-httplib: httplib 0.11's client over-reads IPv4 SAN entries when it
  // verifies an IPv6 host, which AddressSanitizer reports.
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return absl::InternalError("curl_easy_init failed");
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers_owner(headers, curl_slist_free_all);
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CAINFO, ca_file_.c_str());
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 15000L);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  if (method != "GET") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
  }
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &response);
  curl_easy_setopt(
      c, CURLOPT_WRITEFUNCTION, +[](char* data, size_t size, size_t n, void* out) -> size_t {
        static_cast<std::string*>(out)->append(data, size * n);
        return size * n;
      });
  CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    return absl::UnavailableError(
        absl::StrCat(method, " ", full, " failed: ", curl_easy_strerror(rc)));
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  nlohmann::json parsed;
  if (!response.empty()) {
    parsed = nlohmann::json::parse(response, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      return absl::InternalError(absl::StrCat(method, " ", full, ": response is not JSON"));
    }
  }
  if (status >= 400) {
    return absl::UnknownError(absl::StrCat(method, " ", full, " -> HTTP ", status, ": ", response));
  }
  return parsed;
}

}  // namespace nsxalb::testing
