// The sizing glue shared by nsxalb_se_group and nsxalb_se_sizing: reading the configuration,
// planned values, the `sizing` object, finding paths and diagnostics.
#include "plugin/provider/se_group_sizing.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "plugin/framework/schema.h"
#include "plugin/framework/schema_json.h"
#include "plugin/sizing/rules.h"
#include "provider_schema/embedded.h"
#include "tests/provider/test_values.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

namespace sz = ::nsxalb::sizing;
using cty::AttributePath;
using cty::Value;

const framework::Schema& ResourceSchema() {
  static const framework::Schema* const kSchema = [] {
    for (const auto& e : provider_schema::ResourceJson()) {
      if (e.name == "nsxalb_se_group") {
        auto parsed = framework::ParseSchemaJson(e.json);
        if (parsed.ok()) return new framework::Schema(*parsed);
      }
    }
    return new framework::Schema();
  }();
  return *kSchema;
}

cty::Type ConfigType() { return framework::ImpliedType(ResourceSchema().block); }

cty::Type WorkloadType() { return ConfigType().attributes().at("workload"); }

// An nsxalb_se_group configuration of `attrs`; unset attributes are null.
Value SeGroupConfig(std::map<std::string, Value> attrs) {
  return Value::ObjectOf(ConfigType(), std::move(attrs));
}

Value Workload(std::map<std::string, Value> attrs) {
  return Value::ObjectOf(WorkloadType(), std::move(attrs));
}

AttributePath AtWorkload(const std::string& name) {
  return AttributePath().Attribute("workload").Attribute(name);
}

int64_t Int(const Value& v) { return *v.AsNumber().AsInt64(); }

// The planned value of `name`, which must be recommended.
Value Planned(const SizingPlan& plan, const std::string& name) {
  auto it = plan.recommended.find(name);
  if (it == plan.recommended.end()) {
    ADD_FAILURE() << name << " is not recommended";
    return Value();
  }
  return it->second;
}

Value Sizing(const SizingPlan& plan, const std::string& name) {
  return *plan.sizing_object.GetAttribute(name);
}

const PlacedFinding* FindRule(const SizingPlan& plan, const std::string& rule) {
  for (const PlacedFinding& f : plan.findings) {
    if (f.finding.rule == rule) return &f;
  }
  return nullptr;
}

TEST(SeGroupSizingTest, NsxtL7Rps150kPlansOneSixVcpuSe) {
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}})}}), sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_TRUE(plan.has_workload);
  EXPECT_TRUE(plan.input_errors.empty());
  EXPECT_TRUE(plan.findings.empty());
  EXPECT_EQ(Int(Planned(plan, "vcpus_per_se")), 6);
  EXPECT_EQ(Int(Planned(plan, "memory_per_se")), 12288);
  EXPECT_EQ(Int(Planned(plan, "disk_per_se")), 29);  // max(15, 2 x 12 + 5)
  EXPECT_TRUE(Planned(plan, "cpu_reserve").AsBool());
  EXPECT_TRUE(Planned(plan, "mem_reserve").AsBool());
  EXPECT_TRUE(Planned(plan, "dedicated_dispatcher_core").AsBool());
  EXPECT_EQ(Int(Planned(plan, "num_dispatcher_cores")), 2);
  EXPECT_EQ(Int(Planned(plan, "max_queues_per_vnic")), 2);
  EXPECT_FALSE(Planned(plan, "hybrid_rss_mode").AsBool());
  EXPECT_EQ(Int(Planned(plan, "min_scaleout_per_vs")), 1);
  EXPECT_EQ(Int(Planned(plan, "max_scaleout_per_vs")), 4);
  EXPECT_EQ(Int(Planned(plan, "max_se")), 2);
  EXPECT_EQ(Int(Planned(plan, "buffer_se")), 1);
  // The Controller's defaults, from the field catalog.
  EXPECT_EQ(Int(Planned(plan, "min_se")), 1);
  EXPECT_EQ(Planned(plan, "ha_mode").AsString(), "HA_MODE_SHARED");
  EXPECT_EQ(Planned(plan, "se_name_prefix").AsString(), "Avi");
  EXPECT_EQ(plan.recommended.size(), segroup::SizingAttributeNames().size());

  ASSERT_THAT(cty::CheckConformance(plan.sizing_object, SizingObjectType()), IsOk());
  EXPECT_EQ(Sizing(plan, "profile").AsString(), "nsxt");
  EXPECT_EQ(Int(Sizing(plan, "se_count")), 1);
  EXPECT_EQ(Sizing(plan, "binding_metric").AsString(), "l7_rps");
  EXPECT_EQ(Sizing(plan, "utilization_pct").AsNumber().ToString(), "73.2");
  EXPECT_EQ(Sizing(plan, "basis").AsString(), "measured");
  EXPECT_EQ(Sizing(plan, "summary").AsString(),
            "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)");
  EXPECT_TRUE(Sizing(plan, "findings").elements().empty());
  ASSERT_EQ(plan.loads.size(), 1u);
  EXPECT_EQ(plan.loads[0].metric, sz::Metric::kL7Rps);
}

