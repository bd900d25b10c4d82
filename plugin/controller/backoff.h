// Retry timing: the capped exponential backoff schedule with jitter, Retry-After parsing, and the
// clock the client sleeps on. The clock and the randomness are injectable so tests neither wait
// nor depend on chance.
#ifndef NSXALB_PLUGIN_CONTROLLER_BACKOFF_H_
#define NSXALB_PLUGIN_CONTROLLER_BACKOFF_H_

#include <functional>
#include <optional>
#include <string_view>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace nsxalb::controller {

// Time source and interruptible sleep.
class Clock {
 public:
  virtual ~Clock() = default;

  // The current time.
  virtual absl::Time Now() = 0;

  // Sleeps for `duration` or until `cancelled` is notified, whichever comes first. Returns false
  // when woken by cancellation.
  virtual bool SleepFor(absl::Duration duration, absl::Notification& cancelled) = 0;
};

// The process's real clock (absl::Now, sleeping on the notification). Never null.
Clock* RealClock();

// Source of uniform random numbers in [0, 1), used for jitter.
using JitterSource = std::function<double()>;

// A thread-safe JitterSource backed by absl::BitGen.
JitterSource DefaultJitter();

// Capped exponential backoff: before retry number `retry` (0 for the first retry) the nominal
// delay is min(max, initial * 2^retry); the result is spread over [nominal/2, nominal] by
// `jitter01` in [0, 1).
absl::Duration BackoffDelay(absl::Duration initial, absl::Duration max, int retry, double jitter01);

// Parses a Retry-After header value: delta-seconds ("2") or an HTTP date
// ("Wed, 21 Oct 2015 07:28:00 GMT", relative to `now`). Returns nullopt when unparsable; past
// dates give zero. Values are capped at one hour.
std::optional<absl::Duration> ParseRetryAfter(std::string_view value, absl::Time now);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_BACKOFF_H_
