// The emulator's self-signed TLS certificate.
//
// The certificate (ECDSA P-256, valid for a year) names DNS:localhost, IP:127.0.0.1 and IP:::1,
// so a client that trusts DIR/cert.pem as its CA file verifies the emulator on either loopback
// address. An existing, loadable pair in DIR is reused so restarts keep the same CA file.
#ifndef NSXALB_EMULATOR_TLS_H_
#define NSXALB_EMULATOR_TLS_H_

#include <string>

#include "absl/status/status.h"

namespace nsxalb::emulator {

// Paths of the certificate and key files.
struct TlsFiles {
  std::string cert_file;
  std::string key_file;
};

// Writes DIR/cert.pem (0644) and DIR/key.pem (0600) unless both exist and load; `dir` must exist.
absl::Status EnsureCertificate(const std::string& dir, TlsFiles* files);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_TLS_H_
