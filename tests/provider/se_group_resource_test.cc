// nsxalb_se_group through the framework's engine (ProviderServer), with a mock Controller client:
// where each sizing finding is reported (validate or plan, never both), what plan decides, and
// how apply and refresh use the client. The real-Terraform scenarios in tests/terraform cover the
// same resource end to end against the emulator.
#include "plugin/provider/se_group_resource.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "plugin/framework/provider_server.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"
#include "tests/controller/mock_client.h"

namespace nsxalb::provider {
namespace {

using cty::Value;
using framework::Diagnostics;
using framework::Severity;
using ::testing::_;
using ::testing::Return;

class SeGroupResourceTest : public ::testing::Test {
 protected:
  SeGroupResourceTest() {
    client_ = std::make_shared<::testing::NiceMock<controller::MockClient>>();
    MakeServer(/*destroy_run=*/false);
    ON_CALL(*client_, ResolveCloud("nsxt-cloud"))
        .WillByDefault(Return(controller::CloudInfo{"cloud-2", "nsxt-cloud", "/api/cloud/cloud-2",
                                                    "CLOUD_NSXT", "ENTERPRISE"}));
    ON_CALL(*client_, ResolveCloud("Default-Cloud"))
        .WillByDefault(Return(controller::CloudInfo{
            "cloud-1", "Default-Cloud", "/api/cloud/cloud-1", "CLOUD_VCENTER", "ENTERPRISE"}));
    ON_CALL(*client_, ResolveCloud("aws"))
        .WillByDefault(Return(controller::CloudInfo{"cloud-3", "aws", "/api/cloud/cloud-3",
                                                    "CLOUD_AWS", "ENTERPRISE"}));
    ON_CALL(*client_, ControllerVersion())
        .WillByDefault(Return(controller::VersionInfo{*controller::ApiVersion::Parse("22.1.3"),
                                                      *controller::ApiVersion::Parse("22.1.3")}));
    // A licence that covers every plan here (the licence check's own tests set less).
    controller::LicenseLedgerDetails ledger;
    ledger.tier_usages.push_back({"ENTERPRISE", {100000, 0, 0, 100000}});
    ON_CALL(*client_, GetLicenseLedgerDetails()).WillByDefault(Return(ledger));
  }

  // A new provider and server; `destroy_run` as if `terraform destroy` had started the process.
  void MakeServer(bool destroy_run) {
    auto provider = std::make_shared<NsxalbProvider>(
        [this](const std::string& name) -> std::optional<std::string> {
          auto it = env_.find(name);
          if (it == env_.end()) return std::nullopt;
          return it->second;
        },
        [this](const controller::ClientConfig&)
            -> absl::StatusOr<std::shared_ptr<controller::Client>> { return client_; },
        destroy_run);
    server_ = std::make_unique<framework::ProviderServer>(provider);
  }

  void Configure(std::map<std::string, Value> attrs = {}) {
    if (!attrs.count("controller")) attrs["controller"] = Value::String("ctl.example.com");
    if (!attrs.count("username")) attrs["username"] = Value::String("admin");
    if (!attrs.count("password")) attrs["password"] = Value::String("pw");
    Diagnostics d = server_->Configure(
        "1.11.4", Value::ObjectOf(framework::ImpliedType(server_->provider_schema().block),
                                  std::move(attrs)));
    ASSERT_FALSE(d.HasError()) << d.ToString();
  }

  const framework::Block& Block() const {
    return server_->ResourceSchema(kSeGroupResourceType)->block;
  }
  Value Config(std::map<std::string, Value> attrs) const {
    return framework::NormalizeBlocks(
        Block(), Value::ObjectOf(framework::ImpliedType(Block()), std::move(attrs)));
  }
  Value Workload(std::map<std::string, Value> attrs) const {
    return Value::ObjectOf(framework::ImpliedType(Block().FindBlockType("workload")->block),
                           std::move(attrs));
  }
  Diagnostics Validate(const Value& config) {
    return server_->ValidateResourceConfig(kSeGroupResourceType, config);
  }
  framework::PlanResourceChangeResult PlanCreate(const Value& config) {
    const Value prior = Value::Null(config.type());
    return server_->PlanResourceChange(kSeGroupResourceType, prior, config, config, "");
  }

  // The findings of rule `rule` among `d`.
  static int Count(const Diagnostics& d, const std::string& rule) {
    int n = 0;
    for (const auto& x : d) n += x.detail.find(rule) != std::string::npos ? 1 : 0;
    return n;
  }

