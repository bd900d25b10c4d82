// Tests for the harness's go-plugin-strict handshake parser (tests/harness/plugin_process.h).
#include <string>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/host/cert.h"
#include "plugin/host/handshake.h"
#include "tests/harness/plugin_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::testing::HasSubstr;

class ParseHandshakeLineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<host::Certificate> cert = host::GenerateSelfSignedCertificate({});
    ASSERT_THAT(cert, IsOk());
    der_ = cert->cert_der;
    b64_ = host::Base64EncodeUnpadded(der_);
  }
  std::string der_;
  std::string b64_;
};

TEST_F(ParseHandshakeLineTest, AcceptsTheHostsLine) {
  absl::StatusOr<Handshake> h =
      ParseHandshakeLine(host::FormatHandshakeLine(5, "unix", "/tmp/d/plugin.sock", der_), {5, 6});
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(h->core_version, 1);
  EXPECT_EQ(h->protocol_version, 5);
  EXPECT_EQ(h->network, "unix");
  EXPECT_EQ(h->address, "/tmp/d/plugin.sock");
  EXPECT_EQ(h->protocol, "grpc");
  EXPECT_EQ(h->cert_der, der_);
}

TEST_F(ParseHandshakeLineTest, PlaintextAndFiveFieldLines) {
  absl::StatusOr<Handshake> h = ParseHandshakeLine("1|5|unix|/tmp/p|grpc|\n", {5});
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(h->cert_der, "");
  EXPECT_THAT(ParseHandshakeLine("1|5|tcp|127.0.0.1:1234|grpc", {5}), IsOk());
}

TEST_F(ParseHandshakeLineTest, RejectsWhatGoPluginRejects) {
  const struct {
    std::string line;
    std::string error;
  } cases[] = {
      {"hello world", "Unrecognized remote plugin message"},
      {"1|5|unix", "Unrecognized remote plugin message"},
      {"1|5|unix|/tmp/p", "netrpc"},
      {"2|5|unix|/tmp/p|grpc|", "core API version"},
      {"1|6|unix|/tmp/p|grpc|", "Incompatible API version"},
      {"1|x|unix|/tmp/p|grpc|", "Incompatible API version"},
      {"1|5|udp|/tmp/p|grpc|", "Unknown address type"},
      {"1|5|unix|unix:/tmp/p|grpc|", "absolute"},
      {"1|5|tcp|localhost|grpc|", "host:port"},
      {"1|5|unix|/tmp/p|netrpc|", "Unsupported plugin protocol"},
      {"1|5|unix|/tmp/p|grpc||true", "fields"},
      {"1|5|unix|/tmp/p|grpc|" + b64_ + "|true", "fields"},
      {"1|5|unix|/tmp/p|grpc|short", "too short"},
      {"1|5|unix|/tmp/p|grpc|" + b64_ + "==", "padding"},
      {"1|5|unix|/tmp/p|grpc|" + b64_.substr(0, 60) + "-_", "outside standard base64"},
      {"1|5|unix|/tmp/p|grpc|" + std::string(80, 'A'), "DER certificate"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<Handshake> h = ParseHandshakeLine(c.line, {5});
    ASSERT_THAT(h, Not(IsOk())) << c.line;
    EXPECT_THAT(h.status().message(), HasSubstr(c.error)) << c.line;
  }
}

TEST_F(ParseHandshakeLineTest, PaddedEncodingOfTheSameCertificateIsRejected) {
  const std::string padded = absl::Base64Escape(der_);
  EXPECT_THAT(ParseHandshakeLine("1|5|unix|/tmp/p|grpc|" + b64_, {5}), IsOk());
  if (padded.find('=') != std::string::npos) {
    EXPECT_THAT(ParseHandshakeLine("1|5|unix|/tmp/p|grpc|" + padded, {5}), Not(IsOk()));
  } else {
    EXPECT_EQ(padded, b64_);  // DER length divisible by 3: padded and unpadded agree
  }
  EXPECT_THAT(ParseHandshakeLine("1|5|unix|/tmp/p|grpc|" + b64_ + "=", {5}), Not(IsOk()));
}

}  // namespace
}  // namespace nsxalb::harness
