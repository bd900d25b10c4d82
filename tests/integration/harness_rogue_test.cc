// Proves the TerraformDriver fails where Terraform would: each test launches
// nsxalb-rogue-provider (tests/harness/rogue_provider.cc) in a mode that breaks exactly one rule
// and checks that the driver reports Terraform's error. The "good" mode passes every sequence, so
// each failure below is caused by the one broken answer.
#include <iostream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness/terraform_driver.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::testing::HasSubstr;

constexpr char kAddress[] = "rogue_thing.a";

DriverOptions RogueOptions(const std::string& mode) {
  DriverOptions options;
  options.process.binary = NSXALB_ROGUE_PROVIDER;
  options.process.args = {mode};
  options.provider_address = "registry.terraform.io/nsxalb/rogue";
  return options;
}

cty::Value Config(const std::string& name, int64_t size, const std::string& flavor = "") {
  std::map<std::string, cty::Value> attrs = {{"name", cty::Value::String(name)},
                                             {"size", cty::Value::Int(size)}};
  if (!flavor.empty()) attrs["flavor"] = cty::Value::String(flavor);
  attrs["rule"] = cty::Value::List(cty::Type::Object({{"port", cty::Type::Number()}}),
                                   {cty::Value::Object({{"port", cty::Value::Int(443)}})});
  return cty::Value::Object(attrs);
}

// Prints the driver's error into the test log (the point of these tests is its wording).
void Show(const absl::Status& status) {
  std::cerr << "driver reported: " << status.message() << "\n";
}
template <typename T>
void Show(const absl::StatusOr<T>& result) {
  Show(result.status());
}

// Creates rogue_thing.a with a well-behaved rogue, then switches to `mode` for the next walks.
void CreateThenSwitch(TerraformDriver& driver, const std::string& mode) {
  ASSERT_THAT(driver.Apply(kAddress, Config("a", 1)), IsOk());
  driver.mutable_options().process.args = {mode};
}

TEST(HarnessRogueTest, WellBehavedRoguePassesEverySequence) {
  TerraformDriver driver(RogueOptions("good"));
  ASSERT_THAT(driver.Validate("rogue_thing", Config("a", 1)), IsOk());
  absl::StatusOr<PlannedChange> create = driver.Apply(kAddress, Config("a", 1, "small"));
  ASSERT_THAT(create, IsOk());
  EXPECT_EQ(create->action, PlanAction::kCreate);
  absl::StatusOr<cty::Value> state = driver.StateValue(kAddress);
  ASSERT_THAT(state, IsOk());
  EXPECT_EQ(state->GetAttribute("id")->AsString(), "thing-a");
  EXPECT_EQ(driver.State(kAddress)->private_data, "rogue-private");

  // Private data: state -> prior_private -> planned_private -> ApplyResourceChange -> state.
  // The rogue appends '.' to the private data of every plan that received some.
  absl::StatusOr<PlannedChange> update = driver.Apply(kAddress, Config("a", 2, "small"));
  ASSERT_THAT(update, IsOk());
  EXPECT_EQ(update->action, PlanAction::kUpdate);
  EXPECT_EQ(driver.State(kAddress)->private_data, "rogue-private.");

  // Replace: the second PlanResourceChange gets the first one's planned_private.
  absl::StatusOr<PlannedChange> replace = driver.Apply(kAddress, Config("a", 2, "large"));
  ASSERT_THAT(replace, IsOk());
  EXPECT_EQ(replace->action, PlanAction::kReplace);
  EXPECT_EQ(replace->replace_private, "rogue-private..");
  EXPECT_EQ(driver.State(kAddress)->private_data, "rogue-private...");

  absl::StatusOr<PlannedChange> noop = driver.Apply(kAddress, Config("a", 2, "large"));
  ASSERT_THAT(noop, IsOk());
  EXPECT_EQ(noop->action, PlanAction::kNoOp);

  ASSERT_THAT(driver.Refresh(kAddress), IsOk());
  ASSERT_THAT(driver.Destroy(kAddress), IsOk());
  EXPECT_EQ(driver.State(kAddress), nullptr);
  ASSERT_THAT(driver.Import("rogue_thing.b", "b-7"), IsOk());
  ASSERT_NE(driver.State("rogue_thing.b"), nullptr);
  // The import's private data is dropped: ReadResource gets (and here echoes) an empty one.
  EXPECT_EQ(driver.State("rogue_thing.b")->private_data, "");
  EXPECT_THAT(driver.CheckRefusesOtherClientCertificate(), IsOk());
}

