// Every Terraform sequence of reference §1.6, played by the TerraformDriver against the built
// nsxalb-test-provider (tests/harness/test_provider): a provider from the same host, wire and
// framework as terraform-provider-nsxalb whose schema uses every feature (all types, required /
// optional / computed / sensitive, requires_replace, nested blocks of every nesting mode, schema
// version with upgrade, private data, import). Its "remote API" is a temporary directory.
#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/harness/terraform_driver.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kType[] = "nsxalbtest_thing";
constexpr char kAddress[] = "nsxalbtest_thing.a";

cty::Value S(const std::string& s) { return cty::Value::String(s); }

class HarnessTestProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir_template = absl::StrCat(::testing::TempDir(), "/nsxalb-harness-XXXXXX");
    ASSERT_NE(mkdtemp(dir_template.data()), nullptr);
    directory_ = dir_template;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(directory_, ec);
  }

  DriverOptions Options(const std::string& misbehave = "") const {
    DriverOptions options;
    options.process.binary = NSXALB_TEST_PROVIDER;
    if (misbehave.empty()) {
      options.process.unset_env = {"NSXALB_TEST_MISBEHAVE"};
    } else {
      options.process.env["NSXALB_TEST_MISBEHAVE"] = misbehave;
    }
    options.provider_address = "registry.terraform.io/nsxalb/nsxalbtest";
    options.provider_config = cty::Value::Object({{"directory", S(directory_)}});
    return options;
  }

  // A configuration using every attribute type and every nesting mode.
  static cty::Value Config(const std::string& name, const std::string& description,
                           const std::string& host = "h1.example") {
    return cty::Value::Object({
        {"name", S(name)},
        {"description", S(description)},
        {"enabled", cty::Value::Bool(true)},
        {"tags", cty::Value::List(cty::Type::String(), {S("a"), S("b")})},
        {"labels", cty::Value::Set(cty::Type::String(), {S("x"), S("y")})},
        {"meta", cty::Value::Map(cty::Type::String(), {{"team", S("lb")}})},
        {"spec", cty::Value::Object({{"cpu", cty::Value::Int(2)}, {"zone", S("z1")}})},
        {"extra", cty::Value::Float(1.5)},
        {"secret", S("s3cr3t")},
        {"settings", cty::Value::Object({{"mode", S("fast")}})},
        {"options", cty::Value::Object({{"verbose", cty::Value::Bool(true)}})},
        {"endpoint", cty::Value::Tuple({cty::Value::Object({{"host", S(host)}})})},
        {"rule", cty::Value::Tuple({cty::Value::Object(
                                        {{"action", S("allow")}, {"priority", cty::Value::Int(1)}}),
                                    cty::Value::Object({{"action", S("deny")}})})},
        {"env", cty::Value::Object({{"prod", cty::Value::Object({{"value", S("1")}})}})},
    });
  }

  static std::string Str(const cty::Value& object, const std::string& name) {
    const cty::Value* v = object.GetAttribute(name);
    return v != nullptr && v->IsKnown() && !v->IsNull() ? v->AsString() : "<null>";
  }

  std::string directory_;
};

std::vector<std::string> Walk(const std::vector<std::string>& log, const std::string& walk) {
  std::vector<std::string> out;
  const std::string prefix = walk + ": ";
  for (const std::string& entry : log) {
    if (absl::StartsWith(entry, prefix)) out.push_back(entry.substr(prefix.size()));
  }
  return out;
}

TEST_F(HarnessTestProviderTest, ValidatePlaysTheValidateSequence) {
  TerraformDriver driver(Options());
  ASSERT_THAT(driver.Validate(kType, Config("n", "d")), IsOk());
  EXPECT_THAT(driver.log(),
              ElementsAre("schema: GetSchema", "schema: Shutdown", "validate: GetSchema",
                          "validate: PrepareProviderConfig", "validate: ValidateResourceTypeConfig",
                          "validate: Shutdown"));
}

TEST_F(HarnessTestProviderTest, ValidationErrorFromTheProviderFailsWithItsPath) {
  TerraformDriver driver(Options());
  cty::Value config = Config("n", "d").WithAttribute(
      "spec", cty::Value::Object({{"cpu", cty::Value::Int(0)}, {"zone", S("z1")}}));
  absl::Status r = driver.Validate(kType, config);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.message(), HasSubstr("Invalid CPU count"));
  EXPECT_THAT(r.message(), HasSubstr("(attribute .spec.cpu)"));
}