TEST(SeGroupSizingTest, AnHttpsMixSharesOneCpuBudget) {
  // 150,000 RPS + 8,000 ECC TPS on nsxt: one 6-vCPU SE would run 142.7% of its CPU; two run 71.4%.
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}, {"ssl_tps_ecc", N(8000)}})}}),
      sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(Int(Sizing(plan, "se_count")), 2);
  EXPECT_EQ(Sizing(plan, "binding_metric").AsString(), "cpu");
  EXPECT_EQ(Sizing(plan, "utilization_pct").AsNumber().ToString(), "71.4");
  EXPECT_EQ(Sizing(plan, "summary").AsString(),
            "2 SEs of 6 vCPUs carry 150,000 L7 RPS + 8,000 ECC SSL TPS at 71.4% CPU (measured)");
  EXPECT_EQ(Int(Planned(plan, "vcpus_per_se")), 6);
  EXPECT_EQ(Int(Planned(plan, "min_scaleout_per_vs")), 2);
  EXPECT_EQ(Int(Planned(plan, "max_se")), 3);
  EXPECT_EQ(Planned(plan, "ha_mode").AsString(), "HA_MODE_SHARED");
  EXPECT_EQ(Int(Planned(plan, "max_vs_per_se")), 10);
  EXPECT_TRUE(Sizing(plan, "findings").elements().empty());

  // Set to one SE, it is under-sized by the sum: one finding naming both parts, under the policy.
  const SizingPlan one = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}, {"ssl_tps_ecc", N(8000)}})},
                     {"min_scaleout_per_vs", N(1)}}),
      sz::Platform::kNsxt);
  const PlacedFinding* f = FindRule(one, sz::rules::kUnderDelivery);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("min_scaleout_per_vs"));
  EXPECT_TRUE(f->policy_dependent);
  EXPECT_NE(f->finding.summary.find("CPU 142.7% = L7 RPS 73.2% + ECC SSL TPS 69.6%"),
            std::string::npos)
      << f->finding.summary;
  EXPECT_EQ(Sizing(one, "summary").AsString(),
            "1 SE of 6 vCPUs would run 150,000 L7 RPS + 8,000 ECC SSL TPS at 142.7% CPU, over the "
            "80% target (measured)");
}

TEST(SeGroupSizingTest, HaModeAndVirtualServicesShapeThePlan) {
  const SizingPlan pair =
      PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}})},
                                {"ha_mode", Value::String("HA_MODE_SHARED_PAIR")}}),
                 sz::Platform::kNsxt);
  ASSERT_TRUE(pair.known);
  EXPECT_EQ(Int(Sizing(pair, "se_count")), 2);
  EXPECT_EQ(Int(Planned(pair, "vcpus_per_se")), 4);
  EXPECT_EQ(Int(Planned(pair, "max_se")), 2);
  EXPECT_EQ(Int(Planned(pair, "buffer_se")), 0);
  EXPECT_EQ(Int(Planned(pair, "min_scaleout_per_vs")), 2);
  EXPECT_EQ(pair.recommended.count("ha_mode"), 0u);  // set, so not planned

  const SizingPlan slots = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}, {"virtual_services", N(25)}})},
                     {"max_vs_per_se", N(10)}}),
      sz::Platform::kNsxt);
  ASSERT_TRUE(slots.known);
  EXPECT_EQ(Int(Sizing(slots, "se_count")), 3);
  EXPECT_EQ(Int(Planned(slots, "max_se")), 4);
  EXPECT_EQ(Int(Planned(slots, "min_scaleout_per_vs")), 1);

  // A max_se without the slots is an under-sizing at max_se.
  const SizingPlan short_of_slots = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}, {"virtual_services", N(25)}})},
                     {"max_se", N(3)}}),
      sz::Platform::kNsxt);
  const PlacedFinding* f = FindRule(short_of_slots, sz::rules::kVsSlots);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("max_se"));
  EXPECT_TRUE(f->policy_dependent);

  // Legacy active/standby that one SE cannot carry: the limit, at the workload's metric.
  const SizingPlan legacy =
      PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(400000)}})},
                                {"ha_mode", Value::String("HA_MODE_LEGACY_ACTIVE_STANDBY")}}),
                 sz::Platform::kNsxt);
  const PlacedFinding* limit = FindRule(legacy, sz::rules::kLegacyOneActive);
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->path, AtWorkload("l7_rps"));
  EXPECT_TRUE(limit->policy_dependent);
  EXPECT_EQ(Int(Planned(legacy, "max_se")), 2);

  // An ha_mode Avi does not have is an input error at ha_mode.
  const SizingPlan bad = PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}})},
                                                   {"ha_mode", Value::String("ACTIVE_ACTIVE")}}),
                                    sz::Platform::kNsxt);
  ASSERT_EQ(bad.input_errors.size(), 1u);
  EXPECT_EQ(bad.input_errors.items()[0].path, At("ha_mode"));
  EXPECT_NE(bad.input_errors.items()[0].detail.find("HA_MODE_SHARED_PAIR"), std::string::npos);
}

