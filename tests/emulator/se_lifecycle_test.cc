// Unit tests of the emulator's SE lifecycle (emulator/se_lifecycle.h) over a real Store, with an
// injected clock: placement, disable with migration, delete, reboot with pending settings, new
// SEs at the group's current settings, deprovisioning, no-access clouds, faults, admission and
// the timeline's summaries.
#include "emulator/se_lifecycle.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "emulator/config.h"
#include "emulator/faults.h"
#include "emulator/field_rules.h"
#include "emulator/store.h"
#include "emulator/upgrade.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using ::testing::UnorderedElementsAre;

class SeLifecycleTest : public ::testing::Test {
 protected:
  SeLifecycleTest()
      : store_([this] { return now_ms_.load() * 1000; }),
        faults_(FaultConfig{}),
        lifecycle_(
            &store_, &faults_, [this] { return now_ms_.load(); },
            SeTiming{/*boot_ms=*/100, /*migration_ms=*/50, /*minute_ms=*/1000},
            DefaultsFor(controller::ApiVersion{22, 1, 3})) {
    store_.Seed();
  }

  // Creates an SE group in Default-Cloud (or `cloud`) from `body` and returns its uuid.
  std::string Group(json body, const std::string& cloud = "") {
    if (!cloud.empty()) body["cloud_ref"] = cloud;
    absl::StatusOr<json> g = store_.CreateSeGroup(body, "admin");
    EXPECT_TRUE(g.ok()) << g.status();
    return g.ok() ? (*g)["uuid"].get<std::string>() : "";
  }
  // `n` running SEs loaded through the control path.
  std::vector<std::string> Ses(const std::string& group, int n) {
    std::vector<std::string> out;
    EXPECT_TRUE(lifecycle_.AddServiceEngines(group, n, std::nullopt, &out).ok());
    return out;
  }
  void At(int64_t ms) {
    now_ms_ = ms;
    lifecycle_.Advance();
  }
  std::string Oper(const std::string& se) {
    absl::StatusOr<json> rt = lifecycle_.Runtime(se);
    return rt.ok() ? (*rt)["oper_status"]["state"].get<std::string>() : "(gone)";
  }
  json Vs(const std::string& uuid) { return lifecycle_.VirtualService(uuid).value(); }
  std::vector<std::string> SesOf(const std::string& group) {
    ListFilter f;
    f.refers_to = std::make_pair(std::string(kSeGroup), group);
    std::vector<std::string> out;
    for (const json& se : store_.List(kServiceEngine, f)) out.push_back(se["uuid"]);
    return out;
  }
  absl::StatusOr<json> SetState(const std::string& se, const std::string& state) {
    json obj = store_.Get(kServiceEngine, se, "admin").value();
    obj["enable_state"] = state;
    return lifecycle_.UpdateServiceEngine(se, "admin", obj);
  }
  json Summary() { return lifecycle_.Timeline()["summary"]; }

  std::atomic<int64_t> now_ms_{1'000'000};
  Store store_;
  Faults faults_;
  SeLifecycle lifecycle_;
};

TEST_F(SeLifecycleTest, PlacesEachVirtualServiceOnMinScaleoutSesRespectingMaxVsPerSe) {
  const std::string g = Group({{"name", "web"}, {"min_scaleout_per_vs", 2}, {"max_vs_per_se", 2}});
  const std::vector<std::string> ses = Ses(g, 2);
  absl::StatusOr<std::vector<std::string>> vss = lifecycle_.AddVirtualServices("web", 3, "");
  ASSERT_TRUE(vss.ok()) << vss.status();
  // The first two fill both SEs (two each); the third needs two new SEs, which boot first.
  EXPECT_THAT(Vs((*vss)[0])["se_uuids"], UnorderedElementsAre(ses[0], ses[1]));
  EXPECT_THAT(Vs((*vss)[1])["se_uuids"], UnorderedElementsAre(ses[0], ses[1]));
  EXPECT_THAT(Vs((*vss)[2])["se_uuids"], IsEmpty());
  EXPECT_THAT(Vs((*vss)[2])["pending"], SizeIs(2));
  ASSERT_THAT(SesOf(g), SizeIs(4));
  EXPECT_EQ(Oper(SesOf(g)[2]), "OPER_CREATING");
  At(1'000'099);
  EXPECT_EQ(Oper(SesOf(g)[2]), "OPER_CREATING");
  At(1'000'100);
  EXPECT_EQ(Oper(SesOf(g)[2]), "OPER_UP");
  EXPECT_THAT(Vs((*vss)[2])["se_uuids"], UnorderedElementsAre(SesOf(g)[2], SesOf(g)[3]));
  EXPECT_THAT(lifecycle_.PlacedOn(ses[0]), UnorderedElementsAre((*vss)[0], (*vss)[1]));
}

