// The go-plugin environment contract, as a pure function of an environment map.
//
// Terraform starts a provider with TF_PLUGIN_MAGIC_COOKIE (proof that a plugin client started
// it), PLUGIN_PROTOCOL_VERSIONS (the protocol major versions it speaks, e.g. "5" or "5,6" in any
// order), and, when AutoMTLS is on, PLUGIN_CLIENT_CERT (the PEM of its one-time client
// certificate). PLUGIN_UNIX_SOCKET_DIR, else TMPDIR, else /tmp holds the plugin's socket.
// ParseHostEnvironment turns that into a HostConfig or a clear error; serve.h acts on it.
#ifndef NSXALB_PLUGIN_HOST_ENV_H_
#define NSXALB_PLUGIN_HOST_ENV_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace nsxalb::host {

// The environment variable name and value Terraform (and OpenTofu) set for provider plugins.
inline constexpr char kMagicCookieKey[] = "TF_PLUGIN_MAGIC_COOKIE";
inline constexpr char kMagicCookieValue[] =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

// The only plugin protocol major version this provider implements (package tfplugin5).
inline constexpr int kProtocolVersion = 5;

// The message printed on stderr when the binary is run without the magic cookie.
inline constexpr char kNotAPluginMessage[] =
    "This binary is a plugin. These are not meant to be executed directly. Terraform (or "
    "OpenTofu) starts it when a configuration uses the nsxalb provider. To use the binary by "
    "itself, run one of its commands (size, plan-report, docs, schema, controller, version); "
    "`terraform-provider-nsxalb --help` lists them (and --debug, which serves for "
    "TF_REATTACH_PROVIDERS).";

// An environment: variable name to value.
using Environment = std::map<std::string, std::string>;

// Returns the current process environment.
Environment ProcessEnvironment();

// What the environment asks of the plugin host.
struct HostConfig {
  // The protocol version to answer in the handshake line (always kProtocolVersion).
  int protocol_version = kProtocolVersion;
  // PEM of the client certificate to trust (from PLUGIN_CLIENT_CERT); empty means plaintext.
  std::string client_cert_pem;
  // The directory in which to create the private socket directory.
  std::string socket_parent_dir;
};

// True when TF_PLUGIN_MAGIC_COOKIE has Terraform's value.
bool HasMagicCookie(const Environment& env);

// The directory for the socket: PLUGIN_UNIX_SOCKET_DIR, else TMPDIR, else "/tmp" (first
// non-empty).
std::string SocketParentDir(const Environment& env);

// Reads the plugin environment:
// - TF_PLUGIN_MAGIC_COOKIE missing or wrong: kFailedPrecondition with kNotAPluginMessage;
// - PLUGIN_PROTOCOL_VERSIONS set but without 5: kFailedPrecondition naming the variable, the
//   offered versions and the one this plugin speaks. Unset or empty means 5 (go-plugin's
//   default when the client sends no list). Entries that are not integers are skipped, as
//   go-plugin's server does;
// - socket_parent_dir: SocketParentDir(env).
absl::StatusOr<HostConfig> ParseHostEnvironment(const Environment& env);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_ENV_H_