TEST(SeGroupSizingTest, SetAttributesAreNotRecommended) {
  const SizingPlan plan =
      PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}})},
                                {"vcpus_per_se", N(6)},
                                {"ha_mode", Value::String("HA_MODE_SHARED_PAIR")},
                                {"max_se", Value::Unknown(cty::Type::Number())}}),
                 sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(plan.recommended.count("vcpus_per_se"), 0u);
  EXPECT_EQ(plan.recommended.count("ha_mode"), 0u);
  EXPECT_EQ(plan.recommended.count("max_se"), 0u);  // unknown is not null
  EXPECT_EQ(Int(Planned(plan, "memory_per_se")), 12288);
}

TEST(SeGroupSizingTest, VcenterEcc8000OnTwoVcpusIsUnderSized) {
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"ssl_tps_ecc", N(8000)}})}, {"vcpus_per_se", N(2)}}),
      sz::Platform::kVcenter);
  ASSERT_TRUE(plan.known);
  const PlacedFinding* f = FindRule(plan, sz::rules::kUnderDelivery);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.severity, sz::Severity::kWarning);
  EXPECT_EQ(f->path, At("vcpus_per_se"));
  EXPECT_TRUE(f->policy_dependent);
  EXPECT_EQ(FindingText(*f).rfind("warning [vcpus_per_se] demand-within-capacity: ECC SSL TPS "
                                  "under-delivered: 5,800 of 10,000 needed. ",
                                  0),
            0u)
      << FindingText(*f);

  framework::Diagnostics warn;
  AddFindingDiagnostic(*f, segroup::SizingPolicy::kWarn, warn);
  ASSERT_EQ(warn.size(), 1u);
  EXPECT_EQ(warn.items()[0].severity, framework::Severity::kWarning);
  EXPECT_EQ(warn.items()[0].path, At("vcpus_per_se"));
  framework::Diagnostics enforce;
  AddFindingDiagnostic(*f, segroup::SizingPolicy::kEnforce, enforce);
  ASSERT_EQ(enforce.size(), 1u);
  EXPECT_EQ(enforce.items()[0].severity, framework::Severity::kError);
  EXPECT_EQ(enforce.items()[0].path, At("vcpus_per_se"));
  EXPECT_NE(enforce.items()[0].detail.find("demand-within-capacity"), std::string::npos);
  // Enforce waived (an unchanged group, a data source): a warning whose detail says why.
  framework::Diagnostics waived;
  AddFindingDiagnostic(*f, segroup::SizingPolicy::kEnforce, waived, "Why it is a warning.");
  ASSERT_EQ(waived.size(), 1u);
  EXPECT_EQ(waived.items()[0].severity, framework::Severity::kWarning);
  EXPECT_EQ(waived.items()[0].path, At("vcpus_per_se"));
  EXPECT_NE(waived.items()[0].detail.find("\n\nWhy it is a warning."), std::string::npos);
  // Under "warn" there is nothing to explain.
  framework::Diagnostics warn_waived;
  AddFindingDiagnostic(*f, segroup::SizingPolicy::kWarn, warn_waived, "Why it is a warning.");
  EXPECT_EQ(warn_waived.items()[0].detail.find("Why it is a warning."), std::string::npos);

  // The rest is planned for the SEs that are set: 1 SE (Avi's default) of 2 vCPUs.
  EXPECT_EQ(Int(Planned(plan, "memory_per_se")), 2048);
  EXPECT_EQ(Int(Planned(plan, "disk_per_se")), 20);
  EXPECT_EQ(Int(Planned(plan, "num_dispatcher_cores")), 0);
  EXPECT_FALSE(Planned(plan, "dedicated_dispatcher_core").AsBool());
  EXPECT_EQ(Int(Planned(plan, "min_scaleout_per_vs")), 1);
  EXPECT_EQ(Int(Planned(plan, "max_se")), 2);
  EXPECT_EQ(Sizing(plan, "summary").AsString(),
            "1 SE of 2 vCPUs would run 8,000 ECC SSL TPS at 137.9%, over the 80% target "
            "(measured)");
  ASSERT_EQ(Sizing(plan, "findings").elements().size(), plan.findings.size());
  EXPECT_EQ(Sizing(plan, "findings").elements()[0].AsString(), FindingText(plan.findings[0]));
}