TEST_F(SeLifecycleTest, SavedVirtualServicesAreRestoredOnTheLoadedSes) {
  const std::string g = Group({{"name", "web"}, {"max_vs_per_se", 2}});
  const std::vector<std::string> ses = Ses(g, 2);
  absl::StatusOr<std::vector<std::string>> vss = lifecycle_.AddVirtualServices("web", 3, "");
  ASSERT_TRUE(vss.ok()) << vss.status();
  const json saved = lifecycle_.SavedVirtualServices();
  ASSERT_THAT(saved, SizeIs(3));
  EXPECT_EQ(saved[0]["name"], "web-vs-1");
  EXPECT_EQ(saved[2]["se_uuids"], json::array({ses[1]}));

  // A second lifecycle over the same objects (as after a restart with --state).
  Store store([this] { return now_ms_.load() * 1000; });
  char path[] = "/tmp/nsxalb-lifecycle-test-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_TRUE(store_.Save(path, {{"virtualservice", saved}}).ok());
  json others;
  ASSERT_TRUE(store.Load(path, &others).ok());
  std::remove(path);
  ASSERT_TRUE(others.contains("virtualservice"));
  SeLifecycle restarted(
      &store, &faults_, [this] { return now_ms_.load(); },
      SeTiming{/*boot_ms=*/100, /*migration_ms=*/50, /*minute_ms=*/1000},
      DefaultsFor(controller::ApiVersion{22, 1, 3}));
  ASSERT_TRUE(restarted.RestoreVirtualServices(others["virtualservice"]).ok());
  EXPECT_EQ(restarted.SavedVirtualServices(), saved);
  EXPECT_THAT(restarted.PlacedOn(ses[0]), ElementsAre((*vss)[0], (*vss)[1]));
  // The placements hold the SEs' room: a new virtual service takes ses[1]'s last slot, and its
  // name follows the restored ones.
  absl::StatusOr<std::vector<std::string>> more = restarted.AddVirtualServices("web", 1, "");
  ASSERT_TRUE(more.ok()) << more.status();
  json added = restarted.VirtualService((*more)[0]).value();
  EXPECT_EQ(added["name"], "web-vs-4");
  EXPECT_EQ(added["se_uuids"], json::array({ses[1]}));

  // An SE that is gone is dropped from a placement; the group then places it as it allows.
  json gone = saved;
  gone[0]["se_uuids"] = json::array({"se-gone"});
  SeLifecycle third(
      &store, &faults_, [this] { return now_ms_.load(); },
      SeTiming{/*boot_ms=*/100, /*migration_ms=*/50, /*minute_ms=*/1000},
      DefaultsFor(controller::ApiVersion{22, 1, 3}));
  ASSERT_TRUE(third.RestoreVirtualServices(gone).ok());
  EXPECT_THAT(third.VirtualService(saved[0]["uuid"]).value()["se_uuids"], SizeIs(1));
  EXPECT_NE(third.VirtualService(saved[0]["uuid"]).value()["se_uuids"][0], "se-gone");

  // A malformed entry restores nothing.
  SeLifecycle fourth(
      &store, &faults_, [this] { return now_ms_.load(); },
      SeTiming{/*boot_ms=*/100, /*migration_ms=*/50, /*minute_ms=*/1000},
      DefaultsFor(controller::ApiVersion{22, 1, 3}));
  json bad = saved;
  bad[1].erase("se_uuids");
  absl::Status refused = fourth.RestoreVirtualServices(bad);
  EXPECT_TRUE(absl::IsInvalidArgument(refused)) << refused;
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("objects.virtualservice[1]"));
  EXPECT_THAT(fourth.VirtualServices(), IsEmpty());
}

TEST_F(SeLifecycleTest, AGroupNameShared_ByTwoCloudsNeedsItsUuid) {
  EXPECT_FALSE(lifecycle_.AddVirtualServices("Default-Group", 1, "").ok());
  EXPECT_TRUE(absl::IsNotFound(lifecycle_.AddVirtualServices("nope", 1, "").status()));
}

TEST_F(SeLifecycleTest, DisableForPlacementKeepsVirtualServicesAndTakesNoNewOnes) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 2);
  const std::string vs1 = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  EXPECT_THAT(Vs(vs1)["se_uuids"], ElementsAre(ses[0]));
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED_FOR_PLACEMENT").ok());
  const std::string vs2 = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  At(1'010'000);
  EXPECT_THAT(Vs(vs1)["se_uuids"], ElementsAre(ses[0]));
  EXPECT_THAT(Vs(vs2)["se_uuids"], ElementsAre(ses[1]));
  EXPECT_EQ(Oper(ses[0]), "OPER_UP");
}

