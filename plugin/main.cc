// terraform-provider-nsxalb: subcommands and flags, then serve the plugin.
//
// Terraform starts the binary without arguments and with its plugin environment; the host
// (plugin/host/serve.h) does the rest. `--debug` serves for TF_REATTACH_PROVIDERS instead.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "plugin/cli/controller_command.h"
#include "plugin/cli/docs_command.h"
#include "plugin/cli/plan_report_command.h"
#include "plugin/cli/schema_command.h"
#include "plugin/cli/size_command.h"
#include "plugin/common/build_info.h"
#include "plugin/host/serve.h"
#include "plugin/host/terraform_command.h"
#include "plugin/provider/provider.h"
#include "plugin/wire/provider_service.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "size") return nsxalb::cli::RunSizeCommand(args, std::cout, std::cerr);
  if (command == "schema") return nsxalb::cli::RunSchemaCommand(args, std::cout, std::cerr);
  if (command == "controller") return nsxalb::cli::RunControllerCommand(args, std::cout, std::cerr);
  if (command == "plan-report")
    return nsxalb::cli::RunPlanReportCommand(args, std::cout, std::cerr);
  if (command == "docs") return nsxalb::cli::RunDocsCommand(args, std::cout, std::cerr);
  if (command == "version" || command == "--version") {
    std::cout << "terraform-provider-nsxalb " << nsxalb::build_info::kVersion << " (commit "
              << nsxalb::build_info::kCommit << "; plugin protocol 5)\n";
    return 0;
  }

  nsxalb::host::HostOptions options;
  if (command == "--debug") {
    options.debug = true;
  } else if (!command.empty()) {
    std::cerr << "terraform-provider-nsxalb: unknown command or flag \"" << command
              << "\"; commands: size, plan-report, docs, schema, controller, version; flags: "
                 "--debug, --version\n";
    return 2;
  }
  // Read now, while the Terraform process that started this one surely runs.
  const bool destroy_run =
      nsxalb::host::LaunchingTerraformRun(getpid()) == nsxalb::host::TerraformRun::kDestroy;
  // Made after the handshake line, while Terraform sets up its side of the connection.
  return nsxalb::host::Serve(
      [destroy_run] {
        return std::shared_ptr<grpc::Service>(
            nsxalb::wire::NewProviderService(nsxalb::provider::NewProvider(destroy_run)));
      },
      options);
}
