// Implementation of stop_signals.h.
#include "plugin/cli/rollout/stop_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::cli {
namespace {

// The pipe's write end for the handler; -1 while no StopSignals lives.
std::atomic<int> g_write_fd{-1};

// The byte that tells the watcher to end (no signal has number 0).
constexpr unsigned char kQuit = 0;

// Async-signal-safe: one write(2) of the signal's number, errno preserved. A full pipe drops the
// byte, which is harmless: the watcher has unread signals then.
extern "C" void OnStopSignal(int signal_number) {
  const int saved_errno = errno;
  const int fd = g_write_fd.load();
  if (fd >= 0) {
    const unsigned char byte = static_cast<unsigned char>(signal_number);
    [[maybe_unused]] ssize_t written = write(fd, &byte, 1);
  }
  errno = saved_errno;
}

absl::Status Errno(const char* what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<StopSignals>> StopSignals::Install(OnSignal on_signal) {
  if (g_write_fd.load() >= 0) {
    return absl::FailedPreconditionError("the stop signals are already handled");
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Errno("pipe2");
  if (fcntl(fds[1], F_SETFL, O_NONBLOCK) != 0) {
    absl::Status s = Errno("fcntl");
    close(fds[0]);
    close(fds[1]);
    return s;
  }
  std::unique_ptr<StopSignals> out(new StopSignals(std::move(on_signal), fds[0], fds[1]));
  g_write_fd.store(fds[1]);
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  // A SIGINT ignored by whoever started the process (nohup, a background job of a shell
  // without job control) stays ignored, as it would without this object.
  if (sigaction(SIGINT, nullptr, &out->previous_int_) != 0) return Errno("sigaction");
  if (out->previous_int_.sa_handler != SIG_IGN &&
      sigaction(SIGINT, &action, &out->previous_int_) != 0) {
    return Errno("sigaction");  // the destructor restores what was set
  }
  if (sigaction(SIGTERM, &action, &out->previous_term_) != 0) return Errno("sigaction");
  return out;
}

StopSignals::StopSignals(OnSignal on_signal, int read_fd, int write_fd)
    : on_signal_(std::move(on_signal)), read_fd_(read_fd), write_fd_(write_fd) {
  previous_int_.sa_handler = SIG_DFL;
  previous_term_.sa_handler = SIG_DFL;
  watcher_ = std::thread([this] { Watch(); });
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
  g_write_fd.store(-1);
  const unsigned char quit = kQuit;
  // The watcher drains the pipe, so a full one (EAGAIN) has room again soon.
  while (write(write_fd_, &quit, 1) < 0 && (errno == EINTR || errno == EAGAIN)) {
    std::this_thread::yield();
  }
  watcher_.join();
  close(read_fd_);
  close(write_fd_);
}

void StopSignals::Watch() {
  int count = 0;
  while (true) {
    unsigned char byte = kQuit;
    const ssize_t n = read(read_fd_, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || byte == kQuit) return;
    ++count;
    if (count == 1) {
      first_signal_.store(byte);
      stop_.Notify();
    }
    if (on_signal_) on_signal_(byte, count);
  }
}

}  // namespace nsxalb::cli
