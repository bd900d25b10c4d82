// `terraform-provider-nsxalb controller rollout GROUP`: the roll of a group's Service Engines to
// its settings (plugin/segroup/lifecycle/rollout.h) from the command line: one line per step, and
// with --dry-run the steps and the guards' figures without a write.
#ifndef NSXALB_PLUGIN_CLI_ROLLOUT_COMMAND_H_
#define NSXALB_PLUGIN_CLI_ROLLOUT_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/time/time.h"
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
};

// Runs the roll of `options.group` with `client` (made from `config`; Restore makes a second
// client from it). Steps go to `out`, errors to `err`. Returns 0 when every SE is done (or none
// lags, or the dry run's guards pass), 1 when a guard refuses, the Controller fails or the roll
// stops.
int RunRolloutCommand(const RolloutCommandOptions& options, controller::Client& client,
                      const controller::ClientConfig& config, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ROLLOUT_COMMAND_H_