TEST(SeGroupSizingTest, UnsetSettingsFollowTheSetVcpus) {
  // nsxt 150,000 RPS needs 6 vCPUs; with 4 set, the rest is what 4-vCPU SEs get.
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}})}, {"vcpus_per_se", N(4)}}),
      sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(Int(Planned(plan, "memory_per_se")), 8192);
  EXPECT_EQ(Int(Planned(plan, "disk_per_se")), 21);
  EXPECT_EQ(Int(Planned(plan, "num_dispatcher_cores")), 1);
  EXPECT_TRUE(Planned(plan, "dedicated_dispatcher_core").AsBool());
  EXPECT_EQ(Int(Planned(plan, "max_queues_per_vnic")), 0);
  EXPECT_EQ(Int(Planned(plan, "min_scaleout_per_vs")), 1);
  const PlacedFinding* f = FindRule(plan, sz::rules::kUnderDelivery);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("vcpus_per_se"));
  EXPECT_EQ(Sizing(plan, "utilization_pct").AsNumber().ToString(), "98");
}

TEST(SeGroupSizingTest, SetSeCountPlansMaxScaleoutToCoverIt) {
  const SizingPlan plan = PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(150000)}})},
                                                    {"min_scaleout_per_vs", N(6)}}),
                                     sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(Int(Planned(plan, "max_scaleout_per_vs")), 6);
  EXPECT_EQ(Int(Planned(plan, "max_se")), 7);
  EXPECT_EQ(FindRule(plan, sz::rules::kScaleoutLimit), nullptr);
  EXPECT_EQ(Int(Sizing(plan, "se_count")), 6);
  // Six 6-vCPU SEs for what one carries: over-provisioned, on the attribute that set the count.
  const PlacedFinding* f = FindRule(plan, sz::rules::kOverProvisioning);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("min_scaleout_per_vs"));
  EXPECT_EQ(FindingText(*f).rfind("warning [min_scaleout_per_vs] over-provisioning-2x: ", 0), 0u);
}

TEST(SeGroupSizingTest, ScaleOutPlansEnoughMaxScaleoutWithoutAWarning) {
  // nsxt 800,000 RPS: 5 SEs of 6 vCPUs, more than Avi's default max_scaleout_per_vs of 4.
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", N(800000)}})}}), sz::Platform::kNsxt);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(Int(Planned(plan, "min_scaleout_per_vs")), 5);
  EXPECT_EQ(Int(Planned(plan, "max_scaleout_per_vs")), 5);
  EXPECT_EQ(Int(Planned(plan, "max_se")), 6);
  EXPECT_TRUE(plan.findings.empty());
  EXPECT_EQ(Sizing(plan, "summary").AsString(),
            "5 SEs of 6 vCPUs carry 800,000 L7 RPS at 78.0% (measured)");

  // A max_scaleout_per_vs that is set and too small is the model's warning, on it.
  const SizingPlan limited =
      PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(800000)}})},
                                {"max_scaleout_per_vs", N(4)}}),
                 sz::Platform::kNsxt);
  const PlacedFinding* f = FindRule(limited, sz::rules::kScaleoutLimit);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("max_scaleout_per_vs"));
  EXPECT_EQ(limited.recommended.count("max_scaleout_per_vs"), 0u);
}

