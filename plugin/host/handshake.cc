// Handshake-line and reattach formatting (see handshake.h).
#include "plugin/host/handshake.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace nsxalb::host {

std::string Base64EncodeUnpadded(absl::string_view bytes) {
  std::string encoded = absl::Base64Escape(bytes);
  while (!encoded.empty() && encoded.back() == '=') encoded.pop_back();
  return encoded;
}

std::string FormatHandshakeLine(int protocol_version, absl::string_view network,
                                absl::string_view address, absl::string_view cert_der) {
  return absl::StrCat(kCoreProtocolVersion, "|", protocol_version, "|", network, "|", address,
                      "|grpc|", cert_der.empty() ? "" : Base64EncodeUnpadded(cert_der), "\n");
}

std::string FormatReattachProviders(absl::string_view provider_address, int protocol_version,
                                    int pid, absl::string_view network, absl::string_view address) {
  nlohmann::json entry = {
      {"Protocol", "grpc"},
      {"ProtocolVersion", protocol_version},
      {"Pid", pid},
      {"Test", true},
      {"Addr", {{"Network", std::string(network)}, {"String", std::string(address)}}},
  };
  nlohmann::json value = {{std::string(provider_address), entry}};
  return value.dump();
}

}  // namespace nsxalb::host
