// The CPU budget (rule one-cpu-budget-per-se): which metrics share it, how the parts add up, and
// what a recommendation and a validation make of a mixed workload.
#include "plugin/sizing/cpu_budget.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/validate.h"
#include "tests/sizing/test_workloads.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::HasSubstr;

TEST(CpuBudgetTest, TheCpuBoundMetricsShareIt) {
  EXPECT_TRUE(SharesCpuBudget(Metric::kSslTpsEcc));
  EXPECT_TRUE(SharesCpuBudget(Metric::kSslTpsRsa));
  EXPECT_TRUE(SharesCpuBudget(Metric::kL7Rps));
  EXPECT_TRUE(SharesCpuBudget(Metric::kL4Cps));
  EXPECT_TRUE(SharesCpuBudget(Metric::kL7SslGbps));
  // Bound by PPS and the NIC, or by memory: judged alone.
  EXPECT_FALSE(SharesCpuBudget(Metric::kL4Gbps));
  EXPECT_FALSE(SharesCpuBudget(Metric::kL7Gbps));
  EXPECT_FALSE(SharesCpuBudget(Metric::kL4OpenConns));
}

TEST(CpuBudgetTest, PartsAddUpLargestFirst) {
  // vcenter 6 vCPUs: 100,000 / 185,000 RPS = 54.05%; 6,000 / 12,000 ECC = 50%.
  const Workload w =
      MakeWorkload(Platform::kVcenter,
                   {{Metric::kSslTpsEcc, 6000}, {Metric::kL7Rps, 100000}, {Metric::kL7Gbps, 1}});
  const SeCapacity c = *CapacityOf(Platform::kVcenter, 6);
  const CpuLoad cpu = CpuLoadOf(LoadsOn(w, c, 1), 80);
  ASSERT_EQ(cpu.parts.size(), 2u);  // L7 throughput is not a part
  EXPECT_EQ(cpu.parts[0].metric, Metric::kL7Rps);
  EXPECT_NEAR(cpu.parts[0].utilization_pct, 54.054, 0.001);
  EXPECT_EQ(cpu.parts[1].metric, Metric::kSslTpsEcc);
  EXPECT_DOUBLE_EQ(cpu.parts[1].utilization_pct, 50);
  EXPECT_NEAR(cpu.utilization_pct, 104.054, 0.001);
  EXPECT_FALSE(cpu.carried);
  EXPECT_EQ(CpuLoadText(cpu), "CPU 104.1% = L7 RPS 54.1% + ECC SSL TPS 50.0%");
  // On 2 SEs each part halves: 52.0%, within 80%.
  EXPECT_TRUE(CpuLoadOf(LoadsOn(w, c, 2), 80).carried);
}

TEST(CpuBudgetTest, ALonePartIsJudgedExactlyAsItsMetric) {
  // 9,600 ECC on a 6-vCPU vcenter SE is exactly 80%.
  const Workload w = MakeWorkload(Platform::kVcenter, {{Metric::kSslTpsEcc, 9600}});
  const std::vector<MetricLoad> loads = LoadsOn(w, *CapacityOf(Platform::kVcenter, 6), 1);
  const CpuLoad cpu = CpuLoadOf(loads, 80);
  EXPECT_TRUE(cpu.carried);
  EXPECT_EQ(cpu.carried, loads[0].carried);
  EXPECT_TRUE(CpuLoadOf({}, 80).Empty());
}

TEST(CpuBudgetTest, NsxtMixFromTheIssueNeedsTwoSes) {
  // 1 SE of 6: 150,000 / 205,000 + 8,000 / 11,500 = 73.2% + 69.6% = 142.7%. 2 SEs of 5
  // (interpolated 179,000 and 9,850): 41.9% + 40.6% = 82.5%. 2 SEs of 6: 71.4%.
  const Workload w =
      MakeWorkload(Platform::kNsxt, {{Metric::kL7Rps, 150000}, {Metric::kSslTpsEcc, 8000}});
  absl::StatusOr<Recommendation> r = Recommend(w);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->se_count.value, 2);
  EXPECT_EQ(r->vcpus_per_se.value, 6);
  EXPECT_EQ(r->vcpus_per_se.rule, rules::kFewestSes);
  EXPECT_EQ(r->max_se.value, 3);
  EXPECT_TRUE(r->cpu_binds);
  EXPECT_FALSE(r->binding.has_value());
  EXPECT_EQ(BindingKey(*r), "cpu");
  EXPECT_NEAR(r->cpu.utilization_pct, 71.37, 0.01);
  EXPECT_NEAR(BindingUtilizationPct(*r), 71.37, 0.01);
  EXPECT_TRUE(r->carried);
  EXPECT_FALSE(Carries(w, 5, 10240, 2));
  EXPECT_FALSE(Carries(w, 6, 12288, 1));
}

