// Unit tests of the roll's decision (plugin/segroup/lifecycle/roll_decision.h): the simulation's
// placement of each leaving SE's virtual services (packed, distributed, min_scaleout_per_vs,
// max_se), the predicted loads, and each guard's verdict, on the groups of issue 44 with the
// figures worked by hand in each test.
#include "plugin/segroup/lifecycle/roll_decision.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A group of `count` running SEs "<group>-se-N" of `vcpus` vCPUs, `per_se` virtual services
// each ("<group>-vs-K", numbered across the SEs), each SE at `cpu` percent, every SE lagging on
// vcpus_per_se (replaced) unless `reboot`.
RollInput Group(const std::string& group, int count, int vcpus, int per_se, double cpu,
                bool reboot = false) {
  RollInput in;
  int vs = 0;
  for (int i = 1; i <= count; ++i) {
    RunningSe se;
    se.uuid = absl::StrCat(group, "-uuid-", i);
    se.name = absl::StrCat(group, "-se-", i);
    se.vcpus = vcpus;
    se.memory_mb = 8192;
    in.ses.running.push_back(se);
    LaggingSe lag;
    lag.se = se;
    lag.why =
        reboot ? controller::TakesEffect::kAfterSeReboot : controller::TakesEffect::kNewSesOnly;
    lag.fields = {reboot ? "num_dispatcher_cores" : "vcpus_per_se"};
    in.ses.lagging.push_back(lag);
    for (int k = 0; k < per_se; ++k) {
      in.virtual_services[se.uuid].push_back(absl::StrCat(group, "-vs-", ++vs));
    }
    in.load.cpu_pct[se.uuid] = cpu;
  }
  in.load.source = "the test's samples";
  in.target = TargetShape{vcpus * 2, 16384};
  in.target_pct = 80;
  in.license.known = true;
  in.license.tier = "ENTERPRISE";
  in.license.remaining_units = 100;
  in.license.replacement_units = vcpus * 2;
  in.cloud.name = "nsxt-cloud";
  in.cloud.creates_ses = true;
  return in;
}

// Each move of a decision as "vs:from->to", step by step.
std::vector<std::string> Moves(const RollDecision& d) {
  std::vector<std::string> out;
  for (const RollStep& s : d.steps) {
    for (const VsMove& m : s.moves) out.push_back(absl::StrCat(m.vs, ":", m.from, "->", m.to));
  }
  return out;
}

const GuardVerdict* Guard(const RollDecision& d, const std::string& name) {
  for (const GuardVerdict& g : d.guards) {
    if (g.guard == name) return &g;
  }
  return nullptr;
}

// The headline story: 2 SEs of 4 vCPUs at 40% CPU, 6 virtual services on both (active/active,
// min_scaleout_per_vs 2), 4 -> 8 vCPUs. se-1 leaves: each virtual service needs a second SE that
// stays; se-2 hosts them all, so the Controller creates new SE 1 (8 vCPUs) and packs the 6 onto
// it. se-1's 160 vCPU-percent (40% x 4) moves there: 20.0% of 8 vCPUs. Step 2: se-2 leaves, new
// SE 1 already hosts them all: a second new SE; 20.0% again.
TEST(RollDecisionTest, HeadlineRollsOntoNewSesAtTheNewShape) {
  RollInput in = Group("checkout", 2, 4, 0, 40);
  for (const RunningSe& se : in.ses.running) {
    for (int k = 1; k <= 6; ++k) {
      in.virtual_services[se.uuid].push_back(absl::StrCat("checkout-vs-", k));
    }
  }
  in.placement.min_scaleout_per_vs = 2;
  in.placement.max_se = 4;
  in.ha_minimum_ses = 1;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_EQ(DecisionSummary(d), "Apply will roll 2 SEs");
  ASSERT_EQ(d.steps.size(), 2u);
  EXPECT_THAT(d.steps[0].created, ElementsAre("new SE 1"));
  EXPECT_THAT(d.steps[1].created, ElementsAre("new SE 2"));
  EXPECT_THAT(Moves(d), Contains("checkout-vs-1:checkout-se-1->new SE 1"));
  EXPECT_THAT(Moves(d), Contains("checkout-vs-6:checkout-se-2->new SE 2"));
  EXPECT_NEAR(d.peak_pct, 20.0, 1e-9);
  EXPECT_EQ(d.peak_se, "new SE 1");
  EXPECT_EQ(d.peak_step, 1);
  EXPECT_EQ(d.load_basis, "measured");
  EXPECT_THAT(Guard(d, "capacity")->figures,
              HasSubstr("predicted peak 20.0% CPU on new SE 1 at step 1, target 80%"));
  EXPECT_THAT(Guard(d, "ha-mode")->figures, HasSubstr("2 running, 1 out at a time, 1 left"));
  EXPECT_THAT(d.notes, Contains(HasSubstr("vs_scalein_timeout (30 s)")));
}

