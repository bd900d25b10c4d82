// The Service Engine lifecycle of the emulated Controller: virtual services placed on SEs, SEs
// created at their group's current settings when a virtual service needs a place (write-access
// clouds only), booted, disabled with migration, rebooted, deleted when idle for the group's
// se_deprovision_delay, and a timeline of every placement and SE state change.
//
// The SE objects (name, resources, enable_state) live in the Store; this class keeps what a
// Controller keeps at run time: each SE's oper status, migrate state, the snapshot of its group's
// reboot-only settings from its last boot, and the placements. Progress is evaluated lazily:
// every public method first advances the model to the injected clock's "now", processing each
// due transition (a boot that completes, a migration's end, an idle SE's deprovision) at its own
// scheduled time, in time order, so the timeline carries the times a Controller would show. No
// thread, no busy loop; thread-safe (one mutex; the Store's is taken inside it, never the
// reverse). docs/emulator.md ("Service Engine lifecycle") documents the behaviour and choices.
#ifndef NSXALB_EMULATOR_SE_LIFECYCLE_H_
#define NSXALB_EMULATOR_SE_LIFECYCLE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "emulator/faults.h"
#include "emulator/store.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/se_group_fields.h"

namespace nsxalb::emulator {

// The emulated durations, all in milliseconds of the injected clock.
struct SeTiming {
  // How long a new or rebooting SE takes to come up.
  int64_t boot_ms = 300;
  // The least time a disabled SE takes to migrate its virtual services away.
  int64_t migration_ms = 300;
  // The length of one minute of the group's se_deprovision_delay (a real minute by default, so
  // SEs loaded through the control endpoint without virtual services stay for the test's life).
  int64_t minute_ms = 60000;
};

// The shape a new SE gets from its group (resources.num_vcpus, memory in MB, disk in GB).
struct SeShape {
  int64_t num_vcpus = 0;
  int64_t memory = 0;
  int64_t disk = 0;
};

// Hooks of the SE lifecycle, called with the lifecycle's lock held: they must not call back into
// the lifecycle (or the Store's SE methods).
struct SeHooks {
  // The one admission point of every SE creation (the Controller's and the control endpoint's):
  // an error refuses the SE (e.g. "Insufficient licensable resources available to create Service
  // Engine"): nothing is created, the virtual service that needed it waits, and the timeline
  // records the refusal. Unset: every SE is admitted.
  std::function<absl::Status(const nlohmann::json& group, const SeShape& shape)> admit;
  // After an SE was created (its stored object) and after one was deleted (its uuid).
  std::function<void(const nlohmann::json& se)> created;
  std::function<void(const std::string& se_uuid)> deleted;
  // When an SE comes up: at the end of its boot, or at once for an SE the control endpoint loads
  // (the licence ledger then moves its units from escrow to consumed).
  std::function<void(const std::string& se_uuid)> up;
};

// True when a change of `field` reaches running SEs only after they reboot. The one place the
// emulator reads the catalog's flag for it.
bool TakesEffectAfterReboot(const controller::SeGroupField& field);

// The SE lifecycle over one Store.
class SeLifecycle {
 public:
  // Milliseconds since the epoch; absl::Now in production, a fake in tests.
  using Clock = std::function<int64_t()>;

  // `defaults`: the SE group field defaults of the Controller's version (DefaultsFor), used for
  // fields a group does not set. `faults` may be null (no lifecycle faults).
  SeLifecycle(Store* store, Faults* faults, Clock clock_ms, SeTiming timing,
              nlohmann::json defaults);

  // Replaces the hooks.
  void SetHooks(SeHooks hooks);

  SeTiming timing();
  // Merges {"boot_ms", "migration_ms", "minute_ms"} (integers, 0-3600000; minute_ms from 1);
  // InvalidArgument naming the key otherwise. Pending transitions keep their scheduled times.
  absl::Status UpdateTiming(const nlohmann::json& update);

  // Advances to now. True when what --state saves changed: the Store (an SE was deprovisioned
  // or forgotten) or a virtual service's placement.
  bool Advance();

