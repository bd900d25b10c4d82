// Desired-state convergence against the Controller emulator: create, a second run that sends
// nothing, dry runs that send nothing, read-modify-write that keeps other fields, the enforce
// gate, and absent.
#include "plugin/segroup/desired_state.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::nsxalb::testing::EmulatorProcess;
using Json = nlohmann::json;

class DesiredStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto emulator = EmulatorProcess::Start(EmulatorProcess::Options{});
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
    controller::ClientConfig config;
    config.controller = emulator_->url();
    config.username = "admin";
    config.password = "admin";
    config.ca_file = emulator_->ca_file();
    auto client = controller::NewClient(config);
    ASSERT_THAT(client, IsOk());
    client_ = *std::move(client);
  }

  // POST, PUT and DELETE requests the emulator has counted.
  int Writes() {
    absl::StatusOr<Json> counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    int writes = 0;
    for (auto it = (*counters)["requests"].begin(); it != (*counters)["requests"].end(); ++it) {
      const std::string& key = it.key();
      if (key.rfind("POST /api/", 0) == 0 || key.rfind("PUT ", 0) == 0 ||
          key.rfind("DELETE ", 0) == 0) {
        writes += it.value().get<int>();
      }
    }
    return writes;
  }

  Outcome Run(const Json& input, bool dry_run = false) {
    absl::StatusOr<DesiredSeGroup> desired = ParseDesiredSeGroup(input);
    EXPECT_THAT(desired, IsOk());
    ConvergeOptions options;
    options.dry_run = dry_run;
    absl::StatusOr<Outcome> out = Converge(*client_, *desired, options);
    EXPECT_THAT(out, IsOk());
    return out.ok() ? *out : Outcome{};
  }

  std::unique_ptr<EmulatorProcess> emulator_;
  std::unique_ptr<controller::Client> client_;
};

const Json kWeb = {{"name", "web"}, {"cloud", "nsxt-cloud"}, {"workload", {{"l7_rps", 150000}}}};

TEST_F(DesiredStateTest, CreateThenNothingToDo) {
  const Outcome dry = Run(kWeb, /*dry_run=*/true);
  EXPECT_TRUE(dry.changed);
  EXPECT_EQ(dry.after["vcpus_per_se"], 6);
  EXPECT_EQ(Writes(), 0);

  const Outcome created = Run(kWeb);
  EXPECT_TRUE(created.changed);
  EXPECT_EQ(created.before, Json::object());
  EXPECT_EQ(created.se_group["vcpus_per_se"], 6);
  EXPECT_EQ(created.sizing["se_count"], 1);
  EXPECT_TRUE(created.errors.empty());
  EXPECT_EQ(Writes(), 1);

  const Outcome again = Run(kWeb);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.before, again.after);
  EXPECT_EQ(Writes(), 1);
}

TEST_F(DesiredStateTest, UpdateKeepsFieldsItDoesNotManage) {
  Json with_extra = kWeb;
  with_extra["extra_fields"] = {{"se_deprovision_delay", 5}};
  Run(with_extra);
  Json bigger = kWeb;
  bigger["settings"] = {{"vcpus_per_se", 8}};
  const Outcome dry = Run(bigger, /*dry_run=*/true);
  EXPECT_TRUE(dry.changed);
  EXPECT_EQ(dry.before["vcpus_per_se"], 6);
  EXPECT_EQ(dry.after["vcpus_per_se"], 8);
  EXPECT_EQ(Writes(), 1);
  const Outcome updated = Run(bigger);
  EXPECT_TRUE(updated.changed);
  EXPECT_EQ(updated.se_group["vcpus_per_se"], 8);
  EXPECT_EQ(updated.se_group["se_deprovision_delay"], 5);
  EXPECT_EQ(Writes(), 2);
}

TEST_F(DesiredStateTest, EnforceFailsOnlyWhenTheGroupWouldChange) {
  Json small = kWeb;
  small["settings"] = {{"vcpus_per_se", 2}, {"min_scaleout_per_vs", 1}};
  const Outcome warned = Run(small);  // warn: created, with the finding as a warning
  EXPECT_TRUE(warned.changed);
  ASSERT_FALSE(warned.warnings.empty());
  EXPECT_EQ(Writes(), 1);

  small["sizing_policy"] = "enforce";
  const Outcome unchanged = Run(small);  // the group stays as it is: the gate is waived
  EXPECT_FALSE(unchanged.changed);
  EXPECT_TRUE(unchanged.errors.empty());

  small["settings"]["memory_per_se"] = 12288;  // a change: the gate applies, nothing is sent
  const Outcome refused = Run(small);
  EXPECT_FALSE(refused.changed);
  ASSERT_FALSE(refused.errors.empty());
  EXPECT_NE(refused.errors[0].find("demand-within-capacity"), std::string::npos)
      << refused.errors[0];
  EXPECT_EQ(Writes(), 1);

  Json gone = small;
  gone["state"] = "absent";
  EXPECT_TRUE(Run(gone).changed);  // absent never sizes
  EXPECT_EQ(Writes(), 2);
}

TEST_F(DesiredStateTest, AbsentRemovesThenNothingToDo) {
  Run(kWeb);
  Json gone = kWeb;
  gone["state"] = "absent";
  EXPECT_TRUE(Run(gone, /*dry_run=*/true).changed);
  EXPECT_EQ(Writes(), 1);
  const Outcome removed = Run(gone);
  EXPECT_TRUE(removed.changed);
  EXPECT_EQ(removed.before["vcpus_per_se"], 6);
  EXPECT_EQ(Writes(), 2);
  EXPECT_FALSE(Run(gone).changed);
  EXPECT_EQ(Writes(), 2);
}

TEST(ParseDesiredSeGroupTest, RejectsWhatItDoesNotKnow) {
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"cloud", "x"}}), Not(IsOk()));
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"name", "a"}, {"colour", "x"}}), Not(IsOk()));
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"name", "a"}, {"settings", {{"vcpus", 2}}}}), Not(IsOk()));
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"name", "a"}, {"workload", {{"rps", 2}}}}), Not(IsOk()));
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"name", "a"}, {"extra_fields", {{"name", "b"}}}}),
              Not(IsOk()));
  EXPECT_THAT(ParseDesiredSeGroup(Json{{"name", "a"}, {"sizing_policy", "strict"}}), Not(IsOk()));
  absl::StatusOr<DesiredSeGroup> ok = ParseDesiredSeGroup(
      Json{{"name", "a"}, {"state", "absent"}, {"settings", {{"vcpus_per_se", nullptr}}}});
  ASSERT_THAT(ok, IsOk());
  EXPECT_FALSE(ok->present);
  EXPECT_EQ(ok->cloud, "Default-Cloud");
  EXPECT_TRUE(ok->settings.empty());
}

}  // namespace
}  // namespace nsxalb::segroup
