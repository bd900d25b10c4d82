// Implementation of rollout_command.h.
#include "plugin/cli/rollout/rollout_command.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "plugin/cli/rollout/rollout_console.h"
#include "plugin/cli/rollout/stop_signals.h"
#include "plugin/controller/backoff.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/lifecycle/rollout.h"
#include "plugin/segroup/lifecycle/rollout_capacity.h"
#include "plugin/segroup/lifecycle/rollout_client.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/current_load.h"

namespace nsxalb::cli {
namespace {

namespace ctl = ::nsxalb::controller;
namespace lc = ::nsxalb::segroup::lifecycle;

constexpr char kWhat[] = "terraform-provider-nsxalb controller rollout";

int Fail(std::ostream& err, const absl::Status& status, int code = 1) {
  err << kWhat << ": " << status.message() << "\n";
  return code;
}

// The settings of the group the model reads for the capacity guard: its sizing and licence
// settings as the Controller holds them (the HA mode, max_cpu_usage, the shape), null ones left
// out.
nlohmann::json SizingSettingsOf(const nlohmann::json& body) {
  nlohmann::json settings = nlohmann::json::object();
  for (const auto* names : {&segroup::SizingAttributeNames(), &segroup::LicenceAttributeNames()}) {
    for (const std::string& name : *names) {
      auto it = body.find(name);
      if (it != body.end() && !it->is_null()) settings[name] = *it;
    }
  }
  return settings;
}

// The capacity guard's figures for `workload` on the group's SEs with `max_unavailable` out, the
// model planning the group's settings on its cloud's platform. InvalidArgument (exit 2) when the
// model cannot take the workload, naming the key.
absl::StatusOr<lc::CapacityFigures> CapacityOf(ctl::Client& client, const lc::RolloutInput& input,
                                               const nlohmann::json& workload,
                                               int max_unavailable) {
  absl::StatusOr<ctl::CloudInfo> cloud = client.ResolveCloud(input.group.cloud_ref);
  if (!cloud.ok()) return cloud.status();
  absl::StatusOr<sizing::Platform> platform = segroup::PlatformOfCloud(*cloud);
  if (!platform.ok()) return platform.status();
  segroup::SizingInput sizing_input;
  sizing_input.settings = SizingSettingsOf(input.group.body);
  sizing_input.workload = workload;
  const segroup::SizingPlan plan = segroup::PlanSizing(sizing_input, *platform);
  std::vector<std::string> errors;
  for (const segroup::InputError& e : plan.input_errors) {
    errors.push_back(absl::StrCat("[", e.attribute, "] ", e.summary, ": ", e.detail));
  }
  for (const segroup::Finding& f : plan.findings) {
    if (f.finding.severity == sizing::Severity::kError) errors.push_back(segroup::FindingText(f));
  }
  if (!errors.empty() || !plan.workload.has_value() || !plan.planned_shape.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--workload: the model cannot take it with the group's settings",
                     errors.empty() ? "" : absl::StrCat(": ", absl::StrJoin(errors, "; "))));
  }
  return lc::CapacityWithSesOut(*plan.workload, *plan.planned_shape, input.ses, max_unavailable,
                                plan.workload->target_utilization_pct);
}

// The dry run's line for one SE: what the roll would do to it.
std::string PlannedSteps(const lc::LaggingSe& lag, const lc::TargetShape& target) {
  if (lag.why == ctl::TakesEffect::kNewSesOnly) {
    return absl::StrCat(lag.se.name, " (", lag.se.vcpus, " vCPUs, ", lag.se.memory_mb, " MB; ",
                        absl::StrJoin(lag.fields, ", "),
                        "): disable, wait until its virtual services migrated and the "
                        "Controller's replacement at ",
                        target.num_vcpus, " vCPUs and ", target.memory_mb, " MB is up, delete");
  }
  return absl::StrCat(lag.se.name, " (reboot pending",
                      lag.fields.empty() ? "" : absl::StrCat(": ", absl::StrJoin(lag.fields, ", ")),
                      "): disable, wait until its virtual services migrated, reboot, wait until "
                      "it is up without a reboot pending, enable");
}

std::string SignalName(int signal_number) {
  return signal_number == SIGINT ? "SIGINT" : signal_number == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace

absl::StatusOr<nlohmann::json> ParseWorkloadFlag(const std::string& text) {
  nlohmann::json workload = nlohmann::json::object();
  if (text.empty()) {
    return absl::InvalidArgumentError("--workload: want KEY=VALUE[,KEY=VALUE...], not \"\"");
  }
  for (absl::string_view pair : absl::StrSplit(text, ',')) {
    const size_t eq = pair.find('=');
    if (eq == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("--workload: want KEY=VALUE, not \"", pair, "\""));
    }
    const std::string key(pair.substr(0, eq));
    const absl::string_view value = pair.substr(eq + 1);
    if (!segroup::IsWorkloadAttribute(key)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--workload: unknown key \"", key,
          "\" (want ssl_tps_ecc, ssl_tps_rsa, l7_rps, l4_cps, l4_open_conns, l4_gbps, l7_gbps, "
          "l7_ssl_gbps, target_utilization, max_vcpus_per_se or virtual_services)"));
    }
    if (workload.contains(key)) {
      return absl::InvalidArgumentError(absl::StrCat("--workload: ", key, " given more than once"));
    }
    double number = 0;
    if (!absl::SimpleAtod(value, &number) || !std::isfinite(number) || number < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--workload: ", key, " wants a number 0 or more, not \"", value, "\""));
    }
    int64_t whole = 0;
    if (absl::SimpleAtoi(value, &whole)) {
      workload[key] = whole;
    } else {
      workload[key] = number;
    }
  }
  return workload;
}