  // The control endpoint's SE load: `count` SEs that already run in the group (OPER_UP at once,
  // any cloud), each admitted first. On a refusal the SEs admitted before it stay: the error
  // carries the refusal, `created` the uuids made.
  absl::Status AddServiceEngines(const std::string& group_uuid, int count, std::optional<int> vcpus,
                                 std::vector<std::string>* created);

  // Places `count` new virtual services in a group (by uuid or name; `tenant` narrows a name),
  // each on the group's min_scaleout_per_vs SEs. Returns their uuids; placement proceeds as the
  // group allows (a VS may wait for an SE that boots, or for room).
  absl::StatusOr<std::vector<std::string>> AddVirtualServices(const std::string& group, int count,
                                                              const std::string& tenant);
  // Removes a virtual service. NotFound when absent.
  absl::Status RemoveVirtualService(const std::string& vs_uuid);
  // Every virtual service: {uuid, name, se_group_uuid, tenant_uuid, se_uuids (placed), pending
  // (SEs booting for it), min_scaleout_per_vs, waiting?}.
  nlohmann::json VirtualServices();
  // One virtual service as VirtualServices() shows it; NotFound when absent.
  absl::StatusOr<nlohmann::json> VirtualService(const std::string& vs_uuid);

  // The virtual services as --state saves them (objects.virtualservice), without advancing: one
  // {uuid, name, se_group_uuid, tenant_uuid, se_uuids} each, in creation order, se_uuids holding
  // the SEs it is placed on or pending on.
  nlohmann::json SavedVirtualServices();
  // Restores virtual services saved by SavedVirtualServices() (at start, after the Store loaded
  // the file): each is placed again on those of its SEs that exist in its group, as SEs loaded
  // from --state run at once; one short of min_scaleout_per_vs SEs is placed as the group allows
  // at the next advance. One of an unknown group is dropped. InvalidArgument naming the entry
  // when an entry is not an object with a string uuid, name and se_group_uuid and a list of
  // string se_uuids; nothing is restored then.
  absl::Status RestoreVirtualServices(const nlohmann::json& saved);

  // Sets an SE's enable_state (PUT or PATCH of the SE, the body already merged into `object`).
  // Only enable_state changes; se_group_ref, cloud_ref and tenant_ref cannot; other fields are
  // ignored as the Controller's own. Errors: NotFound, InvalidArgument naming the field,
  // Aborted (412) for a stale _last_modified. Returns the stored SE.
  absl::StatusOr<nlohmann::json> UpdateServiceEngine(const std::string& se_uuid,
                                                     const std::string& tenant_uuid,
                                                     const nlohmann::json& object);
  // DELETE of an SE: FailedPrecondition (409, see docs) while it hosts or awaits a virtual
  // service; NotFound when absent.
  absl::Status DeleteServiceEngine(const std::string& se_uuid, const std::string& tenant_uuid);
  // POST .../reboot: down for the boot time, then up with the group's current reboot-only
  // settings. FailedPrecondition while it is creating or rebooting.
  absl::Status RebootServiceEngine(const std::string& se_uuid, const std::string& tenant_uuid);

  // The SE's runtime (ServiceEngineRuntimeSummary's fields) as of the last Advance (a listing
  // advances once, then reads each SE's); NotFound when absent.
  absl::StatusOr<nlohmann::json> Runtime(const std::string& se_uuid);
  // The uuids of the virtual services placed on an SE (empty when unknown).
  std::vector<std::string> PlacedOn(const std::string& se_uuid);
  // The same with each one's name: {uuid, name} pairs, in placement order.
  std::vector<std::pair<std::string, std::string>> PlacedOnNamed(const std::string& se_uuid);

  // {"now_ms", "events": [...], "summary": {...}} (docs/emulator.md "Timeline").
  nlohmann::json Timeline();
  // Forgets the events so far (the current state stays).
  void ResetTimeline();

