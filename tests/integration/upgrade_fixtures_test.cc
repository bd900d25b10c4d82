// Upgrades that change nothing, in Terraform v0.13.7's call sequence (the harness; Terraform
// 1.11.4 replays the same fixtures in tests/terraform/upgrade_fixtures_test.sh): for every fixture
// in tests/upgrade/fixtures/ (the state and the Controller objects a release left behind,
// scripts/record-upgrade-fixture), the shipped provider of this build, against the emulator
// serving the fixture's objects, upgrades each instance's state (UpgradeResourceState from the
// recorded schema version), refreshes it and plans a no-op for the configuration it was recorded
// with, and the Controller sees no write. A fixture recorded with running SEs (a setup of
// tests/upgrade/setups/) also shows that the refresh reads them as the release did (the state's
// service_engines and last_rollout as recorded) and that the plan warns ses-behind-settings for
// each group whose SEs lag.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/json.h"
#include "tests/harness/terraform_driver.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using cty::Value;
using ::nsxalb::testing::IsOk;
using Json = nlohmann::json;

const std::vector<std::string> kProviderEnv = {
    "NSXALB_CONTROLLER", "NSXALB_USERNAME", "NSXALB_PASSWORD",
    "NSXALB_AUTH_TOKEN", "NSXALB_TENANT",   "NSXALB_API_VERSION",
    "NSXALB_INSECURE",   "NSXALB_CA_FILE",  "NSXALB_CA_PEM"};

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// tests/upgrade/main.tf as Terraform decodes it, per resource name, with the groups of the
// fixture's setup (fixture.json's "setup": tests/upgrade/setups/SETUP/*.tf; none when empty).
// The test checks that every fixture was recorded with those files, so they cannot drift apart
// unseen.
std::map<std::string, Value> RecordedConfiguration(const std::string& setup) {
  const auto workload = [](std::map<std::string, Value> attrs) {
    return Value::Object(std::move(attrs));
  };
  const auto group = [](const std::string& name, int64_t vcpus, int64_t memory,
                        const char* strategy) {
    std::map<std::string, Value> attrs = {
        {"name", Value::String(name)},       {"cloud", Value::String("nsxt-cloud")},
        {"vcpus_per_se", Value::Int(vcpus)}, {"memory_per_se", Value::Int(memory)},
        {"max_se", Value::Int(4)},           {"max_vs_per_se", Value::Int(2)}};
    if (strategy != nullptr) {
      attrs["rollout"] = Value::Object({{"strategy", Value::String(strategy)}});
    }
    return Value::Object(std::move(attrs));
  };
  std::map<std::string, Value> groups = {
      {"web", Value::Object({{"name", Value::String("web")},
                             {"cloud", Value::String("nsxt-cloud")},
                             {"workload", workload({{"l7_rps", Value::Int(150000)},
                                                    {"ssl_tps_ecc", Value::Int(8000)}})}})},
      {"tls", Value::Object({{"name", Value::String("tls")},
                             {"platform", Value::String("vcenter")},
                             {"vcpus_per_se", Value::Int(2)},
                             {"workload", workload({{"ssl_tps_ecc", Value::Int(8000)}})}})},
      {"extra", Value::Object({{"name", Value::String("extra")},
                               {"platform", Value::String("vcenter")},
                               {"workload", workload({{"l7_rps", Value::Int(40000)}})},
                               // jsonencode({se_deprovision_delay = 5})
                               {"extra_fields", Value::String(R"({"se_deprovision_delay":5})")}})},
      {"manual", Value::Object({{"name", Value::String("manual")},
                                {"description", Value::String("sized by hand")},
                                {"vcpus_per_se", Value::Int(4)},
                                {"memory_per_se", Value::Int(8192)},
                                {"max_se", Value::Int(4)},
                                {"min_scaleout_per_vs", Value::Int(2)}})},
  };
  if (setup == "running-ses") {  // tests/upgrade/setups/running-ses/running_ses.tf
    groups.emplace("lagging", group("lagging", 4, 2048, nullptr));
    groups.emplace("held", group("held", 2, 4096, "none"));
    groups.emplace("rolled", group("rolled", 4, 2048, "rolling"));
  } else if (!setup.empty()) {
    ADD_FAILURE() << "no configuration for setup " << setup << "; give RecordedConfiguration it";
  }
  return groups;
}

// The fixture's configuration files besides main.tf, by name.
std::map<std::string, std::string> OtherConfigurationFiles(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".tf" && name != "main.tf")
      files[name] = ReadFile(entry.path());
  }
  return files;
}

// An attribute of a state value as JSON (null when absent or null).
Json AttributeJson(const Value& state, const std::string& name) {
  const Value* attribute = state.GetAttribute(name);
  if (attribute == nullptr || attribute->IsNull()) return nullptr;
  absl::StatusOr<std::string> text = cty::EncodeJson(*attribute, attribute->type());
  return text.ok() ? Json::parse(*text) : Json(std::string(text.status().message()));
}

// Requests that could have changed a Controller object: POST, PUT, PATCH, DELETE under /api/,
// the analytics queries aside.
int Writes(const Json& counters) {
  int writes = 0;
  for (const auto& [key, count] : counters["requests"].items()) {
    const bool api_write = key.rfind("POST /api/", 0) == 0 || key.rfind("PUT /api/", 0) == 0 ||
                           key.rfind("PATCH /api/", 0) == 0 || key.rfind("DELETE /api/", 0) == 0;
    if (api_write && key.find("/api/analytics/") == std::string::npos) writes += count.get<int>();
  }
  return writes;
}

