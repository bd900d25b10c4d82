// Implementation of rollout_console.h.
#include "plugin/cli/rollout/rollout_console.h"

#include <cstdint>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"

namespace nsxalb::cli {
namespace {

constexpr char kEraseLine[] = "\r\033[K";

}  // namespace

RolloutConsole::RolloutConsole(std::ostream& out, std::ostream& err, bool progress,
                               std::vector<std::string> names)
    : out_(out),
      err_(err),
      progress_(progress && !names.empty()),
      names_(std::move(names)),
      start_(absl::Now()) {
  if (!progress_) return;
  {
    absl::MutexLock lock(&mutex_);
    last_step_ = "starting";
    DrawLocked();
  }
  ticker_ = std::thread([this] {
    while (!done_.WaitForNotificationWithTimeout(absl::Seconds(1))) {
      absl::MutexLock lock(&mutex_);
      DrawLocked();
    }
  });
}

RolloutConsole::~RolloutConsole() {
  if (!progress_) return;
  done_.Notify();
  ticker_.join();
  absl::MutexLock lock(&mutex_);
  EraseLocked();
  out_.flush();
}

void RolloutConsole::Step(const std::string& line) {
  {
    absl::MutexLock lock(&mutex_);
    for (size_t i = 0; i < names_.size(); ++i) {
      if (absl::StartsWith(line, names_[i] + ": ")) {
        current_ = i;
        last_step_ = line.substr(names_[i].size() + 2);
      }
    }
  }
  Print(out_, line);
}

void RolloutConsole::Error(const std::string& line) { Print(err_, line); }

void RolloutConsole::Print(std::ostream& stream, const std::string& line) {
  absl::MutexLock lock(&mutex_);
  EraseLocked();
  stream << line << "\n" << std::flush;
  DrawLocked();
}

void RolloutConsole::DrawLocked() {
  if (!progress_) return;
  const int64_t seconds = absl::ToInt64Seconds(absl::Now() - start_);
  out_ << kEraseLine
       << absl::StrFormat("rollout %d/%d %s, %d:%02d: %s", current_ + 1, names_.size(),
                          names_[current_], seconds / 60, seconds % 60, last_step_)
       << std::flush;
}

void RolloutConsole::EraseLocked() {
  if (!progress_) return;
  out_ << kEraseLine << std::flush;
}

}  // namespace nsxalb::cli
