// Workloads and recommendations for the sizing tests: one way to build a demand and to recommend
// for it, so that each test states only what it is about.
#ifndef NSXALB_TESTS_SIZING_TEST_WORKLOADS_H_
#define NSXALB_TESTS_SIZING_TEST_WORKLOADS_H_

#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/recommend.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {

// A workload on `platform` demanding `demand` (base units) at `util` percent, in `mode`.
inline Workload MakeWorkload(Platform platform,
                             const std::vector<std::pair<Metric, double>>& demand = {},
                             int util = kDefaultTargetUtilizationPct,
                             HaMode mode = HaMode::kShared) {
  Workload w;
  w.platform = platform;
  w.target_utilization_pct = util;
  w.ha_mode = mode;
  for (const auto& [m, d] : demand) w.demand.Set(m, d);
  return w;
}

// The recommendation for `w`; a test failure (and an empty recommendation) when there is none.
inline Recommendation MustRecommend(const Workload& w) {
  absl::StatusOr<Recommendation> r = Recommend(w);
  EXPECT_THAT(r, ::nsxalb::testing::IsOk());
  return r.ok() ? *r : Recommendation{};
}

}  // namespace nsxalb::sizing

#endif  // NSXALB_TESTS_SIZING_TEST_WORKLOADS_H_