TEST_F(HarnessTestProviderTest, CreateRefreshUpdateReplaceAndDestroy) {
  TerraformDriver driver(Options());

  // Create: four processes as Terraform v0.13.7 runs them.
  absl::StatusOr<PlannedChange> create = driver.Apply(kAddress, Config("n", "first"));
  ASSERT_THAT(create, IsOk());
  EXPECT_EQ(create->action, PlanAction::kCreate);
  EXPECT_THAT(Walk(driver.log(), "plan"),
              ElementsAre("GetSchema", "Configure", "ValidateResourceTypeConfig",
                          "PlanResourceChange", "Shutdown"));
  EXPECT_THAT(Walk(driver.log(), "apply"),
              ElementsAre("GetSchema", "Configure", "ValidateResourceTypeConfig",
                          "PlanResourceChange", "ApplyResourceChange", "Shutdown"));
  // The plan knew size (defaulted at plan time) and left id, created_at, port unknown.
  EXPECT_FALSE(create->after.GetAttribute("id")->IsKnown());
  EXPECT_EQ(create->after.GetAttribute("size")->AsNumber(), cty::Number::Int(1));
  absl::StatusOr<cty::Value> created = driver.StateValue(kAddress);
  ASSERT_THAT(created, IsOk());
  const std::string id = Str(*created, "id");
  EXPECT_NE(id, "<null>");
  EXPECT_TRUE(std::filesystem::exists(absl::StrCat(directory_, "/", id, ".json")));
  EXPECT_EQ(created->GetAttribute("endpoint")->elements()[0].GetAttribute("port")->AsNumber(),
            cty::Number::Int(443));
  ASSERT_NE(driver.State(kAddress), nullptr);
  EXPECT_EQ(driver.State(kAddress)->schema_version, 1);
  const std::string private_after_create = driver.State(kAddress)->private_data;
  EXPECT_FALSE(private_after_create.empty());

  // Refresh: Configure, UpgradeResourceState, ReadResource.
  driver.ClearLog();
  ASSERT_THAT(driver.Refresh(kAddress), IsOk());
  EXPECT_THAT(
      Walk(driver.log(), "refresh"),
      ElementsAre("GetSchema", "Configure", "UpgradeResourceState", "ReadResource", "Shutdown"));
  absl::StatusOr<cty::Value> refreshed = driver.StateValue(kAddress);
  ASSERT_THAT(refreshed, IsOk());
  EXPECT_TRUE(refreshed->Equals(*created)) << refreshed->DebugString();

  // Update in place: the refresh walk, then plan (with UpgradeResourceState) and apply.
  driver.ClearLog();
  absl::StatusOr<PlannedChange> update = driver.Apply(kAddress, Config("n", "second"));
  ASSERT_THAT(update, IsOk());
  EXPECT_EQ(update->action, PlanAction::kUpdate);
  EXPECT_THAT(Walk(driver.log(), "plan"),
              ElementsAre("GetSchema", "Configure", "UpgradeResourceState",
                          "ValidateResourceTypeConfig", "PlanResourceChange", "Shutdown"));
  absl::StatusOr<cty::Value> updated = driver.StateValue(kAddress);
  ASSERT_THAT(updated, IsOk());
  EXPECT_EQ(Str(*updated, "id"), id);
  EXPECT_EQ(Str(*updated, "description"), "second");
  EXPECT_EQ(updated->GetAttribute("revision")->AsNumber(), cty::Number::Int(1));
  EXPECT_NE(driver.State(kAddress)->private_data, private_after_create);

  // No change: the plan is a no-op and there is no apply walk.
  driver.ClearLog();
  absl::StatusOr<PlannedChange> noop = driver.Apply(kAddress, Config("n", "second"));
  ASSERT_THAT(noop, IsOk());
  EXPECT_EQ(noop->action, PlanAction::kNoOp);
  EXPECT_TRUE(Walk(driver.log(), "apply").empty());

  // Replace: name requires replacement; two PlanResourceChange calls per plan, destroy + create.
  driver.ClearLog();
  absl::StatusOr<PlannedChange> replace = driver.Apply(kAddress, Config("renamed", "second"));
  ASSERT_THAT(replace, IsOk());
  EXPECT_EQ(replace->action, PlanAction::kReplace);
  ASSERT_EQ(replace->replace_paths.size(), 1u);
  EXPECT_EQ(replace->replace_paths[0].ToString(), ".name");
  EXPECT_THAT(
      Walk(driver.log(), "plan"),
      ElementsAre("GetSchema", "Configure", "UpgradeResourceState", "ValidateResourceTypeConfig",
                  "PlanResourceChange", "PlanResourceChange", "Shutdown"));
  EXPECT_THAT(Walk(driver.log(), "apply"),
              ElementsAre("GetSchema", "Configure", "UpgradeResourceState",
                          "ValidateResourceTypeConfig", "PlanResourceChange", "PlanResourceChange",
                          "ApplyResourceChange", "ApplyResourceChange", "Shutdown"));
  absl::StatusOr<cty::Value> replaced = driver.StateValue(kAddress);
  ASSERT_THAT(replaced, IsOk());
  const std::string new_id = Str(*replaced, "id");
  EXPECT_NE(new_id, id);
  EXPECT_FALSE(std::filesystem::exists(absl::StrCat(directory_, "/", id, ".json")));
  EXPECT_TRUE(std::filesystem::exists(absl::StrCat(directory_, "/", new_id, ".json")));

  // Replace through a nested block attribute marked requires_replace (endpoint.host).
  absl::StatusOr<PlannedChange> nested =
      driver.Apply(kAddress, Config("renamed", "second", "h2.example"));
  ASSERT_THAT(nested, IsOk());
  EXPECT_EQ(nested->action, PlanAction::kReplace);

  // Destroy: a plan process with UpgradeResourceState only, then the destroy apply.
  const std::string last_id = Str(*driver.StateValue(kAddress), "id");
  driver.ClearLog();
  ASSERT_THAT(driver.Destroy(kAddress), IsOk());
  EXPECT_THAT(driver.log(),
              ElementsAre("plan-destroy: GetSchema", "plan-destroy: UpgradeResourceState",
                          "plan-destroy: Shutdown", "destroy: GetSchema", "destroy: Configure",
                          "destroy: UpgradeResourceState", "destroy: ApplyResourceChange",
                          "destroy: Shutdown"));
  EXPECT_EQ(driver.State(kAddress), nullptr);
  EXPECT_FALSE(std::filesystem::exists(absl::StrCat(directory_, "/", last_id, ".json")));
}

