// Implementation of rollout_command.h.
#include "plugin/cli/rollout_command.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/backoff.h"
#include "plugin/segroup/lifecycle/rollout.h"
#include "plugin/segroup/lifecycle/rollout_client.h"

namespace nsxalb::cli {
namespace {

namespace ctl = ::nsxalb::controller;
namespace lc = ::nsxalb::segroup::lifecycle;

constexpr char kWhat[] = "terraform-provider-nsxalb controller rollout";

int Fail(std::ostream& err, const absl::Status& status) {
  err << kWhat << ": " << status.message() << "\n";
  return 1;
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

}  // namespace

int RunRolloutCommand(const RolloutCommandOptions& options, ctl::Client& client,
                      const ctl::ClientConfig& config, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::optional<ctl::SeGroup>> found =
      client.FindSeGroup(options.group, "", options.cloud);
  if (!found.ok()) return Fail(err, found.status());
  if (!found->has_value()) {
    return Fail(err, absl::NotFoundError(absl::StrCat("no SE group named \"", options.group,
                                                      "\" in tenant \"", config.tenant, "\"")));
  }
  // The command knows no workload: the capacity guard checks the HA mode's minimum only.
  lc::CapacityFigures capacity;
  absl::StatusOr<lc::RolloutInput> input = lc::ReadRolloutInput(client, **found, "", capacity);
  if (!input.ok()) return Fail(err, input.status());
  lc::RolloutOptions roll;
  roll.max_unavailable = options.max_unavailable;
  roll.timeout_per_se = options.timeout;
  roll.poll_interval = options.poll_interval;
  roll.on_step = [&out](const std::string& line) { out << line << "\n" << std::flush; };
  out << "SE group \"" << input->group.name << "\": " << input->running << " running SE"
      << (input->running == 1 ? "" : "s") << ", " << input->lagging.size() << " behind its settings"
      << "\n";
  if (input->lagging.empty()) {
    out << "rollout: nothing to do\n";
    return 0;
  }
  out << lc::DescribeRollout(input->lagging, input->target, options.max_unavailable) << "\n";
  if (options.dry_run) {
    for (const lc::LaggingSe& lag : input->lagging) {
      out << "  " << PlannedSteps(lag, input->target) << "\n";
    }
    for (const std::string& line : lc::DescribeGuards(input->lagging, roll, input->guards)) {
      out << "  guard " << line << "\n";
    }
    absl::Status guards = lc::CheckGuards(input->lagging, roll, input->guards);
    if (!guards.ok()) return Fail(err, guards);
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
  lc::RolloutResult result = lc::RunRollout(input->lagging, input->target, roll, input->guards, ops,
                                            *ctl::RealClock(), nullptr);
  if (!result.status.ok()) return Fail(err, result.status);
  return 0;
}

}  // namespace nsxalb::cli