// Hot and at max_se: 3 SEs of 4 vCPUs at 85%, 2 virtual services each, max_se 3, packed with
// room (max_vs_per_se 10). se-1's two move onto the fullest SE with room, the oldest on a tie:
// se-2, which then carries 85 + 85 = 170% of its CPU. Refused by the capacity guard, naming the
// step, the SE and the figures, with advice that applies (raise max_se; max_vs_per_se = 2).
TEST(RollDecisionTest, HotGroupWhoseVirtualServicesCanOnlyMoveOntoEachOtherIsRefused) {
  RollInput in = Group("web", 3, 4, 2, 85);
  in.placement.max_se = 3;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(DecisionSummary(d), "Rollout refused by the capacity guard");
  // The placement guard refuses too: no replacement is created at max_se.
  EXPECT_FALSE(Guard(d, "placement")->passed);
  EXPECT_THAT(Guard(d, "capacity")->figures,
              AllOf(HasSubstr("at step 1 (web-se-1 out) web-se-2 would take web-vs-1 from "
                              "web-se-1, web-vs-2 from web-se-1 and run at 170.0% CPU"),
                    HasSubstr("over the 80% target"), HasSubstr("raise max_se (3)"),
                    HasSubstr("set max_vs_per_se = 2")));
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("170.0% CPU"),
                               HasSubstr("The placement guard refuses "
                                         "too"),
                               HasSubstr("raise max_se to 4")));
  ASSERT_FALSE(d.steps.empty());
  EXPECT_THAT(d.steps[0].created, IsEmpty());
  std::vector<std::string> first;
  for (const VsMove& m : d.steps[0].moves) first.push_back(absl::StrCat(m.vs, "->", m.to));
  EXPECT_THAT(first, ElementsAre("web-vs-1->web-se-2", "web-vs-2->web-se-2"));
}

// The same hot SEs with room for replacements (max_se 6) and no room on the others
// (max_vs_per_se 2): each leaving SE's virtual services go to a new SE of 8 vCPUs, which then
// runs 85 x 4 / 8 = 42.5%. The SEs that stay at 85% take nothing: the roll goes on.
TEST(RollDecisionTest, HotGroupRollsWhenReplacementsTakeTheLoad) {
  RollInput in = Group("web", 3, 4, 2, 85);
  in.placement.max_se = 6;
  in.placement.max_vs_per_se = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_NEAR(d.peak_pct, 42.5, 1e-9);
  EXPECT_EQ(d.peak_se, "new SE 1");
  EXPECT_THAT(Moves(d), ElementsAre("web-vs-1:web-se-1->new SE 1", "web-vs-2:web-se-1->new SE 1",
                                    "web-vs-3:web-se-2->new SE 2", "web-vs-4:web-se-2->new SE 2",
                                    "web-vs-5:web-se-3->new SE 3", "web-vs-6:web-se-3->new SE 3"));
}

