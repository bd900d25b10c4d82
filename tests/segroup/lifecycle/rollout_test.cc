// Unit tests of the roll (plugin/segroup/lifecycle/rollout.h) against a simulated SE group
// (FakeGroup below) on a fake clock: SEs migrate their virtual services away a while after they
// are disabled, the Controller creates a replacement at the group's settings a while after a
// delete, a reboot takes a while; faults (a failed migration, a replacement that never comes up,
// an error, a stop) are switched on per test. Every test checks what the roll did to the group,
// not what it logged.
#include "plugin/segroup/lifecycle/rollout.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/common/status_macros.h"
#include "tests/controller/fake_clock.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr absl::Duration kMigration = absl::Seconds(20);
constexpr absl::Duration kBoot = absl::Seconds(60);

// Records the call "op uuid" and returns the fault scripted for it, if any.
#define RETURN_IF_FAULT(op, uuid)                                         \
  do {                                                                    \
    const std::string key = absl::StrCat(op, " ", uuid);                  \
    calls.push_back(key);                                                 \
    if (auto f = fail_op.find(key); f != fail_op.end()) return f->second; \
  } while (0)

// A group of SEs as the Controller runs it, advanced on every read by the fake clock.
class FakeGroup : public RolloutOperations {
 public:
  struct Se {
    std::string name;
    bool enabled = true;
    bool exists = true;
    int vs = 0;
    int vcpus = 4;
    int64_t memory = 8192;
    bool reboot_pending = false;
    absl::Time disabled_at = absl::InfiniteFuture();
    absl::Time booting_until = absl::InfinitePast();
    bool first_boot = false;  // a new SE booting for the first time is not "out"
    std::string migrate_to;   // where its virtual services go once the migration time is over
  };

  FakeGroup(controller::FakeClock& clock, int ses, int vs_each) : clock_(clock) {
    for (int i = 1; i <= ses; ++i) {
      Se se;
      se.name = absl::StrCat("checkout-se-", i);
      se.vs = vs_each;
      ses_[absl::StrCat("se-", i)] = se;
      total_vs_ += vs_each;
    }
  }

  // Faults and hooks.
  std::set<std::string> migrate_fails;  // uuids whose migration fails
  bool replacement_never_up = false;
  std::map<std::string, absl::Status> fail_op;  // "Delete se-2" -> error
  std::string stop_after;                       // "Disable se-2": notify `stop` after it
  int stop_skip = 0;                            // ... after that many more of those calls
  absl::Notification* stop = nullptr;
  bool restore_fails = false;
  bool reboot_applies_settings = true;
  int max_vs_per_se = 2;  // full: a migration needs a new SE

