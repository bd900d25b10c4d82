// terraform-provider-nsxalb: subcommands and flags, then serve the plugin.
//
// Terraform starts the binary without arguments and with its plugin environment; the host
// (plugin/host/serve.h) does the rest. `--debug` serves for TF_REATTACH_PROVIDERS instead. The
// subcommands and --help are plugin/cli/commands.h.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugin/cli/commands.h"
#include "plugin/host/serve.h"
#include "plugin/host/terraform_command.h"
#include "plugin/provider/provider.h"
#include "plugin/wire/provider_service.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
  const std::string command = argc > 1 ? argv[1] : "";
  if (std::optional<int> rc = nsxalb::cli::RunCommand(command, args, std::cout, std::cerr)) {
    return *rc;
  }

  nsxalb::host::HostOptions options;
  if (command == "--debug") {
    options.debug = true;
  } else if (!command.empty()) {
    std::cerr << "terraform-provider-nsxalb: unknown command or flag \"" << command
              << "\"; commands: " << nsxalb::cli::CommandList()
              << "; flags: --debug, --version, --help\n"
                 "Run 'terraform-provider-nsxalb --help' for usage.\n";
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
