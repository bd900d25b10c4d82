// Which Terraform command started this plugin (terraform_command.h).
#include "plugin/host/terraform_command.h"

#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace nsxalb::host {
namespace {

// A /proc file's bytes, or nullopt.
std::optional<std::string> ReadProcFile(pid_t pid, const char* name) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/", name), std::ios::binary);
  if (!in) return std::nullopt;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return data;
}

// NUL-separated strings.
std::vector<std::string> SplitNul(const std::string& data) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(data, '\0')) out.emplace_back(part);
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

Environment ParseEnviron(const std::string& data) {
  Environment env;
  for (const std::string& entry : SplitNul(data)) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

// The parent pid in /proc/PID/stat (the field after the command name's closing parenthesis).
std::optional<pid_t> ParentOf(pid_t pid) {
  std::optional<std::string> stat = ReadProcFile(pid, "stat");
  if (!stat.has_value()) return std::nullopt;
  const size_t close = stat->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::vector<std::string> fields = absl::StrSplit(stat->substr(close + 1), ' ', absl::SkipEmpty());
  int parent = 0;
  if (fields.size() < 2 || !absl::SimpleAtoi(fields[1], &parent) || parent <= 0) {
    return std::nullopt;
  }
  return static_cast<pid_t>(parent);
}

// Arguments of an environment variable, split on blanks (Terraform uses shell words; the flags
// that matter here hold no quotes).
std::vector<std::string> EnvArgs(const Environment& env, const std::string& name) {
  auto it = env.find(name);
  if (it == env.end()) return {};
  return absl::StrSplit(it->second, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
}

// Go's strconv.ParseBool, as the flag package reads -destroy=VALUE.
std::optional<bool> ParseGoBool(absl::string_view v) {
  if (v == "1" || v == "t" || v == "T" || v == "true" || v == "TRUE" || v == "True") return true;
  if (v == "0" || v == "f" || v == "F" || v == "false" || v == "FALSE" || v == "False") {
    return false;
  }
  return std::nullopt;
}

}  // namespace

TerraformRun ClassifyTerraformCommand(const std::vector<std::string>& argv,
                                      const Environment& env) {
  if (argv.empty()) return TerraformRun::kUnknown;
  size_t at = 1;
  while (at < argv.size() && !argv[at].empty() && argv[at][0] == '-') ++at;
  if (at >= argv.size()) return TerraformRun::kOther;
  const std::string& command = argv[at];
  if (command == "destroy") return TerraformRun::kDestroy;
  if (command != "plan" && command != "apply") return TerraformRun::kOther;
  std::vector<std::string> args = EnvArgs(env, absl::StrCat("TF_CLI_ARGS_", command));
  for (std::string& a : EnvArgs(env, "TF_CLI_ARGS")) args.push_back(std::move(a));
  for (size_t i = at + 1; i < argv.size(); ++i) args.push_back(argv[i]);
  bool destroy = false;
  for (const std::string& arg : args) {
    if (arg == "--") break;
    absl::string_view flag = arg;
    if (!absl::ConsumePrefix(&flag, "--")) absl::ConsumePrefix(&flag, "-");
    if (flag == "destroy") {
      destroy = true;
    } else if (absl::ConsumePrefix(&flag, "destroy=")) {
      destroy = ParseGoBool(flag).value_or(destroy);
    }
  }
  return destroy ? TerraformRun::kDestroy : TerraformRun::kOther;
}

TerraformRun LaunchingTerraformRun(pid_t pid) {
  std::optional<pid_t> current = ParentOf(pid);
  for (int depth = 0; depth < 8 && current.has_value() && *current > 1; ++depth) {
    std::optional<std::string> environ = ReadProcFile(*current, "environ");
    if (!environ.has_value()) return TerraformRun::kUnknown;
    Environment env = ParseEnviron(*environ);
    if (env.count(kMagicCookieKey) == 0) {
      std::optional<std::string> cmdline = ReadProcFile(*current, "cmdline");
      if (!cmdline.has_value()) return TerraformRun::kUnknown;
      return ClassifyTerraformCommand(SplitNul(*cmdline), env);
    }
    current = ParentOf(*current);
  }
  return TerraformRun::kUnknown;
}

}  // namespace nsxalb::host
