// Implementation of rollout.h.
#include "plugin/segroup/lifecycle/rollout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "plugin/common/log.h"
#include "plugin/sizing/format.h"

namespace nsxalb::segroup::lifecycle {
namespace {

constexpr char kOperUp[] = "OPER_UP";
constexpr char kOperDisabled[] = "OPER_DISABLED";
constexpr char kMigrateFailed[] = "MIGRATE_SE_FAILED";

// "checkout-se-1, -2 and -3": names after the first shortened to the suffix they do not share
// with it, when they share a prefix ending in '-'.
std::string NameList(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::vector<std::string> shown = {names.front()};
  const std::string& first = names.front();
  const size_t dash = first.rfind('-');
  const std::string prefix = dash == std::string::npos ? "" : first.substr(0, dash);
  for (size_t i = 1; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (!prefix.empty() && n.size() > prefix.size() + 1 &&
        n.compare(0, prefix.size(), prefix) == 0 && n[prefix.size()] == '-') {
      shown.push_back(n.substr(prefix.size()));
    } else {
      shown.push_back(n);
    }
  }
  if (shown.size() == 1) return shown.front();
  std::string last = shown.back();
  shown.pop_back();
  return absl::StrCat(absl::StrJoin(shown, ", "), " and ", last);
}

std::string AtATime(int max_unavailable) {
  return max_unavailable <= 1 ? "one at a time" : absl::StrCat(max_unavailable, " at a time");
}

// "8192 MB": an SE's memory as the roll's steps print it.
std::string StepMemoryText(int64_t mb) { return absl::StrFormat("%d MB", mb); }

// What the roll knows of one SE of the batch: how far it got.
enum class Stage { kPending, kDisabled, kMigrated, kRebooted, kDone };

struct Item {
  LaggingSe lag;
  Stage stage = Stage::kPending;
};

// The roll of one call of RunRollout.
class Roll {
 public:
  Roll(const TargetShape& target, const RolloutOptions& options, RolloutOperations& ops,
       controller::Clock& clock, absl::Notification* stop)
      : target_(target),
        options_(options),
        ops_(ops),
        clock_(clock),
        stop_(stop != nullptr ? stop : &never_),
        spare_(std::max(0, options.spare_replacements)) {}

  RolloutResult Run(const std::vector<LaggingSe>& order) {
    RolloutResult result;
    for (const LaggingSe& se : order) result.to_do.push_back(se.se.name);
    auto listed = ops_.ListGroup();
    if (!listed.ok()) {
      result.status = Failed(result, "", "listing the group's SEs", listed.status(), {});
      return result;
    }
    for (const ObservedSe& se : *listed) seen_.insert(se.uuid);
    Step(absl::StrCat("rollout: ", order.size(), " SE", order.size() == 1 ? "" : "s", " to roll, ",
                      AtATime(options_.max_unavailable)));
    for (size_t start = 0; start < order.size();
         start += static_cast<size_t>(options_.max_unavailable)) {
      std::vector<Item> batch;
      for (size_t i = start;
           i < order.size() && i < start + static_cast<size_t>(options_.max_unavailable); ++i) {
        batch.push_back(Item{order[i]});
      }
      if (Stopped()) {
        result.status = Failed(result, batch.front().lag.se.name, "before its first step",
                               absl::CancelledError("the roll was interrupted"), batch);
        return result;
      }
      absl::Status status = RunBatch(batch);
      if (!status.ok()) {
        result.status = Failed(result, current_name_, current_step_, status, batch);
        return result;
      }
      for (const Item& item : batch) {
        result.done.push_back(item.lag.se.name);
        result.to_do.erase(std::find(result.to_do.begin(), result.to_do.end(), item.lag.se.name));
      }
    }
    Step(absl::StrCat("rollout: done, ",
                      sizing::FormatCount(static_cast<int>(result.done.size()), "SE", "SEs"),
                      " at the group's settings"));
    return result;
  }

 private:
  bool Stopped() const { return stop_->HasBeenNotified(); }

  // Logs one step at INFO and gives it to on_step.
  void Step(const std::string& line) {
    log::Info(line);
    if (options_.on_step) options_.on_step(line);
  }

  void At(const LaggingSe& se, std::string step) {
    current_name_ = se.se.name;
    current_step_ = std::move(step);
  }