TEST(UpgradeFixturesTest, EveryReleasesStatePlansNoChangeAndWritesNothing) {
  const std::filesystem::path source = NSXALB_SOURCE_DIR;
  const std::string recorded_with = ReadFile(source / "tests/upgrade/main.tf");
  int fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source / "tests/upgrade/fixtures")) {
    if (!entry.is_directory()) continue;
    const std::filesystem::path dir = entry.path();
    SCOPED_TRACE(dir.filename().string());
    ++fixtures;
    ASSERT_EQ(ReadFile(dir / "main.tf"), recorded_with)
        << "this fixture was recorded with another configuration than tests/upgrade/main.tf; "
           "give RecordedConfiguration its configuration";
    const std::string setup =
        Json::parse(ReadFile(dir / "fixture.json")).value("setup", std::string());
    std::map<std::string, std::string> setup_files;
    if (!setup.empty())
      setup_files = OtherConfigurationFiles(source / "tests/upgrade/setups" / setup);
    ASSERT_EQ(OtherConfigurationFiles(dir), setup_files)
        << "the fixture's configuration besides main.tf is not its setup's (" << setup << ")";
    const std::map<std::string, Value> configuration = RecordedConfiguration(setup);

    const std::filesystem::path controller =
        std::filesystem::path(::testing::TempDir()) / (dir.filename().string() + ".json");
    std::filesystem::copy_file(dir / "controller.json", controller,
                               std::filesystem::copy_options::overwrite_existing);
    nsxalb::testing::EmulatorProcess::Options emulator_options;
    emulator_options.extra_args = {"--state", controller.string()};
    auto emulator = nsxalb::testing::EmulatorProcess::Start(emulator_options);
    ASSERT_THAT(emulator, IsOk());
    DriverOptions options;
    options.process.binary = NSXALB_SHIPPED_PROVIDER;
    options.process.unset_env = kProviderEnv;
    options.process.env = {{"NSXALB_CONTROLLER", (*emulator)->url()},
                           {"NSXALB_USERNAME", "admin"},
                           {"NSXALB_PASSWORD", "admin"},
                           {"NSXALB_CA_FILE", (*emulator)->ca_file()}};
    TerraformDriver driver(options);

    const Json state = Json::parse(ReadFile(dir / "terraform.tfstate"));
    std::map<std::string, Json> recorded_attributes;
    std::vector<std::string> addresses;
    for (const Json& resource : state["resources"]) {
      if (resource["type"] != "nsxalb_se_group") continue;
      const Json& instance = resource["instances"][0];
      InstanceState stored;
      stored.type_name = "nsxalb_se_group";
      stored.attributes_json = instance["attributes"].dump();
      stored.schema_version = instance.value("schema_version", 0);
      if (instance.contains("private")) {
        ASSERT_TRUE(
            absl::Base64Unescape(instance["private"].get<std::string>(), &stored.private_data));
      }
      const std::string address =
          absl::StrCat("nsxalb_se_group.", resource["name"].get<std::string>());
      driver.PutState(address, std::move(stored));
      addresses.push_back(address);
      recorded_attributes[address] = instance["attributes"];
    }
    ASSERT_EQ(addresses.size(), configuration.size());

    ASSERT_THAT((*emulator)->Control("POST", "counters/reset"), IsOk());
    for (const std::string& address : addresses) {
      SCOPED_TRACE(address);
      const auto config = configuration.find(address.substr(address.find('.') + 1));
      ASSERT_NE(config, configuration.end());
      const size_t warnings_before = driver.warnings().size();
      absl::StatusOr<PlannedChange> planned = driver.Apply(address, config->second);
      ASSERT_THAT(planned, IsOk());
      EXPECT_EQ(planned->action, PlanAction::kNoOp)
          << "planned " << PlanActionName(planned->action);
      // The running SEs the release recorded, read again by this build's refresh; a group whose
      // SEs lag warns ses-behind-settings, the others do not.
      const Json& recorded = recorded_attributes[address];
      const Json recorded_ses = recorded.value("service_engines", Json());
      if (recorded_ses.is_null()) continue;
      EXPECT_EQ(AttributeJson(planned->prior, "service_engines"), recorded_ses);
      EXPECT_EQ(AttributeJson(planned->prior, "last_rollout"),
                recorded.value("last_rollout", Json()));
      bool warned = false;
      for (size_t i = warnings_before; i < driver.warnings().size(); ++i) {
        warned = warned || absl::StrContains(driver.warnings()[i], "ses-behind-settings");
      }
      EXPECT_EQ(warned, !recorded_ses["lagging"].empty()) << recorded_ses.dump();
    }
    absl::StatusOr<Json> counters = (*emulator)->Control("GET", "counters");
    ASSERT_THAT(counters, IsOk());
    EXPECT_EQ(Writes(*counters), 0) << counters->dump();
    EXPECT_GT((*counters)["requests"].value("GET /api/serviceenginegroup/{uuid}", 0), 0)
        << "the refreshes read the groups";
  }
  EXPECT_GT(fixtures, 0) << "no fixture under tests/upgrade/fixtures";
}

}  // namespace
}  // namespace nsxalb::harness
