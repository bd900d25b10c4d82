// ClassifyTerraformCommand: which Terraform command lines are a destroy run.
#include "plugin/host/terraform_command.h"

#include <unistd.h>

#include "gtest/gtest.h"

namespace nsxalb::host {
namespace {

TerraformRun Classify(std::vector<std::string> argv, Environment env = {}) {
  return ClassifyTerraformCommand(argv, env);
}

TEST(TerraformCommandTest, TheThreeDestroyCommands) {
  EXPECT_EQ(Classify({"terraform", "destroy", "-auto-approve"}), TerraformRun::kDestroy);
  EXPECT_EQ(Classify({"terraform", "apply", "-destroy", "-auto-approve"}), TerraformRun::kDestroy);
  EXPECT_EQ(Classify({"/usr/local/bin/terraform", "plan", "--destroy"}), TerraformRun::kDestroy);
  EXPECT_EQ(Classify({"tofu", "plan", "-destroy=true", "-out", "p"}), TerraformRun::kDestroy);
  EXPECT_EQ(Classify({"terraform", "-chdir=infra", "destroy"}), TerraformRun::kDestroy);
}

TEST(TerraformCommandTest, OtherCommands) {
  EXPECT_EQ(Classify({"terraform", "plan"}), TerraformRun::kOther);
  EXPECT_EQ(Classify({"terraform", "apply", "-auto-approve", "-var", "mode=destroy"}),
            TerraformRun::kOther);
  EXPECT_EQ(Classify({"terraform", "apply", "-destroy", "-destroy=false"}), TerraformRun::kOther);
  EXPECT_EQ(Classify({"terraform", "import", "a.b", "destroy"}), TerraformRun::kOther);
  EXPECT_EQ(Classify({"terraform", "apply", "--", "-destroy"}), TerraformRun::kOther);
  EXPECT_EQ(Classify({"terraform", "-version"}), TerraformRun::kOther);
  EXPECT_EQ(Classify({}), TerraformRun::kUnknown);
}

TEST(TerraformCommandTest, FlagsFromTheEnvironmentGoBeforeTheCommandLines) {
  EXPECT_EQ(Classify({"terraform", "plan"}, {{"TF_CLI_ARGS_plan", "-no-color -destroy"}}),
            TerraformRun::kDestroy);
  EXPECT_EQ(Classify({"terraform", "apply"}, {{"TF_CLI_ARGS", "-destroy"}}),
            TerraformRun::kDestroy);
  // The command line comes last, so its -destroy=false wins.
  EXPECT_EQ(Classify({"terraform", "apply", "-destroy=false"}, {{"TF_CLI_ARGS", "-destroy"}}),
            TerraformRun::kOther);
  // Another command's variable does not apply.
  EXPECT_EQ(Classify({"terraform", "plan"}, {{"TF_CLI_ARGS_apply", "-destroy"}}),
            TerraformRun::kOther);
}

TEST(TerraformCommandTest, ATestProcessIsNotLaunchedByADestroy) {
  // The test runner is no Terraform destroy, whatever /proc says about it.
  EXPECT_NE(LaunchingTerraformRun(getpid()), TerraformRun::kDestroy);
}

}  // namespace
}  // namespace nsxalb::host