TEST_F(SeLifecycleTest, DisableMigratesToAnEnabledSeWithRoomThenTheSeIsDisabled) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 2);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLING");
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["migrate_state"], "SE_MIGRATE_STATE_STARTED");
  EXPECT_THAT(Vs(vs)["se_uuids"], UnorderedElementsAre(ses[0], ses[1]));  // make before break
  At(1'000'049);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLING");
  At(1'000'050);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["migrate_state"], "SE_MIGRATE_STATE_FINISHED");
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(ses[1]));
  const json summary = Summary();
  EXPECT_THAT(summary["unplaced_instants"], IsEmpty());
  EXPECT_EQ(summary["max_ses_out"], 1);
  // No new SE was needed.
  EXPECT_THAT(SesOf(g), SizeIs(2));
}

TEST_F(SeLifecycleTest, DisableWithoutRoomCreatesANewSeAtTheGroupsCurrentSettings) {
  const std::string g =
      Group({{"name", "web"}, {"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"max_vs_per_se", 1}});
  const std::vector<std::string> ses = Ses(g, 1);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  // The group is resized after its SE was created: the SE keeps its shape.
  json group = store_.Get(kSeGroup, g, "admin").value();
  group["vcpus_per_se"] = 5;
  group["memory_per_se"] = 10240;
  ASSERT_TRUE(store_.ReplaceSeGroup(g, group, "admin").ok());
  EXPECT_EQ(store_.Get(kServiceEngine, ses[0], "admin").value()["resources"]["num_vcpus"], 4);
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  ASSERT_THAT(SesOf(g), SizeIs(2));
  const std::string fresh = SesOf(g)[1];
  const json resources = store_.Get(kServiceEngine, fresh, "admin").value()["resources"];
  EXPECT_EQ(resources["num_vcpus"], 5);
  EXPECT_EQ(resources["memory"], 10240);
  EXPECT_EQ(Oper(fresh), "OPER_CREATING");
  // The migration time passes, but the VS waits for its new SE to boot.
  At(1'000'060);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLING");
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(ses[0]));
  At(1'000'100);
  EXPECT_EQ(Oper(fresh), "OPER_UP");
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(fresh));
  EXPECT_THAT(Summary()["unplaced_instants"], IsEmpty());
}

TEST_F(SeLifecycleTest, DeleteIsRefusedWhileAnSeHostsAVirtualService) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 2);
  lifecycle_.AddVirtualServices("web", 1, "").value();
  absl::Status refused = lifecycle_.DeleteServiceEngine(ses[0], "admin");
  EXPECT_TRUE(absl::IsFailedPrecondition(refused)) << refused;
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("web-vs-1"));
  EXPECT_TRUE(lifecycle_.DeleteServiceEngine(ses[1], "admin").ok());
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  At(1'000'200);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
  EXPECT_TRUE(lifecycle_.DeleteServiceEngine(ses[0], "admin").ok());
  EXPECT_TRUE(absl::IsNotFound(lifecycle_.DeleteServiceEngine(ses[0], "admin")));
  EXPECT_FALSE(store_.Get(kServiceEngine, ses[0], "admin").ok());
}

// Fault delete_hosting_se: the DELETE succeeds and drops the virtual services as a force delete
// would; each one left on no serving SE is an unplaced instant, and it is placed again (a new SE
// here, as the group allows).
TEST_F(SeLifecycleTest, DeleteHostingSeFaultDropsTheVirtualServices) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 1);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(faults_.Update({{"delete_hosting_se", true}}).ok());
  EXPECT_EQ(faults_.ToJson()["delete_hosting_se"], true);
  ASSERT_TRUE(lifecycle_.DeleteServiceEngine(ses[0], "admin").ok());
  EXPECT_FALSE(store_.Get(kServiceEngine, ses[0], "admin").ok());
  EXPECT_THAT(Vs(vs)["se_uuids"], IsEmpty());
  ASSERT_THAT(Vs(vs)["pending"], SizeIs(1));
  const json unplaced = Summary()["unplaced_instants"];
  ASSERT_THAT(unplaced, SizeIs(1));
  EXPECT_EQ(unplaced[0]["vs"], vs);
  EXPECT_EQ(unplaced[0]["event"], "vs_removed");
  At(1'000'100);
  EXPECT_THAT(Vs(vs)["se_uuids"], SizeIs(1));
  // The fault stays set until cleared; cleared, the DELETE is refused again.
  faults_.Clear();
  absl::Status refused =
      lifecycle_.DeleteServiceEngine(Vs(vs)["se_uuids"][0].get<std::string>(), "admin");
  EXPECT_TRUE(absl::IsFailedPrecondition(refused)) << refused;
  EXPECT_TRUE(ParseCommandLine({"--delete-hosting-se"}, nullptr)->faults.delete_hosting_se);
}