TEST(HarnessRogueTest, PlannedValueNotMatchingConfigIsAnInvalidPlan) {
  TerraformDriver driver(RogueOptions("invalid_plan"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced invalid plan"));
  EXPECT_THAT(r.status().message(), HasSubstr("rogue_thing.a.name"));
  EXPECT_EQ(driver.State(kAddress), nullptr);
}

TEST(HarnessRogueTest, PlannedValueOfTheWrongTypeIsRejected) {
  TerraformDriver driver(RogueOptions("plan_wrong_type"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced invalid object"));
  EXPECT_THAT(r.status().message(), HasSubstr(".size"));
}

TEST(HarnessRogueTest, ObjectMissingAnAttributeIsRejected) {
  TerraformDriver driver(RogueOptions("missing_attribute"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced invalid object"));
  EXPECT_THAT(r.status().message(), HasSubstr("size"));
  EXPECT_THAT(r.status().message(), HasSubstr("attributes"));
}

TEST(HarnessRogueTest, ApplyResultDifferentFromPlanIsInconsistent) {
  TerraformDriver driver(RogueOptions("inconsistent_apply"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced inconsistent result after apply"));
  EXPECT_THAT(r.status().message(), HasSubstr(".name"));
}

TEST(HarnessRogueTest, UnknownLeftAfterApplyIsRejected) {
  TerraformDriver driver(RogueOptions("unknown_after_apply"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(),
              HasSubstr("the provider still indicated an unknown value for rogue_thing.a.id"));
}

TEST(HarnessRogueTest, NullResultOfACreateIsRejected) {
  TerraformDriver driver(RogueOptions("null_apply"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced"));
  EXPECT_EQ(driver.State(kAddress), nullptr);
}

TEST(HarnessRogueTest, NonNullDestroyResultIsRejected) {
  TerraformDriver driver(RogueOptions("good"));
  CreateThenSwitch(driver, "destroy_non_null");
  absl::Status r = driver.Destroy(kAddress);
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("Destroying should always produce a null value"));
  EXPECT_NE(driver.State(kAddress), nullptr);
}

TEST(HarnessRogueTest, RequiresReplaceOnANonExistentPathIsRejected) {
  TerraformDriver driver(RogueOptions("good"));
  CreateThenSwitch(driver, "bad_requires_replace");
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 5));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced invalid plan"));
  EXPECT_THAT(r.status().message(), HasSubstr("for a non-existent attribute path"));
  EXPECT_THAT(r.status().message(), HasSubstr("no_such_attribute"));
}

TEST(HarnessRogueTest, FinalPlanDifferentFromTheSavedPlanIsInconsistent) {
  TerraformDriver driver(RogueOptions("inconsistent_final_plan"));
  absl::StatusOr<PlannedChange> r = driver.Apply(kAddress, Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.status().message(), HasSubstr("Provider produced inconsistent final plan"));
  EXPECT_THAT(r.status().message(), HasSubstr(".id"));
  // It failed in the apply walk, before ApplyResourceChange.
  for (const std::string& call : driver.log()) EXPECT_NE(call, "apply: ApplyResourceChange");
}

TEST(HarnessRogueTest, ImportOfAMissingObjectFails) {
  TerraformDriver driver(RogueOptions("import_missing"));
  absl::Status r = driver.Import(kAddress, "gone");
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("Cannot import non-existent remote object"));
  EXPECT_EQ(driver.State(kAddress), nullptr);
}

TEST(HarnessRogueTest, ErrorDiagnosticFailsTheStepWithItsTextAndPath) {
  TerraformDriver driver(RogueOptions("error_diagnostic"));
  absl::Status r = driver.Validate("rogue_thing", Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("Error: Invalid name: rogue refuses every name"));
  EXPECT_THAT(r.message(), HasSubstr("(attribute .name)"));
  EXPECT_THAT(r.message(), HasSubstr("ValidateResourceTypeConfig"));
}

TEST(HarnessRogueTest, StdoutAfterTheHandshakeLineIsRejected) {
  TerraformDriver driver(RogueOptions("stdout_noise"));
  absl::Status r = driver.Validate("rogue_thing", Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("to stdout after the handshake line"));
  EXPECT_THAT(r.message(), HasSubstr("hello from stdout"));
}

TEST(HarnessRogueTest, SlowExitAfterShutdownIsRejected) {
  TerraformDriver driver(RogueOptions("slow_shutdown"));
  absl::Status r = driver.Validate("rogue_thing", Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("did not exit within 1s of plugin.GRPCController/Shutdown"));
}

TEST(HarnessRogueTest, NonZeroExitAfterShutdownIsRejected) {
  TerraformDriver driver(RogueOptions("exit_nonzero"));
  absl::Status r = driver.Validate("rogue_thing", Config("a", 1));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("exited with code 3"));
}

TEST(HarnessRogueTest, ProviderThatAcceptsAnyClientCertificateIsCaught) {
  TerraformDriver driver(RogueOptions("no_client_auth"));
  absl::Status r = driver.CheckRefusesOtherClientCertificate();
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("client certificate is not the one in PLUGIN_CLIENT_CERT"));
}

TEST(HarnessRogueTest, UnsupportedConfigArgumentIsRejectedBeforeAnyRpcUsesIt) {
  TerraformDriver driver(RogueOptions("good"));
  absl::Status r =
      driver.Validate("rogue_thing", cty::Value::Object({{"name", cty::Value::String("a")},
                                                         {"colour", cty::Value::String("red")}}));
  ASSERT_THAT(r, Not(IsOk()));
  Show(r);
  EXPECT_THAT(r.message(), HasSubstr("Unsupported argument"));
  EXPECT_THAT(r.message(), HasSubstr("colour"));
}

}  // namespace
}  // namespace nsxalb::harness
