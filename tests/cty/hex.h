// Test helpers: hex fixtures <-> bytes, so golden msgpack fixtures read like the reference's.
#ifndef NSXALB_TESTS_CTY_HEX_H_
#define NSXALB_TESTS_CTY_HEX_H_

#include <cstdio>
#include <string>
#include <string_view>

namespace nsxalb::cty::testing {

// "83 a2 69" -> bytes; spaces are ignored.
inline std::string Unhex(std::string_view hex) {
  std::string out;
  int high = -1;
  for (char c : hex) {
    int v;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      continue;
    }
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>(high * 16 + v));
      high = -1;
    }
  }
  return out;
}

// bytes -> "83 a2 69".
inline std::string Hex(std::string_view bytes) {
  std::string out;
  char buf[4];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof(buf), "%02x", c);
    if (!out.empty()) out += ' ';
    out += buf;
  }
  return out;
}

}  // namespace nsxalb::cty::testing

#endif  // NSXALB_TESTS_CTY_HEX_H_
