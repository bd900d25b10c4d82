// Helpers the lifecycle tests share (lifecycle_test.cc, ses_view_test.cc,
// rollout_capacity_test.cc): the group the listed SEs belong to, and the declared plan of the
// checkout story of docs/sizing.md ("Running SEs behind the settings").
#ifndef NSXALB_TESTS_SEGROUP_LIFECYCLE_LIFECYCLE_TEST_SUPPORT_H_
#define NSXALB_TESTS_SEGROUP_LIFECYCLE_LIFECYCLE_TEST_SUPPORT_H_

#include "nlohmann/json.hpp"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::segroup::lifecycle {

// The uuid of the SE group the tests' SEs belong to.
inline constexpr char kGroup[] = "serviceenginegroup-1111";

// The declared plan of the checkout story on nsxt: 300,000 L7 RPS + 6,000 ECC SSL TPS unless
// another `workload` is given.
inline SizingPlan CheckoutPlan(const nlohmann::json& workload = {{"l7_rps", 300000},
                                                                 {"ssl_tps_ecc", 6000}}) {
  SizingInput input;
  input.workload = workload;
  return PlanSizing(input, sizing::Platform::kNsxt);
}

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_TESTS_SEGROUP_LIFECYCLE_LIFECYCLE_TEST_SUPPORT_H_