TEST(CpuBudgetTest, ASingleMetricWorkloadBindsByItsMetric) {
  absl::StatusOr<Recommendation> r =
      Recommend(MakeWorkload(Platform::kNsxt, {{Metric::kL7Rps, 150000}}));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->se_count.value, 1);
  EXPECT_EQ(r->vcpus_per_se.value, 6);
  EXPECT_FALSE(r->cpu_binds);
  EXPECT_EQ(BindingKey(*r), "l7_rps");
}

TEST(CpuBudgetTest, ThroughputJudgedAloneCanBind) {
  // 10 Gbps of L4 on vcenter needs 12.5 > 9.5 at 4 vCPUs, 13 at 6: 6 vCPUs; a little RPS beside it.
  absl::StatusOr<Recommendation> r = Recommend(
      MakeWorkload(Platform::kVcenter,
                   {{Metric::kL4Gbps, 10000}, {Metric::kL7Rps, 1000}, {Metric::kSslTpsEcc, 100}}));
  ASSERT_THAT(r, IsOk());
  EXPECT_FALSE(r->cpu_binds);
  EXPECT_EQ(BindingKey(*r), "l4_gbps");
  EXPECT_EQ(r->num_dispatcher_cores.value, 2);  // dispatchers-two-for-l4-throughput
}

TEST(CpuBudgetTest, ValidationJudgesTheSumAndNamesEachPart) {
  // The acceptance case: vcenter 6 vCPUs, 100,000 RPS + 6,000 ECC: 54% + 50% does not fit 80%.
  Settings s;
  s.vcpus_per_se = 6;
  const Validation v = Validate(
      MakeWorkload(Platform::kVcenter, {{Metric::kL7Rps, 100000}, {Metric::kSslTpsEcc, 6000}}), s);
  EXPECT_TRUE(v.under_sized);
  std::vector<Finding> under;
  for (const Finding& f : v.findings) {
    if (f.rule == rules::kUnderDelivery) under.push_back(f);
  }
  ASSERT_EQ(under.size(), 1u);  // one finding for the budget, none per part
  EXPECT_EQ(under[0].attribute, "vcpus_per_se");
  EXPECT_THAT(under[0].summary, HasSubstr("CPU 104.1% = L7 RPS 54.1% + ECC SSL TPS 50.0%"));
  EXPECT_THAT(under[0].summary, HasSubstr("over the 80% target"));
  // The remedy carries the sum: 2 SEs of 6 (no larger size within max_vcpus_per_se 6).
  EXPECT_THAT(under[0].detail, HasSubstr("Run 2 SEs (CPU 52.0%)"));
  EXPECT_NEAR(v.cpu.utilization_pct, 104.05, 0.01);
  EXPECT_FALSE(v.cpu.carried);
}

TEST(CpuBudgetTest, TheRemedyItNamesCarriesTheSum) {
  Settings s;
  s.vcpus_per_se = 4;
  Workload w =
      MakeWorkload(Platform::kNsxt,
                   {{Metric::kL7Rps, 60000}, {Metric::kSslTpsEcc, 3000}, {Metric::kL4Cps, 10000}});
  w.max_vcpus_per_se = 8;
  const Validation v = Validate(w, s);
  ASSERT_TRUE(v.under_sized);
  for (const Finding& f : v.findings) {
    if (f.rule != rules::kUnderDelivery) continue;
    const size_t at = f.detail.find("Set vcpus_per_se = ");
    ASSERT_NE(at, std::string::npos) << f.detail;
    const int vcpus = std::stoi(f.detail.substr(at + 19));
    EXPECT_TRUE(Carries(w, vcpus, static_cast<int64_t>(TableMemoryMb(w.platform, 4).value), 1))
        << f.detail;
    EXPECT_FALSE(
        Carries(w, vcpus - 1, static_cast<int64_t>(TableMemoryMb(w.platform, 4).value), 1));
  }
}

}  // namespace
}  // namespace nsxalb::sizing