// Memory binds, not CPU: 3 SEs of 4 vCPUs and 8,192 MB at 30% CPU but 70% memory, 2 virtual
// services each; room for replacements (max_se 6, max_vs_per_se 2), but the new shape has 8 vCPUs
// and only 4,096 MB. web-se-1's two virtual services go to new SE 1: CPU 30 x 4 / 8 = 15.0%, but
// their memory keeps its megabytes (rule roll-memory-scales-with-memory): 70% of 8,192 MB =
// 5,734.4 MB on 4,096 MB = 140.0%, over the 80% target. Refused by the capacity guard, naming
// memory, its figures and the setting to raise.
TEST(RollDecisionTest, MemoryMovingOntoASmallerMemorySeIsRefusedByMemory) {
  RollInput in = Group("web", 3, 4, 2, 30);
  for (const RunningSe& se : in.ses.running) in.load.mem_pct[se.uuid] = 70;
  in.target = TargetShape{8, 4096};
  in.placement.max_se = 6;
  in.placement.max_vs_per_se = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "capacity");
  EXPECT_TRUE(Guard(d, "placement")->passed);
  EXPECT_EQ(d.peak_metric, LoadMetric::kMemory);
  EXPECT_NEAR(d.peak_pct, 140.0, 1e-9);
  EXPECT_EQ(d.peak_se, "new SE 1");
  EXPECT_EQ(d.peak_step, 1);
  ASSERT_EQ(d.steps.size(), 1u);  // the roll stops at the step over the target
  EXPECT_NEAR(d.steps[0].loads.back().cpu_pct, 15.0, 1e-9);
  EXPECT_THAT(
      d.refusal,
      AllOf(HasSubstr("at step 1 (web-se-1 out) new SE 1 would take web-vs-1 from "
                      "web-se-1, web-vs-2 from web-se-1 and run at 140.0% memory (of its "
                      "4,096 MB), over the 80% target"),
            HasSubstr("raise memory_per_se (4,096 MB)"), ::testing::Not(HasSubstr("% CPU"))));
  const std::string text = absl::StrJoin(DescribeDecision(d, in), "\n");
  EXPECT_THAT(text, AllOf(HasSubstr("predicted CPU: new SE 1 (8 vCPUs) 15.0%; predicted memory: "
                                    "new SE 1 (4,096 MB) 140.0%"),
                          HasSubstr("roll-memory-scales-with-memory"),
                          ::testing::Not(HasSubstr("memory not judged"))));
  const nlohmann::json j = DecisionJson(d);
  EXPECT_EQ(j["peak_metric"], "memory");
  EXPECT_EQ(j["peaks"][1]["metric"], "memory");
  EXPECT_NEAR(j["peaks"][0]["pct"].get<double>(), 15.0, 1e-9);
  EXPECT_NEAR(j["steps"][0]["loads"].back()["mem_pct"].get<double>(), 140.0, 1e-9);
  EXPECT_EQ(j["steps"][0]["loads"].back()["memory_mb"], 4096);
  EXPECT_EQ(DecisionFingerprint(d),
            "refused:capacity:web-se-1=replace,web-se-2=replace,web-se-3=replace");
}

// A hot-memory group whose replacements take the load: the same SEs at 85% memory, new SEs of 8
// vCPUs and 16,384 MB: 85 x 8,192 / 16,384 = 42.5% memory on new SE 1 (CPU 15.0%), so memory is
// the binding metric of the peak; the SEs that stay at 85% take nothing: the roll goes on. The
// fingerprint ignores the figures (memory at 60% rolls the same).
TEST(RollDecisionTest, HotMemoryGroupRollsWhenReplacementsTakeTheLoad) {
  RollInput in = Group("web", 3, 4, 2, 30);
  for (const RunningSe& se : in.ses.running) in.load.mem_pct[se.uuid] = 85;
  in.placement.max_se = 6;
  in.placement.max_vs_per_se = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_EQ(d.peak_metric, LoadMetric::kMemory);
  EXPECT_NEAR(d.peak_pct, 42.5, 1e-9);
  EXPECT_THAT(Guard(d, "capacity")->figures,
              HasSubstr("predicted peak 42.5% memory on new SE 1 at step 1, target 80%; CPU peak "
                        "15.0% on new SE 1 at step 1"));
  const std::string planned = DecisionFingerprint(d);
  for (auto& [uuid, pct] : in.load.mem_pct) pct = 60;
  EXPECT_EQ(DecisionFingerprint(DecideRoll(in)), planned);
}

// Where CPU binds, the wording is CPU's even with memory judged: the hot group at max_se 3
// (web-se-2 takes web-se-1's: 170.0% CPU) with 70% memory (140.0% memory) is refused naming CPU.
// An SE without memory samples counts as the busiest SE with them, and the plan says so.
TEST(RollDecisionTest, CpuBindsWithMemoryJudgedAndAnSeWithoutMemoryCountsAsTheBusiest) {
  RollInput in = Group("web", 3, 4, 2, 85);
  in.placement.max_se = 3;
  in.load.mem_pct["web-uuid-1"] = 70;
  in.load.mem_pct["web-uuid-2"] = 40;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.peak_metric, LoadMetric::kCpu);
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("and run at 170.0% CPU, over the 80% target"),
                               ::testing::Not(HasSubstr("% memory"))));
  EXPECT_THAT(d.notes, Contains("web-se-3 has no se_stats.avg_mem_usage sample: counted as the "
                                "busiest SE with samples (70.0% memory)"));
  // web-se-2 after step 1: its own 40% and web-se-1's 70% (same 8,192 MB): 110.0% memory.
  ASSERT_FALSE(d.steps.empty());
  const SeLoadAfter& second = d.steps[0].loads[0];
  ASSERT_EQ(second.name, "web-se-2");
  EXPECT_NEAR(second.mem_pct.value_or(0), 110.0, 1e-9);
}