// A virtual service with another serving SE loses nothing when one SE is deleted under it.
TEST_F(SeLifecycleTest, DeleteHostingSeFaultWithAnotherServingSeIsNotUnplaced) {
  const std::string g = Group({{"name", "web"}, {"min_scaleout_per_vs", 2}});
  const std::vector<std::string> ses = Ses(g, 3);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(faults_.Update({{"delete_hosting_se", true}}).ok());
  ASSERT_TRUE(lifecycle_.DeleteServiceEngine(Vs(vs)["se_uuids"][0], "admin").ok());
  EXPECT_THAT(Vs(vs)["se_uuids"], SizeIs(2));  // the third SE took its place at once
  EXPECT_THAT(Summary()["unplaced_instants"], IsEmpty());
}

// Legacy active/standby: no migration, no per-SE deactivation; the documented path is a
// switchover. Disabling for placement stays allowed.
TEST_F(SeLifecycleTest, LegacyActiveStandbyRefusesDisable) {
  const std::string g = Group({{"name", "legacy"}, {"ha_mode", "HA_MODE_LEGACY_ACTIVE_STANDBY"}});
  const std::vector<std::string> ses = Ses(g, 2);
  lifecycle_.AddVirtualServices("legacy", 1, "").value();
  for (const char* state : {"SE_STATE_DISABLED", "SE_STATE_DISABLED_FORCE"}) {
    absl::StatusOr<json> refused = SetState(ses[0], state);
    ASSERT_TRUE(absl::IsInvalidArgument(refused.status())) << refused.status();
    EXPECT_THAT(
        std::string(refused.status().message()),
        ::testing::AllOf(
            ::testing::HasSubstr("Migration is not supported on a legacy active/standby SE group"),
            ::testing::HasSubstr("cannot be deactivated per SE"),
            ::testing::HasSubstr(absl::StrCat("/api/serviceengine/", ses[0], "/switchover"))));
  }
  EXPECT_EQ(store_.Get(kServiceEngine, ses[0], "admin").value()["enable_state"],
            "SE_STATE_ENABLED");
  EXPECT_EQ(Oper(ses[0]), "OPER_UP");
  EXPECT_TRUE(SetState(ses[0], "SE_STATE_DISABLED_FOR_PLACEMENT").ok());
  // Another group (the default ha_mode, HA_MODE_SHARED) still migrates.
  const std::string shared = Group({{"name", "shared"}});
  EXPECT_TRUE(SetState(Ses(shared, 1)[0], "SE_STATE_DISABLED").ok());
}

// docs/emulator.md, "Where a disabled SE's virtual services go": distributed placement takes a
// new SE whenever one may be created and every candidate hosts one already, the leaving SE
// counting toward max_se.
TEST_F(SeLifecycleTest, DistributedPlacementCreatesANewSePerDisplacedVirtualService) {
  const std::string g = Group({{"name", "web"}, {"algo", "PLACEMENT_ALGO_DISTRIBUTED"}});
  const std::vector<std::string> ses = Ses(g, 2);
  const std::vector<std::string> vss = lifecycle_.AddVirtualServices("web", 4, "").value();
  // Empty SEs first (oldest first), then a new SE per virtual service.
  EXPECT_THAT(Vs(vss[0])["se_uuids"], ElementsAre(ses[0]));
  EXPECT_THAT(Vs(vss[1])["se_uuids"], ElementsAre(ses[1]));
  ASSERT_THAT(SesOf(g), SizeIs(4));
  At(1'000'100);
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  ASSERT_THAT(SesOf(g), SizeIs(5));  // every other SE hosts one: a fifth SE, at once
  EXPECT_THAT(Vs(vss[0])["pending"], ElementsAre(SesOf(g)[4]));
  At(1'000'200);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
  EXPECT_THAT(Vs(vss[0])["se_uuids"], ElementsAre(SesOf(g)[4]));
}

