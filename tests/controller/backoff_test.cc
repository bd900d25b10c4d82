// Tests for plugin/controller/backoff.h.
#include "plugin/controller/backoff.h"

#include "gtest/gtest.h"

namespace nsxalb::controller {
namespace {

TEST(BackoffTest, DoublesUpToTheCap) {
  const absl::Duration initial = absl::Milliseconds(500);
  const absl::Duration max = absl::Seconds(4);
  // With jitter 1 the delay is the nominal value.
  EXPECT_EQ(BackoffDelay(initial, max, 0, 1.0), absl::Milliseconds(500));
  EXPECT_EQ(BackoffDelay(initial, max, 1, 1.0), absl::Seconds(1));
  EXPECT_EQ(BackoffDelay(initial, max, 2, 1.0), absl::Seconds(2));
  EXPECT_EQ(BackoffDelay(initial, max, 3, 1.0), absl::Seconds(4));
  EXPECT_EQ(BackoffDelay(initial, max, 10, 1.0), absl::Seconds(4));
  EXPECT_EQ(BackoffDelay(initial, max, 1000, 1.0), absl::Seconds(4));
}

TEST(BackoffTest, JitterSpreadsOverTheUpperHalf) {
  const absl::Duration initial = absl::Seconds(1);
  const absl::Duration max = absl::Seconds(30);
  EXPECT_EQ(BackoffDelay(initial, max, 2, 0.0), absl::Seconds(2));
  EXPECT_EQ(BackoffDelay(initial, max, 2, 0.5), absl::Seconds(3));
  for (double j : {0.0, 0.1, 0.7, 0.99}) {
    absl::Duration d = BackoffDelay(initial, max, 3, j);
    EXPECT_GE(d, absl::Seconds(4));
    EXPECT_LE(d, absl::Seconds(8));
  }
  // Out-of-range jitter is clamped.
  EXPECT_EQ(BackoffDelay(initial, max, 0, -3.0), absl::Milliseconds(500));
  EXPECT_EQ(BackoffDelay(initial, max, 0, 7.0), absl::Seconds(1));
}

TEST(BackoffTest, DefaultJitterIsInRange) {
  JitterSource jitter = DefaultJitter();
  for (int i = 0; i < 1000; ++i) {
    double j = jitter();
    ASSERT_GE(j, 0.0);
    ASSERT_LT(j, 1.0);
  }
}

TEST(RetryAfterTest, Seconds) {
  absl::Time now = absl::FromUnixSeconds(1700000000);
  EXPECT_EQ(ParseRetryAfter("2", now), absl::Seconds(2));
  EXPECT_EQ(ParseRetryAfter(" 0 ", now), absl::ZeroDuration());
  EXPECT_EQ(ParseRetryAfter("999999", now), absl::Hours(1));
  EXPECT_FALSE(ParseRetryAfter("", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("-1", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("soon", now).has_value());
}

TEST(RetryAfterTest, HttpDate) {
  absl::Time now = absl::FromUnixSeconds(1445412470);  // Wed, 21 Oct 2015 07:27:50 GMT
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now), absl::Seconds(10));
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now), absl::ZeroDuration());
}

TEST(RealClockTest, SleepReturnsEarlyOnCancel) {
  absl::Notification cancelled;
  cancelled.Notify();
  EXPECT_FALSE(RealClock()->SleepFor(absl::Hours(1), cancelled));
  absl::Notification idle;
  EXPECT_TRUE(RealClock()->SleepFor(absl::Milliseconds(1), idle));
}

}  // namespace
}  // namespace nsxalb::controller