  absl::Status Disable(const std::string& uuid) override {
    RETURN_IF_FAULT("Disable", uuid);
    Advance();
    Se& se = ses_.at(uuid);
    se.enabled = false;
    se.disabled_at = clock_.Now();
    se.migrate_to.clear();
    // Placed again at once: on an enabled SE with room, else on a new SE at the group's
    // settings (make before break: they stay on this SE until the migration time is over).
    std::set<std::string> targets;
    for (const auto& [other_uuid, other] : ses_) targets.insert(other.migrate_to);
    for (auto& [other_uuid, other] : ses_) {
      if (other_uuid != uuid && other.exists && other.enabled && targets.count(other_uuid) == 0 &&
          other.vs + se.vs <= max_vs_per_se) {
        se.migrate_to = other_uuid;
        break;
      }
    }
    if (se.migrate_to.empty() && se.vs > 0) {
      Se fresh;
      fresh.name = absl::StrCat("checkout-se-", ++created_);
      fresh.vcpus = 5;
      fresh.memory = 10240;
      fresh.first_boot = true;
      fresh.booting_until = replacement_never_up ? absl::InfiniteFuture() : clock_.Now() + kBoot;
      se.migrate_to = absl::StrCat("se-new-", created_);
      ses_[se.migrate_to] = fresh;
    }
    Record();
    return Hook("Disable", uuid);
  }
  absl::Status Enable(const std::string& uuid) override {
    RETURN_IF_FAULT("Enable", uuid);
    Advance();
    ses_.at(uuid).enabled = true;
    ses_.at(uuid).disabled_at = absl::InfiniteFuture();
    Record();
    return Hook("Enable", uuid);
  }
  absl::Status Restore(const std::string& uuid) override {
    calls.push_back(absl::StrCat("Restore ", uuid));
    if (restore_fails) return absl::UnavailableError("controller unreachable");
    ses_.at(uuid).enabled = true;
    ses_.at(uuid).disabled_at = absl::InfiniteFuture();
    Record();
    return absl::OkStatus();
  }
  absl::StatusOr<ObservedSe> Observe(const std::string& uuid) override {
    RETURN_IF_FAULT("Observe", uuid);
    Advance();
    auto it = ses_.find(uuid);
    if (it == ses_.end() || !it->second.exists) return absl::NotFoundError("gone");
    ObservedSe view = View(uuid, it->second);
    NSXALB_RETURN_IF_ERROR(Hook("Observe", uuid));
    return view;
  }
  absl::StatusOr<std::vector<ObservedSe>> ListGroup() override {
    RETURN_IF_FAULT("ListGroup", "");
    Advance();
    std::vector<ObservedSe> out;
    for (const auto& [uuid, se] : ses_) {
      if (se.exists) out.push_back(View(uuid, se));
    }
    return out;
  }
  absl::Status Delete(const std::string& uuid) override {
    RETURN_IF_FAULT("Delete", uuid);
    Advance();
    Se& se = ses_.at(uuid);
    if (se.vs > 0) return absl::FailedPreconditionError("still hosts virtual services");
    se.exists = false;
    Record();
    return Hook("Delete", uuid);
  }
  absl::Status Reboot(const std::string& uuid) override {
    RETURN_IF_FAULT("Reboot", uuid);
    Advance();
    Se& se = ses_.at(uuid);
    se.booting_until = clock_.Now() + kBoot;
    se.first_boot = false;
    if (reboot_applies_settings) se.reboot_pending = false;
    Record();
    return Hook("Reboot", uuid);
  }

  // The most SEs out (disabled or booting) at any instant, and whether a VS was ever unplaced.
  int max_out = 0;
  bool vs_unplaced = false;
  std::vector<std::string> calls;

  const std::map<std::string, Se>& ses() const { return ses_; }
  void set_reboot_pending(bool pending) {
    for (auto& [uuid, se] : ses_) se.reboot_pending = pending;
  }
  int created() const { return created_; }

 private:
  absl::Status Hook(const std::string& op, const std::string& uuid) {
    if (stop != nullptr && stop_after == absl::StrCat(op, " ", uuid) && stop_skip-- == 0) {
      stop->Notify();
    }
    return absl::OkStatus();
  }

  ObservedSe View(const std::string& uuid, const Se& se) const {
    ObservedSe v;
    v.uuid = uuid;
    v.name = se.name;
    v.virtual_services = se.vs;
    v.num_vcpus = se.vcpus;
    v.memory_mb = se.memory;
    v.reboot_pending = se.reboot_pending;
    if (clock_.Now() < se.booting_until) {
      v.oper_state = se.first_boot ? "OPER_CREATING" : "OPER_DOWN";
    } else if (!se.enabled) {
      v.oper_state = se.vs == 0 ? "OPER_DISABLED" : "OPER_DISABLING";
      if (migrate_fails.count(uuid) > 0 && clock_.Now() - se.disabled_at >= kMigration) {
        v.migrate_state = "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE";
        v.migration_failed = true;
      }
    } else {
      v.oper_state = "OPER_UP";
    }
    return v;
  }

  // A migration ends kMigration after the disable, once the SE its virtual services go to is up.
  void Advance() {
    const absl::Time now = clock_.Now();
    for (auto& [uuid, se] : ses_) {
      if (!se.exists || se.enabled || se.vs == 0 || migrate_fails.count(uuid) > 0) continue;
      if (now - se.disabled_at < kMigration || se.migrate_to.empty()) continue;
      Se& to = ses_.at(se.migrate_to);
      if (now < to.booting_until) continue;
      to.vs += se.vs;
      se.vs = 0;
      se.migrate_to.clear();
    }
    Record();
  }

  // The SEs out now (disabled or booting) and whether every virtual service is on an SE that is
  // up: kept as maxima over every instant the roll looked at.
  void Record() {
    int out = 0;
    int placed = 0;
    for (const auto& [uuid, se] : ses_) {
      if (!se.exists) continue;
      const bool booting = clock_.Now() < se.booting_until;
      if (!se.enabled || (booting && !se.first_boot)) ++out;
      if (!booting) placed += se.vs;
    }
    if (placed != total_vs_) vs_unplaced = true;
    if (out > max_out) max_out = out;
  }