TEST(SeGroupSizingTest, UnknownInputIsNotKnownAndNoError) {
  for (const Value& config :
       {SeGroupConfig({{"workload", Workload({{"l7_rps", Value::Unknown(cty::Type::Number())}})}}),
        SeGroupConfig({{"workload", Value::Unknown(WorkloadType())}}),
        SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}})},
                       {"vcpus_per_se", Value::Unknown(cty::Type::Number())},
                       {"memory_per_se", F(2.5)}}),
        SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}})},
                       {"min_scaleout_per_vs", Value::Unknown(cty::Type::Number())}}),
        Value::Unknown(ConfigType())}) {
    const SizingPlan plan = PlanSizing(config, sz::Platform::kVcenter);
    EXPECT_FALSE(plan.known) << config.DebugString();
    EXPECT_TRUE(plan.findings.empty());
    EXPECT_TRUE(plan.input_errors.empty());
    EXPECT_TRUE(plan.recommended.empty());
  }
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_rps", Value::Unknown(cty::Type::Number())}})}}),
      sz::Platform::kVcenter);
  EXPECT_TRUE(plan.has_workload);
  EXPECT_FALSE(plan.sizing_object.IsKnown());
  EXPECT_EQ(plan.sizing_object.type(), SizingObjectType());
  // Unknown pass-through attributes, and an unknown max_se (only checked), do not stop the model.
  EXPECT_TRUE(PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}})},
                                        {"max_se", Value::Unknown(cty::Type::Number())},
                                        {"min_se", Value::Unknown(cty::Type::Number())}}),
                         sz::Platform::kVcenter)
                  .known);
  // The HA mode is a model input: the sizing waits for it.
  EXPECT_FALSE(PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000)}})},
                                         {"ha_mode", Value::Unknown(cty::Type::String())}}),
                          sz::Platform::kVcenter)
                   .known);
}

TEST(SeGroupSizingTest, NoWorkloadChecksSettingsOnly) {
  const SizingPlan plan =
      PlanSizing(SeGroupConfig({{"vcpus_per_se", N(100)}}), sz::Platform::kVcenter);
  ASSERT_TRUE(plan.known);
  EXPECT_FALSE(plan.has_workload);
  EXPECT_TRUE(plan.sizing_object.IsNull());
  EXPECT_EQ(plan.sizing_object.type(), SizingObjectType());
  EXPECT_TRUE(plan.recommended.empty());
  const PlacedFinding* f = FindRule(plan, sz::rules::kRangeVcpus);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.severity, sz::Severity::kError);
  EXPECT_EQ(f->path, At("vcpus_per_se"));
  framework::Diagnostics d;
  AddFindingDiagnostic(*f, segroup::SizingPolicy::kWarn, d);
  EXPECT_TRUE(d.HasError());

  const SizingPlan fine =
      PlanSizing(SeGroupConfig({{"vcpus_per_se", N(4)}, {"cpu_reserve", Value::Bool(false)}}),
                 sz::Platform::kVcenter);
  ASSERT_TRUE(fine.known);
  EXPECT_TRUE(fine.recommended.empty());
  ASSERT_EQ(fine.findings.size(), 1u);
  EXPECT_EQ(fine.findings[0].path, At("cpu_reserve"));
  EXPECT_FALSE(fine.findings[0].policy_dependent);
  EXPECT_TRUE(PlanSizing(SeGroupConfig({}), sz::Platform::kNsxt).findings.empty());
}

// Without a workload and without vcpus_per_se the SE's vCPUs are the Controller's: settings that
// are judged against the vCPU count are not judged against a guess.
TEST(SeGroupSizingTest, NoWorkloadAndNoVcpusSkipsVcpuDependentChecks) {
  const SizingPlan alone =
      PlanSizing(SeGroupConfig({{"num_dispatcher_cores", N(2)}}), sz::Platform::kVcenter);
  ASSERT_TRUE(alone.known);
  EXPECT_TRUE(alone.findings.empty()) << alone.findings[0].finding.summary;
  const SizingPlan with_vcpus =
      PlanSizing(SeGroupConfig({{"num_dispatcher_cores", N(2)}, {"vcpus_per_se", N(2)}}),
                 sz::Platform::kVcenter);
  const PlacedFinding* f = FindRule(with_vcpus, sz::rules::kDispatchersFewer);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, At("num_dispatcher_cores"));
  // Range errors do not depend on the vCPU count and stay.
  EXPECT_NE(
      FindRule(PlanSizing(SeGroupConfig({{"num_dispatcher_cores", N(3)}}), sz::Platform::kVcenter),
               sz::rules::kAllowedValues),
      nullptr);
}