// No memory samples at all (an SE has CPU samples only): the guard judges CPU only, in CPU's
// wording as before memory was read, and the load line says so.
TEST(RollDecisionTest, WithoutMemorySamplesTheGuardJudgesCpuOnlyAndSaysSo) {
  RollInput in = Group("web", 2, 4, 2, 40);
  in.placement.max_vs_per_se = 2;
  in.load.memory_missing_reason =
      "no sample of se_stats.avg_mem_usage in the last 1 hour for the group's 2 SEs";
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_EQ(Guard(d, "capacity")->figures,
            "predicted peak 20.0% CPU on new SE 1 at step 1, target 80%");
  EXPECT_THAT(absl::StrJoin(DescribeDecision(d, in), "\n"),
              AllOf(HasSubstr("roll-memory-scales-with-memory); memory not judged (no sample of "
                              "se_stats.avg_mem_usage in the last 1 hour for the group's 2 SEs): "
                              "CPU only"),
                    ::testing::Not(HasSubstr("predicted memory"))));
  EXPECT_TRUE(DecisionJson(d)["steps"][0]["loads"].back()["mem_pct"].is_null());
  EXPECT_EQ(DecisionJson(d)["peak_metric"], "cpu");
}

// Throughput binds where CPU and memory do not (rule roll-throughput-keeps-its-bits): 3 SEs of 4
// vCPUs on nsxt, reboot pending, 2 virtual services each, at 25% CPU, 20% memory and 6.5 Gbps of
// se_if.avg_bandwidth; the workload declares l7_ssl_gbps, whose capacity at 4 vCPUs is 11 Gbps
// (seed 001's 4C/8G cell), so each SE runs at 6.5 / 11 = 59.1% throughput. stream-se-1 leaves and
// packed placement moves its two virtual services onto stream-se-2 (the fullest with room, the
// oldest on a tie), with its shares: CPU 25 + 25 = 50.0% and memory 20 + 20 = 40.0% (same size),
// within the 80% target, but 6.5 + 6.5 = 13.00 Gbps of 11 Gbps = 118.2% throughput. Refused,
// naming throughput in Gbps and percent. The same group whose workload declares no throughput
// rolls (its peak: step 2 puts stream-se-2's four onto stream-se-3, 25 x 3 = 75.0% CPU; step 3
// moves those six onto the rebooted stream-se-1, 75.0% again): throughput is not judged, and the
// load line says why.
TEST(RollDecisionTest, BandwidthMovingOntoARunningSeIsRefusedByThroughput) {
  RollInput in = Group("stream", 3, 4, 2, 25, /*reboot=*/true);
  for (const RunningSe& se : in.ses.running) {
    in.load.mem_pct[se.uuid] = 20;
    in.load.bandwidth_bps[se.uuid] = 6.5e9;
  }
  in.declared.platform = sizing::Platform::kNsxt;
  in.declared.throughput_kinds = {sizing::Metric::kL7SslGbps};
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "capacity");
  EXPECT_TRUE(Guard(d, "placement")->passed);
  EXPECT_EQ(d.peak_metric, LoadMetric::kThroughput);
  EXPECT_NEAR(d.peak_pct, 1300.0 / 11, 1e-9);
  EXPECT_EQ(d.peak_se, "stream-se-2");
  ASSERT_EQ(d.steps.size(), 1u);
  const SeLoadAfter& second = d.steps[0].loads[0];
  ASSERT_EQ(second.name, "stream-se-2");
  EXPECT_NEAR(second.cpu_pct, 50.0, 1e-9);
  EXPECT_NEAR(second.mem_pct.value_or(0), 40.0, 1e-9);
  EXPECT_NEAR(second.bandwidth_bps, 13e9, 1e-3);
  EXPECT_EQ(second.throughput_capacity.kind, sizing::Metric::kL7SslGbps);
  EXPECT_NEAR(second.throughput_capacity.bits_per_second, 11e9, 1e-3);
  EXPECT_THAT(d.refusal,
              AllOf(HasSubstr("at step 1 (stream-se-1 out) stream-se-2 would take stream-vs-1 "
                              "from stream-se-1, stream-vs-2 from stream-se-1 and run at 118.2% "
                              "throughput (13.00 Gbps of its 11 Gbps L7 SSL throughput at 4 "
                              "vCPUs), over the 80% target"),
                    HasSubstr("bandwidth: se_if.avg_bandwidth"), HasSubstr("set max_vs_per_se = 2"),
                    ::testing::Not(HasSubstr("% CPU")), ::testing::Not(HasSubstr("% memory"))));
  const std::string text = absl::StrJoin(DescribeDecision(d, in), "\n");
  EXPECT_THAT(text, AllOf(HasSubstr("predicted throughput: stream-se-2 13.00 Gbps of 11.00 Gbps, "
                                    "118.2%"),
                          HasSubstr("(rule roll-throughput-keeps-its-bits)")));
  const nlohmann::json j = DecisionJson(d);
  EXPECT_EQ(j["peak_metric"], "throughput");
  ASSERT_EQ(j["peaks"].size(), 3u);
  EXPECT_EQ(j["peaks"][2]["metric"], "throughput");
  EXPECT_NEAR(j["steps"][0]["loads"][0]["throughput_gbps"].get<double>(), 13.0, 1e-9);
  EXPECT_NEAR(j["steps"][0]["loads"][0]["throughput_capacity_gbps"].get<double>(), 11.0, 1e-9);

  // No throughput declared: CPU and memory pass at every step, and the roll goes on.
  in.declared.throughput_kinds.clear();
  RollDecision undeclared = DecideRoll(in);
  ASSERT_EQ(undeclared.verdict, RollVerdict::kRoll) << undeclared.refusal;
  EXPECT_EQ(undeclared.peak_metric, LoadMetric::kCpu);
  EXPECT_NEAR(undeclared.peak_pct, 75.0, 1e-9);
  EXPECT_EQ(undeclared.peak_se, "stream-se-3");
  EXPECT_EQ(undeclared.steps.size(), 3u);
  EXPECT_THAT(absl::StrJoin(DescribeDecision(undeclared, in), "\n"),
              AllOf(HasSubstr("; throughput not judged: the workload states no throughput "
                              "(l4_gbps, l7_gbps or l7_ssl_gbps)"),
                    ::testing::Not(HasSubstr("predicted throughput"))));
  EXPECT_TRUE(DecisionJson(undeclared)["steps"][0]["loads"][0]["throughput_pct"].is_null());
}

