// Tests for AutoMTLS certificate generation (plugin/host/cert.h).
#include "plugin/host/cert.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::host {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;

X509Ptr ParseDer(const std::string& der) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(der.data());
  return X509Ptr(d2i_X509(nullptr, &in, static_cast<long>(der.size())));  // NOLINT
}

int64_t UnixSeconds(const ASN1_TIME* t) {
  struct tm tm = {};
  if (ASN1_TIME_to_tm(t, &tm) != 1) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

int CurveOf(X509* cert) {
  EVP_PKEY* key = X509_get0_pubkey(cert);
  char name[64] = {};
  size_t len = 0;
  if (EVP_PKEY_get_utf8_string_param(key, "group", name, sizeof(name), &len) != 1) return 0;
  return OBJ_sn2nid(name);
}

TEST(GenerateSelfSignedCertificateTest, MatchesWhatGoPluginExpects) {
  CertificateOptions options;
  options.now = absl::FromUnixSeconds(1700000000);
  absl::StatusOr<Certificate> cert = GenerateSelfSignedCertificate(options);
  ASSERT_THAT(cert, IsOk());
  X509Ptr x509 = ParseDer(cert->cert_der);
  ASSERT_NE(x509, nullptr);

  // Hostname "localhost" through SAN, as Go's TLS checks it.
  EXPECT_EQ(X509_check_host(x509.get(), "localhost", 0, 0, nullptr), 1);
  EXPECT_NE(X509_check_host(x509.get(), "example.com", 0, 0, nullptr), 1);
  GENERAL_NAMES* sans = static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(x509.get(), NID_subject_alt_name, nullptr, nullptr));
  ASSERT_NE(sans, nullptr);
  ASSERT_EQ(sk_GENERAL_NAME_num(sans), 1);
  const GENERAL_NAME* san = sk_GENERAL_NAME_value(sans, 0);
  EXPECT_EQ(san->type, GEN_DNS);
  GENERAL_NAMES_free(sans);

  EXPECT_EQ(X509_check_ca(x509.get()), 1);  // basicConstraints CA:TRUE
  const uint32_t eku = X509_get_extended_key_usage(x509.get());
  EXPECT_TRUE(eku & XKU_SSL_SERVER);
  EXPECT_TRUE(eku & XKU_SSL_CLIENT);
  const uint32_t ku = X509_get_key_usage(x509.get());
  EXPECT_TRUE(ku & KU_DIGITAL_SIGNATURE);
  EXPECT_TRUE(ku & KU_KEY_CERT_SIGN);

  EXPECT_EQ(UnixSeconds(X509_get0_notBefore(x509.get())), 1700000000 - 30);
  EXPECT_GT(UnixSeconds(X509_get0_notAfter(x509.get())), 1700000000 + 29LL * 365 * 86400);
  EXPECT_EQ(CurveOf(x509.get()), NID_X9_62_prime256v1);

  // Self-signed: the signature verifies with its own key.
  EXPECT_EQ(X509_verify(x509.get(), X509_get0_pubkey(x509.get())), 1);
}

TEST(GenerateSelfSignedCertificateTest, KeyMatchesCertificate) {
  absl::StatusOr<Certificate> cert = GenerateSelfSignedCertificate({});
  ASSERT_THAT(cert, IsOk());
  EXPECT_THAT(cert->cert_pem, HasSubstr("-----BEGIN CERTIFICATE-----"));
  EXPECT_THAT(cert->key_pem, HasSubstr("-----BEGIN PRIVATE KEY-----"));
  BIO* bio = BIO_new_mem_buf(cert->key_pem.data(), static_cast<int>(cert->key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  ASSERT_NE(key, nullptr);
  X509Ptr x509 = ParseDer(cert->cert_der);
  EXPECT_EQ(X509_check_private_key(x509.get(), key), 1);
  EVP_PKEY_free(key);
}

TEST(GenerateSelfSignedCertificateTest, P521LikeGoPluginsClient) {
  CertificateOptions options;
  options.curve = KeyCurve::kP521;
  options.organization = "HashiCorp";
  absl::StatusOr<Certificate> cert = GenerateSelfSignedCertificate(options);
  ASSERT_THAT(cert, IsOk());
  X509Ptr x509 = ParseDer(cert->cert_der);
  ASSERT_NE(x509, nullptr);
  EXPECT_EQ(CurveOf(x509.get()), NID_secp521r1);
  EXPECT_EQ(X509_get_signature_nid(x509.get()), NID_ecdsa_with_SHA512);
  char org[64] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(x509.get()), NID_organizationName, org,
                            sizeof(org));
  EXPECT_STREQ(org, "HashiCorp");
}

TEST(GenerateSelfSignedCertificateTest, EveryCallIsFresh) {
  absl::StatusOr<Certificate> a = GenerateSelfSignedCertificate({});
  absl::StatusOr<Certificate> b = GenerateSelfSignedCertificate({});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->key_pem, b->key_pem);
  X509Ptr xa = ParseDer(a->cert_der);
  X509Ptr xb = ParseDer(b->cert_der);
  EXPECT_NE(ASN1_INTEGER_cmp(X509_get0_serialNumber(xa.get()), X509_get0_serialNumber(xb.get())),
            0);
}

TEST(CertificatePemTest, RoundTripsBetweenPemAndDer) {
  absl::StatusOr<Certificate> cert = GenerateSelfSignedCertificate({});
  ASSERT_THAT(cert, IsOk());
  absl::StatusOr<std::string> der = CertificatePemToDer(cert->cert_pem, "test");
  ASSERT_THAT(der, IsOk());
  EXPECT_EQ(*der, cert->cert_der);
  absl::StatusOr<std::string> pem = CertificateDerToPem(cert->cert_der);
  ASSERT_THAT(pem, IsOk());
  EXPECT_EQ(*pem, cert->cert_pem);
}

TEST(CertificatePemTest, BadInputNamesTheSource) {
  for (const char* bad :
       {"", "hello", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"}) {
    absl::StatusOr<std::string> der = CertificatePemToDer(bad, "PLUGIN_CLIENT_CERT");
    ASSERT_THAT(der, Not(IsOk()));
    EXPECT_THAT(der, StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(der.status().message(), HasSubstr("PLUGIN_CLIENT_CERT"));
  }
  EXPECT_THAT(CertificateDerToPem("not der"), Not(IsOk()));
  EXPECT_THAT(CertificateDerToPem(""), Not(IsOk()));
}

}  // namespace
}  // namespace nsxalb::host