TEST(SeGroupSizingTest, ThroughputIsInGbps) {
  // vcenter L7 SSL throughput: 7.2 Gbps at 4 vCPUs; 5.6 / 0.8 = 7 Gbps needed.
  const SizingPlan plan = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_ssl_gbps", F(5.6)}})}}), sz::Platform::kVcenter);
  ASSERT_TRUE(plan.known);
  EXPECT_EQ(Int(Planned(plan, "vcpus_per_se")), 4);
  ASSERT_EQ(plan.loads.size(), 1u);
  EXPECT_EQ(plan.loads[0].demand, 5600);  // Mbps, exactly
  EXPECT_EQ(plan.loads[0].per_se.value, 7200);
  EXPECT_EQ(Sizing(plan, "binding_metric").AsString(), "l7_ssl_gbps");
  EXPECT_EQ(Sizing(plan, "summary").AsString(),
            "1 SE of 4 vCPUs carries 5.6 Gbps L7 SSL throughput at 77.8% (measured)");
  // 5.8 Gbps is not carried by 4 vCPUs (5.8 / 0.8 = 7.25 > 7.2).
  const SizingPlan more = PlanSizing(
      SeGroupConfig({{"workload", Workload({{"l7_ssl_gbps", F(5.8)}})}}), sz::Platform::kVcenter);
  EXPECT_EQ(Int(Planned(more, "vcpus_per_se")), 5);
  EXPECT_EQ(Sizing(more, "basis").AsString(), "interpolated");
}

TEST(SeGroupSizingTest, NonIntegerCountsAreInputErrorsAtTheirPaths) {
  const struct {
    Value config;
    AttributePath path;
  } kCases[] = {
      {SeGroupConfig({{"vcpus_per_se", F(2.5)}}), At("vcpus_per_se")},
      {SeGroupConfig({{"memory_per_se", Value::NumberVal(*cty::Number::FromDecimal("1e30"))}}),
       At("memory_per_se")},
      {SeGroupConfig({{"vcpus_per_se", N(int64_t{1} << 40)}}), At("vcpus_per_se")},
      {SeGroupConfig({{"num_dispatcher_cores", F(0.5)}}), At("num_dispatcher_cores")},
      {SeGroupConfig({{"min_scaleout_per_vs", F(1.5)}}), At("min_scaleout_per_vs")},
      {SeGroupConfig({{"max_se", F(1.5)}}), At("max_se")},
      {SeGroupConfig({{"min_se", F(0.1)}}), At("min_se")},
      {SeGroupConfig({{"workload", Workload({{"target_utilization", F(80.5)}})}}),
       AtWorkload("target_utilization")},
      {SeGroupConfig({{"workload", Workload({{"max_vcpus_per_se", F(6.5)}})}}),
       AtWorkload("max_vcpus_per_se")},
  };
  for (const auto& c : kCases) {
    const SizingPlan plan = PlanSizing(c.config, sz::Platform::kVcenter);
    EXPECT_TRUE(plan.known);
    ASSERT_EQ(plan.input_errors.size(), 1u) << c.config.DebugString();
    EXPECT_EQ(plan.input_errors.items()[0].severity, framework::Severity::kError);
    EXPECT_EQ(plan.input_errors.items()[0].path, c.path) << plan.input_errors.ToString();
    EXPECT_TRUE(plan.sizing_object.IsNull());
    EXPECT_TRUE(plan.recommended.empty());
  }
  // Fractional demand is fine.
  EXPECT_TRUE(PlanSizing(SeGroupConfig({{"workload", Workload({{"l7_rps", F(1000.5)}})}}),
                         sz::Platform::kVcenter)
                  .input_errors.empty());
}

