// terraform-provider-nsxalb: subcommands first (size, schema), otherwise serve the plugin.
#include <iostream>
#include <string>
#include <vector>

#include "plugin/cli/schema_command.h"
#include "plugin/cli/size_command.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "size") return nsxalb::cli::RunSizeCommand(args, std::cout, std::cerr);
  if (command == "schema") return nsxalb::cli::RunSchemaCommand(args, std::cout, std::cerr);
  std::cerr << "plugin host: being written (issue 2)\n";
  return 1;
}
