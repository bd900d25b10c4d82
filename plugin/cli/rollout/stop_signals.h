// SIGINT and SIGTERM as a request to stop: a long-running command (`controller rollout`) that
// must finish its current step and give back what it changed, instead of dying in the middle.
//
// The handlers only write the signal's number to a pipe (write(2) is async-signal-safe; the
// write end is non-blocking, so a handler never waits); a watcher thread reads the pipe, notifies
// `stop()` on the first signal and calls `on_signal` for each one, outside the handler, where it
// may lock and print. The previous handlers come back when the object is destroyed. A SIGINT
// that was ignored when the object was made (nohup, a background job of a shell without job
// control) stays ignored. One object at a time in a process.
#ifndef NSXALB_PLUGIN_CLI_ROLLOUT_STOP_SIGNALS_H_
#define NSXALB_PLUGIN_CLI_ROLLOUT_STOP_SIGNALS_H_

#include <signal.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"

namespace nsxalb::cli {

// Catches SIGINT and SIGTERM while it lives.
class StopSignals {
 public:
  // Called on the watcher thread for every signal caught: its number and how many came so far
  // (1 for the first, which has notified stop()).
  using OnSignal = std::function<void(int signal_number, int count)>;

  // Installs the handlers and starts the watcher. Internal when the pipe or a handler cannot be
  // set up, or FailedPrecondition when another StopSignals lives.
  static absl::StatusOr<std::unique_ptr<StopSignals>> Install(OnSignal on_signal);

  // Restores the previous handlers, then stops and joins the watcher.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Notified on the first signal.
  absl::Notification& stop() { return stop_; }
  // The first signal's number, 0 before any.
  int first_signal() const { return first_signal_.load(); }

 private:
  StopSignals(OnSignal on_signal, int read_fd, int write_fd);
  void Watch();

  OnSignal on_signal_;
  const int read_fd_;
  const int write_fd_;
  struct sigaction previous_int_ = {};
  struct sigaction previous_term_ = {};
  absl::Notification stop_;
  std::atomic<int> first_signal_{0};
  std::thread watcher_;
};

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ROLLOUT_STOP_SIGNALS_H_
