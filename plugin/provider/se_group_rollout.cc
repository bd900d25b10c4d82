// The resource's rollout block.
#include "plugin/provider/se_group_rollout.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/log.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_running_ses.h"
#include "plugin/segroup/lifecycle/rollout.h"
#include "plugin/segroup/lifecycle/rollout_client.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::provider {
namespace {

namespace lc = segroup::lifecycle;
using framework::Diagnostics;

constexpr char kStrategyNone[] = "none";
constexpr char kStrategyRolling[] = "rolling";

cty::AttributePath RolloutPath(const char* attribute) {
  return cty::AttributePath().Attribute("rollout").Attribute(attribute);
}

cty::Value Strings(const std::vector<std::string>& items) {
  std::vector<cty::Value> values;
  values.reserve(items.size());
  for (const std::string& s : items) values.push_back(cty::Value::String(s));
  return cty::Value::List(cty::Type::String(), std::move(values));
}

// The last_rollout value.
cty::Value LastRollout(const std::string& result, const std::vector<std::string>& done,
                       const std::vector<std::string>& to_do, const std::string& message) {
  return cty::Value::Object({{"result", cty::Value::String(result)},
                             {"done", Strings(done)},
                             {"to_do", Strings(to_do)},
                             {"message", cty::Value::String(message)}},
                            LastRolloutObjectType());
}

// The prior state's last_rollout, or null.
cty::Value PriorLastRollout(const cty::Value& prior) {
  if (prior.IsNull() || !prior.IsKnown()) return cty::Value::Null(LastRolloutObjectType());
  const cty::Value* v = prior.GetAttribute("last_rollout");
  return v != nullptr && v->IsKnown() ? *v : cty::Value::Null(LastRolloutObjectType());
}

// The shape a replacement gets: the planned vcpus_per_se and memory_per_se (0 when unknown).
lc::TargetShape TargetOf(const cty::Value& planned) {
  lc::TargetShape target;
  const framework::Attr<cty::Number> vcpus = framework::NumberAttr(planned, "vcpus_per_se");
  const framework::Attr<cty::Number> memory = framework::NumberAttr(planned, "memory_per_se");
  if (vcpus.value().has_value()) target.num_vcpus = static_cast<int>(vcpus.value()->AsDouble());
  if (memory.value().has_value()) {
    target.memory_mb = static_cast<int64_t>(memory.value()->AsDouble());
  }
  return target;
}

// The names of `ses`.
std::vector<std::string> NamesOf(const std::vector<lc::LaggingSe>& ses) {
  std::vector<std::string> names;
  names.reserve(ses.size());
  for (const lc::LaggingSe& lag : ses) names.push_back(lag.se.name);
  return names;
}

// What the error of a roll that did not complete adds to the engine's message.
constexpr char kResume[] =
    "The state records the SEs still to do (service_engines.lagging and last_rollout.to_do); "
    "the next terraform apply resumes the roll from them.";

}  // namespace

cty::Type LastRolloutObjectType() {
  return cty::Type::Object({{"result", cty::Type::String()},
                            {"done", cty::Type::List(cty::Type::String())},
                            {"to_do", cty::Type::List(cty::Type::String())},
                            {"message", cty::Type::String()}});
}