  // vcenter, 2 vCPUs for 8,000 ECC TPS: under-sized.
  Value UnderSized(std::map<std::string, Value> extra = {}) const {
    extra["name"] = Value::String("tls");
    extra["vcpus_per_se"] = Value::Int(2);
    extra["workload"] = Workload({{"ssl_tps_ecc", Value::Int(8000)}});
    return Config(extra);
  }

  std::map<std::string, std::string> env_;
  std::shared_ptr<::testing::NiceMock<controller::MockClient>> client_;
  std::unique_ptr<framework::ProviderServer> server_;
};

TEST_F(SeGroupResourceTest, PolicyDependentFindingIsReportedByPlanWhenTheResourceHasNoPolicy) {
  Configure();
  const Value config = UnderSized({{"platform", Value::String("vcenter")}});
  EXPECT_EQ(Count(Validate(config), "demand-within-capacity"), 0);
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  ASSERT_EQ(Count(plan.diagnostics, "demand-within-capacity"), 1) << plan.diagnostics.ToString();
  EXPECT_EQ(plan.diagnostics.items()[0].severity, Severity::kWarning);
  EXPECT_EQ(*plan.diagnostics.items()[0].path, cty::AttributePath().Attribute("vcpus_per_se"));
}

TEST_F(SeGroupResourceTest, ProviderEnforceMakesThePlanFail) {
  Configure({{"sizing_policy", Value::String("enforce")}});
  framework::PlanResourceChangeResult plan =
      PlanCreate(UnderSized({{"platform", Value::String("vcenter")}}));
  EXPECT_TRUE(plan.diagnostics.HasError());
  EXPECT_EQ(Count(plan.diagnostics, "demand-within-capacity"), 1);
}

TEST_F(SeGroupResourceTest, UnderSizingIsPlansEvenWithAWrittenPolicy) {
  Configure({{"sizing_policy", Value::String("enforce")}});
  const Value config = UnderSized(
      {{"platform", Value::String("vcenter")}, {"sizing_policy", Value::String("warn")}});
  EXPECT_EQ(Count(Validate(config), "demand-within-capacity"), 0);
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  ASSERT_EQ(Count(plan.diagnostics, "demand-within-capacity"), 1) << plan.diagnostics.ToString();
  EXPECT_FALSE(plan.diagnostics.HasError());  // the resource's warn wins over the provider's
}

// Validation runs before every plan, a destroy's and a refresh-only plan's included: it never
// fails on under-sizing, whatever the policy.
TEST_F(SeGroupResourceTest, ValidateNeverFailsOnUnderSizing) {
  Configure();
  const Value config = UnderSized(
      {{"platform", Value::String("vcenter")}, {"sizing_policy", Value::String("enforce")}});
  Diagnostics validate = Validate(config);
  EXPECT_FALSE(validate.HasError()) << validate.ToString();
  EXPECT_EQ(Count(validate, "demand-within-capacity"), 0);
  // The plan that would create the group is what fails.
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  EXPECT_TRUE(plan.diagnostics.HasError());
  EXPECT_EQ(Count(plan.diagnostics, "demand-within-capacity"), 1);
}

// The enforce gate (docs/design/se-group-resource.md): a plan whose planned state equals the
// prior state, as in the refresh plan that begins `terraform destroy` or a plan that changes
// another resource, gets a warning; a plan that changes the group gets the error.
TEST_F(SeGroupResourceTest, EnforceFailsOnlyAPlanThatChangesTheGroup) {
  Configure({{"sizing_policy", Value::String("enforce")}});
  const Value config = UnderSized({{"platform", Value::String("vcenter")}});
  framework::PlanResourceChangeResult create = PlanCreate(config);
  ASSERT_TRUE(create.diagnostics.HasError());
  // The group as it exists: the planned values, with what apply fills in known.
  Value prior = create.planned_state;
  for (const auto& [name, value] : create.planned_state.entries()) {
    if (value.IsKnown()) continue;
    if (name == "service_engines") {  // a group as read before any SE runs
      prior = std::move(prior).WithAttribute(name, Value::Null(value.type()));
      continue;
    }
    ASSERT_EQ(value.type().kind(), cty::Type::Kind::kString) << name;
    prior = std::move(prior).WithAttribute(name, Value::String("known-" + name));
  }

  framework::PlanResourceChangeResult unchanged =
      server_->PlanResourceChange(kSeGroupResourceType, prior, prior, config, "");
  ASSERT_FALSE(unchanged.diagnostics.HasError()) << unchanged.diagnostics.ToString();
  ASSERT_EQ(Count(unchanged.diagnostics, "demand-within-capacity"), 1);
  const framework::Diagnostic& warning = unchanged.diagnostics.items()[0];
  EXPECT_EQ(warning.severity, Severity::kWarning);
  EXPECT_EQ(*warning.path, cty::AttributePath().Attribute("vcpus_per_se"));
  EXPECT_NE(warning.detail.find("leaves the group unchanged"), std::string::npos) << warning.detail;
  EXPECT_TRUE(unchanged.planned_state.Equals(prior));

  // Writing the policy on the resource is not a change of the group either.
  const Value own = config.WithAttribute("sizing_policy", Value::String("enforce"));
  framework::PlanResourceChangeResult policy_only = server_->PlanResourceChange(
      kSeGroupResourceType, prior, prior.WithAttribute("sizing_policy", Value::String("enforce")),
      own, "");
  ASSERT_FALSE(policy_only.diagnostics.HasError()) << policy_only.diagnostics.ToString();
  EXPECT_EQ(Count(policy_only.diagnostics, "demand-within-capacity"), 1);

  // 9,000 ECC TPS instead of 8,000: the group changes, so enforce fails the plan.
  const Value workload = Workload({{"ssl_tps_ecc", Value::Int(9000)}});
  const Value more = config.WithAttribute("workload", workload);
  const Value proposed = prior.WithAttribute("workload", workload);
  framework::PlanResourceChangeResult changed =
      server_->PlanResourceChange(kSeGroupResourceType, prior, proposed, more, "");
  EXPECT_TRUE(changed.diagnostics.HasError()) << changed.diagnostics.ToString();
  EXPECT_EQ(Count(changed.diagnostics, "demand-within-capacity"), 1);
}

// A release that words the sizing otherwise (docs/design/se-group-resource.md, "Upgrades plan no
// change"): an unchanged group keeps the `sizing` its state records while the figures are equal,
// and the plan still warns in today's words; other figures, or a change of the group, record
// today's `sizing`.
TEST_F(SeGroupResourceTest, ARewordedSizingPlansNoChangeOfAnUnchangedGroup) {
  Configure();
  const Value config = UnderSized({{"platform", Value::String("vcenter")}});
  framework::PlanResourceChangeResult create = PlanCreate(config);
  ASSERT_FALSE(create.diagnostics.HasError()) << create.diagnostics.ToString();
  Value prior = create.planned_state;
  for (const auto& [name, value] : create.planned_state.entries()) {
    if (value.IsKnown()) continue;
    prior = std::move(prior).WithAttribute(name, name == "service_engines"
                                                     ? Value::Null(value.type())
                                                     : Value::String("known-" + name));
  }
  const Value today = *prior.GetAttribute("sizing");
  ASSERT_TRUE(today.IsWhollyKnown() && !today.IsNull());
  // The state an earlier release wrote: the same figures, other words.
  const Value reworded =
      today.WithAttribute("summary", Value::String("an earlier release's summary"))
          .WithAttribute("findings",
                         Value::List(cty::Type::String(), {Value::String("an earlier finding")}));
  const Value recorded = prior.WithAttribute("sizing", reworded);

  framework::PlanResourceChangeResult unchanged =
      server_->PlanResourceChange(kSeGroupResourceType, recorded, recorded, config, "");
  ASSERT_FALSE(unchanged.diagnostics.HasError()) << unchanged.diagnostics.ToString();
  EXPECT_TRUE(unchanged.planned_state.Equals(recorded))
      << "an unchanged group keeps the recorded sizing";
  EXPECT_EQ(Count(unchanged.diagnostics, "demand-within-capacity"), 1)
      << "the plan warns in today's words";

  // Other figures (a release whose model found another SE count): today's sizing.
  const Value other_figures =
      prior.WithAttribute("sizing", reworded.WithAttribute("se_count", Value::Int(9)));
  framework::PlanResourceChangeResult refigured =
      server_->PlanResourceChange(kSeGroupResourceType, other_figures, other_figures, config, "");
  ASSERT_FALSE(refigured.diagnostics.HasError()) << refigured.diagnostics.ToString();
  EXPECT_TRUE(refigured.planned_state.GetAttribute("sizing")->Equals(today));

  // A change of the group (another workload): today's sizing, with the new figures.
  const Value workload = Workload({{"ssl_tps_ecc", Value::Int(9000)}});
  framework::PlanResourceChangeResult changed = server_->PlanResourceChange(
      kSeGroupResourceType, recorded, recorded.WithAttribute("workload", workload),
      config.WithAttribute("workload", workload), "");
  ASSERT_FALSE(changed.diagnostics.HasError()) << changed.diagnostics.ToString();
  const Value* planned_sizing = changed.planned_state.GetAttribute("sizing");
  EXPECT_FALSE(planned_sizing->GetAttribute("summary")->Equals(*reworded.GetAttribute("summary")));
}

// The refresh plan that begins terraform destroy carries the configuration as edited since the
// last apply: in a process a destroy started, a change to another under-sized value warns.
TEST_F(SeGroupResourceTest, EnforceNeverFailsThePlanOfADestroyRun) {
  Configure({{"sizing_policy", Value::String("enforce")}});
  const Value config = UnderSized({{"platform", Value::String("vcenter")}});
  framework::PlanResourceChangeResult create = PlanCreate(config);
  ASSERT_TRUE(create.diagnostics.HasError());
  Value prior = create.planned_state;
  for (const auto& [name, value] : create.planned_state.entries()) {
    if (!value.IsKnown()) prior = std::move(prior).WithAttribute(name, Value::String("k-" + name));
  }
  const Value workload = Workload({{"ssl_tps_ecc", Value::Int(9000)}});
  const Value more = config.WithAttribute("workload", workload);
  const Value proposed = prior.WithAttribute("workload", workload);

  MakeServer(/*destroy_run=*/true);
  Configure({{"sizing_policy", Value::String("enforce")}});
  framework::PlanResourceChangeResult changed =
      server_->PlanResourceChange(kSeGroupResourceType, prior, proposed, more, "");
  ASSERT_FALSE(changed.diagnostics.HasError()) << changed.diagnostics.ToString();
  ASSERT_EQ(Count(changed.diagnostics, "demand-within-capacity"), 1);
  const framework::Diagnostic& warning = changed.diagnostics.items()[0];
  EXPECT_EQ(warning.severity, Severity::kWarning);
  EXPECT_NE(warning.detail.find("the refresh that Terraform runs before a destroy"),
            std::string::npos)
      << warning.detail;
  // A model error is a mistake in the configuration, not a policy: still an error.
  framework::PlanResourceChangeResult bad = server_->PlanResourceChange(
      kSeGroupResourceType, prior, proposed.WithAttribute("vcpus_per_se", Value::Int(100)),
      more.WithAttribute("vcpus_per_se", Value::Int(100)), "");
  EXPECT_TRUE(bad.diagnostics.HasError());
}

TEST_F(SeGroupResourceTest, DerivedPlatformReportsEverythingInPlan) {
  Configure();
  const Value config =
      UnderSized({{"sizing_policy", Value::String("warn")}, {"cpu_reserve", Value::Bool(false)}});
  Diagnostics validate = Validate(config);
  EXPECT_TRUE(validate.empty()) << validate.ToString();
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  EXPECT_EQ(Count(plan.diagnostics, "demand-within-capacity"), 1);
  EXPECT_EQ(Count(plan.diagnostics, "reserve-cpu-and-memory"), 1);
  EXPECT_EQ(plan.planned_state.GetAttribute("platform")->AsString(), "vcenter");
  EXPECT_EQ(plan.planned_state.GetAttribute("cloud")->AsString(), "Default-Cloud");
  EXPECT_EQ(plan.planned_state.GetAttribute("tenant")->AsString(), "admin");
}

TEST_F(SeGroupResourceTest, PlanRecommendsKnownValuesFromTheCloudsProfile) {
  Configure();
  framework::PlanResourceChangeResult plan =
      PlanCreate(Config({{"name", Value::String("web")},
                         {"cloud", Value::String("nsxt-cloud")},
                         {"workload", Workload({{"l7_rps", Value::Int(150000)}})}}));
  ASSERT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
  EXPECT_TRUE(plan.planned_state.GetAttribute("vcpus_per_se")->Equals(Value::Int(6)));
  EXPECT_EQ(plan.planned_state.GetAttribute("platform")->AsString(), "nsxt");
  EXPECT_TRUE(plan.planned_state.GetAttribute("id")->IsKnown() == false);
  EXPECT_EQ(plan.planned_state.GetAttribute("sizing")->GetAttribute("profile")->AsString(), "nsxt");
}

TEST_F(SeGroupResourceTest, ACloudWithoutAProfileAsksForPlatform) {
  Configure();
  framework::PlanResourceChangeResult plan =
      PlanCreate(Config({{"name", Value::String("x")},
                         {"cloud", Value::String("aws")},
                         {"workload", Workload({{"l7_rps", Value::Int(1000)}})}}));
  ASSERT_TRUE(plan.diagnostics.HasError());
  EXPECT_EQ(*plan.diagnostics.items()[0].path, cty::AttributePath().Attribute("platform"));
  EXPECT_NE(plan.diagnostics.items()[0].detail.find("CLOUD_AWS"), std::string::npos);
}

TEST_F(SeGroupResourceTest, WithoutAControllerTheErrorSaysWhatToSet) {
  Diagnostics d =
      server_->Configure("1.11.4", framework::EmptyObject(server_->provider_schema().block));
  ASSERT_FALSE(d.HasError()) << d.ToString();
  framework::PlanResourceChangeResult plan =
      PlanCreate(UnderSized({{"platform", Value::String("vcenter")}}));
  ASSERT_TRUE(plan.diagnostics.HasError());
  EXPECT_NE(plan.diagnostics.ToString().find("NSXALB_CONTROLLER"), std::string::npos);
}

TEST_F(SeGroupResourceTest, ExtraFieldsDuplicatingATypedAttributeIsAnErrorAtItsPath) {
  Diagnostics d = Validate(Config(
      {{"name", Value::String("x")}, {"extra_fields", Value::String(R"({"vcpus_per_se":4})")}}));
  ASSERT_TRUE(d.HasError());
  EXPECT_EQ(*d.items()[0].path, cty::AttributePath().Attribute("extra_fields"));
}

TEST_F(SeGroupResourceTest, CreateSendsOnePostOfThePlannedValues) {
  Configure();
  const Value config = Config({{"name", Value::String("web")},
                               {"cloud", Value::String("nsxt-cloud")},
                               {"extra_fields", Value::String(R"({"se_deprovision_delay":5})")},
                               {"workload", Workload({{"l7_rps", Value::Int(150000)}})}});
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  ASSERT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
  controller::SeGroupSpec sent;
  controller::SeGroup created;
  created.uuid = "serviceenginegroup-1";
  created.name = "web";
  created.url = "https://ctl/api/serviceenginegroup/serviceenginegroup-1#web";
  EXPECT_CALL(*client_, CreateSeGroup(_)).WillOnce([&](const controller::SeGroupSpec& spec) {
    sent = spec;
    return created;
  });
  framework::ApplyResourceChangeResult applied = server_->ApplyResourceChange(
      kSeGroupResourceType, Value::Null(config.type()), plan.planned_state, config, "");
  ASSERT_FALSE(applied.diagnostics.HasError()) << applied.diagnostics.ToString();
  EXPECT_EQ(sent.cloud, "nsxt-cloud");
  EXPECT_EQ(sent.fields["vcpus_per_se"], 6);
  EXPECT_EQ(sent.fields["se_deprovision_delay"], 5);
  EXPECT_FALSE(sent.fields.contains("sizing"));
  EXPECT_EQ(applied.new_state.GetAttribute("id")->AsString(), "serviceenginegroup-1");
  EXPECT_EQ(applied.new_state.GetAttribute("url")->AsString(),
            "https://ctl/api/serviceenginegroup/serviceenginegroup-1");
}

TEST_F(SeGroupResourceTest, FailedCreateLeavesNothingInState) {
  Configure();
  const Value config = UnderSized({{"platform", Value::String("vcenter")}});
  framework::PlanResourceChangeResult plan = PlanCreate(config);
  EXPECT_CALL(*client_, CreateSeGroup(_))
      .WillOnce(Return(absl::AlreadyExistsError("controller: POST: HTTP 409: exists")));
  framework::ApplyResourceChangeResult applied = server_->ApplyResourceChange(
      kSeGroupResourceType, Value::Null(config.type()), plan.planned_state, config, "");
  ASSERT_TRUE(applied.diagnostics.HasError());
  EXPECT_TRUE(applied.new_state.IsNull());
  EXPECT_NE(applied.diagnostics.ToString().find("terraform import"), std::string::npos);
}

TEST_F(SeGroupResourceTest, DefaultGroupIsNeverDeleted) {
  Configure();
  EXPECT_CALL(*client_, DeleteSeGroup(_, _)).Times(0);
  const Value prior = Config(
      {{"name", Value::String("Default-Group")}, {"id", Value::String("serviceenginegroup-0")}});
  framework::ApplyResourceChangeResult applied = server_->ApplyResourceChange(
      kSeGroupResourceType, prior, Value::Null(prior.type()), Value::Null(prior.type()), "");
  ASSERT_TRUE(applied.diagnostics.HasError());
  EXPECT_NE(applied.diagnostics.ToString().find("Default-Group"), std::string::npos);
  EXPECT_FALSE(applied.new_state.IsNull());  // still exists
}

// The licence check of a group without a workload (rule license-units-short): 64 ENTERPRISE units
// licensed, 56 consumed and 4 in escrow leave 4; the group adds max_se x vcpus_per_se by rule
// service-units-per-se, less what its running SEs consume.
class LicenseWithoutWorkloadTest : public SeGroupResourceTest {
 protected:
  LicenseWithoutWorkloadTest() {
    ledger_.tier_usages.push_back({"ENTERPRISE", {64, 56, 4, 4}});
    ledger_.se_infos.push_back({"se-1", 4, "ENTERPRISE", "admin"});
    ledger_.se_infos.push_back({"se-2", 4, "ENTERPRISE", "admin"});
    ON_CALL(*client_, GetLicenseLedgerDetails()).WillByDefault(Return(ledger_));
  }