TEST(SeGroupSizingTest, ModelRangesAreFindingsAtTheirPaths) {
  const struct {
    Value config;
    AttributePath path;
  } kCases[] = {
      {SeGroupConfig({{"workload", Workload({{"target_utilization", N(95)}})}}),
       AtWorkload("target_utilization")},
      {SeGroupConfig({{"workload", Workload({{"max_vcpus_per_se", N(0)}})}}),
       AtWorkload("max_vcpus_per_se")},
      {SeGroupConfig({{"workload", Workload({{"l7_rps", N(-5)}})}}), AtWorkload("l7_rps")},
      {SeGroupConfig({{"workload", Workload({})}, {"buffer_se", N(-1)}}), At("buffer_se")},
      {SeGroupConfig({{"buffer_se", N(-1)}}), At("buffer_se")},
      {SeGroupConfig({{"max_scaleout_per_vs", N(100)}}), At("max_scaleout_per_vs")},
      {SeGroupConfig({{"min_scaleout_per_vs", N(0)}}), At("min_scaleout_per_vs")},
      {SeGroupConfig({{"memory_per_se", N(512)}}), At("memory_per_se")},
      {SeGroupConfig({{"num_dispatcher_cores", N(3)}}), At("num_dispatcher_cores")},
      {SeGroupConfig({{"max_queues_per_vnic", N(3)}}), At("max_queues_per_vnic")},
      {SeGroupConfig({{"disk_per_se", N(0)}}), At("disk_per_se")},
      // More than 1000 SEs: the workload as a whole.
      {SeGroupConfig({{"workload", Workload({{"l7_rps", N(1000000000)}})}}), At("workload")},
  };
  for (const auto& c : kCases) {
    const SizingPlan plan = PlanSizing(c.config, sz::Platform::kVcenter);
    ASSERT_TRUE(plan.known);
    EXPECT_TRUE(plan.input_errors.empty());
    bool found = false;
    for (const PlacedFinding& f : plan.findings) {
      if (f.finding.severity == sz::Severity::kError && f.path == c.path) found = true;
    }
    EXPECT_TRUE(found) << c.config.DebugString() << " -> " << c.path.ToString();
    EXPECT_TRUE(plan.sizing_object.IsNull());
    EXPECT_TRUE(plan.recommended.empty());
  }
}

TEST(SeGroupSizingTest, EveryAttributeTheModelNamesHasAPath) {
  // Every attribute name sizing::CheckWorkload, sizing::Validate and sizing::Recommend put in a
  // Finding (grep plugin/sizing for Error(, Warning(, RangeError(, CheckIntRange( and
  // UnderDeliveryAttribute).
  const std::map<std::string, AttributePath> kExpected = {
      {"vcpus_per_se", At("vcpus_per_se")},
      {"memory_per_se", At("memory_per_se")},
      {"disk_per_se", At("disk_per_se")},
      {"cpu_reserve", At("cpu_reserve")},
      {"mem_reserve", At("mem_reserve")},
      {"dedicated_dispatcher_core", At("dedicated_dispatcher_core")},
      {"num_dispatcher_cores", At("num_dispatcher_cores")},
      {"max_queues_per_vnic", At("max_queues_per_vnic")},
      {"hybrid_rss_mode", At("hybrid_rss_mode")},
      {"se_count", At("min_scaleout_per_vs")},
      {"buffer_se", At("buffer_se")},
      {"max_scaleout_per_vs", At("max_scaleout_per_vs")},
      {"workload", At("workload")},
      {"workload.target_utilization", AtWorkload("target_utilization")},
      {"workload.max_vcpus_per_se", AtWorkload("max_vcpus_per_se")},
      {"workload.ssl_tps_ecc", AtWorkload("ssl_tps_ecc")},
      {"workload.ssl_tps_rsa", AtWorkload("ssl_tps_rsa")},
      {"workload.l7_rps", AtWorkload("l7_rps")},
      {"workload.l4_cps", AtWorkload("l4_cps")},
      {"workload.l4_open_conns", AtWorkload("l4_open_conns")},
      {"workload.l4_gbps", AtWorkload("l4_gbps")},
      {"workload.l7_gbps", AtWorkload("l7_gbps")},
      {"workload.l7_ssl_gbps", AtWorkload("l7_ssl_gbps")},
      // Not a name the model uses today: the workload block.
      {"workload.something_else", At("workload")},
      {"something_else", At("workload")},
  };
  const framework::Block& block = ResourceSchema().block;
  for (const auto& [name, path] : kExpected) {
    EXPECT_EQ(PathOfModelAttribute(name, true), path) << name;
    const AttributePath got = PathOfModelAttribute(name, true);
    EXPECT_TRUE(framework::AttributeAtPath(block, got) != nullptr || got == At("workload"))
        << name << " -> " << got.ToString() << " is not in the nsxalb_se_group schema";
  }
  // Without a workload block, workload paths fall back to the root; attributes stay.
  EXPECT_EQ(PathOfModelAttribute("workload.l7_rps", false), AttributePath());
  EXPECT_EQ(PathOfModelAttribute("workload", false), AttributePath());
  EXPECT_EQ(PathOfModelAttribute("something_else", false), AttributePath());
  EXPECT_EQ(PathOfModelAttribute("se_count", false), At("min_scaleout_per_vs"));
  EXPECT_EQ(PathOfModelAttribute("buffer_se", false), At("buffer_se"));
}

