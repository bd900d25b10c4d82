// Which Terraform command started this plugin, read from the process that launched it.
//
// A provider is never told that a plan belongs to a destroy: Terraform 1.x begins `terraform
// destroy`, `terraform apply -destroy` and `terraform plan -destroy` with a plan in normal mode
// (PreDestroyRefresh), whose PlanResourceChange requests equal a normal plan's, and discards its
// changes. The command line of the Terraform process is the one signal that tells them apart
// (docs/design/se-group-resource.md, "The enforce gate never blocks a destroy"). Terraform (and
// OpenTofu) start providers as their own children with TF_PLUGIN_MAGIC_COOKIE in the child's
// environment; the nearest ancestor without it is the CLI.
#ifndef NSXALB_PLUGIN_HOST_TERRAFORM_COMMAND_H_
#define NSXALB_PLUGIN_HOST_TERRAFORM_COMMAND_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "plugin/host/env.h"

namespace nsxalb::host {

// What the launching command is known to do.
enum class TerraformRun {
  kUnknown,  // no Terraform process found (debug mode, a test harness, not Linux)
  kDestroy,  // destroy, apply -destroy, plan -destroy
  kOther,    // any other command
};

// Classifies a Terraform command line (argv, argv[0] included) with the CLI's environment: the
// subcommand is the first argument not starting with '-' (after global options such as
// -chdir=DIR); TF_CLI_ARGS_<subcommand> and TF_CLI_ARGS are inserted after it, as Terraform does,
// and the last -destroy flag (-destroy, --destroy, -destroy=BOOL) wins. An empty argv is kUnknown.
TerraformRun ClassifyTerraformCommand(const std::vector<std::string>& argv, const Environment& env);

// The run of the Terraform process that launched the process `pid`: its ancestors are walked
// (at most 8) while their environment holds TF_PLUGIN_MAGIC_COOKIE (a wrapper that Terraform
// started); the first one without it is classified. kUnknown when /proc cannot tell.
TerraformRun LaunchingTerraformRun(pid_t pid);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_TERRAFORM_COMMAND_H_