  // The steps of one batch, each phase for every SE of the batch before the next phase.
  absl::Status RunBatch(std::vector<Item>& batch) {
    const absl::Time deadline = clock_.Now() + options_.timeout_per_se;
    for (Item& item : batch) {
      At(item.lag, "disabling it");
      if (absl::Status s = ops_.Disable(item.lag.se.uuid); !s.ok()) return s;
      item.stage = Stage::kDisabled;
      auto observed = ops_.Observe(item.lag.se.uuid);
      const int hosted = observed.ok() ? observed->virtual_services : 0;
      Step(absl::StrCat(item.lag.se.name, ": disabled, ",
                        sizing::FormatCount(hosted, "virtual service", "virtual services"),
                        " migrating"));
      if (Stopped()) return absl::CancelledError("the roll was interrupted");
    }
    for (Item& item : batch) {
      At(item.lag, "waiting for its virtual services to migrate");
      absl::Status s = WaitFor(deadline, [&]() -> absl::StatusOr<bool> {
        auto se = ops_.Observe(item.lag.se.uuid);
        if (!se.ok()) return se.status();
        if (se->migration_failed) {
          return absl::AbortedError(absl::StrCat(
              "the Controller reports ", kMigrateFailed,
              se->migrate_state.empty() ? "" : absl::StrCat(" (", se->migrate_state, ")"),
              "; its virtual services stay on it"));
        }
        return se->oper_state == kOperDisabled && se->virtual_services == 0;
      });
      if (!s.ok()) return s;
      item.stage = Stage::kMigrated;
      Step(absl::StrCat(item.lag.se.name, ": ", kOperDisabled, ", no virtual service left"));
      if (Stopped()) return absl::CancelledError("the roll was interrupted");
    }
    int replaced = 0;
    for (const Item& item : batch) {
      if (item.lag.why == controller::TakesEffect::kNewSesOnly) ++replaced;
    }
    if (replaced > 0) {
      // Make before break: the Controller placed the migrating virtual services on new SEs at
      // the group's current settings when the others had no room; those replacements must be
      // up before an old SE is deleted. When it found room on the others and created none,
      // deleting would shrink the group: the roll gives the SE back and stops instead.
      for (const Item& item : batch) {
        if (item.lag.why == controller::TakesEffect::kNewSesOnly) {
          At(item.lag, "waiting for its replacement to come up");
          break;
        }
      }
      std::vector<ObservedSe> fresh;
      int created = 0;
      int from_spares = 0;  // replacements an earlier roll already made, used by this batch
      absl::Status s = WaitFor(deadline, [&]() -> absl::StatusOr<bool> {
        auto listed = ops_.ListGroup();
        if (!listed.ok()) return listed.status();
        fresh.clear();
        created = 0;
        for (const ObservedSe& se : *listed) {
          if (seen_.count(se.uuid) > 0) continue;
          ++created;
          if (se.oper_state != kOperUp) continue;
          if (se.num_vcpus != target_.num_vcpus || se.memory_mb != target_.memory_mb) continue;
          fresh.push_back(se);
        }
        from_spares = std::max(0, replaced - created);
        if (from_spares > spare_) {
          return absl::FailedPreconditionError(absl::StrCat(
              "the Controller moved its virtual services to the group's other SEs and created ",
              created == 0 ? "no new SE" : absl::StrCat("only ", created, " new SE(s)"),
              ", so deleting it would leave the group with fewer SEs. An SE is replaced only "
              "when the Controller creates its replacement, which it does when the other SEs "
              "have no room (max_vs_per_se); lower max_vs_per_se, raise min_scaleout_per_vs, or "
              "replace the SE by hand"));
        }
        return static_cast<int>(fresh.size()) >= replaced - from_spares;
      });
      if (!s.ok()) return s;
      if (from_spares > 0) {
        spare_ -= from_spares;
        Step(absl::StrCat(sizing::FormatCount(from_spares, "replacement", "replacements"),
                          " an earlier roll made already up at ", target_.num_vcpus, " vCPUs and ",
                          StepMemoryText(target_.memory_mb)));
      }
      for (const ObservedSe& se : fresh) {
        seen_.insert(se.uuid);
        Step(absl::StrCat(se.name, ": up at ", se.num_vcpus, " vCPUs and ",
                          StepMemoryText(se.memory_mb), " (the replacement)"));
      }
      if (Stopped()) return absl::CancelledError("the roll was interrupted");
    }
    for (Item& item : batch) {
      if (item.lag.why == controller::TakesEffect::kNewSesOnly) {
        At(item.lag, "deleting it");
        if (absl::Status s = ops_.Delete(item.lag.se.uuid); !s.ok()) return s;
        item.stage = Stage::kDone;
        Step(absl::StrCat(item.lag.se.name, ": deleted"));
      } else {
        At(item.lag, "rebooting it");
        if (absl::Status s = ops_.Reboot(item.lag.se.uuid); !s.ok()) return s;
        item.stage = Stage::kRebooted;
        Step(absl::StrCat(item.lag.se.name, ": rebooting"));
      }
      if (Stopped()) return absl::CancelledError("the roll was interrupted");
    }
    for (Item& item : batch) {
      if (item.stage != Stage::kRebooted) continue;
      At(item.lag, "waiting for it to come back from its reboot");
      absl::Status s = WaitFor(deadline, [&]() -> absl::StatusOr<bool> {
        auto se = ops_.Observe(item.lag.se.uuid);
        if (!se.ok()) return se.status();
        return !se->reboot_pending &&
               (se->oper_state == kOperDisabled || se->oper_state == kOperUp);
      });
      if (!s.ok()) return s;
      At(item.lag, "enabling it again");
      if (absl::Status e = ops_.Enable(item.lag.se.uuid); !e.ok()) return e;
      s = WaitFor(deadline, [&]() -> absl::StatusOr<bool> {
        auto se = ops_.Observe(item.lag.se.uuid);
        if (!se.ok()) return se.status();
        return se->oper_state == kOperUp;
      });
      item.stage = Stage::kDone;  // enabled: nothing to give back, even if the wait failed
      if (!s.ok()) return s;
      Step(absl::StrCat(item.lag.se.name, ": up with the group's settings, enabled"));
    }
    return absl::OkStatus();
  }