  controller::FakeClock& clock_;
  std::map<std::string, Se> ses_;
  int created_ = 3;
  int total_vs_ = 0;
};

enum class LagKind { kNewSesOnly, kAfterSeReboot };

std::vector<LaggingSe> Lagging(int n, LagKind kind) {
  std::vector<LaggingSe> out;
  // Deliberately out of order: the roll sorts by name.
  for (int i = n; i >= 1; --i) {
    LaggingSe se;
    se.se.uuid = absl::StrCat("se-", i);
    se.se.name = absl::StrCat("checkout-se-", i);
    se.why = kind == LagKind::kNewSesOnly ? controller::TakesEffect::kNewSesOnly
                                          : controller::TakesEffect::kAfterSeReboot;
    se.fields = kind == LagKind::kNewSesOnly
                    ? std::vector<std::string>{"vcpus_per_se", "memory_per_se"}
                    : std::vector<std::string>{"num_dispatcher_cores"};
    se.se.vcpus = 4;
    se.se.memory_mb = 8192;
    out.push_back(se);
  }
  return out;
}

RolloutOptions Options() {
  RolloutOptions o;
  o.timeout_per_se = absl::Minutes(5);
  o.poll_interval = absl::Seconds(5);
  return o;
}

constexpr TargetShape kTarget{5, 10240};

class RolloutTest : public ::testing::Test {
 protected:
  controller::FakeClock clock_;
  FakeGroup group_{clock_, 3, 2};
  absl::Notification stop_;
};

TEST_F(RolloutTest, ReplacesEverySeOneAtATimeInNameOrder) {
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  ASSERT_THAT(r.status, IsOk());
  EXPECT_THAT(r.done, ElementsAre("checkout-se-1", "checkout-se-2", "checkout-se-3"));
  EXPECT_THAT(r.to_do, IsEmpty());
  int at_new_shape = 0;
  for (const auto& [uuid, se] : group_.ses()) {
    if (se.exists) {
      EXPECT_EQ(se.vcpus, 5) << se.name;
      ++at_new_shape;
    }
  }
  EXPECT_EQ(at_new_shape, 3);
  EXPECT_EQ(group_.max_out, 1);
  EXPECT_FALSE(group_.vs_unplaced);
  // Each SE deleted only after its migration finished, in name order.
  std::vector<std::string> deletes;
  for (const std::string& c : group_.calls) {
    if (c.rfind("Delete", 0) == 0 || c.rfind("Disable", 0) == 0) deletes.push_back(c);
  }
  EXPECT_THAT(deletes, ElementsAre("Disable se-1", "Delete se-1", "Disable se-2", "Delete se-2",
                                   "Disable se-3", "Delete se-3"));
}

TEST_F(RolloutTest, MaxUnavailableTwoTakesTwoAtATime) {
  RolloutOptions o = Options();
  o.max_unavailable = 2;
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, o, group_, clock_, &stop_);
  ASSERT_THAT(r.status, IsOk());
  EXPECT_EQ(r.done.size(), 3u);
  EXPECT_EQ(group_.max_out, 2);
}

TEST_F(RolloutTest, RebootOnlyRebootsAndEnablesAgain) {
  group_.set_reboot_pending(true);
  group_.max_vs_per_se = 10;  // the others take the virtual services: no new SE
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kAfterSeReboot), kTarget, Options(), group_, clock_, &stop_);
  ASSERT_THAT(r.status, IsOk());
  EXPECT_EQ(r.done.size(), 3u);
  for (const auto& [uuid, se] : group_.ses()) {
    EXPECT_TRUE(se.exists) << se.name;
    EXPECT_TRUE(se.enabled) << se.name;
    EXPECT_FALSE(se.reboot_pending) << se.name;
    EXPECT_EQ(se.vcpus, 4);  // a reboot changes no shape
  }
  EXPECT_EQ(group_.created(), 3);  // no SE created
  EXPECT_EQ(group_.max_out, 1);
}

