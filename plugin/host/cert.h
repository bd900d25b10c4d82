// Self-signed certificates for go-plugin's AutoMTLS.
//
// When Terraform sets PLUGIN_CLIENT_CERT, the plugin generates a fresh key and a self-signed
// certificate for every run, serves TLS with it, and sends its DER form in the handshake line.
// Terraform trusts exactly that certificate and checks the name "localhost", so the certificate
// carries SAN DNS:localhost, CA:TRUE, and both serverAuth and clientAuth key usages, like the
// certificates go-plugin generates on its side. The DER is written by hand and signed with
// OpenSSL's elliptic-curve functions, which keeps start-up off OpenSSL 3's provider fetches
// (see cert.cc).
#ifndef NSXALB_PLUGIN_HOST_CERT_H_
#define NSXALB_PLUGIN_HOST_CERT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nsxalb::host {

// The elliptic curve of the generated key. The plugin uses P-256 (cheapest to generate and to
// handshake with); go-plugin's client uses P-521 (signed with SHA-512), which tests reproduce.
enum class KeyCurve { kP256, kP521 };

// What to put in a generated certificate.
struct CertificateOptions {
  KeyCurve curve = KeyCurve::kP256;
  // Subject CN and the single DNS subjectAltName.
  std::string host_name = "localhost";
  // Subject O; empty leaves it out.
  std::string organization;
  // The clock reading the validity period is based on (NotBefore = now - 30 s, to tolerate clock
  // skew; NotAfter = now + 30 years). Unset means the current time.
  std::optional<absl::Time> now;
};

// A generated certificate and its private key.
struct Certificate {
  std::string cert_pem;  // "-----BEGIN CERTIFICATE-----..."
  std::string key_pem;   // unencrypted PKCS#8 "-----BEGIN PRIVATE KEY-----..."
  std::string cert_der;  // the certificate's DER bytes (what the handshake line carries)
};

// Generates a fresh key pair and a self-signed certificate for it: random 128-bit serial,
// CN and SAN DNS:<host_name>, basicConstraints CA:TRUE, keyUsage digitalSignature,
// keyEncipherment, keyAgreement and keyCertSign, extendedKeyUsage serverAuth and clientAuth.
// Returns kInternal if OpenSSL fails.
absl::StatusOr<Certificate> GenerateSelfSignedCertificate(const CertificateOptions& options);

// Returns the DER bytes of the first certificate of a PEM text. Checks the PEM armour, the
// base64 and the certificate's outer DER structure, not the X.509 contents (the TLS library that
// uses the certificate parses those). Returns kInvalidArgument naming `what`
// (e.g. "PLUGIN_CLIENT_CERT") otherwise.
absl::StatusOr<std::string> CertificatePemToDer(absl::string_view pem, absl::string_view what);

// Returns the PEM form of a DER certificate; kInvalidArgument if `der` is not a certificate.
absl::StatusOr<std::string> CertificateDerToPem(absl::string_view der);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_CERT_H_
