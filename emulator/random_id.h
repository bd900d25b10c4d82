// Random identifiers for the emulator: version-4 UUIDs and hex tokens from OpenSSL's CSPRNG.
#ifndef NSXALB_EMULATOR_RANDOM_ID_H_
#define NSXALB_EMULATOR_RANDOM_ID_H_

#include <string>

namespace nsxalb::emulator {

// A lowercase RFC 4122 version-4 UUID, e.g. "0f8fad5b-d9cb-469f-a165-70867728950e".
std::string NewUuid4();

// `bytes` random bytes as lowercase hex (session ids, CSRF tokens, auth tokens).
std::string NewHexToken(int bytes);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_RANDOM_ID_H_