  // Polls `ready` until it says true, by `deadline` and until a stop; its error ends the wait.
  template <typename Ready>
  absl::Status WaitFor(absl::Time deadline, Ready ready) {
    absl::Duration interval = std::min(options_.first_poll_interval, options_.poll_interval);
    while (true) {
      absl::StatusOr<bool> r = ready();
      if (!r.ok()) return r.status();
      if (*r) return absl::OkStatus();
      if (clock_.Now() >= deadline) {
        return absl::DeadlineExceededError(absl::StrCat(
            "the per-SE timeout (", absl::FormatDuration(options_.timeout_per_se), ") ran out"));
      }
      const absl::Duration sleep = std::min(interval, deadline - clock_.Now());
      if (!clock_.SleepFor(sleep, *stop_)) return absl::CancelledError("the roll was interrupted");
      interval = std::min(interval * 2, options_.poll_interval);
    }
  }

  // The roll's error: what stopped it where, what was given back, and the SEs done and to do.
  absl::Status Failed(const RolloutResult& result, const std::string& se, const std::string& step,
                      const absl::Status& cause, const std::vector<Item>& batch) {
    std::vector<std::string> notes;
    for (const Item& item : batch) {
      if (item.stage == Stage::kDisabled || item.stage == Stage::kMigrated ||
          item.stage == Stage::kRebooted) {
        absl::Status restored = ops_.Restore(item.lag.se.uuid);
        if (restored.ok()) {
          Step(absl::StrCat(item.lag.se.name, ": enabled again"));
          notes.push_back(absl::StrCat(item.lag.se.name, " was enabled again"));
        } else {
          log::Error(
              absl::StrCat(item.lag.se.name, ": could not be enabled again: ", restored.message()));
          notes.push_back(absl::StrCat(item.lag.se.name,
                                       " is still disabled: set its enable_state to "
                                       "SE_STATE_ENABLED by hand (",
                                       restored.message(), ")"));
        }
      }
    }
    const bool interrupted = cause.code() == absl::StatusCode::kCancelled;
    std::string message = absl::StrCat("rollout ", interrupted ? "interrupted" : "stopped",
                                       se.empty() ? std::string() : absl::StrCat(" at ", se),
                                       step.empty() ? "" : " (", step, step.empty() ? "" : ")",
                                       ": ", cause.message(), ". ");
    for (const std::string& note : notes) absl::StrAppend(&message, note, ". ");
    absl::StrAppend(&message,
                    "Done: ", result.done.empty() ? "none" : absl::StrJoin(result.done, ", "),
                    ". To do: ", absl::StrJoin(result.to_do, ", "), ".");
    if (!interrupted) {
      absl::StrAppend(&message,
                      " The roll does not go on to the next SE; fix the cause and apply again.");
    } else {
      absl::StrAppend(&message, " The next apply goes on with the SEs to do.");
    }
    log::Info(message);  // the caller reports the error itself
    return absl::Status(cause.code(), message);
  }

