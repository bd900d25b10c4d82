// `terraform-provider-nsxalb controller rollout GROUP`: the roll of a group's Service Engines to
// its settings (plugin/segroup/lifecycle/rollout.h) from the command line: one line per step (on
// a terminal, a progress line too), and with --dry-run the steps and the guards' figures without
// a write. With --workload, the capacity guard checks that workload on the SEs left with
// --max-unavailable out (rollout_capacity.h). SIGINT or SIGTERM stops the roll after its current
// step, gives back an SE it disabled, and lists the SEs done and to do.
#ifndef NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_COMMAND_H_
#define NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/config.h"

namespace nsxalb::cli {

// The rollout action's flags.
struct RolloutCommandOptions {
  std::string group;  // the SE group's name
  std::string cloud;  // --cloud: the group's cloud when its name is not unique
  bool dry_run = false;
  int max_unavailable = 1;
  absl::Duration timeout = absl::Minutes(30);       // per SE
  absl::Duration poll_interval = absl::Seconds(5);  // between two reads while waiting
  // --workload, by key as the resource's workload block (ParseWorkloadFlag), or null: without
  // one the capacity guard checks the HA mode's minimum only.
  nlohmann::json workload = nullptr;
  // A progress line on `out` (stdout is a terminal).
  bool progress = false;
  // Catch SIGINT and SIGTERM during the roll (the process's own run, not an in-process test).
  bool stop_on_signals = false;
};

// Reads --workload's value "KEY=VALUE[,KEY=VALUE...]": each KEY a key of the resource's workload
// block (ssl_tps_ecc, ssl_tps_rsa, l7_rps, l4_cps, l4_open_conns, l4_gbps, l7_gbps, l7_ssl_gbps,
// target_utilization, max_vcpus_per_se, virtual_services; Gbps for throughput), at most once, each
// VALUE a number 0 or more (a whole number stays one). InvalidArgument naming the key or value.
absl::StatusOr<nlohmann::json> ParseWorkloadFlag(const std::string& text);

// Runs the roll of `options.group` with `client` (made from `config`; Restore makes a second
// client from it). Steps go to `out`, errors to `err`. Returns 0 when every SE is done (or none
// lags, or the dry run's guards pass), 1 when a guard refuses, the Controller fails or the roll
// stops, 2 when the workload is not one the model takes, and 128 + the signal's number (130 for
// SIGINT, 143 for SIGTERM) when a signal stopped the roll.
int RunRolloutCommand(const RolloutCommandOptions& options, controller::Client& client,
                      const controller::ClientConfig& config, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_COMMAND_H_