 private:
  struct Se {
    std::string uuid;
    std::string group;
    uint64_t order = 0;
    std::string enable_state = "SE_STATE_ENABLED";
    std::string oper = "OPER_UP";
    std::string migrate_state = "SE_MIGRATE_STATE_IDLE";
    std::vector<std::string> reason;
    int64_t oper_since_ms = 0;
    int64_t online_since_ms = -1;
    // Booting (creating or rebooting) until then; unset when up (or never coming up).
    std::optional<int64_t> up_at;
    bool never_up = false;
    // Migrating (SE_STATE_DISABLED): the virtual services may leave from migrate_at on.
    bool leaving = false;
    std::optional<int64_t> migrate_at;
    bool migrate_due = false;
    bool migrate_fails = false;
    std::optional<int64_t> idle_since;
    // The group's reboot-only settings at the SE's last boot.
    nlohmann::json snapshot;
  };
  struct Vs {
    std::string uuid;
    std::string name;
    std::string group;
    std::string tenant;
    std::vector<std::string> placed;
    std::vector<std::string> pending;
    std::string waiting;
  };

  void AdvanceLocked(int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Learns SEs the Store has and this class does not (loaded from --state, or created before),
  // forgets those gone with their group, and refreshes the group and cloud caches.
  void SyncLocked(int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReconcileLocked(int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PlaceLocked(Vs& vs, int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FinishMigrationsLocked(int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void TrackIdleLocked(int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void BootedLocked(Se& se, int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DeprovisionLocked(const std::string& se_uuid, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Creates one SE in `group` through the admission hook. `up_now`: an SE that already runs
  // (control endpoint). Returns its uuid.
  absl::StatusOr<std::string> CreateSeLocked(const std::string& group, std::optional<int> vcpus,
                                             bool up_now, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetOperLocked(Se& se, const std::string& oper, std::vector<std::string> reason, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EmitSeLocked(const Se& se, int64_t now, const std::string& kind)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EmitLocked(int64_t at, nlohmann::json event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PlaceOnLocked(Vs& vs, Se& se, int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveFromLocked(Vs& vs, const std::string& se_uuid, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // A group field's value (the group's, else the default); null when neither has one.
  nlohmann::json GroupValueLocked(const std::string& group, const std::string& field)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int64_t GroupIntLocked(const std::string& group, const std::string& field, int64_t fallback)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  nlohmann::json RebootSettingsLocked(const std::string& group) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool WriteAccessLocked(const std::string& group) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int LoadLocked(const std::string& se_uuid) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool ServingLocked(const std::string& se_uuid) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Se* FindSeLocked(const std::string& se_uuid, const std::string& tenant_uuid)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  nlohmann::json VsJsonLocked(const Vs& vs) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  Store* const store_;
  Faults* const faults_;
  const Clock clock_ms_;
  const nlohmann::json defaults_;
  absl::Mutex mu_;
  SeTiming timing_ ABSL_GUARDED_BY(mu_);
  SeHooks hooks_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, Se> ses_ ABSL_GUARDED_BY(mu_);
  std::vector<Vs> vss_ ABSL_GUARDED_BY(mu_);
  uint64_t next_order_ ABSL_GUARDED_BY(mu_) = 1;
  int vs_number_ ABSL_GUARDED_BY(mu_) = 0;
  // Caches refreshed by SyncLocked: group uuid -> stored group; cloud uuid -> write access.
  std::map<std::string, nlohmann::json> groups_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, bool> cloud_write_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string> se_tenant_ ABSL_GUARDED_BY(mu_);
  std::vector<nlohmann::json> events_ ABSL_GUARDED_BY(mu_);
  // Events dropped from the front of a long timeline (its summary then starts mid-way).
  uint64_t dropped_events_ ABSL_GUARDED_BY(mu_) = 0;
  bool store_changed_ ABSL_GUARDED_BY(mu_) = false;
  // A virtual service was placed, left an SE or went from pending to placed since the last
  // Advance() (--state saves the placements).
  bool placements_changed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_SE_LIFECYCLE_H_
