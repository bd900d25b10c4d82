// Unit tests of StopSignals (plugin/cli/rollout/stop_signals.h): SIGTERM stops like SIGINT, a
// second signal is counted and does not stop twice or kill the process, only one watcher lives
// at a time, and the previous handlers come back.
#include "plugin/cli/rollout/stop_signals.h"

#include <signal.h>

#include <memory>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace nsxalb::cli {
namespace {

// What the watcher reported, read on the test's thread.
class Reports {
 public:
  void Add(int signal_number, int count) {
    absl::MutexLock lock(&mu_);
    seen_.push_back({signal_number, count});
  }
  // The reports once there are `n`, or what came within 10 s.
  std::vector<std::pair<int, int>> WaitFor(size_t n) {
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (true) {
      {
        absl::MutexLock lock(&mu_);
        if (seen_.size() >= n || absl::Now() > deadline) return seen_;
      }
      absl::SleepFor(absl::Milliseconds(10));
    }
  }

 private:
  absl::Mutex mu_;
  std::vector<std::pair<int, int>> seen_;
};

TEST(StopSignalsTest, SigtermStopsAndASecondSignalIsCountedNotObeyed) {
  Reports reports;
  auto installed = StopSignals::Install(
      [&reports](int signal_number, int count) { reports.Add(signal_number, count); });
  ASSERT_TRUE(installed.ok()) << installed.status();
  std::unique_ptr<StopSignals> signals = *std::move(installed);
  EXPECT_FALSE(signals->stop().HasBeenNotified());
  ASSERT_EQ(raise(SIGTERM), 0);
  EXPECT_TRUE(signals->stop().WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_EQ(signals->first_signal(), SIGTERM);
  // A second Ctrl-C: reported with its count, the first signal stays the one that stopped.
  ASSERT_EQ(raise(SIGINT), 0);
  const std::vector<std::pair<int, int>> seen = reports.WaitFor(2);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_pair(SIGTERM, 1));
  EXPECT_EQ(seen[1], std::make_pair(SIGINT, 2));
  EXPECT_EQ(signals->first_signal(), SIGTERM);
}

TEST(StopSignalsTest, OneAtATimeAndThePreviousHandlersComeBack) {
  struct sigaction before = {};
  ASSERT_EQ(sigaction(SIGTERM, nullptr, &before), 0);
  {
    auto first = StopSignals::Install([](int, int) {});
    ASSERT_TRUE(first.ok());
    auto second = StopSignals::Install([](int, int) {});
    EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  }
  struct sigaction after = {};
  ASSERT_EQ(sigaction(SIGTERM, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  // Installable again once the first is gone.
  auto again = StopSignals::Install([](int, int) {});
  EXPECT_TRUE(again.ok());
}

}  // namespace
}  // namespace nsxalb::cli