  // A group of `size` (max_se, vcpus_per_se, ...) on vcenter, without a workload.
  Value Group(std::map<std::string, Value> size) const {
    size["name"] = Value::String("plain");
    size["platform"] = Value::String("vcenter");
    return Config(size);
  }

  // The group as `create` plans it, with what apply fills in known: id serviceenginegroup-7.
  static Value Created(const framework::PlanResourceChangeResult& create) {
    Value state = create.planned_state;
    for (const auto& [name, value] : create.planned_state.entries()) {
      if (value.IsKnown()) continue;
      state = std::move(state).WithAttribute(name, value.type().kind() == cty::Type::Kind::kString
                                                       ? Value::String("known-" + name)
                                                       : Value::Null(value.type()));
    }
    return state.WithAttribute("id", Value::String("serviceenginegroup-7"));
  }

  // The diagnostics of license-units-short among `d`.
  static std::vector<framework::Diagnostic> Short(const Diagnostics& d) {
    std::vector<framework::Diagnostic> out;
    for (const framework::Diagnostic& x : d) {
      if (x.detail.find("license-units-short") != std::string::npos) out.push_back(x);
    }
    return out;
  }

  controller::LicenseLedgerDetails ledger_;
};

TEST_F(LicenseWithoutWorkloadTest, ANewGroupWarnsAtItsSizeLineWithTheArithmetic) {
  Configure();
  framework::PlanResourceChangeResult plan =
      PlanCreate(Group({{"max_se", Value::Int(3)}, {"vcpus_per_se", Value::Int(4)}}));
  ASSERT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
  const std::vector<framework::Diagnostic> found = Short(plan.diagnostics);
  ASSERT_EQ(found.size(), 1u) << plan.diagnostics.ToString();
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_EQ(*found[0].path, cty::AttributePath().Attribute("vcpus_per_se"));
  EXPECT_EQ(found[0].summary,
            "The ENTERPRISE licence tier has fewer Service Units left than this plan adds");
  EXPECT_NE(found[0].detail.find("this group adds 12 SUs at its planned scale (max_se 3 x 4 vCPUs "
                                 "= 12 SUs); the ENTERPRISE tier has 4 left (64 licensed, 56 "
                                 "consumed, 4 in escrow)"),
            std::string::npos)
      << found[0].detail;

  // max_se alone: the line is max_se's, and the SEs are the Controller's default 1 vCPU.
  plan = PlanCreate(Group({{"max_se", Value::Int(6)}}));
  ASSERT_EQ(Short(plan.diagnostics).size(), 1u) << plan.diagnostics.ToString();
  EXPECT_EQ(*Short(plan.diagnostics)[0].path, cty::AttributePath().Attribute("max_se"));
  EXPECT_NE(Short(plan.diagnostics)[0].detail.find(
                "adds 6 SUs at its planned scale (max_se 6 x 1 vCPU (the Controller's default) = "
                "6 SUs)"),
            std::string::npos)
      << Short(plan.diagnostics)[0].detail;

  // What fits warns nothing: 4 SEs of 1 vCPU.
  plan = PlanCreate(Group({{"max_se", Value::Int(4)}}));
  EXPECT_TRUE(Short(plan.diagnostics).empty()) << plan.diagnostics.ToString();
}

TEST_F(LicenseWithoutWorkloadTest, UnsetSizeIsTheControllersDefaultAtTheResource) {
  Configure();
  framework::PlanResourceChangeResult plan = PlanCreate(Group({}));
  const std::vector<framework::Diagnostic> found = Short(plan.diagnostics);
  ASSERT_EQ(found.size(), 1u) << plan.diagnostics.ToString();
  EXPECT_TRUE(!found[0].path.has_value() || found[0].path->empty());
  EXPECT_NE(found[0].detail.find("adds 10 SUs at its planned scale (max_se 10 (the Controller's "
                                 "default) x 1 vCPU (the Controller's default) = 10 SUs)"),
            std::string::npos)
      << found[0].detail;
}

TEST_F(LicenseWithoutWorkloadTest, TheLicenceSettingsCountAsTheLedgerCountsThem) {
  Configure();
  // 3 SEs of 8 vCPUs with 1 data-path process each: 3 SUs, within the 4 left.
  framework::PlanResourceChangeResult plan = PlanCreate(Group({{"max_se", Value::Int(3)},
                                                               {"vcpus_per_se", Value::Int(8)},
                                                               {"max_num_se_dps", Value::Int(1)}}));
  EXPECT_TRUE(Short(plan.diagnostics).empty()) << plan.diagnostics.ToString();
  // 5 of them: 5 SUs, short by 1.
  plan = PlanCreate(Group({{"max_se", Value::Int(5)},
                           {"vcpus_per_se", Value::Int(8)},
                           {"max_num_se_dps", Value::Int(1)}}));
  ASSERT_EQ(Short(plan.diagnostics).size(), 1u) << plan.diagnostics.ToString();
  EXPECT_NE(Short(plan.diagnostics)[0].detail.find(
                "adds 5 SUs at its planned scale (max_se 5 x 8 vCPUs, max_num_se_dps 1: 1 "
                "data-path process = 1 SU each = 5 SUs)"),
            std::string::npos)
      << Short(plan.diagnostics)[0].detail;
}

TEST_F(LicenseWithoutWorkloadTest, EnforceFailsThePlanAtTheSizeLine) {
  Configure({{"sizing_policy", Value::String("enforce")}});
  framework::PlanResourceChangeResult plan =
      PlanCreate(Group({{"max_se", Value::Int(3)}, {"vcpus_per_se", Value::Int(4)}}));
  EXPECT_TRUE(plan.diagnostics.HasError());
  const std::vector<framework::Diagnostic> found = Short(plan.diagnostics);
  ASSERT_EQ(found.size(), 1u) << plan.diagnostics.ToString();
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_EQ(*found[0].path, cty::AttributePath().Attribute("vcpus_per_se"));
  EXPECT_NE(found[0].detail.find("sizing_policy = \"enforce\" makes a plan that adds more Service "
                                 "Units than its tier has left an error"),
            std::string::npos);
}

TEST_F(LicenseWithoutWorkloadTest, AGrowingGroupCountsItsRunningSes) {
  Configure();
  // The group as created: 2 SEs of 4 vCPUs (8 SUs).
  const Value two = Group({{"max_se", Value::Int(2)}, {"vcpus_per_se", Value::Int(4)}});
  const Value prior = Created(PlanCreate(two));
  // A later process (the ledger is read once per process): 4 left, and the group runs se-1 and
  // se-2 (4 SUs each in the ledger).
  MakeServer(/*destroy_run=*/false);
  Configure({{"sizing_policy", Value::String("enforce")}});
  std::vector<controller::ServiceEngine> ses(3);
  ses[0].uuid = "se-1";
  ses[0].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-7";
  ses[1].uuid = "se-2";
  ses[1].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-7";
  ses[2].uuid = "se-9";
  ses[2].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-8";
  ON_CALL(*client_, ListTenantServiceEngines(_)).WillByDefault(Return(ses));

  // max_se 3: 12 planned, 8 running, 4 added: exactly what is left.
  const Value three = two.WithAttribute("max_se", Value::Int(3));
  framework::PlanResourceChangeResult plan = server_->PlanResourceChange(
      kSeGroupResourceType, prior, prior.WithAttribute("max_se", Value::Int(3)), three, "");
  EXPECT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
  EXPECT_TRUE(Short(plan.diagnostics).empty()) << plan.diagnostics.ToString();

  // vcpus_per_se 8: 16 planned, 8 running, 8 added: 4 short, an error under enforce.
  const Value bigger = two.WithAttribute("vcpus_per_se", Value::Int(8));
  plan = server_->PlanResourceChange(
      kSeGroupResourceType, prior, prior.WithAttribute("vcpus_per_se", Value::Int(8)), bigger, "");
  EXPECT_TRUE(plan.diagnostics.HasError());
  ASSERT_EQ(Short(plan.diagnostics).size(), 1u) << plan.diagnostics.ToString();
  EXPECT_EQ(*Short(plan.diagnostics)[0].path, cty::AttributePath().Attribute("vcpus_per_se"));
  EXPECT_NE(Short(plan.diagnostics)[0].detail.find(
                "this group adds 8 SUs at its planned scale (max_se 2 x 8 vCPUs = 16 SUs, less 8 "
                "its running SEs consume); the ENTERPRISE tier has 4 left"),
            std::string::npos)
      << Short(plan.diagnostics)[0].detail;

  // A change that does not grow it (fewer SEs) reads no ledger.
  EXPECT_CALL(*client_, GetLicenseLedgerDetails()).Times(0);
  const Value one = two.WithAttribute("max_se", Value::Int(1));
  plan = server_->PlanResourceChange(kSeGroupResourceType, prior,
                                     prior.WithAttribute("max_se", Value::Int(1)), one, "");
  EXPECT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
}

TEST_F(LicenseWithoutWorkloadTest, TheTierIsExtraFieldsElseTheClouds) {
  Configure();
  // The cloud's tier: ENTERPRISE_WITH_CLOUD_SERVICES, which the ledger does not list (none left).
  ON_CALL(*client_, ResolveCloud("ecs-cloud"))
      .WillByDefault(
          Return(controller::CloudInfo{"cloud-4", "ecs-cloud", "/api/cloud/cloud-4",
                                       "CLOUD_VCENTER", "ENTERPRISE_WITH_CLOUD_SERVICES"}));
  framework::PlanResourceChangeResult plan =
      PlanCreate(Group({{"max_se", Value::Int(1)},
                        {"vcpus_per_se", Value::Int(2)},
                        {"cloud", Value::String("ecs-cloud")}}));
  ASSERT_EQ(Short(plan.diagnostics).size(), 1u) << plan.diagnostics.ToString();
  EXPECT_NE(Short(plan.diagnostics)[0].detail.find(
                "adds 2 SUs at its planned scale (max_se 1 x 2 vCPUs = 2 SUs); the "
                "ENTERPRISE_WITH_CLOUD_SERVICES tier has 0 left (0 licensed, 0 consumed, 0 in "
                "escrow)"),
            std::string::npos)
      << Short(plan.diagnostics)[0].detail;
  // The group's own license_tier in extra_fields wins over its cloud's.
  plan = PlanCreate(Group({{"max_se", Value::Int(1)},
                           {"vcpus_per_se", Value::Int(2)},
                           {"extra_fields", Value::String("{\"license_tier\":\"ESSENTIALS\"}")}}));
  ASSERT_EQ(Short(plan.diagnostics).size(), 1u) << plan.diagnostics.ToString();
  EXPECT_NE(Short(plan.diagnostics)[0].detail.find("the ESSENTIALS tier has 0 left"),
            std::string::npos)
      << Short(plan.diagnostics)[0].detail;
}

TEST_F(SeGroupResourceTest, ReadOfAGroupGoneIsNull) {
  Configure();
  EXPECT_CALL(*client_, GetSeGroup("serviceenginegroup-9", "admin"))
      .WillOnce(Return(absl::NotFoundError("controller: GET: HTTP 404")));
  const Value state = Config({{"name", Value::String("gone")},
                              {"id", Value::String("serviceenginegroup-9")},
                              {"tenant", Value::String("admin")}});
  framework::ReadResourceResult read = server_->ReadResource(kSeGroupResourceType, state, "");
  ASSERT_FALSE(read.diagnostics.HasError()) << read.diagnostics.ToString();
  EXPECT_TRUE(read.new_state.IsNull());
}

}  // namespace
}  // namespace nsxalb::provider