// Packed, max_se equal to the group's SEs and no free slot: the leaving SE still counts toward
// max_se, so no SE is created and the migration fails, the SE keeping its virtual service.
TEST_F(SeLifecycleTest, PackedAtMaxSeWithoutRoomFailsTheMigration) {
  const std::string g = Group({{"name", "web"}, {"max_se", 2}, {"max_vs_per_se", 1}});
  const std::vector<std::string> ses = Ses(g, 2);
  const std::vector<std::string> vss = lifecycle_.AddVirtualServices("web", 2, "").value();
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  EXPECT_THAT(Vs(vss[0]).value("waiting", ""), ::testing::HasSubstr("max_se 2"));
  At(1'000'050);
  EXPECT_EQ(Oper(ses[0]), "OPER_UP");
  const json rt = lifecycle_.Runtime(ses[0]).value();
  EXPECT_EQ(rt["migrate_state"], "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE");
  EXPECT_THAT(rt["oper_status"]["reason"][0].get<std::string>(),
              ::testing::HasSubstr("no Service Engine can take web-vs-1"));
  EXPECT_THAT(Vs(vss[0])["se_uuids"], ElementsAre(ses[0]));
  EXPECT_THAT(SesOf(g), SizeIs(2));
}

TEST_F(SeLifecycleTest, RebootAppliesTheGroupsCurrentRebootOnlySettings) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 1);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["se_grp_reboot_pending"], false);
  json group = store_.Get(kSeGroup, g, "admin").value();
  group["max_se"] = 4;  // takes effect immediately: no reboot pending
  ASSERT_TRUE(store_.ReplaceSeGroup(g, group, "admin").ok());
  At(1'000'001);
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["se_grp_reboot_pending"], false);
  group["num_dispatcher_cores"] = 2;  // "Requires SE Reboot"
  ASSERT_TRUE(store_.ReplaceSeGroup(g, group, "admin").ok());
  At(1'000'002);
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["se_grp_reboot_pending"], true);
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(lifecycle_.RebootServiceEngine(ses[0], "admin").ok());
  EXPECT_EQ(Oper(ses[0]), "OPER_DOWN");
  EXPECT_TRUE(absl::IsFailedPrecondition(lifecycle_.RebootServiceEngine(ses[0], "admin")));
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(ses[0]));  // placements stay
  At(1'000'102);
  EXPECT_EQ(Oper(ses[0]), "OPER_UP");
  EXPECT_EQ(lifecycle_.Runtime(ses[0]).value()["se_grp_reboot_pending"], false);
  // Its only SE was down: the timeline shows the VS without a serving SE.
  const json unplaced = Summary()["unplaced_instants"];
  ASSERT_THAT(unplaced, SizeIs(1));
  EXPECT_EQ(unplaced[0]["vs"], vs);
  EXPECT_EQ(unplaced[0]["at_ms"], 1'000'002);
}

TEST_F(SeLifecycleTest, ARebootDuringAMigrationComesBackDisabling) {
  const std::string g = Group({{"name", "web"}, {"max_vs_per_se", 1}});
  const std::vector<std::string> ses = Ses(g, 1);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  ASSERT_TRUE(lifecycle_.RebootServiceEngine(ses[0], "admin").ok());
  EXPECT_EQ(Oper(ses[0]), "OPER_DOWN");
  At(1'000'050);
  // The new SE is still booting; the rebooting one is down: the VS waits for either.
  EXPECT_EQ(Oper(ses[0]), "OPER_DOWN");
  At(1'000'100);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
  EXPECT_THAT(Vs(vs)["se_uuids"], SizeIs(1));
  EXPECT_NE(Vs(vs)["se_uuids"][0], ses[0]);
}

TEST_F(SeLifecycleTest, IdleSesAreDeprovisionedAfterTheGroupsDelay) {
  const std::string g = Group({{"name", "web"}, {"se_deprovision_delay", 2}});
  const std::string keep = Group({{"name", "keep"}, {"se_deprovision_delay", 0}});
  const std::vector<std::string> ses = Ses(g, 2);
  Ses(keep, 1);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  At(1'001'999);
  EXPECT_THAT(SesOf(g), SizeIs(2));
  At(1'002'000);  // 2 emulated minutes of 1000 ms
  EXPECT_THAT(SesOf(g), ElementsAre(ses[0]));
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(ses[0]));
  At(9'000'000);
  EXPECT_THAT(SesOf(keep), SizeIs(1));  // 0: never deleted
  // Removing the VS makes the last SE idle.
  ASSERT_TRUE(lifecycle_.RemoveVirtualService(vs).ok());
  At(9'001'999);
  EXPECT_THAT(SesOf(g), SizeIs(1));
  At(9'002'000);
  EXPECT_THAT(SesOf(g), IsEmpty());
}

