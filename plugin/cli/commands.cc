// The subcommand table of the binary and its top-level help. Each command parses its own flags
// and prints its own --help; this file only routes by the first argument.
#include "plugin/cli/commands.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "plugin/cli/controller/controller_command.h"
#include "plugin/cli/docs/docs_command.h"
#include "plugin/cli/docs/schema_command.h"
#include "plugin/cli/estate/estate_report_command.h"
#include "plugin/cli/plan_report/plan_report_command.h"
#include "plugin/cli/size/size_command.h"
#include "plugin/common/build_info.h"

namespace nsxalb::cli {
namespace {

// The width of the name column in the top-level usage: the longest command name and two spaces.
constexpr size_t kNameColumn = 15;

using Runner =
    std::function<int(const std::vector<std::string>&, std::ostream& out, std::ostream& err)>;

constexpr char kVersionUsage[] = R"(Usage: terraform-provider-nsxalb version
       terraform-provider-nsxalb --version

Prints the provider's version, the commit it was built from and the plugin protocol.
)";

// Other arguments are ignored, as they always were.
int RunVersionCommand(const std::vector<std::string>& args, std::ostream& out,
                      std::ostream& /*err*/) {
  if (std::any_of(args.begin(), args.end(),
                  [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    out << kVersionUsage;
    return 0;
  }
  out << "terraform-provider-nsxalb " << build_info::kVersion << " (commit " << build_info::kCommit
      << "; plugin protocol 5)\n";
  return 0;
}

// One command: its name, the line the top-level help shows, and what runs it.
struct Command {
  const char* name;
  const char* summary;
  Runner run;
};

int RunHelpCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      {"size", "size SE groups for a workload, or check settings against it (no Controller)",
       RunSizeCommand},
      {"plan-report", "a Markdown sizing review of a Terraform plan (terraform show -json)",
       RunPlanReportCommand},
      {"estate-report",
       "the usage of every SE group (controller usage --all --json) as Markdown and SVG",
       RunEstateReportCommand},
      {"docs", "write the provider's Terraform Registry docs from the embedded schemas",
       RunDocsCommand},
      {"schema", "print the provider's schemas as `terraform providers schema -json` does",
       RunSchemaCommand},
      {"controller",
       "the NSX ALB Controller: check, list-se-groups, get-se-group, apply-se-group, usage",
       [](const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
         return RunControllerCommand(args, out, err);
       }},
      {"version", "print the version, the commit and the plugin protocol", RunVersionCommand},
      {"help", "print this help, or a command's (help COMMAND)", RunHelpCommand},
  };
  return kCommands;
}

const Command* Find(const std::string& name) {
  for (const Command& c : Commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

// `help` alone prints the top-level usage; `help COMMAND [ACTION]` prints that command's help.
int RunHelpCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    PrintUsage(out);
    return 0;
  }
  const Command* command = Find(args[0]);
  if (command == nullptr || command->name == std::string("help")) {
    err << "help: unknown command \"" << args[0] << "\"; commands: " << CommandList() << "\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  rest.push_back("--help");
  return command->run(rest, out, err);
}

}  // namespace

std::string CommandList() {
  std::vector<std::string> names;
  for (const Command& c : Commands()) names.push_back(c.name);
  return absl::StrJoin(names, ", ");
}

void PrintUsage(std::ostream& out) {
  out << "Usage: terraform-provider-nsxalb COMMAND [ARGS]\n"
         "       terraform-provider-nsxalb [--debug]\n"
         "\n"
         "The nsxalb Terraform provider (NSX Advanced Load Balancer Service Engine groups, sized\n"
         "from their workload). Terraform starts it with no arguments as a plugin; by itself it\n"
         "runs one of these commands:\n"
         "\n";
  for (const Command& c : Commands()) {
    out << "  " << c.name << std::string(kNameColumn - std::string(c.name).size(), ' ') << c.summary
        << "\n";
  }
  out << "\n"
         "Flags:\n"
         "  --debug        serve the plugin for TF_REATTACH_PROVIDERS (a debugger or a test)\n"
         "  --version      the same as version\n"
         "  --help, -h     print this help\n"
         "\n"
         "Run 'terraform-provider-nsxalb COMMAND --help' for a command's flags.\n";
}

std::optional<int> RunCommand(const std::string& command, const std::vector<std::string>& args,
                              std::ostream& out, std::ostream& err) {
  if (command == "--help" || command == "-h") return RunHelpCommand(args, out, err);
  if (command == "--version") return RunVersionCommand(args, out, err);
  const Command* c = Find(command);
  if (c == nullptr) return std::nullopt;
  return c->run(args, out, err);
}

}  // namespace nsxalb::cli
