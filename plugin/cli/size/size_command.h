// `terraform-provider-nsxalb size ...`: the sizing model on the command line, with no plugin
// environment and no Controller. Prints a report (or JSON with --json) for a workload or settings.
#ifndef NSXALB_PLUGIN_CLI_SIZE_SIZE_COMMAND_H_
#define NSXALB_PLUGIN_CLI_SIZE_SIZE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs the `size` subcommand. `args` are the arguments after "size". Writes the report to `out`
// and usage errors to `err`. Returns the process exit code (0 ok, 1 under-sized with --strict,
// 2 usage error).
int RunSizeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_SIZE_SIZE_COMMAND_H_