TEST_F(SeLifecycleTest, ANoAccessCloudCreatesNoSe) {
  absl::StatusOr<json> cloud = store_.CreateCloud("manual", "CLOUD_NONE", "");
  ASSERT_TRUE(cloud.ok());
  const std::string g =
      Group({{"name", "web"}, {"se_deprovision_delay", 1}}, (*cloud)["uuid"].get<std::string>());
  const std::string vs = lifecycle_.AddVirtualServices(g, 1, "").value()[0];
  At(1'100'000);
  EXPECT_THAT(SesOf(g), IsEmpty());
  EXPECT_THAT(Vs(vs)["waiting"].get<std::string>(), ::testing::HasSubstr("no write access"));
  // The administrator creates one; the VS goes there, and idle SEs are never deleted.
  const std::vector<std::string> ses = Ses(g, 2);
  EXPECT_THAT(Vs(vs)["se_uuids"], ElementsAre(ses[0]));
  At(9'000'000);
  EXPECT_THAT(SesOf(g), SizeIs(2));
}

TEST_F(SeLifecycleTest, AFailedMigrationLeavesTheSeWithItsVirtualServices) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 2);
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  ASSERT_TRUE(faults_.Update({{"migrate_fail_next", 1}}).ok());
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  At(1'000'050);
  const json rt = lifecycle_.Runtime(ses[0]).value();
  EXPECT_EQ(rt["migrate_state"], "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE");
  EXPECT_EQ(rt["oper_status"]["state"], "OPER_UP");
  EXPECT_THAT(rt["oper_status"]["reason"][0].get<std::string>(),
              ::testing::StartsWith("MIGRATE_SE_FAILED"));
  EXPECT_THAT(lifecycle_.PlacedOn(ses[0]), ElementsAre(vs));
  bool event = false;
  const json timeline = lifecycle_.Timeline();
  for (const json& e : timeline["events"]) event |= e["kind"] == "MIGRATE_SE_FAILED";
  EXPECT_TRUE(event);
  // Disabling again retries, and now succeeds.
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  At(1'000'100);
  EXPECT_EQ(Oper(ses[0]), "OPER_DISABLED");
}

TEST_F(SeLifecycleTest, AnSeThatNeverComesUpLeavesTheVirtualServiceWaiting) {
  const std::string g = Group({{"name", "web"}});
  ASSERT_TRUE(faults_.Update({{"se_never_up_next", 1}}).ok());
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  ASSERT_THAT(SesOf(g), SizeIs(1));
  At(5'000'000);
  EXPECT_EQ(Oper(SesOf(g)[0]), "OPER_CREATING");
  EXPECT_THAT(Vs(vs)["se_uuids"], IsEmpty());
}

TEST_F(SeLifecycleTest, TheAdmissionPointRefusesAndTheVirtualServiceWaits) {
  const std::string g = Group({{"name", "web"}, {"vcpus_per_se", 2}});
  std::atomic<bool> allow{false};
  std::vector<int64_t> asked;
  lifecycle_.SetHooks({[&](const json& group, const SeShape& shape) {
                         EXPECT_EQ(group["uuid"], g);
                         asked.push_back(shape.num_vcpus);
                         return allow ? absl::OkStatus()
                                      : absl::ResourceExhaustedError(
                                            "Insufficient licensable resources available to "
                                            "create Service Engine");
                       },
                       nullptr, nullptr, nullptr});
  std::vector<std::string> created;
  EXPECT_FALSE(lifecycle_.AddServiceEngines(g, 1, std::nullopt, &created).ok());
  EXPECT_THAT(created, IsEmpty());
  const std::string vs = lifecycle_.AddVirtualServices("web", 1, "").value()[0];
  EXPECT_THAT(SesOf(g), IsEmpty());
  EXPECT_THAT(Vs(vs)["waiting"].get<std::string>(), ::testing::HasSubstr("Insufficient"));
  // Asked again at each advance, the refusal is recorded once per waiting reason.
  At(1'000'001);
  At(1'000'002);
  int refusals = 0;
  const json timeline = lifecycle_.Timeline();
  for (const json& e : timeline["events"]) refusals += e["kind"] == "se_refused";
  EXPECT_EQ(refusals, 2);  // the control endpoint's, and the virtual service's
  allow = true;
  At(1'000'003);
  ASSERT_THAT(SesOf(g), SizeIs(1));
  At(1'000'103);
  EXPECT_THAT(Vs(vs)["se_uuids"], SizeIs(1));
  EXPECT_THAT(asked, ::testing::Each(2));
}

