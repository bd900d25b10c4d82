// Certificate generation for AutoMTLS (see cert.h).
//
// Start-up cost decides how this file is written. Every provider launch generates one key and
// signs one certificate before it can print its handshake line. Through OpenSSL 3's EVP, X509,
// PEM and RAND APIs that cost 10.6 M instructions (callgrind), nearly all of it OpenSSL building
// its provider method stores on first use (random generator, ciphers for the DRBG, digests, key
// management, encoders); the key generation and the signature themselves are about 0.5 M.
// Written as below it is 0.8 M. So:
//   * the certificate and the PKCS#8 key are written here as DER by hand (a fixed template with
//     the serial, validity and key filled in);
//   * the key pair, and the signature over the TBSCertificate, come from the EC_KEY and ECDSA
//     functions, which call the elliptic-curve code directly, and digests from the SHA*_Init /
//     Update / Final functions (OpenSSL 3's one-shot SHA256() fetches through a provider). They
//     are deprecated in OpenSSL 3 but present throughout 3.x;
//   * random numbers (private scalar, ECDSA nonce, serial) come straight from the kernel's
//     CSPRNG, getrandom(2), as in Go's crypto/rand, instead of OpenSSL's DRBG, whose set-up alone
//     is ~6 M instructions. Scalars are drawn uniformly from [1, n-1] by rejection (FIPS 186-4
//     B.4.2 / B.5.2, "testing candidates").
// Tests parse and verify the result with OpenSSL's X509 API (tests/host/cert_test.cc).
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "plugin/host/cert.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::host {
namespace {

// Owning pointers for OpenSSL objects.
struct OpenSslFree {
  void operator()(BIGNUM* p) const { BN_clear_free(p); }
  void operator()(BN_CTX* p) const { BN_CTX_free(p); }
  void operator()(EC_KEY* p) const { EC_KEY_free(p); }
  void operator()(EC_POINT* p) const { EC_POINT_clear_free(p); }
  void operator()(ECDSA_SIG* p) const { ECDSA_SIG_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
template <typename T>
using OpenSslPtr = std::unique_ptr<T, OpenSslFree>;

constexpr int64_t kClockSkewSeconds = 30;
constexpr int64_t kValiditySeconds = 262980LL * 3600;  // about 30 years, as go-plugin uses

constexpr absl::string_view kBeginCertificate = "-----BEGIN CERTIFICATE-----";
constexpr absl::string_view kEndCertificate = "-----END CERTIFICATE-----";

// An error status carrying OpenSSL's most recent error text, and clearing its error queue.
absl::Status OpenSslError(absl::string_view what) {
  const unsigned long code = ERR_get_error();  // NOLINT(runtime/int): OpenSSL's type
  ERR_clear_error();
  char text[256] = "no OpenSSL error queued";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  return absl::InternalError(absl::StrCat("certificate generation: ", what, ": ", text));
}

// --- DER (X.690) -----------------------------------------------------------------------------

// DER tags used below.
enum Tag : uint8_t {
  kBoolean = 0x01,
  kInteger = 0x02,
  kBitString = 0x03,
  kOctetString = 0x04,
  kOid = 0x06,
  kUtf8String = 0x0c,
  kUtcTime = 0x17,
  kGeneralizedTime = 0x18,
  kSequence = 0x30,
  kSet = 0x31,
  kContext0 = 0xa0,  // [0] EXPLICIT (constructed)
  kContext1 = 0xa1,  // [1] EXPLICIT (constructed)
  kContext3 = 0xa3,  // [3] EXPLICIT (constructed)
  kDnsName = 0x82,   // GeneralName dNSName: [2] IMPLICIT IA5String
};

// One tag-length-value.
std::string Tlv(uint8_t tag, absl::string_view content) {
  std::string out(1, static_cast<char>(tag));
  const size_t n = content.size();
  if (n < 0x80) {
    out.push_back(static_cast<char>(n));
  } else {
    int bytes = 0;
    for (size_t v = n; v != 0; v >>= 8) ++bytes;
    out.push_back(static_cast<char>(0x80 | bytes));
    for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  }
  absl::StrAppend(&out, content);
  return out;
}

// A BIT STRING with no unused bits.
std::string BitString(absl::string_view bytes) {
  return Tlv(kBitString, absl::StrCat(absl::string_view("\0", 1), bytes));
}

// A non-negative INTEGER from big-endian bytes (minimal encoding).
std::string UnsignedInteger(absl::string_view big_endian) {
  while (big_endian.size() > 1 && big_endian[0] == '\0' &&
         (static_cast<uint8_t>(big_endian[1]) & 0x80) == 0) {
    big_endian.remove_prefix(1);
  }
  if (!big_endian.empty() && (static_cast<uint8_t>(big_endian[0]) & 0x80) != 0) {
    return Tlv(kInteger, absl::StrCat(absl::string_view("\0", 1), big_endian));
  }
  return Tlv(kInteger, big_endian);
}

// UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5280, 4.1.2.5).
std::string Time(int64_t unix_seconds) {
  const absl::Time t = absl::FromUnixSeconds(unix_seconds);
  const absl::CivilSecond civil = absl::ToCivilSecond(t, absl::UTCTimeZone());
  if (civil.year() >= 1950 && civil.year() < 2050) {
    return Tlv(kUtcTime, absl::FormatTime("%y%m%d%H%M%SZ", t, absl::UTCTimeZone()));
  }
  return Tlv(kGeneralizedTime, absl::FormatTime("%Y%m%d%H%M%SZ", t, absl::UTCTimeZone()));
}

// Object identifiers, DER-encoded with their tag.
constexpr absl::string_view kOidEcPublicKey("\x06\x07\x2a\x86\x48\xce\x3d\x02\x01", 9);
constexpr absl::string_view kOidP256("\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07", 10);
constexpr absl::string_view kOidP521("\x06\x05\x2b\x81\x04\x00\x23", 7);
constexpr absl::string_view kOidEcdsaSha256("\x06\x08\x2a\x86\x48\xce\x3d\x04\x03\x02", 10);
constexpr absl::string_view kOidEcdsaSha512("\x06\x08\x2a\x86\x48\xce\x3d\x04\x03\x04", 10);
constexpr absl::string_view kOidCommonName("\x06\x03\x55\x04\x03", 5);
constexpr absl::string_view kOidOrganization("\x06\x03\x55\x04\x0a", 5);
constexpr absl::string_view kOidBasicConstraints("\x06\x03\x55\x1d\x13", 5);
constexpr absl::string_view kOidKeyUsage("\x06\x03\x55\x1d\x0f", 5);
constexpr absl::string_view kOidExtKeyUsage("\x06\x03\x55\x1d\x25", 5);
constexpr absl::string_view kOidSubjectKeyId("\x06\x03\x55\x1d\x0e", 5);
constexpr absl::string_view kOidSubjectAltName("\x06\x03\x55\x1d\x11", 5);
constexpr absl::string_view kOidServerAuth("\x06\x08\x2b\x06\x01\x05\x05\x07\x03\x01", 10);
constexpr absl::string_view kOidClientAuth("\x06\x08\x2b\x06\x01\x05\x05\x07\x03\x02", 10);

constexpr absl::string_view kDerTrue("\x01\x01\xff", 3);

// Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
std::string Extension(absl::string_view oid, bool critical, absl::string_view value) {
  return Tlv(kSequence, absl::StrCat(oid, critical ? kDerTrue : "", Tlv(kOctetString, value)));
}

// Name ::= SEQUENCE OF SET OF AttributeTypeAndValue, one attribute per set.
std::string Name(const CertificateOptions& options) {
  std::string rdns;
  if (!options.organization.empty()) {
    absl::StrAppend(
        &rdns, Tlv(kSet, Tlv(kSequence, absl::StrCat(kOidOrganization,
                                                     Tlv(kUtf8String, options.organization)))));
  }
  absl::StrAppend(
      &rdns,
      Tlv(kSet, Tlv(kSequence, absl::StrCat(kOidCommonName, Tlv(kUtf8String, options.host_name)))));
  return Tlv(kSequence, rdns);
}

// PEM armour with 64-character lines, as OpenSSL writes it.
std::string Pem(absl::string_view label, absl::string_view der) {
  const std::string base64 = absl::Base64Escape(der);
  std::string out = absl::StrCat("-----BEGIN ", label, "-----\n");
  for (size_t i = 0; i < base64.size(); i += 64) {
    absl::StrAppend(&out, absl::string_view(base64).substr(i, 64), "\n");
  }
  absl::StrAppend(&out, "-----END ", label, "-----\n");
  return out;
}

// Reads one DER header at `*in`: the tag and the content length (definite form only). Leaves
// `*in` at the content. False when the header is malformed or the content overruns `*in`.
bool ReadDerHeader(absl::string_view* in, uint8_t* tag, size_t* length) {
  if (in->size() < 2) return false;
  *tag = static_cast<uint8_t>((*in)[0]);
  const uint8_t first = static_cast<uint8_t>((*in)[1]);
  in->remove_prefix(2);
  if (first < 0x80) {
    *length = first;
  } else {
    const size_t bytes = first & 0x7f;
    if (bytes == 0 || bytes > 4 || in->size() < bytes) return false;
    *length = 0;
    for (size_t i = 0; i < bytes; ++i) *length = (*length << 8) | static_cast<uint8_t>((*in)[i]);
    in->remove_prefix(bytes);
  }
  return *length <= in->size();
}

// Fills `out` from the kernel's CSPRNG.
absl::Status KernelRandom(unsigned char* out, size_t size) {
  while (size > 0) {
    const ssize_t n = getrandom(out, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return absl::InternalError("certificate generation: getrandom failed");
    out += n;
    size -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

// A uniformly random scalar in [1, order - 1], by rejection sampling.
absl::StatusOr<OpenSslPtr<BIGNUM>> RandomScalar(const BIGNUM* order) {
  const int bits = BN_num_bits(order);
  unsigned char bytes[66];  // up to P-521
  const size_t size = static_cast<size_t>((bits + 7) / 8);
  OpenSslPtr<BIGNUM> scalar(BN_secure_new());
  if (scalar == nullptr) return OpenSslError("BN_secure_new");
  for (int attempt = 0; attempt < 64; ++attempt) {
    NSXALB_RETURN_IF_ERROR(KernelRandom(bytes, size));
    if (bits % 8 != 0) bytes[0] &= static_cast<unsigned char>((1u << (bits % 8)) - 1);
    const bool ok = BN_bin2bn(bytes, static_cast<int>(size), scalar.get()) != nullptr;
    OPENSSL_cleanse(bytes, sizeof(bytes));
    if (!ok) return OpenSslError("BN_bin2bn");
    if (!BN_is_zero(scalar.get()) && BN_cmp(scalar.get(), order) < 0) {
      BN_set_flags(scalar.get(), BN_FLG_CONSTTIME);
      return scalar;
    }
  }
  return absl::InternalError("certificate generation: no scalar below the group order");
}

// ECDSA over `digest` with a nonce from RandomScalar: computes k^-1 and r = (kG).x mod n and
// hands them to ECDSA_do_sign_ex, which computes s (and fails, to be retried, if s = 0).
absl::StatusOr<OpenSslPtr<ECDSA_SIG>> Sign(const unsigned char* digest, int digest_size,
                                           EC_KEY* key) {
  const EC_GROUP* group = EC_KEY_get0_group(key);
  const BIGNUM* order = EC_GROUP_get0_order(group);
  OpenSslPtr<BN_CTX> ctx(BN_CTX_new());
  OpenSslPtr<EC_POINT> kg(EC_POINT_new(group));
  OpenSslPtr<BIGNUM> x(BN_new());
  OpenSslPtr<BIGNUM> r(BN_new());
  OpenSslPtr<BIGNUM> k_inverse(BN_secure_new());
  if (ctx == nullptr || kg == nullptr || x == nullptr || r == nullptr || k_inverse == nullptr) {
    return OpenSslError("signature set-up");
  }
  for (int attempt = 0; attempt < 8; ++attempt) {
    NSXALB_ASSIGN_OR_RETURN(OpenSslPtr<BIGNUM> k, RandomScalar(order));
    if (EC_POINT_mul(group, kg.get(), k.get(), nullptr, nullptr, ctx.get()) != 1 ||
        EC_POINT_get_affine_coordinates(group, kg.get(), x.get(), nullptr, ctx.get()) != 1 ||
        BN_nnmod(r.get(), x.get(), order, ctx.get()) != 1 ||
        BN_mod_inverse(k_inverse.get(), k.get(), order, ctx.get()) == nullptr) {
      return OpenSslError("signature nonce");
    }
    if (BN_is_zero(r.get())) continue;
    OpenSslPtr<ECDSA_SIG> signature(
        ECDSA_do_sign_ex(digest, digest_size, k_inverse.get(), r.get(), key));
    if (signature != nullptr) return signature;
    ERR_clear_error();  // s = 0: try another nonce
  }
  return OpenSslError("signing");
}
}  // namespace

absl::StatusOr<Certificate> GenerateSelfSignedCertificate(const CertificateOptions& options) {
  const bool p521 = options.curve == KeyCurve::kP521;
  const size_t field_bytes = p521 ? 66 : 32;
  OpenSslPtr<EC_KEY> key(EC_KEY_new_by_curve_name(p521 ? NID_secp521r1 : NID_X9_62_prime256v1));
  if (key == nullptr) return OpenSslError("EC key");
  const EC_GROUP* group = EC_KEY_get0_group(key.get());
  NSXALB_ASSIGN_OR_RETURN(OpenSslPtr<BIGNUM> private_scalar,
                          RandomScalar(EC_GROUP_get0_order(group)));
  OpenSslPtr<EC_POINT> public_point(EC_POINT_new(group));
  if (public_point == nullptr ||
      EC_POINT_mul(group, public_point.get(), private_scalar.get(), nullptr, nullptr, nullptr) !=
          1 ||
      EC_KEY_set_private_key(key.get(), private_scalar.get()) != 1 ||
      EC_KEY_set_public_key(key.get(), public_point.get()) != 1) {
    return OpenSslError("EC key generation");
  }
  // The uncompressed public point and the private scalar, big-endian, padded to the field size.
  std::string point(1 + 2 * field_bytes, '\0');
  std::string scalar(field_bytes, '\0');
  if (EC_POINT_point2oct(group, public_point.get(), POINT_CONVERSION_UNCOMPRESSED,
                         reinterpret_cast<unsigned char*>(point.data()), point.size(),
                         nullptr) != point.size() ||
      BN_bn2binpad(private_scalar.get(), reinterpret_cast<unsigned char*>(scalar.data()),
                   static_cast<int>(scalar.size())) != static_cast<int>(scalar.size())) {
    return OpenSslError("EC key encoding");
  }

  // A random positive 128-bit serial number.
  unsigned char serial[16];
  NSXALB_RETURN_IF_ERROR(KernelRandom(serial, sizeof(serial)));
  serial[0] &= 0x7f;

  const absl::Time now = options.now.has_value() ? *options.now : absl::Now();
  const int64_t now_seconds = absl::ToUnixSeconds(now);
  const absl::string_view curve_oid = p521 ? kOidP521 : kOidP256;
  const std::string signature_algorithm = Tlv(kSequence, p521 ? kOidEcdsaSha512 : kOidEcdsaSha256);
  const std::string name = Name(options);

  // subjectKeyIdentifier: SHA-1 of the subjectPublicKey bits (RFC 5280, 4.2.1.2, method 1), as
  // OpenSSL's "hash" computes it.
  unsigned char key_id[SHA_DIGEST_LENGTH];
  SHA_CTX sha1;
  SHA1_Init(&sha1);
  SHA1_Update(&sha1, point.data(), point.size());
  SHA1_Final(key_id, &sha1);

  // keyUsage bits 0 (digitalSignature), 2 (keyEncipherment), 4 (keyAgreement) and
  // 5 (keyCertSign): 0b10101100, the two last bits unused.
  constexpr absl::string_view kKeyUsage("\x03\x02\x02\xac", 4);
  const std::string extensions = absl::StrCat(
      Extension(kOidBasicConstraints, true, Tlv(kSequence, kDerTrue)),
      Extension(kOidKeyUsage, true, kKeyUsage),
      Extension(kOidExtKeyUsage, false,
                Tlv(kSequence, absl::StrCat(kOidServerAuth, kOidClientAuth))),
      Extension(kOidSubjectKeyId, false,
                Tlv(kOctetString,
                    absl::string_view(reinterpret_cast<const char*>(key_id), sizeof(key_id)))),
      Extension(kOidSubjectAltName, false, Tlv(kSequence, Tlv(kDnsName, options.host_name))));

  const std::string tbs = Tlv(
      kSequence,
      absl::StrCat(
          Tlv(kContext0, Tlv(kInteger, absl::string_view("\x02", 1))),  // version v3
          UnsignedInteger(absl::string_view(reinterpret_cast<const char*>(serial), sizeof(serial))),
          signature_algorithm, name,
          Tlv(kSequence, absl::StrCat(Time(now_seconds - kClockSkewSeconds),
                                      Time(now_seconds + kValiditySeconds))),
          name,
          Tlv(kSequence, absl::StrCat(Tlv(kSequence, absl::StrCat(kOidEcPublicKey, curve_oid)),
                                      BitString(point))),
          Tlv(kContext3, Tlv(kSequence, extensions))));

  unsigned char digest[SHA512_DIGEST_LENGTH];
  int digest_size = SHA256_DIGEST_LENGTH;
  if (p521) {
    SHA512_CTX sha512;
    SHA512_Init(&sha512);
    SHA512_Update(&sha512, tbs.data(), tbs.size());
    SHA512_Final(digest, &sha512);
    digest_size = SHA512_DIGEST_LENGTH;
  } else {
    SHA256_CTX sha256;
    SHA256_Init(&sha256);
    SHA256_Update(&sha256, tbs.data(), tbs.size());
    SHA256_Final(digest, &sha256);
  }
  NSXALB_ASSIGN_OR_RETURN(OpenSslPtr<ECDSA_SIG> signed_tbs, Sign(digest, digest_size, key.get()));
  ECDSA_SIG* signature = signed_tbs.get();
  const int signature_size = i2d_ECDSA_SIG(signature, nullptr);
  if (signature_size <= 0) return OpenSslError("signature encoding");
  std::string signature_der(static_cast<size_t>(signature_size), '\0');
  unsigned char* signature_out = reinterpret_cast<unsigned char*>(signature_der.data());
  if (i2d_ECDSA_SIG(signature, &signature_out) != signature_size) {
    return OpenSslError("signature encoding");
  }

  Certificate out;
  out.cert_der = Tlv(kSequence, absl::StrCat(tbs, signature_algorithm, BitString(signature_der)));
  out.cert_pem = Pem("CERTIFICATE", out.cert_der);
  // PrivateKeyInfo (RFC 5208) around ECPrivateKey (RFC 5915) with the public key, the curve in
  // the algorithm identifier only, as OpenSSL writes it.
  const std::string ec_private_key =
      Tlv(kSequence, absl::StrCat(Tlv(kInteger, absl::string_view("\x01", 1)),
                                  Tlv(kOctetString, scalar), Tlv(kContext1, BitString(point))));
  const std::string private_key_info =
      Tlv(kSequence, absl::StrCat(Tlv(kInteger, absl::string_view("\0", 1)),
                                  Tlv(kSequence, absl::StrCat(kOidEcPublicKey, curve_oid)),
                                  Tlv(kOctetString, ec_private_key)));
  out.key_pem = Pem("PRIVATE KEY", private_key_info);
  OPENSSL_cleanse(scalar.data(), scalar.size());
  return out;
}

absl::StatusOr<std::string> CertificatePemToDer(absl::string_view pem, absl::string_view what) {
  const auto bad = [&what](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": not a PEM certificate (expected \"-----BEGIN CERTIFICATE-----\"): ", why));
  };
  const size_t begin = pem.find(kBeginCertificate);
  if (begin == absl::string_view::npos) return bad("no BEGIN CERTIFICATE line");
  absl::string_view body = pem.substr(begin + kBeginCertificate.size());
  const size_t end = body.find(kEndCertificate);
  if (end == absl::string_view::npos) return bad("no END CERTIFICATE line");
  body = body.substr(0, end);
  std::string base64;
  base64.reserve(body.size());
  for (char c : body) {
    if (!absl::ascii_isspace(static_cast<unsigned char>(c))) base64.push_back(c);
  }
  std::string der;
  if (!absl::Base64Unescape(base64, &der)) return bad("the body is not base64");
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, signatureAlgorithm SEQUENCE,
  // signatureValue BIT STRING }, with every length consistent. The full X.509 parse is left to
  // the TLS library that uses the certificate; this catches truncated and foreign input early,
  // with a message naming its source.
  absl::string_view in = der;
  uint8_t tag = 0;
  size_t length = 0;
  if (!ReadDerHeader(&in, &tag, &length) || tag != kSequence || length != in.size()) {
    return bad("the body is not a DER certificate");
  }
  for (uint8_t expected : {kSequence, kSequence, kBitString}) {
    if (!ReadDerHeader(&in, &tag, &length) || tag != expected) {
      return bad("the body is not a DER certificate");
    }
    in.remove_prefix(length);
  }
  if (!in.empty()) return bad("the body is not a DER certificate");
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
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);  // NOLINT(runtime/int): OpenSSL's type
  return std::string(data, size > 0 ? static_cast<size_t>(size) : 0);
}

}  // namespace nsxalb::host
