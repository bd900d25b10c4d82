// Identifiers for the emulator: random version-4 UUIDs and hex tokens from OpenSSL's CSPRNG, and
// the uuid a ref names.
#ifndef NSXALB_EMULATOR_RANDOM_ID_H_
#define NSXALB_EMULATOR_RANDOM_ID_H_

#include <string>

namespace nsxalb::emulator {

// A lowercase RFC 4122 version-4 UUID, e.g. "0f8fad5b-d9cb-469f-a165-70867728950e".
std::string NewUuid4();

// `bytes` random bytes as lowercase hex (session ids, CSRF tokens, auth tokens).
std::string NewHexToken(int bytes);

// The uuid in a ref of any form ("https://h/api/t/<uuid>#n", "/api/t/<uuid>", "<uuid>").
std::string UuidOfRef(const std::string& ref);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_RANDOM_ID_H_
