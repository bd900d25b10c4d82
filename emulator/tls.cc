// Self-signed certificate generation with OpenSSL 3.
#include "emulator/tls.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct FileClose {
  void operator()(FILE* f) const { fclose(f); }
};

bool PairLoads(const TlsFiles& files) {
  std::unique_ptr<FILE, FileClose> cf(fopen(files.cert_file.c_str(), "r"));
  std::unique_ptr<FILE, FileClose> kf(fopen(files.key_file.c_str(), "r"));
  if (!cf || !kf) return false;
  std::unique_ptr<X509, X509Free> cert(PEM_read_X509(cf.get(), nullptr, nullptr, nullptr));
  std::unique_ptr<EVP_PKEY, PkeyFree> key(PEM_read_PrivateKey(kf.get(), nullptr, nullptr, nullptr));
  return cert && key && X509_check_private_key(cert.get(), key.get()) == 1 &&
         X509_cmp_current_time(X509_get0_notAfter(cert.get())) > 0;
}

absl::Status AddExtension(X509* cert, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) return absl::InternalError(absl::StrCat("cannot build extension ", value));
  int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  return ok == 1 ? absl::OkStatus() : absl::InternalError("X509_add_ext failed");
}

}  // namespace

absl::Status EnsureCertificate(const std::string& dir, TlsFiles* files) {
  files->cert_file = absl::StrCat(dir, "/cert.pem");
  files->key_file = absl::StrCat(dir, "/key.pem");
  if (PairLoads(*files)) return absl::OkStatus();

  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_EC_gen("P-256"));
  if (!key) return absl::InternalError("cannot generate a P-256 key");
  std::unique_ptr<X509, X509Free> cert(X509_new());
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof(serial)) != 1) return absl::InternalError("RAND_bytes failed");
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof(serial), nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("nsxalb-controller-emulator"),
                             -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  for (auto [nid, value] : {std::pair<int, const char*>{NID_basic_constraints, "critical,CA:TRUE"},
                            {NID_key_usage, "critical,digitalSignature,keyCertSign"},
                            {NID_ext_key_usage, "serverAuth"},
                            {NID_subject_key_identifier, "hash"},
                            {NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"}}) {
    NSXALB_RETURN_IF_ERROR(AddExtension(cert.get(), nid, value));
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    return absl::InternalError("cannot sign the certificate");
  }

  int kfd = open(files->key_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (kfd < 0) return absl::PermissionDeniedError(absl::StrCat("cannot write ", files->key_file));
  std::unique_ptr<FILE, FileClose> kf(fdopen(kfd, "w"));
  if (!kf ||
      PEM_write_PrivateKey(kf.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return absl::InternalError(absl::StrCat("cannot write ", files->key_file));
  }
  std::unique_ptr<FILE, FileClose> cf(fopen(files->cert_file.c_str(), "w"));
  if (!cf || PEM_write_X509(cf.get(), cert.get()) != 1) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", files->cert_file));
  }
  return absl::OkStatus();
}

}  // namespace nsxalb::emulator