std::optional<RolloutSettings> ReadRolloutSettings(const cty::Value& config,
                                                   Diagnostics* diagnostics) {
  RolloutSettings out;
  const cty::Value* block =
      config.IsKnown() && !config.IsNull() ? config.GetAttribute("rollout") : nullptr;
  if (block == nullptr) return out;
  if (!block->IsKnown()) return std::nullopt;
  if (block->IsNull()) return out;
  bool ok = true;
  const framework::Attr<std::string> strategy = framework::StringAttr(*block, "strategy");
  const framework::Attr<cty::Number> max_unavailable =
      framework::NumberAttr(*block, "max_unavailable");
  const framework::Attr<std::string> timeout = framework::StringAttr(*block, "timeout");
  if (strategy.IsUnknown() || max_unavailable.IsUnknown() || timeout.IsUnknown()) {
    return std::nullopt;
  }
  if (strategy.value().has_value()) {
    if (*strategy.value() == kStrategyRolling) {
      out.rolling = true;
    } else if (*strategy.value() != kStrategyNone) {
      ok = false;
      if (diagnostics != nullptr) {
        diagnostics->AddAttributeError(
            RolloutPath("strategy"), "Invalid rollout strategy",
            absl::StrCat("strategy is \"", *strategy.value(), "\"; it must be \"", kStrategyNone,
                         "\" (apply writes the group only) or \"", kStrategyRolling,
                         "\" (apply also replaces or reboots the SEs that lag, one batch at a "
                         "time)."));
      }
    }
  }
  if (max_unavailable.value().has_value()) {
    absl::StatusOr<int64_t> n = max_unavailable.value()->AsInt64();
    if (!n.ok() || *n < 1 || *n > 64) {
      ok = false;
      if (diagnostics != nullptr) {
        diagnostics->AddAttributeError(
            RolloutPath("max_unavailable"), "Invalid rollout max_unavailable",
            absl::StrCat("max_unavailable is ", max_unavailable.value()->ToString(),
                         "; it must be a whole number of SEs from 1 to 64 (the guards then check "
                         "that the SEs left carry the workload)."));
      }
    } else {
      out.max_unavailable = static_cast<int>(*n);
    }
  }
  if (timeout.value().has_value()) {
    absl::Duration d;
    if (!absl::ParseDuration(*timeout.value(), &d) || d < absl::Seconds(1) || d > absl::Hours(24)) {
      ok = false;
      if (diagnostics != nullptr) {
        diagnostics->AddAttributeError(
            RolloutPath("timeout"), "Invalid rollout timeout",
            absl::StrCat("timeout is \"", *timeout.value(),
                         "\"; it must be a duration from 1s to 24h, such as \"90s\", \"30m\" or "
                         "\"1h30m\"."));
      }
    } else {
      out.timeout = d;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

cty::Value PlanRollout(const cty::Value& config, const cty::Value& prior, cty::Value planned,
                       const std::optional<lc::GroupSes>& ses, Diagnostics& diagnostics) {
  const std::optional<RolloutSettings> settings = ReadRolloutSettings(config, nullptr);
  const cty::Value* service_engines = planned.GetAttribute("service_engines");
  const bool may_roll = !settings.has_value() || settings->rolling;
  if (!may_roll || prior.IsNull()) {
    // No roll: last_rollout stays what it was (null for a new group, which runs no SE yet).
    return std::move(planned).WithAttribute("last_rollout", PriorLastRollout(prior));
  }
  if (settings.has_value() && ses.has_value() && ses->AnyLag()) {
    const std::vector<lc::LaggingSe> order = lc::RollOrder(ses->lagging);
    diagnostics.AddAttributeWarning(
        RolloutPath("strategy"),
        absl::StrCat("Apply will roll ", order.size(), order.size() == 1 ? " SE" : " SEs"),
        absl::StrCat(lc::DescribeRollout(order, TargetOf(planned), settings->max_unavailable),
                     ". Before the first SE is touched, apply checks that the SEs left carry the "
                     "workload, that the licence covers a replacement, and that the cloud can "
                     "create SEs; Ctrl-C stops after the current step with no SE left disabled "
                     "(rule ",
                     sizing::rules::kRolloutPlanned, ")."));
    planned = std::move(planned).WithAttribute("service_engines",
                                               cty::Value::Unknown(ServiceEnginesObjectType()));
    return std::move(planned).WithAttribute("last_rollout",
                                            cty::Value::Unknown(LastRolloutObjectType()));
  }
  // Apply rolls whatever lags once it has written the group: last_rollout is then unknown too.
  const bool apply_reads_ses = service_engines != nullptr && !service_engines->IsKnown();
  return std::move(planned).WithAttribute(
      "last_rollout",
      apply_reads_ses ? cty::Value::Unknown(LastRolloutObjectType()) : PriorLastRollout(prior));
}

cty::Value RollServiceEngines(NsxalbProvider& provider, controller::Client& client,
                              const RolloutApply& apply, cty::Value new_state,
                              Diagnostics& diagnostics) {
  const cty::Value prior_last = PriorLastRollout(*apply.prior);
  const std::optional<RolloutSettings> settings = ReadRolloutSettings(*apply.config, &diagnostics);
  if (!settings.has_value() || !settings->rolling || apply.prior->IsNull()) {
    return std::move(new_state).WithAttribute("last_rollout", prior_last);
  }
  const std::string tenant = framework::StringAttr(new_state, "tenant").value_or("");
  const std::string group_name = apply.group.name;
  const std::string action = absl::StrCat("rolling the SEs of SE group \"", group_name, "\"");

  std::shared_ptr<const ProviderConfig> config = provider.config();
  lc::RestoreClientFactory restore =
      [config]() -> absl::StatusOr<std::unique_ptr<controller::Client>> {
    if (config == nullptr) return absl::FailedPreconditionError("the provider is not configured");
    controller::ClientConfig c = config->client;
    c.total_timeout = std::min(c.total_timeout, lc::kRestoreTimeout);
    return controller::NewClient(c);
  };
  // service_engines as the roll left them, read with the provider's client, or after a stop
  // (which cancelled that client) with a short-lived one of its own.
  auto finish = [&](cty::Value state) {
    if (!provider.stop_requested().HasBeenNotified()) {
      return WithRunningSesAfterRoll(client, *apply.prior, state, diagnostics);
    }
    absl::StatusOr<std::unique_ptr<controller::Client>> fresh = restore();
    if (!fresh.ok()) {
      return std::move(state).WithAttribute("service_engines",
                                            cty::Value::Null(ServiceEnginesObjectType()));
    }
    return WithRunningSesAfterRoll(**fresh, *apply.prior, state, diagnostics);
  };

  lc::CapacityFigures capacity;  // without a workload: the HA mode's minimum only
  absl::StatusOr<lc::RolloutInput> input =
      lc::ReadRolloutInput(client, apply.group, tenant, capacity);
  if (!input.ok()) {
    diagnostics.AddError(
        "SE rollout failed",
        absl::StrCat("While ", action, ", the group's SEs could not be read; no SE was touched. ",
                     kResume, "\n\nOriginal Error: ", input.status().message()));
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout("failed", {}, {}, std::string(input.status().message())));
    return finish(std::move(new_state));
  }
  if (input->lagging.empty()) {
    log::Info(absl::StrCat("nsxalb: SE group \"", group_name,
                           "\": every running SE has its "
                           "settings; nothing to roll"));
    new_state = std::move(new_state).WithAttribute("last_rollout", prior_last);
    return finish(std::move(new_state));
  }

  lc::RolloutOptions options;
  options.max_unavailable = settings->max_unavailable;
  options.timeout_per_se = settings->timeout;
  const std::vector<std::string> all = NamesOf(input->lagging);
  if (absl::Status guards = lc::CheckGuards(input->lagging, options, input->guards); !guards.ok()) {
    diagnostics.AddAttributeError(
        RolloutPath("strategy"), "SE rollout refused",
        absl::StrCat(
            "While ", action, ", a guard refused before any SE was touched: ", guards.message(),
            "\n\nThe group's settings are written; its SEs keep their shape until the "
            "cause is fixed and terraform apply runs again (or set strategy = \"none\")."));
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout("refused", {}, all, std::string(guards.message())));
    return finish(std::move(new_state));
  }

  lc::ClientRolloutOperations ops(client, apply.group.uuid, tenant, restore);
  lc::RolloutResult result =
      lc::RunRollout(input->lagging, input->target, options, input->guards, ops,
                     *controller::RealClock(), &provider.stop_requested());
  if (result.status.ok()) {
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout("complete", result.done, {},
                                    absl::StrCat("rollout: done, ", result.done.size(),
                                                 result.done.size() == 1 ? " SE" : " SEs",
                                                 " at the group's settings (",
                                                 absl::StrJoin(result.done, ", "), ")")));
  } else {
    const bool stopped = result.status.code() == absl::StatusCode::kCancelled ||
                         result.status.code() == absl::StatusCode::kDeadlineExceeded;
    diagnostics.AddError(
        stopped ? "SE rollout stopped" : "SE rollout failed",
        absl::StrCat("While ", action, ": ", result.status.message(), "\n\n", kResume));
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout(stopped ? "stopped" : "failed", result.done, result.to_do,
                                    std::string(result.status.message())));
  }
  return finish(std::move(new_state));
}

}  // namespace nsxalb::provider
