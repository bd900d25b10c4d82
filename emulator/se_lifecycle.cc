// The Service Engine lifecycle of the emulated Controller (see se_lifecycle.h).
#include "emulator/se_lifecycle.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "emulator/random_id.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

constexpr const char* kEnableStates[] = {"SE_STATE_ENABLED", "SE_STATE_DISABLED_FOR_PLACEMENT",
                                         "SE_STATE_DISABLED", "SE_STATE_DISABLED_FORCE"};
// Fields of the SE object a client cannot change (a PUT that changes one is refused).
constexpr const char* kFixedRefs[] = {"se_group_ref", "cloud_ref", "tenant_ref"};
// The most timeline events kept; older ones are dropped (and the summary says it is partial).
constexpr size_t kMaxEvents = 200000;
// The most SEs a Reconcile may create in one pass (a guard, far above any test's group).
constexpr int kMaxSePerGroupGuard = 1000;

json TimeStamp(int64_t ms) { return {{"secs", ms / 1000}, {"usecs", (ms % 1000) * 1000}}; }

std::string Iso(int64_t ms) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6S+00:00", absl::FromUnixMillis(ms),
                          absl::UTCTimeZone());
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

void Erase(std::vector<std::string>& v, const std::string& x) {
  v.erase(std::remove(v.begin(), v.end(), x), v.end());
}

}  // namespace

bool TakesEffectAfterReboot(const controller::SeGroupField& field) {
  return field.takes_effect == controller::TakesEffect::kAfterSeReboot;
}

SeLifecycle::SeLifecycle(Store* store, Faults* faults, Clock clock_ms, SeTiming timing,
                         json defaults)
    : store_(store),
      faults_(faults),
      clock_ms_(std::move(clock_ms)),
      defaults_(std::move(defaults)),
      timing_(timing) {}

void SeLifecycle::SetHooks(SeHooks hooks) {
  absl::MutexLock lock(&mu_);
  hooks_ = std::move(hooks);
}

SeTiming SeLifecycle::timing() {
  absl::MutexLock lock(&mu_);
  return timing_;
}

absl::Status SeLifecycle::UpdateTiming(const json& update) {
  if (!update.is_object()) return absl::InvalidArgumentError("timing body must be a JSON object");
  absl::MutexLock lock(&mu_);
  AdvanceLocked(clock_ms_());
  SeTiming next = timing_;
  for (auto it = update.begin(); it != update.end(); ++it) {
    int64_t* slot = nullptr;
    if (it.key() == "boot_ms") slot = &next.boot_ms;
    if (it.key() == "migration_ms") slot = &next.migration_ms;
    if (it.key() == "minute_ms") slot = &next.minute_ms;
    if (slot == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown timing: ", it.key(), " (expected boot_ms, migration_ms, minute_ms)"));
    }
    const int64_t lo = it.key() == "minute_ms" ? 1 : 0;
    if (!it.value().is_number_integer() || it.value().get<int64_t>() < lo ||
        it.value().get<int64_t>() > 3600000) {
      return absl::InvalidArgumentError(absl::StrCat(it.key(), ": must be an integer from ", lo,
                                                     " to 3600000, not ", it.value().dump()));
    }
    *slot = it.value().get<int64_t>();
  }
  timing_ = next;
  return absl::OkStatus();
}

