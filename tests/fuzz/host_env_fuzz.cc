// libFuzzer entry point for the go-plugin handshake environment (plugin/host/env.h) and the
// client certificate it carries (plugin/host/cert.h), as Serve reads them before it listens.
//
// Input: environment entries "NAME=VALUE" separated by NUL bytes (as in /proc/PID/environ);
// entries without '=' are skipped, a repeated name keeps its first value (like getenv). The
// contract: ParseHostEnvironment answers protocol 5 or FailedPrecondition (never anything else);
// without Terraform's magic cookie it always refuses; with a config, PLUGIN_CLIENT_CERT is taken
// verbatim and the socket directory is never empty; the certificate converts to DER and back, or
// either step is InvalidArgument (the first naming the variable). A violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "plugin/host/cert.h"
#include "plugin/host/env.h"

namespace {

using nsxalb::host::Environment;

void Check(bool ok) {
  if (!ok) std::abort();
}

Environment Parse(std::string_view input) {
  Environment env;
  for (absl::string_view entry :
       absl::StrSplit(absl::string_view(input.data(), input.size()), '\0')) {
    const size_t eq = entry.find('=');
    if (eq == absl::string_view::npos || eq == 0) continue;
    env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Environment env = Parse(std::string_view(reinterpret_cast<const char*>(data), size));

  const std::string dir = nsxalb::host::SocketParentDir(env);
  Check(!dir.empty());

  absl::StatusOr<nsxalb::host::HostConfig> config = nsxalb::host::ParseHostEnvironment(env);
  if (!nsxalb::host::HasMagicCookie(env)) {
    Check(!config.ok() && config.status().message() == nsxalb::host::kNotAPluginMessage);
  }
  if (!config.ok()) {
    Check(config.status().code() == absl::StatusCode::kFailedPrecondition);
    return 0;
  }
  Check(config->protocol_version == nsxalb::host::kProtocolVersion);
  Check(config->socket_parent_dir == dir);
  auto cert = env.find("PLUGIN_CLIENT_CERT");
  Check(config->client_cert_pem == (cert == env.end() ? std::string() : cert->second));
  auto offered = env.find("PLUGIN_PROTOCOL_VERSIONS");
  if (offered != env.end() && !absl::StrContains(offered->second, '5')) {
    // Accepted without a 5 in the list only when the list is blank (go-plugin's default).
    Check(absl::StripAsciiWhitespace(offered->second).empty());
  }

  if (!config->client_cert_pem.empty()) {
    absl::StatusOr<std::string> der =
        nsxalb::host::CertificatePemToDer(config->client_cert_pem, "PLUGIN_CLIENT_CERT");
    if (der.ok()) {
      // PemToDer checks the armour, the base64 and the outer DER only (cert.h), so the
      // certificate inside may still be refused; a certificate that converts must convert back.
      absl::StatusOr<std::string> pem = nsxalb::host::CertificateDerToPem(*der);
      if (pem.ok()) {
        absl::StatusOr<std::string> der_again =
            nsxalb::host::CertificatePemToDer(*pem, "PLUGIN_CLIENT_CERT");
        Check(der_again.ok() && *der_again == *der);
      } else {
        Check(pem.status().code() == absl::StatusCode::kInvalidArgument);
      }
    } else {
      Check(der.status().code() == absl::StatusCode::kInvalidArgument);
      Check(absl::StrContains(der.status().message(), "PLUGIN_CLIENT_CERT"));
    }
  }
  return 0;
}