// The same SEs replaced onto new SEs of 8 vCPUs (max_se 6, max_vs_per_se 2: each leaving SE's
// two virtual services go to a new SE). The workload declares l4_gbps and l7_ssl_gbps; on nsxt
// the least capacity is L7 SSL's at every size (4 vCPUs: 11 of 16.5 Gbps; 8 vCPUs: held at the
// 6-vCPU 13 of 19 Gbps, rule hold-throughput-at-6-vcpus). A share keeps its bits: 6.5 Gbps on
// new SE 1 is 6.5 / 13 = 50.0% (59.1% on the SE it left): throughput binds the peak (CPU 25 x 4
// / 8 = 12.5%, memory 20 x 8,192 / 16,384 = 10.0%) and the roll goes on. Without bandwidth
// samples, throughput is not judged, and the load line says why.
TEST(RollDecisionTest, ThroughputScalesByTheCapacitiesOntoLargerReplacementsAndRolls) {
  RollInput in = Group("stream", 3, 4, 2, 25);
  for (const RunningSe& se : in.ses.running) {
    in.load.mem_pct[se.uuid] = 20;
    in.load.bandwidth_bps[se.uuid] = 6.5e9;
  }
  in.declared.platform = sizing::Platform::kNsxt;
  in.declared.throughput_kinds = {sizing::Metric::kL4Gbps, sizing::Metric::kL7SslGbps};
  in.placement.max_se = 6;
  in.placement.max_vs_per_se = 2;
  EXPECT_NEAR(ThroughputCapacityOf(in.declared, 4).bits_per_second, 11e9, 1e-3);
  EXPECT_EQ(ThroughputCapacityOf(in.declared, 8).kind, sizing::Metric::kL7SslGbps);
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_EQ(d.peak_metric, LoadMetric::kThroughput);
  EXPECT_NEAR(d.peak_pct, 50.0, 1e-9);
  EXPECT_EQ(d.peak_se, "new SE 1");
  EXPECT_THAT(Guard(d, "capacity")->figures,
              HasSubstr("predicted peak 50.0% throughput on new SE 1 at step 1, target 80%; CPU "
                        "peak 12.5% on new SE 1 at step 1; memory peak 10.0% on new SE 1 at step "
                        "1"));
  EXPECT_THAT(absl::StrJoin(DescribeDecision(d, in), "\n"),
              HasSubstr("predicted throughput: new SE 1 6.50 Gbps of 13.00 Gbps, 50.0%"));

  in.load.bandwidth_bps.clear();
  in.load.bandwidth_missing_reason =
      "no sample of se_if.avg_bandwidth in the last 1 hour for the group's 3 SEs";
  RollDecision unmeasured = DecideRoll(in);
  ASSERT_EQ(unmeasured.verdict, RollVerdict::kRoll) << unmeasured.refusal;
  EXPECT_EQ(unmeasured.peak_metric, LoadMetric::kCpu);
  EXPECT_THAT(absl::StrJoin(DescribeDecision(unmeasured, in), "\n"),
              HasSubstr("; throughput not judged (no sample of se_if.avg_bandwidth in the last 1 "
                        "hour for the group's 3 SEs)"));
}