bool SeLifecycle::Advance() {
  absl::MutexLock lock(&mu_);
  AdvanceLocked(clock_ms_());
  const bool changed = store_changed_ || placements_changed_;
  store_changed_ = false;
  placements_changed_ = false;
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Group facts.

json SeLifecycle::GroupValueLocked(const std::string& group, const std::string& field) {
  auto g = groups_.find(group);
  if (g != groups_.end()) {
    auto it = g->second.find(field);
    if (it != g->second.end() && !it->is_null()) return *it;
  }
  auto d = defaults_.find(field);
  return d != defaults_.end() ? *d : json();
}

int64_t SeLifecycle::GroupIntLocked(const std::string& group, const std::string& field,
                                    int64_t fallback) {
  const json v = GroupValueLocked(group, field);
  return v.is_number_integer() ? v.get<int64_t>() : fallback;
}

json SeLifecycle::RebootSettingsLocked(const std::string& group) {
  json out = json::object();
  for (const controller::SeGroupField& f : controller::SeGroupFields()) {
    if (!TakesEffectAfterReboot(f)) continue;
    const std::string name(f.name);
    out[name] = GroupValueLocked(group, name);
  }
  return out;
}

bool SeLifecycle::WriteAccessLocked(const std::string& group) {
  auto g = groups_.find(group);
  if (g == groups_.end()) return false;
  auto c = cloud_write_.find(g->second.value("cloud_ref", ""));
  return c != cloud_write_.end() && c->second;
}

int SeLifecycle::LoadLocked(const std::string& se_uuid) {
  int n = 0;
  for (const Vs& vs : vss_) n += Contains(vs.placed, se_uuid) || Contains(vs.pending, se_uuid);
  return n;
}

bool SeLifecycle::ServingLocked(const std::string& se_uuid) {
  auto it = ses_.find(se_uuid);
  return it != ses_.end() && (it->second.oper == "OPER_UP" || it->second.oper == "OPER_DISABLING");
}

SeLifecycle::Se* SeLifecycle::FindSeLocked(const std::string& se_uuid,
                                           const std::string& tenant_uuid) {
  auto it = ses_.find(se_uuid);
  if (it == ses_.end()) return nullptr;
  if (tenant_uuid != "*" && se_tenant_[se_uuid] != tenant_uuid) return nullptr;
  return &it->second;
}

// ---------------------------------------------------------------------------------------------
// Events.

void SeLifecycle::EmitLocked(int64_t at, json event) {
  event["at_ms"] = at;
  if (events_.size() >= kMaxEvents) {
    events_.erase(events_.begin(), events_.begin() + kMaxEvents / 10);
    dropped_events_ += kMaxEvents / 10;
  }
  events_.push_back(std::move(event));
}

void SeLifecycle::EmitSeLocked(const Se& se, int64_t now, const std::string& kind) {
  json e = {{"kind", kind},
            {"se", se.uuid},
            {"se_group", se.group},
            {"oper", se.oper},
            {"enable_state", se.enable_state},
            {"migrate_state", se.migrate_state}};
  if (!se.reason.empty()) e["reason"] = se.reason;
  EmitLocked(now, std::move(e));
}

void SeLifecycle::SetOperLocked(Se& se, const std::string& oper, std::vector<std::string> reason,
                                int64_t now) {
  se.oper = oper;
  se.reason = std::move(reason);
  se.oper_since_ms = now;
  EmitSeLocked(se, now, "se_state");
}

void SeLifecycle::PlaceOnLocked(Vs& vs, Se& se, int64_t now) {
  vs.waiting.clear();
  placements_changed_ = true;
  if (se.oper == "OPER_UP") {
    vs.placed.push_back(se.uuid);
    EmitLocked(now,
               {{"kind", "vs_placed"}, {"vs", vs.uuid}, {"se", se.uuid}, {"se_group", vs.group}});
  } else {
    vs.pending.push_back(se.uuid);
    EmitLocked(now,
               {{"kind", "vs_pending"}, {"vs", vs.uuid}, {"se", se.uuid}, {"se_group", vs.group}});
  }
  se.idle_since.reset();
}

void SeLifecycle::RemoveFromLocked(Vs& vs, const std::string& se_uuid, int64_t now) {
  const bool was = Contains(vs.placed, se_uuid) || Contains(vs.pending, se_uuid);
  Erase(vs.placed, se_uuid);
  Erase(vs.pending, se_uuid);
  if (was) {
    placements_changed_ = true;
    EmitLocked(now,
               {{"kind", "vs_removed"}, {"vs", vs.uuid}, {"se", se_uuid}, {"se_group", vs.group}});
  }
}

// ---------------------------------------------------------------------------------------------
// Advancing.

void SeLifecycle::SyncLocked(int64_t now) {
  groups_.clear();
  cloud_write_.clear();
  ListFilter all;
  all.tenant_uuid = "*";
  for (json& c : store_->List(kCloud, all)) {
    const std::string vtype = c.value("vtype", "");
    std::string privilege = "WRITE_ACCESS";
    if (c.contains("vcenter_configuration") && c["vcenter_configuration"].is_object()) {
      privilege = c["vcenter_configuration"].value("privilege", "WRITE_ACCESS");
    }
    cloud_write_[c.value("uuid", "")] = vtype != "CLOUD_NONE" && privilege == "WRITE_ACCESS";
  }
  for (json& g : store_->List(kSeGroup, all)) {
    const std::string uuid = g.value("uuid", "");
    groups_[uuid] = std::move(g);
  }
  std::set<std::string> present;
  for (const json& stored : store_->List(kServiceEngine, all)) {
    const std::string uuid = stored.value("uuid", "");
    present.insert(uuid);
    se_tenant_[uuid] = stored.value("tenant_ref", "");
    auto it = ses_.find(uuid);
    if (it != ses_.end()) {
      it->second.enable_state = stored.value("enable_state", "SE_STATE_ENABLED");
      continue;
    }
    // An SE this lifecycle has not seen (from --state): it runs, booted at the group's settings.
    Se se;
    se.uuid = uuid;
    se.group = stored.value("se_group_ref", "");
    se.order = next_order_++;
    se.enable_state = stored.value("enable_state", "SE_STATE_ENABLED");
    se.oper = se.enable_state == "SE_STATE_DISABLED" ? "OPER_DISABLED" : "OPER_UP";
    se.oper_since_ms = now;
    se.online_since_ms = now;
    se.snapshot = RebootSettingsLocked(se.group);
    ses_.emplace(uuid, std::move(se));
  }
  for (auto it = ses_.begin(); it != ses_.end();) {
    if (present.count(it->first) > 0) {
      ++it;
      continue;
    }
    // Gone with its group.
    for (Vs& vs : vss_) RemoveFromLocked(vs, it->first, now);
    EmitLocked(now, {{"kind", "se_deleted"},
                     {"se", it->first},
                     {"se_group", it->second.group},
                     {"reason", "deleted with its SE group"}});
    if (hooks_.deleted) hooks_.deleted(it->first);
    se_tenant_.erase(it->first);
    it = ses_.erase(it);
  }
  for (auto it = vss_.begin(); it != vss_.end();) {
    if (groups_.count(it->group) > 0) {
      ++it;
      continue;
    }
    EmitLocked(now, {{"kind", "vs_deleted"},
                     {"vs", it->uuid},
                     {"se_group", it->group},
                     {"reason", "deleted with its SE group"}});
    it = vss_.erase(it);
  }
}

void SeLifecycle::AdvanceLocked(int64_t now) {
  SyncLocked(now);
  ReconcileLocked(now);
  // Each due transition at its own time, earliest first.
  for (int guard = 0; guard < 100000; ++guard) {
    int64_t best = std::numeric_limits<int64_t>::max();
    std::string which;
    int kind = 0;  // 1 boot, 2 migration end, 3 deprovision
    for (auto& [uuid, se] : ses_) {
      if (se.up_at.has_value() && *se.up_at < best) best = *se.up_at, which = uuid, kind = 1;
      if (se.leaving && se.migrate_at.has_value() && *se.migrate_at < best) {
        best = *se.migrate_at, which = uuid, kind = 2;
      }
      if (se.idle_since.has_value()) {
        const int64_t delay = GroupIntLocked(se.group, "se_deprovision_delay", 120);
        const int64_t at = *se.idle_since + delay * timing_.minute_ms;
        if (delay > 0 && at < best) best = at, which = uuid, kind = 3;
      }
    }
    if (kind == 0 || best > now) break;
    Se& se = ses_.at(which);
    if (kind == 1) {
      se.up_at.reset();
      BootedLocked(se, best);
    } else if (kind == 2) {
      se.migrate_at.reset();
      se.migrate_due = true;
    } else {
      DeprovisionLocked(which, best);
    }
    ReconcileLocked(best);
  }
}

void SeLifecycle::BootedLocked(Se& se, int64_t now) {
  if (hooks_.up) hooks_.up(se.uuid);
  se.snapshot = RebootSettingsLocked(se.group);
  se.online_since_ms = now;
  const bool disabled =
      se.enable_state == "SE_STATE_DISABLED" || se.enable_state == "SE_STATE_DISABLED_FORCE";
  std::string oper = "OPER_UP";
  if (se.leaving) oper = "OPER_DISABLING";
  if (!se.leaving && disabled && LoadLocked(se.uuid) == 0) oper = "OPER_DISABLED";
  SetOperLocked(se, oper, {}, now);
  for (Vs& vs : vss_) {
    if (!Contains(vs.pending, se.uuid)) continue;
    Erase(vs.pending, se.uuid);
    vs.placed.push_back(se.uuid);
    placements_changed_ = true;
    EmitLocked(now,
               {{"kind", "vs_placed"}, {"vs", vs.uuid}, {"se", se.uuid}, {"se_group", vs.group}});
  }
}

void SeLifecycle::DeprovisionLocked(const std::string& se_uuid, int64_t now) {
  auto it = ses_.find(se_uuid);
  if (it == ses_.end()) return;
  const int64_t delay = GroupIntLocked(it->second.group, "se_deprovision_delay", 120);
  if (!store_->DeleteServiceEngine(se_uuid).ok()) return;
  store_changed_ = true;
  EmitLocked(now, {{"kind", "se_deleted"},
                   {"se", se_uuid},
                   {"se_group", it->second.group},
                   {"reason", absl::StrCat("idle for se_deprovision_delay (", delay, " min)")}});
  if (hooks_.deleted) hooks_.deleted(se_uuid);
  se_tenant_.erase(se_uuid);
  ses_.erase(it);
}

void SeLifecycle::ReconcileLocked(int64_t now) {
  for (Vs& vs : vss_) PlaceLocked(vs, now);
  FinishMigrationsLocked(now);
  TrackIdleLocked(now);
}

void SeLifecycle::PlaceLocked(Vs& vs, int64_t now) {
  const int64_t wanted = std::max<int64_t>(1, GroupIntLocked(vs.group, "min_scaleout_per_vs", 1));
  const int64_t max_vs = GroupIntLocked(vs.group, "max_vs_per_se", 10);
  const int64_t max_se = GroupIntLocked(vs.group, "max_se", 10);
  const bool distributed = GroupValueLocked(vs.group, "algo") == "PLACEMENT_ALGO_DISTRIBUTED";
  for (int guard = 0; guard < kMaxSePerGroupGuard; ++guard) {
    int64_t have = 0;
    for (const auto* list : {&vs.placed, &vs.pending}) {
      for (const std::string& s : *list) have += ses_.count(s) > 0 && !ses_.at(s).leaving;
    }
    if (have >= wanted) return;
    // Candidates: enabled SEs of the group, up or booting, with room, not hosting it yet.
    Se* best = nullptr;
    int best_load = 0;
    int group_ses = 0;
    for (auto& [uuid, se] : ses_) {
      if (se.group != vs.group) continue;
      ++group_ses;
      if (se.enable_state != "SE_STATE_ENABLED") continue;
      if (se.oper != "OPER_UP" && se.oper != "OPER_CREATING") continue;
      if (Contains(vs.placed, uuid) || Contains(vs.pending, uuid)) continue;
      const int load = LoadLocked(uuid);
      if (load >= max_vs) continue;
      // Packed (the default): the fullest SE with room; distributed: the emptiest.
      const bool better = best == nullptr || (distributed ? load < best_load : load > best_load) ||
                          (load == best_load && se.order < best->order);
      if (better) best = &se, best_load = load;
    }
    const bool can_create = WriteAccessLocked(vs.group) && group_ses < max_se;
    if (best != nullptr && !(distributed && can_create && best_load > 0)) {
      PlaceOnLocked(vs, *best, now);
      continue;
    }
    std::string why;
    bool refused = false;
    if (!WriteAccessLocked(vs.group)) {
      why = "no Service Engine with room, and the cloud has no write access (no SE is created)";
    } else if (group_ses >= max_se) {
      why = absl::StrCat("no Service Engine with room, and the group has max_se ", max_se,
                         " Service Engines");
    } else {
      absl::StatusOr<std::string> created = CreateSeLocked(vs.group, std::nullopt, false, now);
      if (created.ok()) {
        PlaceOnLocked(vs, ses_.at(*created), now);
        continue;
      }
      why = std::string(created.status().message());
      refused = true;
    }
    if (why != vs.waiting) {
      vs.waiting = why;
      if (refused) {
        EmitLocked(now, {{"kind", "se_refused"}, {"se_group", vs.group}, {"reason", why}});
      }
      EmitLocked(
          now, {{"kind", "vs_waiting"}, {"vs", vs.uuid}, {"se_group", vs.group}, {"reason", why}});
    }
    return;
  }
}

void SeLifecycle::FinishMigrationsLocked(int64_t now) {
  for (auto& [uuid, se] : ses_) {
    if (!se.leaving || !se.migrate_due) continue;
    std::vector<std::string> stuck;
    if (!se.migrate_fails) {
      for (Vs& vs : vss_) {
        if (!Contains(vs.placed, uuid) && !Contains(vs.pending, uuid)) continue;
        const int64_t wanted =
            std::max<int64_t>(1, GroupIntLocked(vs.group, "min_scaleout_per_vs", 1));
        int64_t others = 0;
        for (const std::string& s : vs.placed) {
          others += s != uuid && ServingLocked(s) && !ses_.at(s).leaving;
        }
        // SEs still booting for it elsewhere: worth waiting for.
        bool booting_elsewhere = false;
        for (const std::string& s : vs.pending) {
          booting_elsewhere |= s != uuid && ses_.count(s) > 0 && !ses_.at(s).leaving;
        }
        if (others >= wanted || (others >= 1 && !booting_elsewhere)) {
          RemoveFromLocked(vs, uuid, now);
        } else if (!booting_elsewhere) {
          stuck.push_back(vs.name);
        }
      }
    }
    if (se.migrate_fails || !stuck.empty()) {
      se.leaving = false;
      se.migrate_due = false;
      se.migrate_fails = false;
      se.migrate_state = "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE";
      const std::string why = stuck.empty()
                                  ? "MIGRATE_SE_FAILED: migration failed (fault injection)"
                                  : absl::StrCat("MIGRATE_SE_FAILED: no Service Engine can take ",
                                                 absl::StrJoin(stuck, ", "));
      SetOperLocked(se, "OPER_UP", {why}, now);
      EmitLocked(
          now,
          {{"kind", "MIGRATE_SE_FAILED"}, {"se", uuid}, {"se_group", se.group}, {"reason", why}});
      continue;
    }
    if (LoadLocked(uuid) == 0) {
      se.leaving = false;
      se.migrate_due = false;
      se.migrate_state = "SE_MIGRATE_STATE_FINISHED";
      SetOperLocked(se, "OPER_DISABLED", {}, now);
      EmitLocked(now, {{"kind", "MIGRATE_SE_FINISHED"}, {"se", uuid}, {"se_group", se.group}});
    }
  }
}

void SeLifecycle::TrackIdleLocked(int64_t now) {
  for (auto& [uuid, se] : ses_) {
    const bool idle = (se.oper == "OPER_UP" || se.oper == "OPER_DISABLED") && !se.leaving &&
                      WriteAccessLocked(se.group) && LoadLocked(uuid) == 0;
    if (!idle) {
      se.idle_since.reset();
    } else if (!se.idle_since.has_value()) {
      se.idle_since = now;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Creating SEs.

absl::StatusOr<std::string> SeLifecycle::CreateSeLocked(const std::string& group,
                                                        std::optional<int> vcpus, bool up_now,
                                                        int64_t now) {
  auto g = groups_.find(group);
  if (g == groups_.end()) {
    return absl::NotFoundError(absl::StrCat("Object ", group, " of type ", kSeGroup, " not found"));
  }
  SeShape shape;
  shape.num_vcpus = vcpus.has_value() ? *vcpus : GroupIntLocked(group, "vcpus_per_se", 1);
  shape.memory = GroupIntLocked(group, "memory_per_se", 2048);
  shape.disk = GroupIntLocked(group, "disk_per_se", 15);
  if (hooks_.admit) {
    absl::Status admitted = hooks_.admit(g->second, shape);
    if (!admitted.ok()) return admitted;
  }
  NSXALB_ASSIGN_OR_RETURN(std::vector<std::string> uuids,
                          store_->CreateServiceEngines(group, 1, vcpus, defaults_));
  store_changed_ = true;
  Se se;
  se.uuid = uuids.at(0);
  se.group = group;
  se.order = next_order_++;
  se.oper_since_ms = now;
  if (up_now) {
    se.oper = "OPER_UP";
    se.online_since_ms = now;
    se.snapshot = RebootSettingsLocked(group);
  } else {
    se.oper = "OPER_CREATING";
    se.never_up = faults_ != nullptr && faults_->TakeSeNeverUp();
    if (!se.never_up) se.up_at = now + timing_.boot_ms;
  }
  se_tenant_[se.uuid] = g->second.value("tenant_ref", "");
  const std::string uuid = se.uuid;
  Se& stored = ses_.emplace(uuid, std::move(se)).first->second;
  EmitSeLocked(stored, now, "se_created");
  if (hooks_.created) {
    absl::StatusOr<json> obj = store_->Get(kServiceEngine, uuid, "*");
    if (obj.ok()) hooks_.created(*obj);
  }
  if (up_now && hooks_.up) hooks_.up(uuid);
  return uuid;
}

absl::Status SeLifecycle::AddServiceEngines(const std::string& group_uuid, int count,
                                            std::optional<int> vcpus,
                                            std::vector<std::string>* created) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<std::string> uuid = CreateSeLocked(group_uuid, vcpus, true, now);
    if (absl::IsNotFound(uuid.status())) return uuid.status();
    if (!uuid.ok()) {
      EmitLocked(now, {{"kind", "se_refused"},
                       {"se_group", group_uuid},
                       {"reason", std::string(uuid.status().message())}});
      return uuid.status();
    }
    created->push_back(*uuid);
  }
  ReconcileLocked(now);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Virtual services.

absl::StatusOr<std::vector<std::string>> SeLifecycle::AddVirtualServices(
    const std::string& group, int count, const std::string& tenant) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  std::vector<std::string> matches;
  for (const auto& [uuid, g] : groups_) {
    if (uuid != group && g.value("name", "") != group) continue;
    if (!tenant.empty() && g.value("tenant_ref", "") != tenant) continue;
    matches.push_back(uuid);
  }
  if (matches.empty()) {
    return absl::NotFoundError(absl::StrCat("se_group: no SE group '", group, "'"));
  }
  if (matches.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat("se_group: '", group, "' names ", matches.size(),
                                                   " SE groups; give its uuid"));
  }
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    Vs vs;
    vs.uuid = absl::StrCat("virtualservice-", NewUuid4());
    vs.name = absl::StrCat(groups_[matches[0]].value("name", ""), "-vs-", ++vs_number_);
    vs.group = matches[0];
    vs.tenant = groups_[matches[0]].value("tenant_ref", "");
    EmitLocked(now, {{"kind", "vs_created"}, {"vs", vs.uuid}, {"se_group", vs.group}});
    out.push_back(vs.uuid);
    vss_.push_back(std::move(vs));
  }
  ReconcileLocked(now);
  return out;
}

