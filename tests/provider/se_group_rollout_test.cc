// The resource's rollout block: its validation, and what a plan makes of it (an update and a
// warning while SEs lag with "rolling", no change otherwise).
#include "plugin/provider/se_group_rollout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/provider/se_group_running_ses.h"

namespace nsxalb::provider {
namespace {

namespace lc = segroup::lifecycle;
using ::testing::HasSubstr;

const framework::Block& Block() { return EmbeddedResourceSchema(kSeGroupResourceType).block; }

// A configuration with a rollout block of the given attributes (null where not given).
cty::Value WithRollout(std::map<std::string, cty::Value> given) {
  const cty::Type block_type = framework::ImpliedType(Block().block_types.at("rollout").block);
  std::map<std::string, cty::Value> attrs;
  for (const auto& [name, type] : block_type.attributes()) {
    attrs.emplace(name, given.count(name) > 0 ? given.at(name) : cty::Value::Null(type));
  }
  return framework::EmptyObject(Block()).WithAttribute("rollout",
                                                       cty::Value::Object(attrs, block_type));
}

// A state of a group with 4 vCPUs of 8,192 MB per SE and the given last_rollout.
cty::Value GroupState(cty::Value last_rollout) {
  return framework::EmptyObject(Block())
      .WithAttribute("id", cty::Value::String("serviceenginegroup-1"))
      .WithAttribute("name", cty::Value::String("checkout"))
      .WithAttribute("vcpus_per_se", cty::Value::Int(5))
      .WithAttribute("memory_per_se", cty::Value::Int(10240))
      .WithAttribute("last_rollout", std::move(last_rollout));
}

lc::GroupSes ThreeLaggingSes() {
  lc::GroupSes ses;
  for (int i = 3; i >= 1; --i) {
    lc::RunningSe se;
    se.uuid = "se-" + std::to_string(i);
    se.name = "checkout-se-" + std::to_string(i);
    se.vcpus = 4;
    se.memory_mb = 8192;
    ses.running.push_back(se);
    ses.lagging.push_back(
        lc::LaggingSe{se, controller::TakesEffect::kNewSesOnly, {"vcpus_per_se", "memory_per_se"}});
  }
  return ses;
}

TEST(SeGroupRolloutTest, DefaultsWhenTheBlockIsAbsentOrEmpty) {
  framework::Diagnostics d;
  std::optional<RolloutSettings> absent = ReadRolloutSettings(framework::EmptyObject(Block()), &d);
  ASSERT_TRUE(absent.has_value());
  EXPECT_FALSE(absent->rolling);
  EXPECT_EQ(absent->max_unavailable, 1);
  EXPECT_EQ(absent->timeout, absl::Minutes(30));
  std::optional<RolloutSettings> rolling =
      ReadRolloutSettings(WithRollout({{"strategy", cty::Value::String("rolling")},
                                       {"max_unavailable", cty::Value::Int(2)},
                                       {"timeout", cty::Value::String("1h30m")}}),
                          &d);
  ASSERT_TRUE(rolling.has_value());
  EXPECT_TRUE(rolling->rolling);
  EXPECT_EQ(rolling->max_unavailable, 2);
  EXPECT_EQ(rolling->timeout, absl::Minutes(90));
  EXPECT_FALSE(d.HasError());
}

TEST(SeGroupRolloutTest, BadValuesAreErrorsAtTheirAttributes) {
  struct Case {
    const char* attribute;
    cty::Value value;
    const char* says;
  };
  for (const Case& c : {Case{"strategy", cty::Value::String("canary"), "\"canary\""},
                        Case{"max_unavailable", cty::Value::Int(0), "from 1 to 64"},
                        Case{"max_unavailable", cty::Value::Float(1.5), "whole number"},
                        Case{"timeout", cty::Value::String("soon"), "\"soon\""},
                        Case{"timeout", cty::Value::String("48h"), "1s to 24h"}}) {
    framework::Diagnostics d;
    EXPECT_FALSE(ReadRolloutSettings(WithRollout({{c.attribute, c.value}}), &d).has_value())
        << c.attribute;
    ASSERT_EQ(d.items().size(), 1u) << c.attribute;
    ASSERT_TRUE(d.items()[0].path.has_value());
    EXPECT_EQ(d.items()[0].path->ToString(), std::string(".rollout.") + c.attribute);
    EXPECT_THAT(d.items()[0].detail, HasSubstr(c.says));
  }
}

TEST(SeGroupRolloutTest, UnknownSettingsDecideNothing) {
  framework::Diagnostics d;
  EXPECT_FALSE(
      ReadRolloutSettings(WithRollout({{"strategy", cty::Value::Unknown(cty::Type::String())}}), &d)
          .has_value());
  EXPECT_FALSE(d.HasError());
}

// The plan's private data carries the roll's decision to apply, and only to that apply.
TEST(SeGroupRolloutTest, TheDecisionLeavesThePrivateDataItCameIn) {
  EXPECT_EQ(WithoutRollDecision(""), "");
  EXPECT_EQ(WithoutRollDecision("{\"rollout_decision\":\"roll:checkout-se-1=replace\"}"), "");
  EXPECT_EQ(WithoutRollDecision(
                "{\"capture_extra_fields\":true,\"rollout_decision\":\"refused:capacity:a\"}"),
            "{\"capture_extra_fields\":true}");
  EXPECT_EQ(WithoutRollDecision("{\"capture_extra_fields\":true}"),
            "{\"capture_extra_fields\":true}");
}

TEST(SeGroupRolloutTest, NoneOrNothingLaggingKeepsThePlanClean) {
  const cty::Value recorded = cty::Value::Object(
      {{"result", cty::Value::String("complete")},
       {"done", cty::Value::List(cty::Type::String(), {cty::Value::String("checkout-se-1")})},
       {"to_do", cty::Value::List(cty::Type::String(), {})},
       {"message", cty::Value::String("done")},
       {"replacements_kept", cty::Value::Int(0)}},
      LastRolloutObjectType());
  const cty::Value prior = GroupState(recorded);
  framework::Diagnostics d;
  NsxalbProvider provider;
  std::string planned_private = "{\"rollout_decision\":\"roll:checkout-se-1=replace\"}";
  // "none" with lagging SEs: nothing planned, last_rollout kept, no decision carried over.
  const cty::Value none = WithRollout({{"strategy", cty::Value::String("none")}});
  RollContext context;
  context.config = &none;
  context.prior = &prior;
  context.ses = ThreeLaggingSes();
  cty::Value planned = PlanRollout(provider, nullptr, context, prior, segroup::SizingPolicy::kWarn,
                                   "", &planned_private, d);
  EXPECT_TRUE(planned.Equals(prior));
  EXPECT_EQ(planned_private, "");
  // "rolling" with every SE matching: the same.
  const cty::Value rolling = WithRollout({{"strategy", cty::Value::String("rolling")}});
  context.config = &rolling;
  context.ses = lc::GroupSes{};
  planned = PlanRollout(provider, nullptr, context, prior, segroup::SizingPolicy::kWarn, "",
                        &planned_private, d);
  EXPECT_TRUE(planned.Equals(prior));
  EXPECT_TRUE(d.items().empty());
}

TEST(SeGroupRolloutTest, AnApplyThatReadsTheSesMayRollSoLastRolloutIsUnknown) {
  const cty::Value prior = GroupState(cty::Value::Null(LastRolloutObjectType()));
  const cty::Value changing =
      prior.WithAttribute("service_engines", cty::Value::Unknown(ServiceEnginesObjectType()));
  framework::Diagnostics d;
  NsxalbProvider provider;
  const cty::Value rolling = WithRollout({{"strategy", cty::Value::String("rolling")}});
  RollContext context;
  context.config = &rolling;
  context.prior = &prior;
  const cty::Value planned = PlanRollout(provider, nullptr, context, changing,
                                         segroup::SizingPolicy::kWarn, "", nullptr, d);
  EXPECT_FALSE(planned.GetAttribute("last_rollout")->IsKnown());
  // A new group runs no SE: last_rollout is null, known.
  const cty::Value none = cty::Value::Null(prior.type());
  context.prior = &none;
  const cty::Value created = PlanRollout(provider, nullptr, context, changing,
                                         segroup::SizingPolicy::kWarn, "", nullptr, d);
  EXPECT_TRUE(created.GetAttribute("last_rollout")->IsKnown());
  EXPECT_TRUE(created.GetAttribute("last_rollout")->IsNull());
}

}  // namespace
}  // namespace nsxalb::provider
