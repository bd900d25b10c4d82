// `terraform-provider-nsxalb controller ...`: the Controller client on the command line, so that a
// user can check a connection (address, credentials, TLS, tenant, API version) before running
// `terraform plan`, and look at the SE groups the provider would see; and `apply-se-group`, the
// desired-state command the Ansible collection (ansible/ansible_collections/nsxalb/alb) calls,
// over the same SE-group operations as the resource (plugin/segroup/desired_state.h).
//
// Settings come from the provider block's environment variables (NSXALB_CONTROLLER,
// NSXALB_USERNAME, NSXALB_PASSWORD, NSXALB_AUTH_TOKEN, NSXALB_TENANT, NSXALB_API_VERSION,
// NSXALB_CA_FILE, NSXALB_CA_PEM, NSXALB_INSECURE); flags override them. Secrets are read only
// from the environment, never from flags, so they stay out of shell history.
#ifndef NSXALB_PLUGIN_CLI_CONTROLLER_CONTROLLER_COMMAND_H_
#define NSXALB_PLUGIN_CLI_CONTROLLER_CONTROLLER_COMMAND_H_

#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Looks up an environment variable; std::nullopt when it is not set.
using ControllerEnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Runs the `controller` subcommand with the process environment. `args` are the arguments after
// "controller" (an action, then flags). Writes results to `out` and errors to `err`. Returns the
// process exit code: 0 ok, 1 the Controller call failed (the client's message, never a secret),
// 2 usage error or invalid setting.
int RunControllerCommand(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err);

// The same with the environment supplied by `env` (tests pass their own) and no standard input.
int RunControllerCommand(const std::vector<std::string>& args, const ControllerEnvLookup& env,
                         std::ostream& out, std::ostream& err);

// The same with standard input from `in` (apply-se-group reads the desired state there).
int RunControllerCommand(const std::vector<std::string>& args, const ControllerEnvLookup& env,
                         std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_CONTROLLER_CONTROLLER_COMMAND_H_