absl::Status SeLifecycle::RemoveVirtualService(const std::string& vs_uuid) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  for (auto it = vss_.begin(); it != vss_.end(); ++it) {
    if (it->uuid != vs_uuid) continue;
    for (const std::string& s : std::vector<std::string>(it->placed)) RemoveFromLocked(*it, s, now);
    for (const std::string& s : std::vector<std::string>(it->pending)) {
      RemoveFromLocked(*it, s, now);
    }
    EmitLocked(now, {{"kind", "vs_deleted"}, {"vs", vs_uuid}, {"se_group", it->group}});
    vss_.erase(it);
    ReconcileLocked(now);
    return absl::OkStatus();
  }
  return absl::NotFoundError(absl::StrCat("Object ", vs_uuid, " of type virtualservice not found"));
}

json SeLifecycle::VsJsonLocked(const Vs& vs) {
  json out = {{"uuid", vs.uuid},
              {"name", vs.name},
              {"se_group_uuid", vs.group},
              {"tenant_uuid", vs.tenant},
              {"se_uuids", vs.placed},
              {"pending", vs.pending},
              {"min_scaleout_per_vs", GroupIntLocked(vs.group, "min_scaleout_per_vs", 1)}};
  if (!vs.waiting.empty()) out["waiting"] = vs.waiting;
  return out;
}