TEST_F(SeLifecycleTest, AnSeWriteChangesOnlyEnableState) {
  const std::string g = Group({{"name", "web"}});
  const std::string other = Group({{"name", "other"}});
  const std::string se = Ses(g, 1)[0];
  json obj = store_.Get(kServiceEngine, se, "admin").value();
  json bad = obj;
  bad["enable_state"] = "SE_STATE_SLEEPING";
  EXPECT_TRUE(absl::IsInvalidArgument(lifecycle_.UpdateServiceEngine(se, "admin", bad).status()));
  bad = obj;
  bad["se_group_ref"] = other;
  EXPECT_TRUE(absl::IsInvalidArgument(lifecycle_.UpdateServiceEngine(se, "admin", bad).status()));
  bad = obj;
  bad["resources"]["num_vcpus"] = 64;
  bad["enable_state"] = "SE_STATE_DISABLED_FOR_PLACEMENT";
  absl::StatusOr<json> done = lifecycle_.UpdateServiceEngine(se, "admin", bad);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ((*done)["resources"]["num_vcpus"], 1);  // ignored, as the Controller's own
  EXPECT_EQ((*done)["enable_state"], "SE_STATE_DISABLED_FOR_PLACEMENT");
  // A write based on the object read before is stale.
  obj["enable_state"] = "SE_STATE_ENABLED";
  now_ms_ += 1;
  EXPECT_TRUE(absl::IsAborted(lifecycle_.UpdateServiceEngine(se, "admin", obj).status()));
  EXPECT_TRUE(absl::IsNotFound(lifecycle_.UpdateServiceEngine(se, "other-tenant", obj).status()));
}

