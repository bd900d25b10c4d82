// Certificate generation with OpenSSL 3 (see cert.h).
#include "plugin/host/cert.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::host {
namespace {

// Owning pointers for OpenSSL objects.
struct OpenSslFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
};
template <typename T>
using OpenSslPtr = std::unique_ptr<T, OpenSslFree>;

constexpr int64_t kClockSkewSeconds = 30;
constexpr int64_t kValiditySeconds = 262980LL * 3600;  // about 30 years, as go-plugin uses

// An error status carrying OpenSSL's most recent error text, and clearing its error queue.
absl::Status OpenSslError(absl::string_view what) {
  const unsigned long code = ERR_get_error();  // NOLINT(runtime/int): OpenSSL's type
  ERR_clear_error();
  char text[256] = "no OpenSSL error queued";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  return absl::InternalError(absl::StrCat("certificate generation: ", what, ": ", text));
}

std::string BioContents(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);  // NOLINT(runtime/int): OpenSSL's type
  return std::string(data, size > 0 ? static_cast<size_t>(size) : 0);
}

absl::Status AddExtension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  OpenSslPtr<X509_EXTENSION> ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  if (ext == nullptr || X509_add_ext(cert, ext.get(), -1) != 1) {
    return OpenSslError(absl::StrCat("extension ", OBJ_nid2sn(nid), "=", value));
  }
  return absl::OkStatus();
}

absl::Status SetTime(ASN1_TIME* field, int64_t unix_seconds) {
  if (ASN1_TIME_set(field, static_cast<time_t>(unix_seconds)) == nullptr) {
    return OpenSslError("validity time");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Certificate> GenerateSelfSignedCertificate(const CertificateOptions& options) {
  const bool p521 = options.curve == KeyCurve::kP521;
  OpenSslPtr<EVP_PKEY> key(EVP_EC_gen(p521 ? "P-521" : "P-256"));
  if (key == nullptr) return OpenSslError("EC key generation");

  OpenSslPtr<X509> cert(X509_new());
  if (cert == nullptr || X509_set_version(cert.get(), X509_VERSION_3) != 1) {
    return OpenSslError("X509_new");
  }

  // A random positive 128-bit serial number.
  unsigned char serial_bytes[16];
  if (RAND_bytes(serial_bytes, sizeof(serial_bytes)) != 1) return OpenSslError("RAND_bytes");
  serial_bytes[0] &= 0x7f;
  OpenSslPtr<BIGNUM> serial(BN_bin2bn(serial_bytes, sizeof(serial_bytes), nullptr));
  if (serial == nullptr ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr) {
    return OpenSslError("serial number");
  }

  const absl::Time now = options.now.has_value() ? *options.now : absl::Now();
  const int64_t now_seconds = absl::ToUnixSeconds(now);
  if (absl::Status s = SetTime(X509_getm_notBefore(cert.get()), now_seconds - kClockSkewSeconds);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = SetTime(X509_getm_notAfter(cert.get()), now_seconds + kValiditySeconds);
      !s.ok()) {
    return s;
  }

  X509_NAME* name = X509_get_subject_name(cert.get());
  if (!options.organization.empty() &&
      X509_NAME_add_entry_by_txt(
          name, "O", MBSTRING_UTF8,
          reinterpret_cast<const unsigned char*>(options.organization.c_str()), -1, -1, 0) != 1) {
    return OpenSslError("subject O");
  }
  if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(options.host_name.c_str()),
                                 -1, -1, 0) != 1) {
    return OpenSslError("subject CN");
  }
  if (X509_set_issuer_name(cert.get(), name) != 1) return OpenSslError("issuer");
  if (X509_set_pubkey(cert.get(), key.get()) != 1) return OpenSslError("public key");

  const struct {
    int nid;
    std::string value;
  } extensions[] = {
      {NID_basic_constraints, "critical,CA:TRUE"},
      {NID_key_usage, "critical,digitalSignature,keyEncipherment,keyAgreement,keyCertSign"},
      {NID_ext_key_usage, "serverAuth,clientAuth"},
      {NID_subject_key_identifier, "hash"},
      {NID_subject_alt_name, absl::StrCat("DNS:", options.host_name)},
  };
  for (const auto& ext : extensions) {
    if (absl::Status s = AddExtension(cert.get(), ext.nid, ext.value); !s.ok()) return s;
  }

  if (X509_sign(cert.get(), key.get(), p521 ? EVP_sha512() : EVP_sha256()) == 0) {
    return OpenSslError("signing");
  }

  Certificate out;
  OpenSslPtr<BIO> cert_bio(BIO_new(BIO_s_mem()));
  OpenSslPtr<BIO> key_bio(BIO_new(BIO_s_mem()));
  if (cert_bio == nullptr || key_bio == nullptr ||
      PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) !=
          1) {
    return OpenSslError("PEM encoding");
  }
  out.cert_pem = BioContents(cert_bio.get());
  out.key_pem = BioContents(key_bio.get());

  const int der_size = i2d_X509(cert.get(), nullptr);
  if (der_size <= 0) return OpenSslError("DER encoding");
  out.cert_der.resize(static_cast<size_t>(der_size));
  unsigned char* der_out = reinterpret_cast<unsigned char*>(out.cert_der.data());
  if (i2d_X509(cert.get(), &der_out) != der_size) return OpenSslError("DER encoding");
  return out;
}

absl::StatusOr<std::string> CertificatePemToDer(absl::string_view pem, absl::string_view what) {
  OpenSslPtr<BIO> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  OpenSslPtr<X509> cert(bio == nullptr ? nullptr
                                       : PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  if (cert == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": not a PEM certificate (expected \"-----BEGIN CERTIFICATE-----\")"));
  }
  const int size = i2d_X509(cert.get(), nullptr);
  if (size <= 0) return absl::InvalidArgumentError(absl::StrCat(what, ": cannot encode as DER"));
  std::string der(static_cast<size_t>(size), '\0');
  unsigned char* out = reinterpret_cast<unsigned char*>(der.data());
  i2d_X509(cert.get(), &out);
  return der;
}

absl::StatusOr<std::string> CertificateDerToPem(absl::string_view der) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(der.data());
  OpenSslPtr<X509> cert(d2i_X509(nullptr, &in, static_cast<long>(der.size())));  // NOLINT
  ERR_clear_error();
  if (cert == nullptr) return absl::InvalidArgumentError("not a DER certificate");
  OpenSslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || PEM_write_bio_X509(bio.get(), cert.get()) != 1) {
    return OpenSslError("PEM encoding");
  }
  return BioContents(bio.get());
}

}  // namespace nsxalb::host