TEST_F(HarnessTestProviderTest, ImportReadsTheObjectWithEmptyPrivate) {
  TerraformDriver driver(Options());
  ASSERT_THAT(driver.Apply(kAddress, Config("n", "d")), IsOk());
  absl::StatusOr<cty::Value> original = driver.StateValue(kAddress);
  ASSERT_THAT(original, IsOk());

  driver.ClearLog();
  ASSERT_THAT(driver.Import("nsxalbtest_thing.b", Str(*original, "id")), IsOk());
  EXPECT_THAT(
      driver.log(),
      ElementsAre("schema: GetSchema", "schema: Shutdown", "import: GetSchema", "import: Configure",
                  "import: ImportResourceState", "import: ReadResource", "import: Shutdown"));
  absl::StatusOr<cty::Value> imported = driver.StateValue("nsxalbtest_thing.b");
  ASSERT_THAT(imported, IsOk());
  EXPECT_TRUE(imported->Equals(*original)) << imported->DebugString();
  EXPECT_FALSE(driver.State("nsxalbtest_thing.b")->private_data.empty());

  // The imported instance is managed like any other: the next apply of the same config is a
  // no-op, and it can be destroyed.
  absl::StatusOr<PlannedChange> noop = driver.Apply("nsxalbtest_thing.b", Config("n", "d"));
  ASSERT_THAT(noop, IsOk());
  EXPECT_EQ(noop->action, PlanAction::kNoOp);
  ASSERT_THAT(driver.Destroy("nsxalbtest_thing.b"), IsOk());

  // The object is gone: refreshing the other instance removes it from state.
  ASSERT_THAT(driver.Refresh(kAddress), IsOk());
  EXPECT_EQ(driver.State(kAddress), nullptr);
}

TEST_F(HarnessTestProviderTest, ImportOfAnUnknownIdFailsWithTheProvidersDiagnostic) {
  TerraformDriver driver(Options());
  absl::Status r = driver.Import(kAddress, "does-not-exist");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.message(), HasSubstr("Error: Cannot import thing"));
  EXPECT_EQ(driver.State(kAddress), nullptr);
}

TEST_F(HarnessTestProviderTest, StateWrittenBySchemaVersionZeroIsUpgraded) {
  TerraformDriver driver(Options());
  ASSERT_THAT(driver.Apply(kAddress, Config("n", "d")), IsOk());
  // Rewrite the stored state as version 0 wrote it: size was the string "count", no revision.
  InstanceState old = *driver.State(kAddress);
  nlohmann::json doc = nlohmann::json::parse(old.attributes_json);
  doc.erase("size");
  doc.erase("revision");
  doc["count"] = "7";
  old.attributes_json = doc.dump(2);  // pretty-printed, as in a state file
  old.schema_version = 0;
  driver.PutState(kAddress, old);

  DriverOptions options = Options();
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(options, "upgrade", &log);
  ASSERT_THAT(session, IsOk());
  absl::StatusOr<cty::Value> upgraded = (*session)->UpgradeResourceState(kAddress, old);
  ASSERT_THAT(upgraded, IsOk());
  EXPECT_EQ(upgraded->GetAttribute("size")->AsNumber(), cty::Number::Int(7));
  EXPECT_EQ(upgraded->GetAttribute("revision")->AsNumber(), cty::Number::Int(0));
  ASSERT_THAT((*session)->Close(), IsOk());

  // A whole refresh goes through the same upgrade and then stores version 1.
  ASSERT_THAT(driver.Refresh(kAddress), IsOk());
  EXPECT_EQ(driver.State(kAddress)->schema_version, 1);
}