// A reboot that does not apply the settings (still pending) times out, and the SE is enabled
// again.
TEST_F(RolloutTest, RebootThatStaysPendingTimesOutAndEnablesAgain) {
  group_.set_reboot_pending(true);
  group_.max_vs_per_se = 10;
  group_.reboot_applies_settings = false;
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kAfterSeReboot), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                 AllOf(HasSubstr("checkout-se-1"), HasSubstr("enabled again"))));
  EXPECT_TRUE(group_.ses().at("se-1").enabled);
  EXPECT_THAT(r.to_do, ElementsAre("checkout-se-1", "checkout-se-2", "checkout-se-3"));
}

TEST_F(RolloutTest, FailedMigrationStopsAtThatSeAndEnablesItAgain) {
  group_.migrate_fails.insert("se-2");
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status,
              StatusIs(absl::StatusCode::kAborted,
                       AllOf(HasSubstr("at checkout-se-2"), HasSubstr("MIGRATE_SE_FAILED"),
                             HasSubstr("SE_MIGRATE_STATE_FINISHED_WITH_FAILURE"),
                             HasSubstr("checkout-se-2 was enabled again"),
                             HasSubstr("Done: checkout-se-1."),
                             HasSubstr("To do: checkout-se-2, checkout-se-3."))));
  EXPECT_THAT(r.done, ElementsAre("checkout-se-1"));
  EXPECT_TRUE(group_.ses().at("se-2").enabled);
  EXPECT_TRUE(group_.ses().at("se-2").exists);
  // Never went on to the next SE.
  for (const std::string& c : group_.calls) EXPECT_NE(c, "Disable se-3");
  EXPECT_FALSE(group_.vs_unplaced);
}

TEST_F(RolloutTest, ReplacementThatNeverComesUpStopsTheRollAndEnablesAgain) {
  group_.replacement_never_up = true;
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                 AllOf(HasSubstr("checkout-se-1"), HasSubstr("timeout"),
                                       HasSubstr("checkout-se-1 was enabled again"),
                                       HasSubstr("Done: none."))));
  EXPECT_TRUE(group_.ses().at("se-1").exists);
  EXPECT_TRUE(group_.ses().at("se-1").enabled);
  for (const std::string& c : group_.calls) EXPECT_NE(c, "Disable se-2");
  EXPECT_FALSE(group_.vs_unplaced);
}

// The other SEs had room: the Controller created no replacement, and the SE is not deleted.
TEST_F(RolloutTest, NoReplacementCreatedKeepsTheSe) {
  group_.max_vs_per_se = 10;
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kFailedPrecondition,
                                 AllOf(HasSubstr("created no new SE"),
                                       HasSubstr("checkout-se-1 was enabled again"))));
  EXPECT_TRUE(group_.ses().at("se-1").exists);
  EXPECT_TRUE(group_.ses().at("se-1").enabled);
  for (const std::string& c : group_.calls) EXPECT_NE(c, "Delete se-1");
}

TEST_F(RolloutTest, ControllerErrorOnDeleteStopsAndEnablesAgain) {
  group_.fail_op["Delete se-1"] = absl::InternalError("controller: DELETE: HTTP 500: boom");
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kInternal,
                                 AllOf(HasSubstr("deleting it"), HasSubstr("HTTP 500"),
                                       HasSubstr("checkout-se-1 was enabled again"))));
  EXPECT_TRUE(group_.ses().at("se-1").enabled);
  for (const std::string& c : group_.calls) EXPECT_NE(c, "Disable se-2");
}

// A stop after the disable: the current step ends, the SE is enabled again, nothing is deleted.
TEST_F(RolloutTest, StopAfterDisableEnablesAgainAndListsTheRest) {
  group_.stop = &stop_;
  group_.stop_after = "Disable se-2";
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kCancelled,
                                 AllOf(HasSubstr("interrupted at checkout-se-2"),
                                       HasSubstr("checkout-se-2 was enabled again"),
                                       HasSubstr("Done: checkout-se-1."),
                                       HasSubstr("To do: checkout-se-2, checkout-se-3."))));
  EXPECT_THAT(r.done, ElementsAre("checkout-se-1"));
  EXPECT_THAT(r.to_do, ElementsAre("checkout-se-2", "checkout-se-3"));
  for (const auto& [uuid, se] : group_.ses()) {
    if (se.exists) {
      EXPECT_TRUE(se.enabled) << se.name;
    }
  }
  for (const std::string& c : group_.calls) EXPECT_NE(c, "Delete se-2");
  EXPECT_THAT(group_.calls, ::testing::Contains("Restore se-2"));
}