TEST(SeGroupSizingTest, FindingsOfManyConfigurationsLandOnSchemaAttributes) {
  // A grid of configurations that provoke the model's findings; every one must land on an
  // attribute of the schema (or the workload block), never on the root.
  const framework::Block& block = ResourceSchema().block;
  std::vector<Value> configs;
  for (sz::Metric m : sz::kAllMetrics) {
    const double big = sz::InfoOf(m).kind == sz::MetricKind::kThroughput ? 40 : 2000000;
    configs.push_back(SeGroupConfig(
        {{"workload", Workload({{sz::InfoOf(m).key, F(big)}})}, {"vcpus_per_se", N(1)}}));
    configs.push_back(SeGroupConfig(
        {{"workload", Workload({{sz::InfoOf(m).key, F(big)}})}, {"min_scaleout_per_vs", N(2)}}));
    configs.push_back(SeGroupConfig(
        {{"workload", Workload({{sz::InfoOf(m).key, F(big)}})}, {"memory_per_se", N(2048)}}));
    configs.push_back(SeGroupConfig({{"workload", Workload({{sz::InfoOf(m).key, F(big / 1000)}})},
                                     {"vcpus_per_se", N(8)},
                                     {"min_scaleout_per_vs", N(8)},
                                     {"max_scaleout_per_vs", N(2)}}));
  }
  configs.push_back(SeGroupConfig({{"max_scaleout_per_vs", N(1)},
                                   {"workload", Workload({{"l7_rps", N(500000)},
                                                          {"target_utilization", N(90)},
                                                          {"max_vcpus_per_se", N(12)}})}}));
  configs.push_back(SeGroupConfig({{"vcpus_per_se", N(6)},
                                   {"memory_per_se", N(1024)},
                                   {"disk_per_se", N(5)},
                                   {"cpu_reserve", Value::Bool(false)},
                                   {"mem_reserve", Value::Bool(false)},
                                   {"dedicated_dispatcher_core", Value::Bool(false)},
                                   {"num_dispatcher_cores", N(4)},
                                   {"max_queues_per_vnic", N(1)}}));
  configs.push_back(SeGroupConfig({{"vcpus_per_se", N(2)},
                                   {"num_dispatcher_cores", N(2)},
                                   {"hybrid_rss_mode", Value::Bool(false)}}));
  int findings = 0;
  for (sz::Platform platform : sz::kAllPlatforms) {
    for (const Value& config : configs) {
      const SizingPlan plan = PlanSizing(config, platform);
      ASSERT_TRUE(plan.known);
      for (const PlacedFinding& f : plan.findings) {
        ++findings;
        EXPECT_FALSE(f.path.empty()) << f.finding.attribute;
        EXPECT_TRUE(framework::AttributeAtPath(block, f.path) != nullptr ||
                    f.path == At("workload"))
            << f.finding.attribute << " -> " << f.path.ToString();
        EXPECT_EQ(f.policy_dependent, f.finding.rule == sz::rules::kUnderDelivery);
      }
    }
  }
  EXPECT_GT(findings, 50);
}

TEST(SeGroupSizingTest, SizingPolicyParses) {
  EXPECT_EQ(*segroup::ParseSizingPolicy("warn"), segroup::SizingPolicy::kWarn);
  EXPECT_EQ(*segroup::ParseSizingPolicy("enforce"), segroup::SizingPolicy::kEnforce);
  const absl::StatusOr<segroup::SizingPolicy> bad = segroup::ParseSizingPolicy("strict");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_NE(bad.status().message().find("\"warn\" or \"enforce\""), std::string_view::npos);
}

TEST(SeGroupSizingTest, NamesAndTypeMatchTheResourceSchema) {
  const framework::Block& block = ResourceSchema().block;
  for (const std::string& name : segroup::SizingAttributeNames()) {
    const framework::Attribute* a = block.FindAttribute(name);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_TRUE(a->optional && a->computed) << name;
  }
  const framework::Attribute* sizing = block.FindAttribute("sizing");
  ASSERT_NE(sizing, nullptr);
  EXPECT_EQ(sizing->type, SizingObjectType());
  // Planned values have the attributes' types.
  const SizingPlan plan = PlanSizing(SeGroupConfig({{"workload", Workload({{"l4_gbps", N(5)}})}}),
                                     sz::Platform::kVcenter);
  for (const auto& [name, value] : plan.recommended) {
    EXPECT_THAT(cty::CheckConformance(value, block.FindAttribute(name)->type), IsOk()) << name;
  }
}

}  // namespace
}  // namespace nsxalb::provider
