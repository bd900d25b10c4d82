// Environment parsing for the plugin host (see env.h).
#include "plugin/host/env.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

extern char** environ;

namespace nsxalb::host {
namespace {

std::string Lookup(const Environment& env, const std::string& key) {
  auto it = env.find(key);
  return it == env.end() ? std::string() : it->second;
}

}  // namespace

Environment ProcessEnvironment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string item(*entry);
    const size_t eq = item.find('=');
    if (eq == std::string::npos) continue;
    env.emplace(item.substr(0, eq), item.substr(eq + 1));
  }
  return env;
}

bool HasMagicCookie(const Environment& env) {
  return Lookup(env, kMagicCookieKey) == kMagicCookieValue;
}

std::string SocketParentDir(const Environment& env) {
  for (const char* key : {"PLUGIN_UNIX_SOCKET_DIR", "TMPDIR"}) {
    std::string dir = Lookup(env, key);
    if (!dir.empty()) return dir;
  }
  return "/tmp";
}

absl::StatusOr<HostConfig> ParseHostEnvironment(const Environment& env) {
  if (!HasMagicCookie(env)) {
    return absl::FailedPreconditionError(kNotAPluginMessage);
  }

  HostConfig config;
  const std::string offered = Lookup(env, "PLUGIN_PROTOCOL_VERSIONS");
  if (!absl::StripAsciiWhitespace(offered).empty()) {
    bool found = false;
    std::vector<std::string> valid;
    for (absl::string_view part : absl::StrSplit(offered, ',')) {
      int version = 0;
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &version)) continue;
      valid.push_back(absl::StrCat(version));
      if (version == kProtocolVersion) found = true;
    }
    if (!found) {
      return absl::FailedPreconditionError(absl::StrCat(
          "PLUGIN_PROTOCOL_VERSIONS=\"", offered, "\" does not offer plugin protocol version ",
          kProtocolVersion, ", the only one this provider speaks (offered: ",
          valid.empty() ? "none" : absl::StrJoin(valid, ", "),
          "). Use a Terraform that supports protocol 5 (v0.12 or later) or OpenTofu."));
    }
  }

  config.client_cert_pem = Lookup(env, "PLUGIN_CLIENT_CERT");
  config.socket_parent_dir = SocketParentDir(env);
  return config;
}

}  // namespace nsxalb::host