// A roll stopped after checkout-se-2's replacement was made leaves it in the group (the
// Controller keeps it); the next roll counts it as a replacement already up
// (spare_replacements), and without it would refuse to delete checkout-se-2.
TEST_F(RolloutTest, ResumedRollUsesTheReplacementAStoppedRollMade) {
  group_.stop = &stop_;
  group_.stop_after = "Disable se-2";
  RolloutResult first =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  ASSERT_THAT(first.status, StatusIs(absl::StatusCode::kCancelled));
  ASSERT_THAT(first.done, ElementsAre("checkout-se-1"));
  std::vector<LaggingSe> rest = Lagging(3, LagKind::kNewSesOnly);
  rest.erase(std::remove_if(rest.begin(), rest.end(),
                            [](const LaggingSe& l) { return l.se.uuid == "se-1"; }),
             rest.end());

  absl::Notification again;
  group_.stop = nullptr;
  RolloutResult refused = RunRollout(rest, kTarget, Options(), group_, clock_, &again);
  EXPECT_THAT(refused.status,
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("created no new SE")));

  RolloutOptions o = Options();
  o.spare_replacements = 1;
  RolloutResult resumed = RunRollout(rest, kTarget, o, group_, clock_, &again);
  ASSERT_THAT(resumed.status, IsOk());
  EXPECT_THAT(resumed.done, ElementsAre("checkout-se-2", "checkout-se-3"));
  int existing = 0;
  for (const auto& [uuid, se] : group_.ses()) {
    if (!se.exists) continue;
    ++existing;
    EXPECT_EQ(se.vcpus, 5) << se.name;
    EXPECT_TRUE(se.enabled) << se.name;
  }
  EXPECT_EQ(existing, 3);
  EXPECT_FALSE(group_.vs_unplaced);
}

// A stop while a migration is waited for (the stop wakes the wait) also gives the SE back.
TEST_F(RolloutTest, StopDuringTheWaitEnablesAgain) {
  RolloutOptions o = Options();
  group_.stop = &stop_;
  group_.stop_after = "Observe se-1";
  group_.stop_skip = 1;  // the second read after the disable: inside the wait for the migration
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, o, group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kCancelled,
                                 HasSubstr("waiting for its virtual services to migrate")));
  EXPECT_TRUE(group_.ses().at("se-1").enabled);
  EXPECT_TRUE(group_.ses().at("se-1").exists);
}

TEST_F(RolloutTest, RestoreThatFailsSaysWhatToDoByHand) {
  group_.restore_fails = true;
  group_.migrate_fails.insert("se-1");
  RolloutResult r =
      RunRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kAborted,
                                 HasSubstr("checkout-se-1 is still disabled: set its enable_state "
                                           "to SE_STATE_ENABLED by hand")));
}

TEST_F(RolloutTest, OptionsAreChecked) {
  RolloutOptions o = Options();
  o.max_unavailable = 0;
  EXPECT_THAT(CheckRolloutOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_unavailable")));
  RolloutResult r =
      RunRollout(Lagging(1, LagKind::kNewSesOnly), kTarget, o, group_, clock_, &stop_);
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(group_.calls, IsEmpty());
}

TEST_F(RolloutTest, NothingLaggingDoesNothing) {
  RolloutResult r = RunRollout({}, kTarget, Options(), group_, clock_, &stop_);
  EXPECT_THAT(r.status, IsOk());
  EXPECT_THAT(group_.calls, IsEmpty());
}

TEST(DescribeRolloutTest, SaysWhatApplyWillDo) {
  EXPECT_EQ(DescribeRollout(Lagging(3, LagKind::kNewSesOnly), kTarget, 1),
            "rollout: checkout-se-1, -2 and -3 will be replaced (4 vCPUs -> 5, 8192 MB -> "
            "10240), one at a time");
  EXPECT_EQ(DescribeRollout(Lagging(2, LagKind::kAfterSeReboot), kTarget, 2),
            "rollout: checkout-se-1 and -2 will be rebooted (num_dispatcher_cores), 2 at a time");
  EXPECT_EQ(DescribeRollout({}, kTarget, 1), "");
}

}  // namespace
}  // namespace nsxalb::segroup::lifecycle
