// The binary's subcommands by name, and its top-level help: what `terraform-provider-nsxalb
// COMMAND ...` runs when COMMAND is not a plugin flag. plugin/main.cc calls RunCommand first and
// serves the plugin only when it answers std::nullopt.
#ifndef NSXALB_PLUGIN_CLI_COMMANDS_H_
#define NSXALB_PLUGIN_CLI_COMMANDS_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs `command` (the first argument: "size", "plan-report", "estate-report", "docs", "schema",
// "controller", "version", "help", or the flags "--help", "-h", "--version") with `args`, the
// arguments after it, and returns its exit code. std::nullopt when `command` is none of these (no
// argument, a plugin flag such as --debug, or an unknown word): the caller decides.
std::optional<int> RunCommand(const std::string& command, const std::vector<std::string>& args,
                              std::ostream& out, std::ostream& err);

// The top-level usage: every command with a line on what it does, the plugin flags, and how to
// get a command's own help. `--help` prints it on stdout.
void PrintUsage(std::ostream& out);

// "size, plan-report, estate-report, docs, ...": the commands, for error messages.
std::string CommandList();

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMANDS_H_
