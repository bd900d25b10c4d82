// Launches nsxalb-controller-emulator as a child process for tests and benchmarks.
//
// Start() runs the binary built by this tree (its path is compiled in) on a free loopback port,
// waits a bounded time for the emulator's one-line JSON "ready" message on stdout and returns a
// handle that knows the base URL, the port and the CA certificate file to verify it with. The
// destructor stops the process (SIGTERM, bounded wait, then SIGKILL); the emulator is started with
// --exit-with-parent, so it also stops if the test process dies. Call Start() from a thread that
// outlives the emulator (the main thread, or the thread that owns the handle). Control() talks to
// the emulator's /_emulator/ endpoints (counters, faults, state) over verified HTTPS.
#ifndef NSXALB_TESTS_SUPPORT_EMULATOR_PROCESS_H_
#define NSXALB_TESTS_SUPPORT_EMULATOR_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace nsxalb::testing {

// A running emulator child process. Not copyable; safe to call Control() from several threads.
class EmulatorProcess {
 public:
  // How to start the emulator.
  struct Options {
    // Passed as --controller-version.
    std::string controller_version = "22.1.3";
    // Appended to the command line after --port 0 and --controller-version, e.g.
    // {"--session-idle-timeout", "2"} or {"--state", path}.
    std::vector<std::string> extra_args;
    // How long to wait for the ready line before giving up (and killing the child).
    int ready_timeout_ms = 10000;
  };

  // Starts the emulator and waits for its ready line. Fails (never hangs) when the binary is
  // missing, exits early, prints something that is not the ready JSON, or times out.
  static absl::StatusOr<std::unique_ptr<EmulatorProcess>> Start(const Options& options);

  // Stops the process if it still runs: SIGTERM, wait up to 5 s, then SIGKILL.
  ~EmulatorProcess();

  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // Base URL from the ready line, e.g. "https://127.0.0.1:40123" (no trailing slash).
  const std::string& url() const { return url_; }
  // The TCP port the emulator listens on.
  int port() const { return port_; }
  // Absolute path of the emulator's self-signed certificate (PEM), usable as a CA file.
  const std::string& ca_file() const { return ca_file_; }
  // The host part of url() without brackets ("127.0.0.1" or "::1").
  const std::string& host() const { return host_; }
  // The child's process id (valid until Stop()).
  pid_t pid() const { return pid_; }
  // Milliseconds from spawning the process to reading its ready line.
  double startup_ms() const { return startup_ms_; }

  // Sends `method` (GET, POST, DELETE) to `path` on the control endpoint. `path` is either
  // absolute ("/_emulator/counters") or relative to /_emulator/ ("counters"). A non-null `body` is
  // sent as JSON. Returns the parsed JSON response (null for an empty body); an HTTP status >= 400
  // or a transport error is an error status.
  absl::StatusOr<nlohmann::json> Control(const std::string& method, const std::string& path,
                                         const nlohmann::json& body = nullptr);

  // Sends SIGTERM and waits (bounded) for a clean exit; returns an error if the process had to be
  // killed or exited with a non-zero status. Idempotent.
  absl::Status Stop();

 private:
  EmulatorProcess() = default;

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::string url_;
  std::string host_;
  int port_ = 0;
  std::string ca_file_;
  double startup_ms_ = 0;
};

}  // namespace nsxalb::testing

#endif  // NSXALB_TESTS_SUPPORT_EMULATOR_PROCESS_H_