// Issue 44's packed group: web, 3 SEs of 2 vCPUs with 2 virtual services each, vcpus_per_se 4,
// max_vs_per_se 10 (room), max_se 10. The Controller moves web-se-1's virtual services onto
// web-se-2 (the fullest with room, the oldest of the tie) and creates no SE: refused by the
// placement guard, naming the setting that would let it roll.
TEST(RollDecisionTest, PackedGroupWithRoomCreatesNoReplacementAndIsRefused) {
  RollInput in = Group("web", 3, 2, 2, 30);
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(DecisionSummary(d), "Rollout refused by the placement guard");
  EXPECT_THAT(d.refusal,
              AllOf(HasSubstr("at step 1 the Controller would move the virtual services of "
                              "web-se-1 to SEs already running (web-vs-1 -> web-se-2, web-vs-2 "
                              "-> web-se-2) and create no new SE"),
                    HasSubstr("set max_vs_per_se = 2"),
                    HasSubstr("algo = \"PLACEMENT_ALGO_DISTRIBUTED\"")));
  EXPECT_THAT(d.steps[0].created, IsEmpty());
}

// With max_vs_per_se = 2 (the advice), the same group rolls: each step creates a new SE.
TEST(RollDecisionTest, PackedGroupRollsWithTheAdvisedSetting) {
  RollInput in = Group("web", 3, 2, 2, 30);
  in.placement.max_vs_per_se = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  for (const RollStep& s : d.steps) EXPECT_EQ(s.created.size(), 1u);
  EXPECT_NEAR(d.peak_pct, 15.0, 1e-9);  // 30% of 2 vCPUs on 4
}

// Distributed: a new SE while the group is under max_se, even when others have room.
TEST(RollDecisionTest, DistributedPlacementCreatesNewSesUntilMaxSe) {
  RollInput in = Group("web", 2, 2, 1, 50);
  in.placement.distributed = true;
  in.placement.max_se = 3;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  EXPECT_THAT(Moves(d), ElementsAre("web-vs-1:web-se-1->new SE 1", "web-vs-2:web-se-2->new SE 2"));
}

// No room and no new SE allowed: the virtual service finds no place (MIGRATE_SE_FAILED).
TEST(RollDecisionTest, NoPlaceAtMaxSeIsRefusedWithTheSettingToRaise) {
  RollInput in = Group("web", 2, 2, 2, 20);
  in.placement.max_vs_per_se = 2;
  in.placement.max_se = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "placement");
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("web-vs-1, web-vs-2 find no place"),
                               HasSubstr("MIGRATE_SE_FAILED"), HasSubstr("Raise max_se to 3")));
}

TEST(RollDecisionTest, LegacyActiveStandbyIsRefusedWithTheDocumentedPath) {
  RollInput in = Group("ess", 2, 2, 1, 10);
  in.placement.ha_mode = "HA_MODE_LEGACY_ACTIVE_STANDBY";
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(DecisionSummary(d), "Rollout refused by the ha-mode guard");
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("does not support migration"), HasSubstr("switchover"),
                               HasSubstr("maintenance SE group")));
}

TEST(RollDecisionTest, UpgradeInProgressIsRefused) {
  RollInput in = Group("web", 3, 2, 1, 10);
  in.placement.max_vs_per_se = 1;
  in.upgrade_in_progress = "a system upgrade (UPGRADE_FSM_IN_PROGRESS)";
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "upgrade");
  EXPECT_THAT(d.refusal, HasSubstr("a system upgrade (UPGRADE_FSM_IN_PROGRESS)"));
}