json SeLifecycle::VirtualServices() {
  absl::MutexLock lock(&mu_);
  AdvanceLocked(clock_ms_());
  json out = json::array();
  for (const Vs& vs : vss_) out.push_back(VsJsonLocked(vs));
  return out;
}

absl::StatusOr<json> SeLifecycle::VirtualService(const std::string& vs_uuid) {
  absl::MutexLock lock(&mu_);
  AdvanceLocked(clock_ms_());
  for (const Vs& vs : vss_) {
    if (vs.uuid == vs_uuid) return VsJsonLocked(vs);
  }
  return absl::NotFoundError(absl::StrCat("Object ", vs_uuid, " of type virtualservice not found"));
}

json SeLifecycle::SavedVirtualServices() {
  absl::MutexLock lock(&mu_);
  json out = json::array();
  for (const Vs& vs : vss_) {
    std::vector<std::string> ses = vs.placed;
    ses.insert(ses.end(), vs.pending.begin(), vs.pending.end());
    out.push_back({{"uuid", vs.uuid},
                   {"name", vs.name},
                   {"se_group_uuid", vs.group},
                   {"tenant_uuid", vs.tenant},
                   {"se_uuids", ses}});
  }
  return out;
}

absl::Status SeLifecycle::RestoreVirtualServices(const json& saved) {
  if (!saved.is_array()) {
    return absl::InvalidArgumentError("objects.virtualservice must be a list");
  }
  std::vector<Vs> restored;
  for (size_t i = 0; i < saved.size(); ++i) {
    const json& entry = saved[i];
    const auto ses = entry.is_object() ? entry.find("se_uuids") : json::const_iterator();
    const bool ok =
        entry.is_object() && entry.value("uuid", json()).is_string() &&
        entry.value("name", json()).is_string() &&
        entry.value("se_group_uuid", json()).is_string() && ses != entry.end() && ses->is_array() &&
        std::all_of(ses->begin(), ses->end(), [](const json& u) { return u.is_string(); });
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "objects.virtualservice[", i,
          "]: needs a string uuid, name and se_group_uuid and a list of string se_uuids"));
    }
    Vs vs;
    vs.uuid = entry["uuid"].get<std::string>();
    vs.name = entry["name"].get<std::string>();
    vs.group = entry["se_group_uuid"].get<std::string>();
    vs.tenant = entry.value("tenant_uuid", "");
    vs.placed = ses->get<std::vector<std::string>>();
    restored.push_back(std::move(vs));
  }
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  SyncLocked(now);
  for (Vs& vs : restored) {
    if (groups_.count(vs.group) == 0) continue;
    std::vector<std::string> placed;
    for (const std::string& se : vs.placed) {
      auto it = ses_.find(se);
      if (it == ses_.end() || it->second.group != vs.group || Contains(placed, se)) continue;
      placed.push_back(se);
    }
    vs.placed = std::move(placed);
    // Names continue after the highest "<group>-vs-<n>" restored.
    const size_t dash = vs.name.rfind("-vs-");
    int n = 0;
    if (dash != std::string::npos && absl::SimpleAtoi(vs.name.substr(dash + 4), &n)) {
      vs_number_ = std::max(vs_number_, n);
    }
    EmitLocked(now, {{"kind", "vs_created"}, {"vs", vs.uuid}, {"se_group", vs.group}});
    for (const std::string& se : vs.placed) {
      EmitLocked(now, {{"kind", "vs_placed"}, {"vs", vs.uuid}, {"se", se}, {"se_group", vs.group}});
    }
    vss_.push_back(std::move(vs));
  }
  ReconcileLocked(now);
  placements_changed_ = false;
  return absl::OkStatus();
}

