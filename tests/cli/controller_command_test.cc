// The controller command in-process against the Controller emulator: check, list (across pages),
// get, credentials and TLS failures, and usage errors that name the setting.
#include "plugin/cli/controller/controller_command.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::cli {
namespace {

using ::nsxalb::testing::IsOk;

using ::nsxalb::testing::EmulatorProcess;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int code;
  std::string out;
  std::string err;
  std::string log;  // what the process wrote to stderr meanwhile (the client's log lines)
};

class ControllerCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto emulator = EmulatorProcess::Start(EmulatorProcess::Options{});
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
    env_ = {{"NSXALB_CONTROLLER", emulator_->url()},
            {"NSXALB_USERNAME", "admin"},
            {"NSXALB_PASSWORD", "admin"},
            {"NSXALB_CA_FILE", emulator_->ca_file()}};
  }

  Outcome Run(const std::vector<std::string>& args, const std::string& input = "") {
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream err;
    const std::map<std::string, std::string> env = env_;
    ::testing::internal::CaptureStderr();
    const int code = RunControllerCommand(
        args,
        [&env](const std::string& name) -> std::optional<std::string> {
          auto it = env.find(name);
          if (it == env.end()) return std::nullopt;
          return it->second;
        },
        in, out, err);
    const std::string log = ::testing::internal::GetCapturedStderr();
    return {code, out.str(), err.str(), log};
  }

  static nlohmann::json Parse(const Outcome& run) {
    nlohmann::json j = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << run.out;
    return j;
  }

  // Creates SE groups through the client, as the provider would.
  void CreateGroups(const std::string& prefix, int count, const std::string& cloud) {
    controller::ClientConfig config;
    config.controller = emulator_->url();
    config.username = "admin";
    config.password = "admin";
    config.ca_file = emulator_->ca_file();
    auto client = controller::NewClient(config);
    ASSERT_THAT(client, IsOk());
    for (int i = 0; i < count; ++i) {
      controller::SeGroupSpec spec;
      spec.name = absl::StrCat(prefix, i);
      spec.cloud = cloud;
      spec.fields = {{"vcpus_per_se", 2 + i % 3}, {"memory_per_se", 4096}, {"max_se", 3}};
      auto created = (*client)->CreateSeGroup(spec);
      ASSERT_THAT(created, IsOk());
    }
  }

  int Count(const std::string& key) {
    auto counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    if (!counters.ok()) return -1;
    return (*counters)["requests"].value(key, 0);
  }

  std::unique_ptr<EmulatorProcess> emulator_;
  std::map<std::string, std::string> env_;
};