// SEs counted as they run: 2 running, 1 out, 1 left, against a minimum of 2.
TEST(RollDecisionTest, HaMinimumCountsTheSesAsTheyRun) {
  RollInput in = Group("aa", 2, 4, 1, 10);
  in.placement.max_vs_per_se = 1;
  in.ha_minimum_ses = 2;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "ha-mode");
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("2 SEs run; with 1 out at a time 1 would be left, below "
                                         "the HA mode's minimum of 2"),
                               ::testing::Not(HasSubstr("max_unavailable"))));
}

TEST(RollDecisionTest, LicenseShortIsRefusedWithTheFigures) {
  RollInput in = Group("web", 2, 4, 1, 10);
  in.placement.max_vs_per_se = 1;
  in.license.remaining_units = 4;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "license");
  EXPECT_THAT(d.refusal, AllOf(HasSubstr("1 replacement at a time needs 8 SUs"),
                               HasSubstr("ENTERPRISE tier has 4 left"), HasSubstr("add 4 SUs")));
}

TEST(RollDecisionTest, NoAccessCloudRefusesReplacementsButNotReboots) {
  RollInput in = Group("web", 3, 4, 1, 10);
  in.placement.max_vs_per_se = 10;
  in.cloud.creates_ses = false;
  in.cloud.name = "vcenter-no-access";
  EXPECT_EQ(DecideRoll(in).refused_by, "cloud");
  RollInput reboot = Group("web", 3, 4, 1, 10, /*reboot=*/true);
  reboot.cloud.creates_ses = false;
  RollDecision d = DecideRoll(reboot);
  EXPECT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  // A rebooted SE's virtual service moves to the fullest SE with room (packed), and the
  // rebooted SE comes back empty.
  EXPECT_THAT(Moves(d), ElementsAre("web-vs-1:web-se-1->web-se-2", "web-vs-1:web-se-2->web-se-3",
                                    "web-vs-2:web-se-2->web-se-3", "web-vs-1:web-se-3->web-se-1",
                                    "web-vs-2:web-se-3->web-se-1", "web-vs-3:web-se-3->web-se-1"));
}

// No samples: the declared workload on the SEs left decides, and the decision says so.
TEST(RollDecisionTest, WithoutSamplesTheDeclaredWorkloadDecidesAndSaysSo) {
  RollInput in = Group("web", 3, 4, 1, 0);
  in.placement.max_vs_per_se = 1;
  in.load.cpu_pct.clear();
  in.load.missing_reason = "no sample in the last 60 minutes";
  in.declared.known = true;
  in.declared.cpu_percent_out = 91.0;
  in.declared.target_percent = 80;
  in.declared.load = "the declared workload 300,000 L7 RPS";
  in.declared.basis = "measured";
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRefused);
  EXPECT_EQ(d.refused_by, "capacity");
  EXPECT_EQ(d.load_basis, "declared");
  EXPECT_THAT(d.refusal,
              AllOf(HasSubstr("no samples of the SEs' load (no sample in the last 60 minutes)"),
                    HasSubstr("with 1 of 3 running SEs out, the 2 left"),
                    HasSubstr("300,000 L7 RPS at 91.0% CPU")));
}

// An SE without samples counts as the busiest SE with samples.
TEST(RollDecisionTest, AnSeWithoutSamplesCountsAsTheBusiest) {
  RollInput in = Group("web", 2, 4, 1, 30);
  in.placement.max_vs_per_se = 1;
  in.load.cpu_pct.erase("web-uuid-1");
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll);
  EXPECT_NEAR(d.peak_pct, 15.0, 1e-9);  // 30% x 4 / 8 on the new SE
}

// The fingerprint apply compares: the verdict and the SEs, not the figures.
TEST(RollDecisionTest, FingerprintIgnoresTheFiguresButNotTheVerdict) {
  RollInput in = Group("web", 3, 4, 2, 40);
  in.placement.max_vs_per_se = 2;
  const std::string planned = DecisionFingerprint(DecideRoll(in));
  EXPECT_EQ(planned, "roll:web-se-1=replace,web-se-2=replace,web-se-3=replace");
  for (auto& [uuid, pct] : in.load.cpu_pct) pct = 45;
  EXPECT_EQ(DecisionFingerprint(DecideRoll(in)), planned);
  in.placement.max_vs_per_se = 10;  // now web-se-2 takes web-se-1's: 45 + 45 = 90%
  EXPECT_EQ(DecisionFingerprint(DecideRoll(in)),
            "refused:capacity:web-se-1=replace,web-se-2=replace,web-se-3=replace");
}

