// Implementation of backoff.h.
#include "plugin/controller/backoff.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/synchronization/mutex.h"

namespace nsxalb::controller {
namespace {

constexpr absl::Duration kMaxRetryAfter = absl::Hours(1);

class RealClockImpl : public Clock {
 public:
  absl::Time Now() override { return absl::Now(); }
  bool SleepFor(absl::Duration duration, absl::Notification& cancelled) override {
    if (duration <= absl::ZeroDuration()) return !cancelled.HasBeenNotified();
    return !cancelled.WaitForNotificationWithTimeout(duration);
  }
};

}  // namespace

Clock* RealClock() {
  static RealClockImpl* clock = new RealClockImpl();
  return clock;
}

JitterSource DefaultJitter() {
  struct State {
    absl::Mutex mu;
    absl::BitGen gen ABSL_GUARDED_BY(mu);
  };
  auto state = std::make_shared<State>();
  return [state]() {
    absl::MutexLock lock(&state->mu);
    return absl::Uniform<double>(state->gen, 0.0, 1.0);
  };
}

absl::Duration BackoffDelay(absl::Duration initial, absl::Duration max, int retry,
                            double jitter01) {
  absl::Duration nominal = initial;
  for (int i = 0; i < retry && nominal < max; ++i) nominal *= 2;
  nominal = std::min(nominal, max);
  jitter01 = std::clamp(jitter01, 0.0, 1.0);
  return nominal / 2 + (nominal / 2) * jitter01;
}

std::optional<absl::Duration> ParseRetryAfter(std::string_view value, absl::Time now) {
  std::string v(absl::StripAsciiWhitespace(std::string(value)));
  if (v.empty()) return std::nullopt;
  if (absl::ascii_isdigit(static_cast<unsigned char>(v[0]))) {
    int64_t seconds = 0;
    if (v.size() > 12 || !absl::SimpleAtoi(v, &seconds) || seconds < 0) return std::nullopt;
    return std::min(absl::Seconds(seconds), kMaxRetryAfter);
  }
  absl::Time when;
  std::string err;
  if (!absl::ParseTime("%a, %d %b %Y %H:%M:%S GMT", v, absl::UTCTimeZone(), &when, &err)) {
    return std::nullopt;
  }
  return std::clamp(when - now, absl::ZeroDuration(), kMaxRetryAfter);
}

}  // namespace nsxalb::controller
