// Random identifiers from RAND_bytes.
#include "emulator/random_id.h"

#include <openssl/rand.h>

#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::emulator {
namespace {

std::string RandomBytes(int n) {
  std::string out(static_cast<size_t>(n), '\0');
  // RAND_bytes only fails when the CSPRNG cannot be seeded, which OpenSSL 3 treats as fatal.
  RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), n);
  return out;
}

}  // namespace

std::string NewUuid4() {
  std::string b = RandomBytes(16);
  b[6] = static_cast<char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  std::string hex = absl::BytesToHexString(b);
  return absl::StrCat(hex.substr(0, 8), "-", hex.substr(8, 4), "-", hex.substr(12, 4), "-",
                      hex.substr(16, 4), "-", hex.substr(20));
}

std::string NewHexToken(int bytes) { return absl::BytesToHexString(RandomBytes(bytes)); }

std::string UuidOfRef(const std::string& ref) {
  std::string s = ref.substr(0, ref.find('#'));
  const size_t slash = s.find_last_of('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

}  // namespace nsxalb::emulator