  const TargetShape target_;
  const RolloutOptions options_;
  RolloutOperations& ops_;
  controller::Clock& clock_;
  absl::Notification never_;
  absl::Notification* stop_;
  int spare_;                   // replacements an earlier roll made, not yet used
  std::set<std::string> seen_;  // SEs that are not a new replacement
  std::string current_name_;
  std::string current_step_;
};

}  // namespace

std::vector<LaggingSe> RollOrder(std::vector<LaggingSe> ses) {
  std::sort(ses.begin(), ses.end(), [](const LaggingSe& a, const LaggingSe& b) {
    return a.se.name != b.se.name ? a.se.name < b.se.name : a.se.uuid < b.se.uuid;
  });
  return ses;
}

std::string DescribeRollout(const std::vector<LaggingSe>& ses, const TargetShape& target,
                            int max_unavailable) {
  if (ses.empty()) return "";
  std::vector<LaggingSe> order = RollOrder(ses);
  std::vector<std::string> replaced;
  std::vector<std::string> rebooted;
  std::set<int> vcpus;
  std::set<int64_t> memory;
  for (const LaggingSe& se : order) {
    if (se.why == controller::TakesEffect::kNewSesOnly) {
      replaced.push_back(se.se.name);
      vcpus.insert(se.se.vcpus);
      memory.insert(se.se.memory_mb);
    } else {
      rebooted.push_back(se.se.name);
    }
  }
  std::vector<std::string> parts;
  if (!replaced.empty()) {
    std::string part = absl::StrCat(NameList(replaced), " will be replaced");
    std::vector<std::string> shape;
    if (vcpus.size() == 1 && *vcpus.begin() != target.num_vcpus) {
      shape.push_back(absl::StrCat(*vcpus.begin(), " vCPUs -> ", target.num_vcpus));
    }
    if (memory.size() == 1 && *memory.begin() != target.memory_mb) {
      shape.push_back(absl::StrFormat("%d MB -> %d", *memory.begin(), target.memory_mb));
    }
    if (vcpus.size() > 1 || memory.size() > 1) {
      shape.push_back(
          absl::StrCat("-> ", target.num_vcpus, " vCPUs and ", StepMemoryText(target.memory_mb)));
    }
    parts.push_back(shape.empty() ? part
                                  : absl::StrCat(part, " (", absl::StrJoin(shape, ", "), ")"));
  }
  if (!rebooted.empty()) {
    std::set<std::string> fields;
    for (const LaggingSe& se : order) {
      if (se.why == controller::TakesEffect::kAfterSeReboot)
        fields.insert(se.fields.begin(), se.fields.end());
    }
    std::string part = absl::StrCat(NameList(rebooted), " will be rebooted");
    if (!fields.empty()) absl::StrAppend(&part, " (", absl::StrJoin(fields, ", "), ")");
    parts.push_back(part);
  }
  return absl::StrCat("rollout: ", absl::StrJoin(parts, "; "), ", ", AtATime(max_unavailable));
}

absl::Status CheckRolloutOptions(const RolloutOptions& options) {
  if (options.max_unavailable < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("rollout: max_unavailable must be 1 or more, not ", options.max_unavailable));
  }
  if (options.timeout_per_se <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("rollout: timeout must be longer than 0s");
  }
  return absl::OkStatus();
}

RolloutResult RunRollout(std::vector<LaggingSe> ses, const TargetShape& target,
                         const RolloutOptions& options, RolloutOperations& ops,
                         controller::Clock& clock, absl::Notification* stop) {
  std::vector<LaggingSe> order = RollOrder(std::move(ses));
  if (absl::Status checked = CheckRolloutOptions(options); !checked.ok()) {
    RolloutResult result;
    for (const LaggingSe& se : order) result.to_do.push_back(se.se.name);
    result.status = checked;
    return result;
  }
  if (order.empty()) return RolloutResult{};
  Roll roll(target, options, ops, clock, stop);
  return roll.Run(order);
}

}  // namespace nsxalb::segroup::lifecycle
