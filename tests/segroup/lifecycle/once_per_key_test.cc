// common::OncePerKey, the per-process cache the shared SE listing is built on: one fetch per key
// whatever the number of callers and threads, callers in flight wait for it, failures are not
// kept.
#include "plugin/common/once_per_key.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace nsxalb::common {
namespace {

TEST(OncePerKeyTest, ConcurrentCallersShareTheOneFetchInFlight) {
  OncePerKey<std::string> cache;
  std::atomic<int> fetches{0};
  std::atomic<bool> release{false};
  auto fetch = [&]() -> absl::StatusOr<std::string> {
    ++fetches;
    while (!release) std::this_thread::yield();  // hold the fetch until every caller is in
    return std::string("listing");
  };
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 16; ++i) {
    callers.emplace_back([&] {
      absl::StatusOr<OncePerKey<std::string>::Shared> got = cache.Get("admin", fetch);
      if (got.ok() && **got == "listing") ++ok;
    });
  }
  // Let the callers reach Get; the fetch cannot finish before release, so any that arrive later
  // find it in flight or done: one fetch either way.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  release = true;
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(fetches.load(), 1);
  EXPECT_EQ(ok.load(), 16);
  EXPECT_EQ(cache.Fetches("admin"), 1u);
  // Kept: no second fetch; another key fetches its own.
  ASSERT_TRUE(cache.Get("admin", fetch).ok());
  EXPECT_EQ(fetches.load(), 1);
  ASSERT_TRUE(cache.Get("team-a", fetch).ok());
  EXPECT_EQ(fetches.load(), 2);
}

TEST(OncePerKeyTest, AFailureIsGivenToItsCallersAndNotKept) {
  OncePerKey<int> cache;
  int calls = 0;
  auto failing = [&]() -> absl::StatusOr<int> {
    ++calls;
    return absl::UnavailableError("controller: 503");
  };
  auto working = [&]() -> absl::StatusOr<int> {
    ++calls;
    return 7;
  };
  EXPECT_EQ(cache.Get("admin", failing).status(), absl::UnavailableError("controller: 503"));
  absl::StatusOr<OncePerKey<int>::Shared> second = cache.Get("admin", working);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(**second, 7);
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace nsxalb::common