// The recipe of docs/emulator.md: one old SE at a time, disabled, drained, deleted.
TEST_F(SeLifecycleTest, ARollingReplacementOneSeAtATime) {
  const std::string g = Group(
      {{"name", "checkout"}, {"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"max_vs_per_se", 1}});
  const std::vector<std::string> old = Ses(g, 3);
  lifecycle_.AddVirtualServices("checkout", 3, "").value();
  json group = store_.Get(kSeGroup, g, "admin").value();
  group["vcpus_per_se"] = 5;
  group["memory_per_se"] = 10240;
  ASSERT_TRUE(store_.ReplaceSeGroup(g, group, "admin").ok());
  lifecycle_.ResetTimeline();
  int64_t t = now_ms_;
  for (const std::string& se : old) {
    ASSERT_TRUE(SetState(se, "SE_STATE_DISABLED").ok());
    for (int i = 0; i < 100 && Oper(se) != "OPER_DISABLED"; ++i) At(t += 10);
    ASSERT_EQ(Oper(se), "OPER_DISABLED");
    ASSERT_TRUE(lifecycle_.DeleteServiceEngine(se, "admin").ok());
  }
  ASSERT_THAT(SesOf(g), SizeIs(3));
  for (const std::string& se : SesOf(g)) {
    EXPECT_EQ(store_.Get(kServiceEngine, se, "admin").value()["resources"]["num_vcpus"], 5);
    EXPECT_THAT(lifecycle_.PlacedOn(se), SizeIs(1));
  }
  const json summary = Summary();
  EXPECT_THAT(summary["unplaced_instants"], IsEmpty());
  EXPECT_EQ(summary["max_ses_out"], 1);
}

TEST_F(SeLifecycleTest, TheTimelineCountsSesOutAtOnce) {
  const std::string g = Group({{"name", "web"}});
  const std::vector<std::string> ses = Ses(g, 3);
  lifecycle_.AddVirtualServices("web", 2, "").value();
  lifecycle_.ResetTimeline();
  ASSERT_TRUE(SetState(ses[0], "SE_STATE_DISABLED").ok());
  ASSERT_TRUE(SetState(ses[1], "SE_STATE_DISABLED").ok());
  At(1'000'500);
  const json timeline = lifecycle_.Timeline();
  EXPECT_EQ(timeline["summary"]["max_ses_out"], 2);
  EXPECT_EQ(timeline["summary"]["max_ses_out_by_group"][g], 2);
  EXPECT_THAT(timeline["summary"]["unplaced_instants"], IsEmpty());
  // Raw events carry their times, in order.
  int64_t last = 0;
  for (const json& e : timeline["events"]) {
    EXPECT_GE(e["at_ms"].get<int64_t>(), last);
    last = e["at_ms"];
  }
  EXPECT_TRUE(lifecycle_.UpdateTiming({{"boot_ms", 5}}).ok());
  EXPECT_EQ(lifecycle_.timing().boot_ms, 5);
  EXPECT_FALSE(lifecycle_.UpdateTiming({{"minute_ms", 0}}).ok());
  EXPECT_FALSE(lifecycle_.UpdateTiming({{"boot", 5}}).ok());
}

TEST(SeTimingFlagsTest, FlagsSetTheLifecyclesDurations) {
  absl::StatusOr<Config> c = ParseCommandLine(
      {"--se-boot-ms", "20", "--se-migration-ms=0", "--emulated-minute-ms", "5"}, nullptr);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->se_timing.boot_ms, 20);
  EXPECT_EQ(c->se_timing.migration_ms, 0);
  EXPECT_EQ(c->se_timing.minute_ms, 5);
  EXPECT_EQ(ParseCommandLine({}, nullptr)->se_timing.minute_ms, 60000);
  absl::StatusOr<Config> bad = ParseCommandLine({"--emulated-minute-ms", "0"}, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), ::testing::HasSubstr("--emulated-minute-ms"));
}

// The upgrade state: everything completed by default; a system upgrade blocks every group, an SE
// group's upgrade only that group; reset completes everything; bad states change nothing.
TEST(UpgradesTest, EntriesAndBlocking) {
  int64_t now = 5'000;
  Upgrades upgrades([&now] { return now; });
  const std::vector<json> groups = {{{"uuid", "serviceenginegroup-1"},
                                     {"name", "web"},
                                     {"cloud_ref", "cloud-1"},
                                     {"tenant_ref", "admin"}},
                                    {{"uuid", "serviceenginegroup-2"},
                                     {"name", "api"},
                                     {"cloud_ref", "cloud-1"},
                                     {"tenant_ref", "admin"}}};
  auto by_name = [](const std::string& g) -> absl::StatusOr<std::string> {
    if (g == "web") return std::string("serviceenginegroup-1");
    if (g == "api") return std::string("serviceenginegroup-2");
    return absl::NotFoundError("no SE group");
  };
  std::vector<json> entries = upgrades.Entries(groups, "https://h:1", "22.1.3");
  ASSERT_THAT(entries, SizeIs(3));
  EXPECT_EQ(entries[0]["node_type"], "NODE_CONTROLLER_CLUSTER");
  EXPECT_EQ(entries[0]["state"]["state"], "UPGRADE_FSM_COMPLETED");
  EXPECT_EQ(entries[0]["state"]["last_changed_time"]["secs"], 5);
  EXPECT_EQ(entries[1]["node_type"], "NODE_SE_GROUP");
  EXPECT_EQ(entries[1]["uuid"], "serviceenginegroup-1");
  EXPECT_EQ(entries[1]["name"], "web");
  EXPECT_EQ(entries[1]["obj_cloud_ref"], "https://h:1/api/cloud/cloud-1");
  EXPECT_EQ(entries[1]["url"], "https://h:1/api/upgradestatusinfo/serviceenginegroup-1");
  EXPECT_EQ(upgrades.Blocking("serviceenginegroup-1"), "");

  now = 9'000;
  ASSERT_TRUE(upgrades.Update({{"se_groups", {{"web", "UPGRADE_FSM_IN_PROGRESS"}}}}, by_name).ok());
  entries = upgrades.Entries(groups, "https://h:1", "22.1.3");
  EXPECT_EQ(entries[1]["state"]["state"], "UPGRADE_FSM_IN_PROGRESS");
  EXPECT_EQ(entries[1]["state"]["last_changed_time"]["secs"], 9);
  EXPECT_EQ(entries[2]["state"]["state"], "UPGRADE_FSM_COMPLETED");
  EXPECT_THAT(upgrades.Blocking("serviceenginegroup-1"), ::testing::HasSubstr("SE group"));
  EXPECT_EQ(upgrades.Blocking("serviceenginegroup-2"), "");

  ASSERT_TRUE(upgrades.Update({{"system", "UPGRADE_FSM_IN_PROGRESS"}}, by_name).ok());
  entries = upgrades.Entries(groups, "https://h:1", "22.1.3");
  EXPECT_EQ(entries[0]["system"], true);
  EXPECT_THAT(upgrades.Blocking("serviceenginegroup-2"), ::testing::HasSubstr("system upgrade"));
  EXPECT_EQ(upgrades.ToJson()["system"], "UPGRADE_FSM_IN_PROGRESS");

  // Nothing changes on a bad request.
  EXPECT_FALSE(upgrades.Update({{"system", "RUNNING"}}, by_name).ok());
  EXPECT_FALSE(upgrades.Update({{"se_groups", {{"nope", "UPGRADE_FSM_COMPLETED"}}}}, by_name).ok());
  EXPECT_FALSE(upgrades.Update({{"what", 1}}, by_name).ok());
  EXPECT_EQ(upgrades.ToJson()["system"], "UPGRADE_FSM_IN_PROGRESS");

  ASSERT_TRUE(upgrades.Update({{"reset", true}}, by_name).ok());
  EXPECT_EQ(upgrades.Blocking("serviceenginegroup-1"), "");
  EXPECT_EQ(upgrades.Blocking("serviceenginegroup-2"), "");
}

}  // namespace
}  // namespace nsxalb::emulator