int RunRolloutCommand(const RolloutCommandOptions& options, ctl::Client& client,
                      const ctl::ClientConfig& config, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::optional<ctl::SeGroup>> found =
      client.FindSeGroup(options.group, "", options.cloud);
  if (!found.ok()) return Fail(err, found.status());
  if (!found->has_value()) {
    return Fail(err, absl::NotFoundError(absl::StrCat("no SE group named \"", options.group,
                                                      "\" in tenant \"", config.tenant, "\"")));
  }
  absl::StatusOr<lc::RolloutInput> input =
      lc::ReadRolloutInput(client, **found, "", lc::CapacityFigures{});
  if (!input.ok()) return Fail(err, input.status());
  // The declared workload on the SEs left: the capacity guard's figure when the Controller has
  // no samples of the SEs' load.
  lc::CapacityFigures declared;
  if (!options.workload.is_null()) {
    absl::StatusOr<lc::CapacityFigures> capacity =
        CapacityOf(client, *input, options.workload, options.max_unavailable);
    if (!capacity.ok()) {
      return Fail(err, capacity.status(),
                  capacity.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1);
    }
    declared = *capacity;
  }
  // The load the SEs carry now (the last hour's highest sample of each SE's CPU and memory): one
  // metrics request for the group's SEs.
  absl::StatusOr<std::vector<ctl::ServiceEngine>> ses =
      client.ListServiceEngines(input->group.uuid, "");
  if (!ses.ok()) return Fail(err, ses.status());
  absl::StatusOr<segroup::SesLoadNow> load =
      segroup::ReadSesLoadNow(client, "", *ses, segroup::RollLoadQuery(nullptr), absl::Now());
  if (!load.ok()) return Fail(err, load.status());
  const lc::RollInput roll_input =
      lc::RollInputOf(*input, segroup::CurrentLoadOf(*load, input->ses.running), declared,
                      options.max_unavailable, 0);
  const lc::RollDecision decision = lc::DecideRoll(roll_input);
  lc::RolloutOptions roll;
  roll.max_unavailable = options.max_unavailable;
  roll.timeout_per_se = options.timeout;
  roll.poll_interval = options.poll_interval;
  if (absl::Status checked = lc::CheckRolloutOptions(roll); !checked.ok()) {
    return Fail(err, checked, 2);
  }
  out << "SE group \"" << input->group.name << "\": " << input->running << " running SE"
      << (input->running == 1 ? "" : "s") << ", " << input->lagging.size() << " behind its settings"
      << "\n";
  if (decision.verdict == lc::RollVerdict::kNothing) {
    out << "rollout: nothing to do\n";
    return 0;
  }
  out << lc::DecisionSummary(decision) << "\n";
  for (const std::string& line : lc::DescribeDecision(decision, roll_input)) {
    out << "  " << line << "\n";
  }
  if (decision.verdict == lc::RollVerdict::kRefused) {
    return Fail(err, absl::FailedPreconditionError(decision.refusal));
  }
  if (options.dry_run) {
    for (const lc::LaggingSe& lag : decision.order) {
      out << "  " << PlannedSteps(lag, input->target) << "\n";
    }
    out << "dry run: guards pass; nothing was written\n";
    return 0;
  }
  // Restore's own client: a new session with a short total_timeout, so that an SE the roll
  // disabled is given back even when this client's calls fail or are cancelled.
  lc::RestoreClientFactory restore = [config]() -> absl::StatusOr<std::unique_ptr<ctl::Client>> {
    ctl::ClientConfig c = config;
    c.total_timeout = std::min(c.total_timeout, lc::kRestoreTimeout);
    return ctl::NewClient(c);
  };
  lc::ClientRolloutOperations ops(client, input->group.uuid, "", restore);
  std::vector<std::string> names;
  for (const lc::LaggingSe& lag : input->lagging) names.push_back(lag.se.name);
  RolloutConsole console(out, err, options.progress, names);
  roll.on_step = [&console](const std::string& line) { console.Step(line); };
  // SIGINT or SIGTERM: stop after the current step. The roll then enables again an SE it
  // disabled (Restore, on its own client) and returns the SEs done and to do; a second signal is
  // ignored, so that nothing cuts that short.
  std::unique_ptr<StopSignals> signals;
  if (options.stop_on_signals) {
    absl::StatusOr<std::unique_ptr<StopSignals>> installed =
        StopSignals::Install([&console](int signal_number, int count) {
          if (count == 1) {
            console.Error(absl::StrCat(
                kWhat, ": ", SignalName(signal_number),
                ": stopping after the current step; an SE the roll disabled is enabled again "
                "before it exits (another signal is ignored)"));
          } else {
            console.Error(absl::StrCat(kWhat, ": ", SignalName(signal_number),
                                       " ignored: already stopping, the current step and the "
                                       "SE's restore run to their end"));
          }
        });
    if (!installed.ok()) return Fail(err, installed.status());
    signals = *std::move(installed);
  }
  lc::RolloutResult result =
      lc::RunRollout(decision.order, input->target, roll, ops, *ctl::RealClock(),
                     signals != nullptr ? &signals->stop() : nullptr);
  const int stopped_by = signals != nullptr ? signals->first_signal() : 0;
  if (result.status.ok()) return 0;
  console.Error(absl::StrCat(kWhat, ": ", result.status.message()));
  if (stopped_by != 0 && result.status.code() == absl::StatusCode::kCancelled) {
    return 128 + stopped_by;
  }
  return 1;
}

}  // namespace nsxalb::cli