std::vector<std::string> SeLifecycle::PlacedOn(const std::string& se_uuid) {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> out;
  for (const Vs& vs : vss_) {
    if (Contains(vs.placed, se_uuid) || Contains(vs.pending, se_uuid)) out.push_back(vs.uuid);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> SeLifecycle::PlacedOnNamed(
    const std::string& se_uuid) {
  absl::MutexLock lock(&mu_);
  std::vector<std::pair<std::string, std::string>> out;
  for (const Vs& vs : vss_) {
    if (Contains(vs.placed, se_uuid) || Contains(vs.pending, se_uuid)) {
      out.emplace_back(vs.uuid, vs.name);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The SE API.

absl::StatusOr<json> SeLifecycle::UpdateServiceEngine(const std::string& se_uuid,
                                                      const std::string& tenant_uuid,
                                                      const json& object) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  Se* se = FindSeLocked(se_uuid, tenant_uuid);
  if (se == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Object ", se_uuid, " of type ", kServiceEngine, " not found"));
  }
  NSXALB_ASSIGN_OR_RETURN(json stored, store_->Get(kServiceEngine, se_uuid, "*"));
  for (const char* ref : kFixedRefs) {
    if (!object.contains(ref) || object[ref].is_null()) continue;
    if (!object[ref].is_string() || UuidOfRef(object[ref].get<std::string>()) !=
                                        stored.value(std::string(ref), std::string())) {
      return absl::InvalidArgumentError(absl::StrCat("Field ", ref, " cannot be changed."));
    }
  }
  std::string state = "SE_STATE_ENABLED";  // a PUT without it returns it to its default
  if (object.contains("enable_state") && !object["enable_state"].is_null()) {
    const json& v = object["enable_state"];
    if (!v.is_string() || std::find(std::begin(kEnableStates), std::end(kEnableStates),
                                    v.get<std::string>()) == std::end(kEnableStates)) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid value ", v.dump(),
                                                     " for field enable_state: expected one of ",
                                                     absl::StrJoin(kEnableStates, ", "), "."));
    }
    state = v.get<std::string>();
  }
  if ((state == "SE_STATE_DISABLED" || state == "SE_STATE_DISABLED_FORCE") &&
      state != se->enable_state &&
      GroupValueLocked(se->group, "ha_mode") == "HA_MODE_LEGACY_ACTIVE_STANDBY") {
    // The guide: "Migration is not supported on a legacy active/standby SE group", and "An SE in
    // a legacy HA SE group cannot be 'deactivated' per SE" (reference section 7).
    return absl::InvalidArgumentError(absl::StrCat(
        "Migration is not supported on a legacy active/standby SE group: Service Engine ",
        stored.value("name", se_uuid), " of SE group ",
        groups_.count(se->group) > 0 ? groups_.at(se->group).value("name", se->group) : se->group,
        " (ha_mode HA_MODE_LEGACY_ACTIVE_STANDBY) cannot be deactivated per SE (enable_state ",
        state, "). Switch it over instead (POST /api/serviceengine/", se_uuid,
        "/switchover), wait until its virtual services are standby, and move it to a "
        "maintenance SE group."));
  }
  const json* last_modified =
      object.contains("_last_modified") ? &object["_last_modified"] : nullptr;
  NSXALB_ASSIGN_OR_RETURN(
      json updated, store_->UpdateServiceEngine(se_uuid, {{"enable_state", state}}, last_modified));
  const std::string before = se->enable_state;
  se->enable_state = state;
  const bool disable = state == "SE_STATE_DISABLED" || state == "SE_STATE_DISABLED_FORCE";
  if (state != before) EmitSeLocked(*se, now, "se_enable_state");
  if (disable && !se->leaving && se->oper != "OPER_DISABLED" &&
      (state != before || se->migrate_state == "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE")) {
    // MIGRATE_SE_STARTED: the SE's virtual services go to others (make before break).
    const bool restarted = se->migrate_state == "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE";
    se->leaving = true;
    se->migrate_due = false;
    se->migrate_fails = faults_ != nullptr && faults_->TakeMigrateFail();
    se->migrate_state = "SE_MIGRATE_STATE_STARTED";
    se->migrate_at = now + (state == "SE_STATE_DISABLED_FORCE" ? 0 : timing_.migration_ms);
    EmitLocked(now, {{"kind", restarted ? "MIGRATE_SE_RESTARTED" : "MIGRATE_SE_STARTED"},
                     {"se", se_uuid},
                     {"se_group", se->group}});
    if (state == "SE_STATE_DISABLED_FORCE") {
      // Forced: the virtual services leave at once, placed again wherever the group allows.
      for (Vs& vs : vss_) RemoveFromLocked(vs, se_uuid, now);
    }
    if (se->oper == "OPER_UP") {
      SetOperLocked(*se, "OPER_DISABLING", {}, now);
    } else {
      EmitSeLocked(*se, now, "se_state");
    }
  } else if (!disable && (se->leaving || se->oper == "OPER_DISABLED" ||
                          se->migrate_state != "SE_MIGRATE_STATE_IDLE")) {
    // Enabled again: a migration in progress stops; the SE serves what it still hosts.
    se->leaving = false;
    se->migrate_at.reset();
    se->migrate_due = false;
    se->migrate_state = "SE_MIGRATE_STATE_IDLE";
    if (se->oper == "OPER_DISABLING" || se->oper == "OPER_DISABLED") {
      SetOperLocked(*se, "OPER_UP", {}, now);
    } else {
      EmitSeLocked(*se, now, "se_state");
    }
  }
  AdvanceLocked(now);
  return updated;
}

absl::Status SeLifecycle::DeleteServiceEngine(const std::string& se_uuid,
                                              const std::string& tenant_uuid) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  Se* se = FindSeLocked(se_uuid, tenant_uuid);
  if (se == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Object ", se_uuid, " of type ", kServiceEngine, " not found"));
  }
  std::vector<std::string> hosted;
  for (const Vs& vs : vss_) {
    if (Contains(vs.placed, se_uuid) || Contains(vs.pending, se_uuid)) hosted.push_back(vs.name);
  }
  const bool force = !hosted.empty() && faults_ != nullptr && faults_->DeleteHostingSe();
  if (!hosted.empty() && !force) {
    absl::StatusOr<json> stored = store_->Get(kServiceEngine, se_uuid, "*");
    const std::string name = stored.ok() ? stored->value("name", se_uuid) : se_uuid;
    return absl::FailedPreconditionError(absl::StrCat(
        "Cannot delete Service Engine ", name, ": virtual services are placed on it (",
        absl::StrJoin(hosted, ", "),
        "). Disable it (enable_state SE_STATE_DISABLED) and wait until it is OPER_DISABLED."));
  }
  NSXALB_RETURN_IF_ERROR(store_->DeleteServiceEngine(se_uuid));
  if (force) {
    // Fault delete_hosting_se: dropped as a force delete would; placed again below as the group
    // allows, unserved meanwhile when this SE was their last serving one.
    for (Vs& vs : vss_) RemoveFromLocked(vs, se_uuid, now);
  }
  EmitLocked(now, {{"kind", "se_deleted"},
                   {"se", se_uuid},
                   {"se_group", se->group},
                   {"reason",
                    force ? absl::StrCat("DELETE /api/serviceengine while hosting ",
                                         absl::StrJoin(hosted, ", "), " (fault delete_hosting_se)")
                          : std::string("DELETE /api/serviceengine")}});
  if (hooks_.deleted) hooks_.deleted(se_uuid);
  se_tenant_.erase(se_uuid);
  ses_.erase(se_uuid);
  ReconcileLocked(now);
  return absl::OkStatus();
}

