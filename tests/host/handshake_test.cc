// Tests for the handshake line and reattach formatting (plugin/host/handshake.h).
#include "plugin/host/handshake.h"

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace nsxalb::host {
namespace {

TEST(Base64EncodeUnpaddedTest, DropsPaddingOnly) {
  EXPECT_EQ(Base64EncodeUnpadded(""), "");
  EXPECT_EQ(Base64EncodeUnpadded("f"), "Zg");
  EXPECT_EQ(Base64EncodeUnpadded("fo"), "Zm8");
  EXPECT_EQ(Base64EncodeUnpadded("foo"), "Zm9v");
  EXPECT_EQ(Base64EncodeUnpadded("foob"), "Zm9vYg");
  // Standard alphabet ('+' and '/'), not URL-safe.
  EXPECT_EQ(Base64EncodeUnpadded(std::string("\xfb\xff\xbf", 3)), "+/+/");
}

TEST(Base64EncodeUnpaddedTest, DecodesBackForEveryLengthModThree) {
  std::string bytes;
  for (int i = 0; i < 10; ++i) {
    bytes.push_back(static_cast<char>(i * 37));
    const std::string encoded = Base64EncodeUnpadded(bytes);
    EXPECT_EQ(encoded.find('='), std::string::npos);
    std::string decoded;
    ASSERT_TRUE(absl::Base64Unescape(encoded, &decoded));
    EXPECT_EQ(decoded, bytes);
  }
}

TEST(FormatHandshakeLineTest, SixFieldsWithCertificate) {
  const std::string line = FormatHandshakeLine(5, "unix", "/tmp/x/plugin.sock", "abcd");
  EXPECT_EQ(line, "1|5|unix|/tmp/x/plugin.sock|grpc|YWJjZA\n");
  const std::vector<std::string> fields = absl::StrSplit(line.substr(0, line.size() - 1), '|');
  EXPECT_EQ(fields.size(), 6u);
}

TEST(FormatHandshakeLineTest, PlaintextHasAnEmptySixthField) {
  EXPECT_EQ(FormatHandshakeLine(5, "unix", "/tmp/p", ""), "1|5|unix|/tmp/p|grpc|\n");
}

TEST(FormatReattachProvidersTest, ShapeTerraformReads) {
  const std::string text =
      FormatReattachProviders(kProviderAddress, 5, 4242, "unix", "/tmp/d/plugin.sock");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  const nlohmann::json value = nlohmann::json::parse(text);
  ASSERT_TRUE(value.contains("registry.terraform.io/nsxalb/nsxalb"));
  ASSERT_EQ(value.size(), 1u);
  const nlohmann::json& entry = value["registry.terraform.io/nsxalb/nsxalb"];
  EXPECT_EQ(entry["Protocol"], "grpc");
  EXPECT_EQ(entry["ProtocolVersion"], 5);
  EXPECT_EQ(entry["Pid"], 4242);
  EXPECT_EQ(entry["Test"], true);
  EXPECT_EQ(entry["Addr"]["Network"], "unix");
  EXPECT_EQ(entry["Addr"]["String"], "/tmp/d/plugin.sock");
}

TEST(FormatReattachProvidersTest, EscapesPathsAsJson) {
  const nlohmann::json value = nlohmann::json::parse(
      FormatReattachProviders("example.com/a/b", 5, 1, "unix", "/tmp/we\"ird\\dir/s"));
  EXPECT_EQ(value["example.com/a/b"]["Addr"]["String"], "/tmp/we\"ird\\dir/s");
}

}  // namespace
}  // namespace nsxalb::host