TEST_F(ControllerCommandTest, CheckPrintsVersionsTenantAndEveryCloud) {
  Outcome run = Run({"check"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Controller version  22.1.3"));
  EXPECT_THAT(run.out, HasSubstr("API version         22.1.3"));
  EXPECT_THAT(run.out, HasSubstr("Tenant              admin"));
  EXPECT_THAT(run.out, HasSubstr("Clouds              "));
  EXPECT_THAT(run.out, ContainsRegex("Default-Cloud \\(uuid cloud-[-0-9a-f]+, CLOUD_VCENTER\\)"));
  EXPECT_THAT(run.out, ContainsRegex("nsxt-cloud \\(uuid cloud-[-0-9a-f]+, CLOUD_NSXT\\)"));
  EXPECT_THAT(run.out, Not(HasSubstr("--cloud")));
  EXPECT_EQ(run.err, "");

  Outcome json = Run({"check", "--json", "--api-version", "21.1.3"});
  ASSERT_EQ(json.code, 0) << json.err;
  nlohmann::json j = Parse(json);
  EXPECT_EQ(j["controller_version"], "22.1.3");
  EXPECT_EQ(j["api_version"], "21.1.3");
  EXPECT_EQ(j["tenant"]["name"], "admin");
  EXPECT_FALSE(j.contains("cloud"));
  ASSERT_TRUE(j["clouds"].is_array());
  ASSERT_EQ(j["clouds"].size(), 2u);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& c : j["clouds"]) by_name[c["name"].get<std::string>()] = c;
  ASSERT_EQ(by_name.count("Default-Cloud"), 1u) << json.out;
  ASSERT_EQ(by_name.count("nsxt-cloud"), 1u) << json.out;
  EXPECT_EQ(by_name["Default-Cloud"]["vtype"], "CLOUD_VCENTER");
  EXPECT_EQ(by_name["nsxt-cloud"]["vtype"], "CLOUD_NSXT");
  for (const auto& [name, c] : by_name) {
    EXPECT_THAT(c["uuid"].get<std::string>(), ::testing::StartsWith("cloud-")) << name;
    // The text output names the same uuids.
    EXPECT_THAT(run.out, HasSubstr(absl::StrCat(name, " (uuid ", c["uuid"].get<std::string>())));
  }
}

TEST_F(ControllerCommandTest, CheckWithCloudAlsoResolvesThatCloud) {
  Outcome json = Run({"check", "--json", "--cloud", "nsxt-cloud"});
  ASSERT_EQ(json.code, 0) << json.err;
  nlohmann::json j = Parse(json);
  EXPECT_EQ(j["clouds"].size(), 2u);
  EXPECT_EQ(j["cloud"]["name"], "nsxt-cloud");
  EXPECT_EQ(j["cloud"]["vtype"], "CLOUD_NSXT");
  EXPECT_THAT(j["cloud"]["uuid"].get<std::string>(), HasSubstr("cloud-"));

  Outcome text = Run({"check", "--cloud", j["cloud"]["uuid"].get<std::string>()});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, ContainsRegex("Cloud \\(--cloud\\) +nsxt-cloud \\(uuid cloud-"));

  Outcome missing = Run({"check", "--cloud", "no-such-cloud"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err, HasSubstr("controller check: "));
  EXPECT_THAT(missing.err, HasSubstr("cloud \"no-such-cloud\" not found"));
  EXPECT_EQ(missing.out, "");
}

TEST_F(ControllerCommandTest, ListFollowsPagesAndFiltersByCloud) {
  // The client asks for 200 objects a page; 2 seeded groups + 203 make two pages.
  CreateGroups("cli-seg-", 201, "Default-Cloud");
  CreateGroups("cli-nsxt-", 2, "nsxt-cloud");
  const int gets_before = Count("GET /api/serviceenginegroup");

  Outcome run = Run({"list-se-groups", "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_GE(Count("GET /api/serviceenginegroup") - gets_before, 2);
  nlohmann::json list = Parse(run);
  ASSERT_TRUE(list.is_array());
  EXPECT_EQ(list.size(), 205u);
  std::set<std::string> names;
  std::set<std::string> uuids;
  for (const auto& g : list) {
    names.insert(g["name"].get<std::string>());
    uuids.insert(g["uuid"].get<std::string>());
  }
  EXPECT_EQ(uuids.size(), 205u);  // no page listed twice
  EXPECT_EQ(names.size(), 204u);  // each cloud has its own Default-Group
  EXPECT_TRUE(names.count("cli-seg-0") && names.count("cli-seg-200") && names.count("cli-nsxt-1"));
  for (const auto& g : list) {
    if (g["name"] != "cli-seg-4") continue;
    EXPECT_EQ(g["cloud"], "Default-Cloud");
    EXPECT_EQ(g["vcpus_per_se"], 3);
    EXPECT_EQ(g["memory_per_se"], 4096);
    EXPECT_EQ(g["max_se"], 3);
    EXPECT_THAT(g["uuid"].get<std::string>(), HasSubstr("serviceenginegroup-"));
  }

  Outcome nsxt = Run({"list-se-groups", "--cloud=nsxt-cloud"});
  ASSERT_EQ(nsxt.code, 0) << nsxt.err;
  EXPECT_THAT(nsxt.out, HasSubstr("NAME"));
  EXPECT_THAT(nsxt.out, HasSubstr("VCPUS_PER_SE"));
  EXPECT_THAT(nsxt.out, HasSubstr("cli-nsxt-0"));
  EXPECT_THAT(nsxt.out, HasSubstr("cli-nsxt-1"));
  EXPECT_THAT(nsxt.out, Not(HasSubstr("cli-seg-")));
  EXPECT_THAT(nsxt.out, HasSubstr("3 SE groups in cloud nsxt-cloud."));
}

TEST_F(ControllerCommandTest, GetPrintsTheObjectAsJson) {
  CreateGroups("cli-get-", 1, "nsxt-cloud");
  Outcome run = Run({"get-se-group", "cli-get-0", "--cloud", "nsxt-cloud"});
  ASSERT_EQ(run.code, 0) << run.err;
  nlohmann::json j = Parse(run);
  EXPECT_EQ(j["name"], "cli-get-0");
  EXPECT_EQ(j["vcpus_per_se"], 2);
  EXPECT_THAT(j["cloud_ref"].get<std::string>(), HasSubstr("/api/cloud/"));

  Outcome missing = Run({"get-se-group", "no-such-group"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err, HasSubstr("no SE group named \"no-such-group\""));
  EXPECT_EQ(missing.out, "");
}

TEST_F(ControllerCommandTest, WrongPasswordExitsOneWithoutThePassword) {
  const std::string secret = "Wr0ng-Secret-7f3e";
  env_["NSXALB_PASSWORD"] = secret;
  Outcome run = Run({"check"});
  EXPECT_EQ(run.code, 1);
  EXPECT_THAT(run.err, HasSubstr("controller check: "));
  EXPECT_THAT(run.err, HasSubstr("401"));
  EXPECT_THAT(run.err, HasSubstr("NSXALB_PASSWORD"));
  EXPECT_THAT(run.out + run.err + run.log, Not(HasSubstr(secret)));
}

TEST_F(ControllerCommandTest, TlsFailsWithoutTheCa) {
  env_.erase("NSXALB_CA_FILE");
  Outcome run = Run({"list-se-groups"});
  EXPECT_EQ(run.code, 1);
  EXPECT_THAT(run.err, HasSubstr("TLS verification"));
  EXPECT_THAT(run.err, HasSubstr("ca_file"));
  // What to do: save the certificate (openssl) and give it as ca_file; here --ca-file says so too.
  EXPECT_THAT(run.err, HasSubstr("What to do: "));
  EXPECT_THAT(run.err, HasSubstr("openssl s_client -connect 127.0.0.1:"));
  EXPECT_THAT(run.err, HasSubstr("ca_file (or NSXALB_CA_FILE)"));
  // The advice is given once, not again in the client's message.
  EXPECT_EQ(run.err.find("ca_file or ca_pem"), std::string::npos) << run.err;
  EXPECT_THAT(run.err, HasSubstr("--ca-file"));

  // --ca-file overrides the environment, and --insecure drops the CA variables.
  env_["NSXALB_CA_FILE"] = "/nonexistent/ca.pem";
  EXPECT_EQ(Run({"check", "--ca-file", emulator_->ca_file()}).code, 0);
  Outcome insecure = Run({"check", "--insecure"});
  EXPECT_EQ(insecure.code, 0) << insecure.err;
  EXPECT_THAT(insecure.log, HasSubstr("[WARN]"));
}

TEST_F(ControllerCommandTest, UsageErrorsNameTheSetting) {
  env_.erase("NSXALB_CONTROLLER");
  Outcome run = Run({"check"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("NSXALB_CONTROLLER"));
  EXPECT_THAT(run.err, HasSubstr("--controller"));
  EXPECT_EQ(Count("POST /login"), 0);

  env_["NSXALB_CONTROLLER"] = emulator_->url();
  env_.erase("NSXALB_PASSWORD");
  run = Run({"check"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("NSXALB_PASSWORD"));

  env_["NSXALB_PASSWORD"] = "admin";
  run = Run({"check", "--password", "admin"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("NSXALB_PASSWORD environment variable"));

  run = Run({"check", "--ca-file", "/nonexistent/ca.pem"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("ca_file"));
  EXPECT_THAT(run.err, HasSubstr("NSXALB_CA_FILE"));

  env_["NSXALB_INSECURE"] = "maybe";
  run = Run({"check"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("NSXALB_INSECURE"));
  env_.erase("NSXALB_INSECURE");

  EXPECT_EQ(Run({}).code, 2);
  EXPECT_EQ(Run({"frobnicate"}).code, 2);
  EXPECT_EQ(Run({"get-se-group"}).code, 2);
  EXPECT_EQ(Run({"list-se-groups", "--bogus"}).code, 2);
  EXPECT_EQ(Run({"check", "--controller"}).code, 2);
  Outcome help = Run({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, HasSubstr("list-se-groups"));
  EXPECT_EQ(Count("POST /login"), 0);
}

// usage --all: its flags against NAME, --json and the action, each refused with exit 2 before
// any request.
TEST_F(ControllerCommandTest, UsageAllFlagErrorsExitTwoBeforeAnyRequest) {
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"usage", "web", "--all"}, "give either the SE group NAME (\"web\") or --all, not both"},
      {{"usage", "--all", "web"}, "give either the SE group NAME (\"web\") or --all, not both"},
      {{"usage", "--all", "--csv", "--json"}, "--csv and --json: give one of them"},
      {{"usage", "web", "--csv"}, "--csv: only with usage --all"},
      {{"usage", "web", "--min-ses", "2"}, "--min-ses: only with usage --all"},
      {{"usage", "web", "--name", "w.*"}, "--name: only with usage --all"},
      {{"list-se-groups", "--all"}, "--all: only for usage"},
      {{"usage", "--all", "--min-ses", "-1"}, "--min-ses: want a whole number of SEs"},
      {{"usage", "--all", "--forecast-days", "0"},
       "--forecast-days: want a whole number of days "
       "from 1 to 365"},
      {{"usage", "--all", "--name", "(web"},
       "--name: name_regex \"(web\" is not a regular "
       "expression"},
      {{"usage", "--all", "--window", "90d"}, "--window:"},
      {{"usage"}, "usage: missing the SE group NAME (or --all)"},
      {{"usage", "web", "--all-tenants"}, "--all-tenants: only with usage --all"},
      {{"usage", "--all", "--all-tenants", "--tenant", "admin"},
       "--tenant and --all-tenants: give one of them"},
  };
  for (const auto& c : cases) {
    Outcome run = Run(c.args);
    EXPECT_EQ(run.code, 2) << c.args[1];
    EXPECT_THAT(run.err, HasSubstr(c.says));
    EXPECT_EQ(run.out, "");
  }
  EXPECT_EQ(Count("POST /login"), 0);
  Outcome help = Run({"usage", "--help"});
  EXPECT_THAT(help.out, HasSubstr("controller usage --all [--cloud NAME] [--name REGEX]"));
}

// usage --all on the emulator's seed (a Default-Group without SEs in each cloud): every group,
// no metrics request, and --cloud and --name filter.
TEST_F(ControllerCommandTest, UsageAllReadsEveryGroupOfTheTenant) {
  Outcome json = Run({"usage", "--all", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  nlohmann::json j = Parse(json);
  EXPECT_EQ(j["totals"]["groups"], 2);
  EXPECT_EQ(j["totals"]["groups_without_observed_load"], 2);
  EXPECT_EQ(j["metrics_requests"], 0);
  EXPECT_EQ(Count("POST /api/analytics/metrics/collection"), 0);

  Outcome text = Run({"usage", "--all", "--cloud", "nsxt-cloud"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("Default-Group  nsxt-cloud"));
  EXPECT_THAT(text.out, HasSubstr("The group has no Service Engines"));
  EXPECT_THAT(text.out, HasSubstr("Total: 1 group, 0 SUs now"));
  EXPECT_EQ(text.err, "");  // no progress line: stderr is not a terminal here

  Outcome csv = Run({"usage", "--all", "--name", "^nothing", "--csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "name,uuid,cloud,platform,se_count,ses_behind_settings,su_now,su_recommended,"
            "su_reclaimable,cpu_peak_pct,days_to_target,reaches_on,at_risk,observed,note,"
            "license_tier,su_now_ledger,tier_licensed,tier_consumed,tier_escrow,tier_remaining,"
            "tier_remaining_after_reclaim\n");

  Outcome unknown = Run({"usage", "--all", "--cloud", "no-such-cloud"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("no-such-cloud"));
}

// usage GROUP: each SE's shape, states and whether it matches the group's settings, in the text
// and in --json; the group's SEs of another shape (made with the emulator's vcpus override) are
// behind the settings, in the group's row of --all and its CSV too; apply-se-group returns the
// same SEs as the resource's service_engines and warns ses-behind-settings.
TEST_F(ControllerCommandTest, UsageListsEachSeAndWhetherItMatchesTheSettings) {
  CreateGroups("lag-", 1, "nsxt-cloud");  // lag-0: 2 vCPUs, 4,096 MB
  Outcome listed = Run({"list-se-groups", "--json", "--cloud", "nsxt-cloud"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  std::string uuid;
  for (const nlohmann::json& g : Parse(listed)) {
    if (g["name"] == "lag-0") uuid = g["uuid"].get<std::string>();
  }
  ASSERT_FALSE(uuid.empty()) << listed.out;
  ASSERT_THAT(emulator_->Control("POST", "serviceengines", {{"se_group_uuid", uuid}, {"count", 1}}),
              IsOk());
  ASSERT_THAT(emulator_->Control("POST", "serviceengines",
                                 {{"se_group_uuid", uuid}, {"count", 1}, {"vcpus", 4}}),
              IsOk());

  Outcome text = Run({"usage", "lag-0", "--cloud", "nsxt-cloud", "--window", "24h"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("Service Engines (2 running, 1 matches the group's settings, "
                                  "1 behind them: ses-behind-settings):\n"));
  EXPECT_THAT(text.out, ContainsRegex("lag-0-se-1 \\(se-[0-9a-f-]+\\): 2 vCPUs, 4,096 MB, "
                                      "[0-9]+ GB disk, SE_STATE_ENABLED, [A-Z_a-z ]+; matches "
                                      "the settings"));
  EXPECT_THAT(text.out, HasSubstr("; behind the settings: new-ses-only (vcpus_per_se)\n"));

  Outcome json = Run({"usage", "lag-0", "--cloud", "nsxt-cloud", "--window", "24h", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const nlohmann::json j = Parse(json);
  EXPECT_EQ(j["ses_behind_settings"], 1);
  ASSERT_EQ(j["service_engines"].size(), 2u);
  int behind = 0;
  for (const nlohmann::json& se : j["service_engines"]) {
    if (se["vcpus"] == 4) {
      ++behind;
      EXPECT_EQ(se["matches"], false);
      EXPECT_EQ(se["why"], "new-ses-only");
      EXPECT_EQ(se["fields"], nlohmann::json::array({"vcpus_per_se"}));
    } else {
      EXPECT_EQ(se["matches"], true);
      EXPECT_TRUE(se["why"].is_null());
    }
    EXPECT_EQ(se["enable_state"], "SE_STATE_ENABLED");
    EXPECT_EQ(se["memory_mb"], 4096);
  }
  EXPECT_EQ(behind, 1);

  Outcome csv = Run({"usage", "--all", "--name", "^lag-", "--csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_THAT(csv.out, ContainsRegex("\nlag-0,[^,]+,nsxt-cloud,nsxt,2,1,"));
  Outcome all = Run({"usage", "--all", "--name", "^lag-"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("; 1 SE behind settings\n"));

  const std::string desired =
      R"({"name": "lag-0", "cloud": "nsxt-cloud", "settings": {"vcpus_per_se": 2}})";
  Outcome applied = Run({"apply-se-group"}, desired);
  ASSERT_EQ(applied.code, 0) << applied.out;
  const nlohmann::json result = Parse(applied);
  EXPECT_EQ(result["service_engines"]["running"], 2);
  EXPECT_EQ(result["service_engines"]["matching"], 1);
  EXPECT_EQ(result["service_engines"]["lagging"][0]["vcpus"], 4);
  EXPECT_EQ(result["service_engines"]["lagging"][0]["why"], "new-ses-only");
  ASSERT_EQ(result["warnings"].size(), 1u) << applied.out;
  EXPECT_THAT(result["warnings"][0].get<std::string>(),
              HasSubstr("ses-behind-settings: 1 of lag-0's 2 running SEs lags its settings"));
}

// apply-se-group: the desired state on stdin, JSON out; --dry-run sends nothing; a second run
// finds nothing to do; a failure is JSON too, with exit code 1.
TEST_F(ControllerCommandTest, ApplySeGroupConvergesAndDryRunSendsNothing) {
  const std::string web = R"({"name":"web","cloud":"nsxt-cloud","workload":{"l7_rps":150000}})";
  const size_t groups = Parse(Run({"list-se-groups", "--json"})).size();
  Outcome dry = Run({"apply-se-group", "--dry-run"}, web);
  ASSERT_EQ(dry.code, 0) << dry.out << dry.err;
  nlohmann::json j = Parse(dry);
  EXPECT_EQ(j["changed"], true);
  EXPECT_EQ(j["dry_run"], true);
  EXPECT_EQ(j["after"]["vcpus_per_se"], 6);
  EXPECT_EQ(Parse(Run({"list-se-groups", "--json"})).size(), groups);  // nothing created

  Outcome created = Run({"apply-se-group"}, web);
  ASSERT_EQ(created.code, 0) << created.out << created.err;
  j = Parse(created);
  EXPECT_EQ(j["changed"], true);
  EXPECT_EQ(j["se_group"]["vcpus_per_se"], 6);
  EXPECT_EQ(j["sizing"]["summary"], "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)");

  Outcome again = Run({"apply-se-group"}, web);
  ASSERT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_EQ(Parse(again)["changed"], false);

  Outcome listed = Run({"list-se-groups", "--json", "--full", "--name", "web"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  j = Parse(listed);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["memory_per_se"], 12288);
}

// Another writer changes the group between apply-se-group's GET and its PUT (the emulator's
// other_writer fault): the 412 is answered by reading the group again, so the other writer's
// field survives; a 412 that keeps coming back fails with a clear message after 3 attempts.
TEST_F(ControllerCommandTest, ApplySeGroupRacingAnotherWriterKeepsTheirField) {
  const std::string small = R"({"name":"race","cloud":"nsxt-cloud","settings":{"vcpus_per_se":2}})";
  ASSERT_EQ(Run({"apply-se-group"}, small).code, 0);
  auto reset = emulator_->Control("POST", "counters/reset", nlohmann::json::object());
  ASSERT_THAT(reset, IsOk());
  ASSERT_THAT(emulator_->Control("POST", "faults",
                                 {{"other_writer_next", 1},
                                  {"other_writer_field", "connection_memory_percentage"},
                                  {"other_writer_value", 70}}),
              IsOk());
  const std::string bigger =
      R"({"name":"race","cloud":"nsxt-cloud","settings":{"vcpus_per_se":3}})";
  Outcome raced = Run({"apply-se-group"}, bigger);
  ASSERT_EQ(raced.code, 0) << raced.out << raced.err;
  nlohmann::json j = Parse(raced);
  EXPECT_EQ(j["changed"], true);
  EXPECT_EQ(j["se_group"]["vcpus_per_se"], 3);
  EXPECT_EQ(Count("GET /api/serviceenginegroup/{uuid}"), 2);
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 2);
  Outcome listed = Run({"list-se-groups", "--json", "--full", "--name", "race"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  EXPECT_EQ(Parse(listed)[0]["connection_memory_percentage"], 70);

  ASSERT_THAT(emulator_->Control("POST", "faults", {{"other_writer_next", 100}}), IsOk());
  Outcome lost = Run({"apply-se-group"},
                     R"({"name":"race","cloud":"nsxt-cloud","settings":{"vcpus_per_se":4}})");
  EXPECT_EQ(lost.code, 1) << lost.out;
  j = Parse(lost);
  EXPECT_EQ(j["failed"], true);
  EXPECT_THAT(j["msg"].get<std::string>(), HasSubstr("changed by another writer"));
  EXPECT_THAT(j["msg"].get<std::string>(), HasSubstr("412"));
}

TEST_F(ControllerCommandTest, ApplySeGroupFailuresAreJson) {
  for (const std::string& input :
       {std::string("not json"), std::string(R"({"name":"web","colour":"red"})"),
        std::string(R"({"name":"web","workload":{"rps":1}})")}) {
    Outcome bad = Run({"apply-se-group"}, input);
    EXPECT_EQ(bad.code, 1) << input;
    nlohmann::json j = Parse(bad);
    EXPECT_EQ(j["failed"], true) << input;
    EXPECT_FALSE(j["msg"].get<std::string>().empty()) << input;
  }
  Outcome enforced = Run({"apply-se-group"},
                         R"({"name":"small","cloud":"nsxt-cloud","sizing_policy":"enforce",
                             "settings":{"vcpus_per_se":2,"min_scaleout_per_vs":1},
                             "workload":{"l7_rps":150000}})");
  EXPECT_EQ(enforced.code, 1);
  nlohmann::json j = Parse(enforced);
  EXPECT_THAT(j["msg"].get<std::string>(), HasSubstr("demand-within-capacity"));
  EXPECT_EQ(j["changed"], false);
  EXPECT_EQ(Parse(Run({"list-se-groups", "--json", "--name", "small"})).size(), 0u);
}

}  // namespace
}  // namespace nsxalb::cli