TEST(RollDecisionTest, DescribeDecisionShowsStepsGuardsAndNotes) {
  RollInput in = Group("web", 2, 4, 2, 40);
  in.placement.max_vs_per_se = 2;
  RollDecision d = DecideRoll(in);
  const std::string text = absl::StrJoin(DescribeDecision(d, in), "\n");
  EXPECT_THAT(text, AllOf(HasSubstr("rollout: web-se-1 and -2 will be replaced"),
                          HasSubstr("step 1: web-se-1 out; web-vs-1, web-vs-2 -> new SE 1; the "
                                    "Controller creates new SE 1 at 8 vCPUs; predicted CPU: new "
                                    "SE 1 (8 vCPUs) 20.0%"),
                          HasSubstr("guard capacity: passes: predicted peak 20.0% CPU"),
                          HasSubstr("guard license: passes"),
                          HasSubstr("note: connections on each SE that leaves")));
  EXPECT_EQ(DecisionJson(d)["verdict"], "roll");
  EXPECT_EQ(DecisionJson(d)["steps"][0]["moves"][0]["to"], "new SE 1");
}

// A plan that raises min_scaleout_per_vs: the group's write makes the Controller place each
// virtual service on a second SE before the roll (2 SEs, 2 virtual services each, so each goes
// onto the other SE and no SE is created). Then web-se-1 leaves: each virtual service already on
// web-se-2 needs another SE, and none has it free: the Controller creates new SE 1 for all four.
// Without that first placement the prediction would move them onto web-se-2 and refuse.
TEST(RollDecisionTest, TheWritesOwnScaleOutComesBeforeTheFirstStep) {
  RollInput in = Group("web", 2, 4, 2, 40);
  in.placement.min_scaleout_per_vs = 2;
  in.placement.max_se = 4;
  RollDecision d = DecideRoll(in);
  ASSERT_EQ(d.verdict, RollVerdict::kRoll) << d.refusal;
  ASSERT_FALSE(d.steps.empty());
  EXPECT_THAT(d.steps[0].created, ElementsAre("new SE 1"));
  std::vector<std::string> first;
  for (const VsMove& m : d.steps[0].moves) first.push_back(absl::StrCat(m.vs, "->", m.to));
  EXPECT_THAT(first, ElementsAre("web-vs-1->new SE 1", "web-vs-2->new SE 1", "web-vs-3->new SE 1",
                                 "web-vs-4->new SE 1"));
  // Each SE's 160 vCPU-percent is shared by the 4 virtual services after the write (each on both
  // SEs: 40 each side); web-se-1's 160 moves to new SE 1 (8 vCPUs): 20%.
  EXPECT_NEAR(d.peak_pct, 20.0, 1e-9);
}

// When the write itself needs a new SE (2 SEs full at max_vs_per_se 2, min_scaleout_per_vs 2),
// the plan says so in a note.
TEST(RollDecisionTest, AnSeTheWriteCreatesIsNamed) {
  RollInput in = Group("web", 2, 4, 2, 40);
  in.placement.min_scaleout_per_vs = 2;
  in.placement.max_vs_per_se = 2;
  in.placement.max_se = 8;
  RollDecision d = DecideRoll(in);
  EXPECT_THAT(d.notes, Contains(HasSubstr("the group's write makes the Controller place virtual "
                                          "services on more SEs before the roll")));
}

TEST(RollDecisionTest, NothingLaggingIsNothing) {
  RollInput in = Group("web", 2, 4, 2, 40);
  in.ses.lagging.clear();
  RollDecision d = DecideRoll(in);
  EXPECT_EQ(d.verdict, RollVerdict::kNothing);
  EXPECT_EQ(DecisionSummary(d), "");
  EXPECT_EQ(DecisionFingerprint(d), "none");
}

TEST(PlacementSettingsTest, ReadsTheGroupAndTheCatalogDefaults) {
  PlacementSettings p = PlacementSettingsOf(
      {{"algo", "PLACEMENT_ALGO_DISTRIBUTED"}, {"max_vs_per_se", 4}, {"max_se", 6}});
  EXPECT_TRUE(p.distributed);
  EXPECT_EQ(p.max_vs_per_se, 4);
  EXPECT_EQ(p.max_se, 6);
  EXPECT_EQ(p.min_scaleout_per_vs, 1);
  EXPECT_EQ(p.vs_scalein_timeout_s, 30);
  EXPECT_FALSE(PlacementSettingsOf(nlohmann::json::object()).distributed);
}

}  // namespace
}  // namespace nsxalb::segroup::lifecycle