absl::Status SeLifecycle::RebootServiceEngine(const std::string& se_uuid,
                                              const std::string& tenant_uuid) {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  Se* se = FindSeLocked(se_uuid, tenant_uuid);
  if (se == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Object ", se_uuid, " of type ", kServiceEngine, " not found"));
  }
  if (se->up_at.has_value() || se->never_up || se->oper == "OPER_CREATING") {
    return absl::FailedPreconditionError(
        absl::StrCat("Service Engine ", se_uuid, " is ", se->oper, " and cannot be rebooted now."));
  }
  // Down for the boot time; its placements stay (a VS with no other SE is not served meanwhile).
  se->up_at = now + timing_.boot_ms;
  SetOperLocked(*se, "OPER_DOWN", {"SE reboot in progress"}, now);
  AdvanceLocked(now);
  return absl::OkStatus();
}

absl::StatusOr<json> SeLifecycle::Runtime(const std::string& se_uuid) {
  absl::MutexLock lock(&mu_);
  auto it = ses_.find(se_uuid);
  if (it == ses_.end()) {
    return absl::NotFoundError(
        absl::StrCat("Object ", se_uuid, " of type ", kServiceEngine, " not found"));
  }
  const Se& se = it->second;
  json oper = {{"state", se.oper}, {"last_changed_time", TimeStamp(se.oper_since_ms)}};
  if (!se.reason.empty()) oper["reason"] = se.reason;
  const bool running = se.oper != "OPER_CREATING" && se.oper != "OPER_DOWN";
  json out = {{"oper_status", oper},
              {"se_grp_reboot_pending",
               se.online_since_ms >= 0 && se.snapshot != RebootSettingsLocked(se.group)},
              {"migrate_state", se.migrate_state},
              {"power_state", se.oper == "OPER_DOWN" ? "SE_POWER_OFF" : "SE_POWER_ON"},
              {"se_connected", running},
              {"at_curr_ver", true}};
  if (se.online_since_ms >= 0 && running) out["online_since"] = Iso(se.online_since_ms);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Timeline.

json SeLifecycle::Timeline() {
  absl::MutexLock lock(&mu_);
  const int64_t now = clock_ms_();
  AdvanceLocked(now);
  // Replays the events: which SEs serve (OPER_UP or OPER_DISABLING), which are out (existing,
  // not creating, and not enabled-and-up), and which virtual services lose their last serving SE.
  std::map<std::string, std::string> oper;     // se -> oper
  std::map<std::string, std::string> enabled;  // se -> enable_state
  std::map<std::string, std::string> group_of;
  std::map<std::string, std::set<std::string>> placed;  // vs -> SEs
  std::set<std::string> served_once;
  json unplaced = json::array();
  std::map<std::string, int> max_out_by_group;
  int max_out = 0;
  int64_t max_out_at = -1;
  auto serving = [&](const std::string& s) {
    auto o = oper.find(s);
    return o != oper.end() && (o->second == "OPER_UP" || o->second == "OPER_DISABLING");
  };
  auto served = [&](const std::string& vs) {
    for (const std::string& s : placed[vs]) {
      if (serving(s)) return true;
    }
    return false;
  };
  for (const json& e : events_) {
    const std::string kind = e.value("kind", "");
    const std::string se = e.value("se", "");
    const std::string vs = e.value("vs", "");
    const int64_t at = e.value("at_ms", int64_t{0});
    // Which virtual services were served before this event.
    std::set<std::string> before;
    for (const auto& [v, ses] : placed) {
      if (served(v)) before.insert(v);
    }
    if (kind == "se_created" || kind == "se_state" || kind == "se_enable_state") {
      oper[se] = e.value("oper", "");
      enabled[se] = e.value("enable_state", "");
      group_of[se] = e.value("se_group", "");
    } else if (kind == "se_deleted") {
      oper.erase(se);
      enabled.erase(se);
      group_of.erase(se);
    } else if (kind == "vs_placed") {
      placed[vs].insert(se);
    } else if (kind == "vs_removed") {
      placed[vs].erase(se);
    } else if (kind == "vs_deleted") {
      placed.erase(vs);
      served_once.erase(vs);
      before.erase(vs);
    }
    for (const auto& [v, ses] : placed) {
      const bool now_served = served(v);
      if (now_served) served_once.insert(v);
      if (before.count(v) > 0 && !now_served) {
        unplaced.push_back({{"at_ms", at}, {"vs", v}, {"event", kind}});
      }
    }
    std::map<std::string, int> out_by_group;
    int out = 0;
    for (const auto& [s, o] : oper) {
      if (o == "OPER_CREATING") continue;
      if (o != "OPER_UP" || enabled[s] != "SE_STATE_ENABLED") {
        ++out;
        ++out_by_group[group_of[s]];
      }
    }
    if (out > max_out) max_out = out, max_out_at = at;
    for (const auto& [g, n] : out_by_group) {
      max_out_by_group[g] = std::max(max_out_by_group[g], n);
    }
  }
  json summary = {{"max_ses_out", max_out},
                  {"max_ses_out_by_group", max_out_by_group},
                  {"unplaced_instants", unplaced},
                  {"events", events_.size()},
                  {"dropped_events", dropped_events_}};
  if (max_out_at >= 0) summary["max_ses_out_at_ms"] = max_out_at;
  return {{"now_ms", now}, {"events", events_}, {"summary", summary}};
}

void SeLifecycle::ResetTimeline() {
  absl::MutexLock lock(&mu_);
  AdvanceLocked(clock_ms_());
  events_.clear();
  dropped_events_ = 0;
  // The current state as the first events, so summaries of the new timeline start from it.
  const int64_t now = clock_ms_();
  std::vector<const Se*> ordered;
  for (const auto& [uuid, se] : ses_) ordered.push_back(&se);
  std::sort(ordered.begin(), ordered.end(),
            [](const Se* a, const Se* b) { return a->order < b->order; });
  for (const Se* se : ordered) EmitSeLocked(*se, now, "se_state");
  for (const Vs& vs : vss_) {
    for (const std::string& s : vs.placed) {
      EmitLocked(now, {{"kind", "vs_placed"}, {"vs", vs.uuid}, {"se", s}, {"se_group", vs.group}});
    }
  }
}

}  // namespace nsxalb::emulator
