// The resource's rollout block.
#include "plugin/provider/se_group_rollout.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_running_ses.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/provider/usage_attributes.h"
#include "plugin/segroup/lifecycle/rollout.h"
#include "plugin/segroup/lifecycle/rollout_capacity.h"
#include "plugin/segroup/lifecycle/rollout_client.h"
#include "plugin/segroup/usage/current_load.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::provider {
namespace {

namespace lc = segroup::lifecycle;
using framework::Diagnostics;

constexpr char kStrategyNone[] = "none";
constexpr char kStrategyRolling[] = "rolling";

cty::AttributePath RolloutPath(const char* attribute) {
  return cty::AttributePath::Of("rollout").Attribute(attribute);
}

// The last_rollout value.
cty::Value LastRollout(const std::string& result, const std::vector<std::string>& done,
                       const std::vector<std::string>& to_do, const std::string& message,
                       int replacements_kept = 0) {
  return cty::Value::Object({{"result", cty::Value::String(result)},
                             {"done", cty::Value::StringList(done)},
                             {"to_do", cty::Value::StringList(to_do)},
                             {"message", cty::Value::String(message)},
                             {"replacements_kept", cty::Value::Int(replacements_kept)}},
                            LastRolloutObjectType());
}

// A whole-number attribute of a known object, or 0.
int IntOf(const cty::Value& object, const char* name) {
  if (!object.IsKnown() || object.IsNull()) return 0;
  const framework::Attr<cty::Number> n = framework::NumberAttr(object, name);
  return n.value().has_value() ? static_cast<int>(n.value()->AsDouble()) : 0;
}

// The replacements an earlier roll left (its last_rollout's replacements_kept, when it did not
// complete), at most as many as the group runs SEs that do not lag.
int SpareReplacements(const cty::Value& prior_last, const lc::RolloutInput& input) {
  if (prior_last.IsNull() || !prior_last.IsKnown()) return 0;
  const std::string result = framework::StringAttr(prior_last, "result").value_or("");
  if (result != "stopped" && result != "failed") return 0;
  const int not_lagging = input.running - static_cast<int>(input.lagging.size());
  return std::clamp(IntOf(prior_last, "replacements_kept"), 0, std::max(0, not_lagging));
}

// The prior state's last_rollout, or null.
cty::Value PriorLastRollout(const cty::Value& prior) {
  if (prior.IsNull() || !prior.IsKnown()) return cty::Value::Null(LastRolloutObjectType());
  const cty::Value* v = prior.GetAttribute("last_rollout");
  return v != nullptr && v->IsKnown() ? *v : cty::Value::Null(LastRolloutObjectType());
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

// The private data's key that carries the plan's roll decision (its fingerprint) to apply.
constexpr char kRollPrivateKey[] = "rollout_decision";

// Adds the decision's fingerprint to the plan's private data (a JSON object; other keys kept).
void SetRollPrivate(std::string* planned_private, const std::string& fingerprint) {
  if (planned_private == nullptr) return;
  nlohmann::json data = nlohmann::json::parse(*planned_private, nullptr, false);
  if (!data.is_object()) data = nlohmann::json::object();
  data[kRollPrivateKey] = fingerprint;
  *planned_private = data.dump();
}

// The plan's roll decision from its private data; "" when it made none.
std::string PlannedRoll(const std::string& planned_private) {
  const nlohmann::json data = nlohmann::json::parse(planned_private, nullptr, false);
  if (!data.is_object()) return "";
  auto it = data.find(kRollPrivateKey);
  return it != data.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string WithoutRollDecision(const std::string& private_data) {
  nlohmann::json data = nlohmann::json::parse(private_data, nullptr, false);
  if (!data.is_object() || !data.contains(kRollPrivateKey)) return private_data;
  data.erase(kRollPrivateKey);
  return data.empty() ? std::string() : data.dump();
}

cty::Type LastRolloutObjectType() {
  return cty::Type::Object({{"result", cty::Type::String()},
                            {"done", cty::Type::List(cty::Type::String())},
                            {"to_do", cty::Type::List(cty::Type::String())},
                            {"message", cty::Type::String()},
                            {"replacements_kept", cty::Type::Number()}});
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

absl::StatusOr<RollDecisionRead> DecideRoll(NsxalbProvider& provider, controller::Client& client,
                                            const RollContext& context) {
  const cty::Value& config = *context.config;
  const std::string tenant = framework::StringAttr(*context.prior, "tenant").value_or("");
  NSXALB_ASSIGN_OR_RETURN(lc::RolloutInput read,
                          lc::ReadRolloutInput(client, context.group, tenant, {}));
  if (context.ses.has_value()) {
    // The plan's match knows the reboot fields this plan changes, which the Controller cannot
    // report yet.
    read.ses = *context.ses;
    read.lagging = lc::RollOrder(context.ses->lagging);
    read.running = static_cast<int>(context.ses->running.size());
  }
  const int max_unavailable = context.settings.max_unavailable;
  // The declared workload on the SEs left (rule rollout-capacity-with-ses-out): the capacity
  // guard's figure when the Controller has no samples of the load.
  lc::CapacityFigures declared;
  if (context.plan != nullptr && context.plan->workload.has_value() &&
      context.plan->planned_shape.has_value()) {
    declared =
        lc::CapacityWithSesOut(*context.plan->workload, *context.plan->planned_shape, read.ses,
                               max_unavailable, context.plan->workload->target_utilization_pct);
  }
  // The load the SEs carry now: observed_load's window and statistic when the block is set.
  framework::Diagnostics query_errors;
  std::optional<segroup::UsageQuery> observed;
  const cty::Value* block = config.GetAttribute("observed_load");
  if (block != nullptr && block->IsKnown() && !block->IsNull()) {
    observed = UsageQueryOf(*block, cty::AttributePath::Of("observed_load"), query_errors);
  }
  const segroup::UsageQuery query = segroup::RollLoadQuery(
      observed.has_value() && !query_errors.HasError() ? &*observed : nullptr);
  // One metrics request for the tenant's SEs, shared by every group this process plans.
  lc::CurrentLoad load;
  absl::StatusOr<std::shared_ptr<const lc::SharedSeListing::Listing>> listing =
      provider.se_listing().Get(client, tenant);
  if (!listing.ok()) {
    if (listing.status().code() == absl::StatusCode::kCancelled) return listing.status();
    load.missing_reason = absl::StrCat("the SE listing failed: ", listing.status().message());
  } else {
    absl::StatusOr<std::shared_ptr<const segroup::SesLoadNow>> tenant_load =
        provider.current_load().Get(client, tenant, **listing, query, absl::Now());
    if (!tenant_load.ok()) return tenant_load.status();  // Cancelled only: a failure is a reason
    load = segroup::CurrentLoadOf(**tenant_load, read.ses.running);
  }
  RollDecisionRead out;
  out.input = lc::RollInputOf(read, std::move(load), declared, max_unavailable,
                              SpareReplacements(PriorLastRollout(*context.prior), read));
  out.decision = lc::DecideRoll(out.input);
  return out;
}

cty::Value PlanRollout(NsxalbProvider& provider, controller::Client* client,
                       const RollContext& context, cty::Value planned, segroup::SizingPolicy policy,
                       std::string_view enforce_waived, std::string* planned_private,
                       Diagnostics& diagnostics) {
  const cty::Value& config = *context.config;
  const cty::Value& prior = *context.prior;
  if (planned_private != nullptr) *planned_private = WithoutRollDecision(*planned_private);
  const std::optional<RolloutSettings> settings = ReadRolloutSettings(config, nullptr);
  const cty::Value* service_engines = planned.GetAttribute("service_engines");
  const bool may_roll = !settings.has_value() || settings->rolling;
  if (!may_roll || prior.IsNull()) {
    // No roll: last_rollout stays what it was (null for a new group, which runs no SE yet).
    return std::move(planned).WithAttribute("last_rollout", PriorLastRollout(prior));
  }
  if (settings.has_value() && context.ses.has_value() && context.ses->AnyLag() &&
      client != nullptr) {
    RollContext with_settings = context;
    with_settings.settings = *settings;
    absl::StatusOr<RollDecisionRead> read = absl::UnknownError("not read");
    // The group as apply will leave it: the Controller's, with the planned typed fields over it.
    absl::StatusOr<controller::SeGroup> group =
        client->GetSeGroup(framework::StringAttr(prior, "id").value_or(""),
                           framework::StringAttr(prior, "tenant").value_or(""));
    if (group.ok()) {
      const nlohmann::json fields = TypedFieldsToSend(planned);
      for (auto it = fields.begin(); it != fields.end(); ++it) group->body[it.key()] = it.value();
      with_settings.group = *std::move(group);
      read = DecideRoll(provider, *client, with_settings);
    } else {
      read = group.status();
    }
    std::string fingerprint;
    if (!read.ok()) {
      diagnostics.AddAttributeWarning(
          RolloutPath("strategy"), "Rollout not decided",
          absl::StrCat("The roll's decision could not be made, so apply will roll no SE (it "
                       "writes the group's settings only); plan again once the Controller "
                       "answers.\n\nOriginal Error: ",
                       read.status().message()));
      fingerprint = "unread";
    } else {
      const lc::RollDecision& decision = read->decision;
      fingerprint = lc::DecisionFingerprint(decision);
      const std::string detail = absl::StrJoin(lc::DescribeDecision(decision, read->input), "\n");
      if (decision.verdict == lc::RollVerdict::kRoll) {
        diagnostics.AddAttributeWarning(
            RolloutPath("strategy"), lc::DecisionSummary(decision),
            absl::StrCat(detail,
                         "\n\nApply writes the group, reads the same figures again and rolls "
                         "only if the decision is still this one; Ctrl-C stops after the "
                         "current step with no SE left disabled (rules ",
                         sizing::rules::kRolloutPlanned, ", ", sizing::rules::kRollDecidedInPlan,
                         ")."));
        SetRollPrivate(planned_private, fingerprint);
        planned = std::move(planned).WithAttribute("service_engines",
                                                   cty::Value::Unknown(ServiceEnginesObjectType()));
        return std::move(planned).WithAttribute("last_rollout",
                                                cty::Value::Unknown(LastRolloutObjectType()));
      }
      const bool under_enforce = policy == segroup::SizingPolicy::kEnforce;
      const bool enforced = under_enforce && enforce_waived.empty();
      std::string text = absl::StrCat(
          detail,
          "\n\nApply writes the group's settings only and touches no SE; the SEs keep their "
          "shape, and each plan shows the roll again once the cause is gone (rule ",
          sizing::rules::kRollDecidedInPlan, ").");
      if (enforced) {
        absl::StrAppend(&text,
                        "\n\nsizing_policy = \"enforce\" makes a refused roll an error in a "
                        "plan that creates or changes the group; sizing_policy = \"warn\" makes "
                        "it a warning.");
      } else if (under_enforce) {
        absl::StrAppend(&text, "\n\n",
                        absl::string_view(enforce_waived.data(), enforce_waived.size()));
      }
      if (enforced) {
        diagnostics.AddAttributeError(RolloutPath("strategy"), lc::DecisionSummary(decision), text);
      } else {
        diagnostics.AddAttributeWarning(RolloutPath("strategy"), lc::DecisionSummary(decision),
                                        text);
      }
    }
    SetRollPrivate(planned_private, fingerprint);
  }
  // Apply rolls nothing: last_rollout is unknown only when apply reads the SEs again.
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
  const std::string planned = PlannedRoll(apply.planned_private);
  if (!settings.has_value() || !settings->rolling || apply.prior->IsNull() ||
      planned.rfind("roll:", 0) != 0) {
    // The plan decided no roll (strategy "none", nothing lagging, or a refusal it showed).
    return WithRunningSesAfterApply(provider, client, *apply.prior,
                                    std::move(new_state).WithAttribute("last_rollout", prior_last),
                                    diagnostics);
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

  // The decision again, on fresh reads, before the first SE write.
  RollContext context;
  context.config = apply.config;
  context.prior = apply.prior;
  context.plan = apply.plan;
  context.group = apply.group;
  context.settings = *settings;
  absl::StatusOr<RollDecisionRead> read = DecideRoll(provider, client, context);
  if (!read.ok()) {
    diagnostics.AddError("SE rollout failed",
                         absl::StrCat("While ", action,
                                      ", the figures of the roll's decision could not be read "
                                      "again; no SE was touched. ",
                                      kResume, "\n\nOriginal Error: ", read.status().message()));
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout("failed", {}, {}, std::string(read.status().message())));
    return finish(std::move(new_state));
  }
  const lc::RollDecision& decision = read->decision;
  if (decision.verdict == lc::RollVerdict::kNothing) {
    // Every SE has the settings now (rolled or replaced since the plan): nothing to do.
    log::Info(absl::StrCat("nsxalb: SE group \"", group_name,
                           "\": every running SE has its settings; nothing to roll"));
    return finish(std::move(new_state).WithAttribute("last_rollout", prior_last));
  }
  const std::vector<std::string> all = NamesOf(decision.order);
  const std::string now = lc::DecisionFingerprint(decision);
  if (now != planned) {
    const std::string why =
        decision.verdict == lc::RollVerdict::kRefused
            ? decision.refusal
            : absl::StrCat("the plan decided \"", planned, "\", apply now finds \"", now, "\"");
    diagnostics.AddAttributeError(
        RolloutPath("strategy"), "SE rollout not started: the decision changed since the plan",
        absl::StrCat("While ", action,
                     ", the roll's decision made again on fresh reads is not the plan's, so no "
                     "SE was touched: ",
                     why,
                     "\n\nThe group's settings are written. Run terraform plan again to review "
                     "the roll as it stands now."));
    new_state =
        std::move(new_state).WithAttribute("last_rollout", LastRollout("refused", {}, all, why));
    return finish(std::move(new_state));
  }
  for (const std::string& line : lc::DescribeDecision(decision, read->input)) {
    log::Info(absl::StrCat("rollout decision: ", line));
  }
  lc::RolloutOptions options;
  options.max_unavailable = settings->max_unavailable;
  options.timeout_per_se = settings->timeout;
  options.spare_replacements = read->input.spare_replacements;
  lc::ClientRolloutOperations ops(client, apply.group.uuid, tenant, restore);
  lc::RolloutResult result = lc::RunRollout(decision.order, read->input.target, options, ops,
                                            *controller::RealClock(), &provider.stop_requested());
  if (result.status.ok()) {
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout("complete", result.done, {},
                                    absl::StrCat("rollout: done, ", result.done.size(),
                                                 result.done.size() == 1 ? " SE" : " SEs",
                                                 " at the group's settings (",
                                                 absl::StrJoin(result.done, ", "), ")")));
    return finish(std::move(new_state));
  }
  const bool stopped = result.status.code() == absl::StatusCode::kCancelled ||
                       result.status.code() == absl::StatusCode::kDeadlineExceeded;
  diagnostics.AddError(
      stopped ? "SE rollout stopped" : "SE rollout failed",
      absl::StrCat("While ", action, ": ", result.status.message(), "\n\n", kResume));
  new_state = std::move(new_state).WithAttribute(
      "last_rollout", LastRollout(stopped ? "stopped" : "failed", result.done, result.to_do,
                                  std::string(result.status.message())));
  // The SEs that match now beyond those that matched before (less the spares this roll was
  // given) and the replacements of the SEs done: replacements made for an SE the roll enabled
  // again, which the next roll counts as already made.
  new_state = finish(std::move(new_state));
  const cty::Value* ses = new_state.GetAttribute("service_engines");
  if (ses != nullptr && ses->IsKnown() && !ses->IsNull()) {
    const int running = static_cast<int>(read->input.ses.running.size());
    const int matching_before =
        running - static_cast<int>(decision.order.size()) - options.spare_replacements;
    const int kept =
        IntOf(*ses, "matching") - matching_before - static_cast<int>(result.done.size());
    new_state = std::move(new_state).WithAttribute(
        "last_rollout", LastRollout(stopped ? "stopped" : "failed", result.done, result.to_do,
                                    std::string(result.status.message()), std::max(0, kept)));
  }
  return new_state;
}

}  // namespace nsxalb::provider
