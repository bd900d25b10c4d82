// A Clock (plugin/controller/backoff.h) for the Controller client's tests: its time moves only
// when the client sleeps, and it records every sleep, so a test asserts on the backoff and
// Retry-After delays the client chose instead of waiting for them. Thread-safe.
#ifndef NSXALB_TESTS_CONTROLLER_FAKE_CLOCK_H_
#define NSXALB_TESTS_CONTROLLER_FAKE_CLOCK_H_

#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "plugin/controller/backoff.h"

namespace nsxalb::controller {

// Starts at 2023-11-14 22:13:20 UTC (Unix time 1700000000).
class FakeClock : public Clock {
 public:
  // The current fake time.
  absl::Time Now() override {
    absl::MutexLock lock(&mu_);
    return now_;
  }

  // Records `d` and moves the time on by it, at once; false when `cancelled` was notified.
  bool SleepFor(absl::Duration d, absl::Notification& cancelled) override {
    absl::MutexLock lock(&mu_);
    sleeps_.push_back(d);
    now_ += d;
    return !cancelled.HasBeenNotified();
  }

  // Every sleep so far, in order.
  std::vector<absl::Duration> sleeps() {
    absl::MutexLock lock(&mu_);
    return sleeps_;
  }

 private:
  absl::Mutex mu_;
  absl::Time now_ ABSL_GUARDED_BY(mu_) = absl::FromUnixSeconds(1700000000);
  std::vector<absl::Duration> sleeps_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_FAKE_CLOCK_H_