TEST_F(HarnessTestProviderTest, StateFromANewerProviderVersionIsRefused) {
  TerraformDriver driver(Options());
  ASSERT_THAT(driver.Apply(kAddress, Config("n", "d")), IsOk());
  InstanceState newer = *driver.State(kAddress);
  newer.schema_version = 2;
  driver.PutState(kAddress, newer);
  absl::Status r = driver.Refresh(kAddress);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.message(), HasSubstr("Resource instance managed by newer provider version"));
}

TEST_F(HarnessTestProviderTest, DataSourceReadsTheObject) {
  TerraformDriver driver(Options());
  ASSERT_THAT(driver.Apply(kAddress, Config("n", "d")), IsOk());
  const std::string id = Str(*driver.StateValue(kAddress), "id");
  absl::StatusOr<cty::Value> data =
      driver.ReadDataSource(kType, cty::Value::Object({{"id", S(id)}}));
  ASSERT_THAT(data, IsOk());
  EXPECT_EQ(Str(*data, "name"), "n");
  EXPECT_EQ(data->GetAttribute("tags")->elements().size(), 2u);

  absl::StatusOr<cty::Value> missing =
      driver.ReadDataSource(kType, cty::Value::Object({{"id", S("nope")}}));
  ASSERT_THAT(missing, Not(IsOk()));
  EXPECT_THAT(missing.status().message(), HasSubstr("Thing not found"));
  EXPECT_THAT(missing.status().message(), HasSubstr("(attribute .id)"));
}

TEST_F(HarnessTestProviderTest, WorksWithTerraform013ProtocolOfferAndWithoutTls) {
  DriverOptions options = Options();
  options.process.protocol_versions = "5";
  TerraformDriver v013(options);
  ASSERT_THAT(v013.Apply(kAddress, Config("n", "d")), IsOk());
  ASSERT_THAT(v013.Destroy(kAddress), IsOk());

  options = Options();
  options.process.auto_mtls = false;  // TF_DISABLE_PLUGIN_TLS
  TerraformDriver plaintext(options);
  ASSERT_THAT(plaintext.Apply(kAddress, Config("n", "d")), IsOk());
  ASSERT_THAT(plaintext.Destroy(kAddress), IsOk());
}

TEST_F(HarnessTestProviderTest, RefusesAClientPresentingAnotherCertificate) {
  TerraformDriver driver(Options());
  EXPECT_THAT(driver.CheckRefusesOtherClientCertificate(), IsOk());
}

// The test provider's own deliberate violations (NSXALB_TEST_MISBEHAVE) are caught too.
struct Misbehaviour {
  const char* mode;
  const char* expected;
  bool after_create;  // the violation is in a walk after a good create
};

class HarnessMisbehaveTest : public HarnessTestProviderTest,
                             public ::testing::WithParamInterface<Misbehaviour> {};

TEST_P(HarnessMisbehaveTest, DriverReportsTerraformsError) {
  const Misbehaviour& m = GetParam();
  TerraformDriver driver(Options(m.after_create ? "" : m.mode));
  absl::Status r;
  if (m.after_create) {
    ASSERT_THAT(driver.Apply(kAddress, Config("n", "d")), IsOk());
    driver.mutable_options() = Options(m.mode);
    r = driver.Destroy(kAddress);
  } else {
    r = driver.Apply(kAddress, Config("n", "d")).status();
  }
  ASSERT_THAT(r, Not(IsOk()));
  std::cerr << "driver reported: " << r.message() << "\n";
  EXPECT_THAT(r.message(), HasSubstr(m.expected));
}

INSTANTIATE_TEST_SUITE_P(
    Modes, HarnessMisbehaveTest,
    ::testing::Values(
        Misbehaviour{"invalid_plan", "Provider produced invalid plan", false},
        Misbehaviour{"inconsistent_apply", "Provider produced inconsistent result after apply",
                     false},
        Misbehaviour{"unknown_after_apply", "still indicated an unknown value", false},
        Misbehaviour{"missing_attribute", "Provider produced invalid object", false},
        Misbehaviour{"destroy_non_null", "Destroying should always produce a null value", true}),
    [](const ::testing::TestParamInfo<Misbehaviour>& info) { return info.param.mode; });

}  // namespace
}  // namespace nsxalb::harness
