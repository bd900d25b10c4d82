// The go-plugin handshake line and the TF_REATTACH_PROVIDERS value.
//
// A plugin announces itself with one stdout line, "CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT\n":
// core protocol 1, app protocol 5, network "unix", the socket's absolute path, "grpc", and the
// server certificate's DER as unpadded standard base64 (empty without AutoMTLS). go-plugin v1.3
// splits the line into at most six fields, so there is never a seventh. In --debug mode the
// plugin instead prints a TF_REATTACH_PROVIDERS value that tells Terraform where to connect.
#ifndef NSXALB_PLUGIN_HOST_HANDSHAKE_H_
#define NSXALB_PLUGIN_HOST_HANDSHAKE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace nsxalb::host {

// go-plugin's core protocol version, the handshake line's first field.
inline constexpr int kCoreProtocolVersion = 1;

// The provider address Terraform uses for this provider (the TF_REATTACH_PROVIDERS key).
inline constexpr char kProviderAddress[] = "registry.terraform.io/nsxalb/nsxalb";

// Standard-alphabet base64 without '=' padding (Go's base64.RawStdEncoding).
std::string Base64EncodeUnpadded(absl::string_view bytes);

// Returns the handshake line including its trailing '\n'. `cert_der` empty gives an empty sixth
// field (plaintext).
std::string FormatHandshakeLine(int protocol_version, absl::string_view network,
                                absl::string_view address, absl::string_view cert_der);

// Returns the JSON value of TF_REATTACH_PROVIDERS for one provider served in debug (plaintext)
// mode: {"<provider_address>": {"Protocol": "grpc", "ProtocolVersion": N, "Pid": PID,
// "Test": true, "Addr": {"Network": "<network>", "String": "<address>"}}}, on one line.
std::string FormatReattachProviders(absl::string_view provider_address, int protocol_version,
                                    int pid, absl::string_view network, absl::string_view address);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_HANDSHAKE_H_
