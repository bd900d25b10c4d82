// Tests for plugin/controller/config.h.
#include "plugin/controller/config.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

ClientConfig Good() {
  ClientConfig c;
  c.controller = "ctrl.example.com";
  c.username = "admin";
  c.password = "s3cret-Passw0rd";
  return c;
}

void ExpectInvalid(const ClientConfig& c, const std::string& setting) {
  auto r = ValidateConfig(c);
  ASSERT_THAT(r, Not(IsOk())) << setting;
  EXPECT_THAT(r, StatusIs(absl::StatusCode::kInvalidArgument));
  std::string msg(r.status().message());
  EXPECT_EQ(msg.rfind("controller: ", 0), 0u) << msg;
  EXPECT_NE(msg.find(setting), std::string::npos) << msg;
  EXPECT_EQ(msg.find("s3cret-Passw0rd"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("t0ken-value"), std::string::npos) << msg;
}

TEST(EndpointTest, Forms) {
  struct Case {
    const char* in;
    const char* host;
    int port;
    bool ipv6;
    const char* base;
  } cases[] = {
      {"ctrl.example.com", "ctrl.example.com", 443, false, "https://ctrl.example.com"},
      {"10.0.0.1:8443", "10.0.0.1", 8443, false, "https://10.0.0.1:8443"},
      {"https://ctrl", "ctrl", 443, false, "https://ctrl"},
      {"https://ctrl:9443/", "ctrl", 9443, false, "https://ctrl:9443"},
      {"HTTPS://Ctrl", "Ctrl", 443, false, "https://Ctrl"},
      {"::1", "::1", 443, true, "https://[::1]"},
      {"[::1]", "::1", 443, true, "https://[::1]"},
      {"[fd00::10]:8443", "fd00::10", 8443, true, "https://[fd00::10]:8443"},
      {"https://[::1]:40123", "::1", 40123, true, "https://[::1]:40123"},
      {"  127.0.0.1  ", "127.0.0.1", 443, false, "https://127.0.0.1"},
  };
  for (const Case& c : cases) {
    auto ep = ParseEndpoint(c.in);
    ASSERT_THAT(ep, IsOk()) << c.in << ": " << ep.status();
    EXPECT_EQ(ep->host, c.host) << c.in;
    EXPECT_EQ(ep->port, c.port) << c.in;
    EXPECT_EQ(ep->ipv6, c.ipv6) << c.in;
    EXPECT_EQ(ep->base_url, c.base) << c.in;
  }
}

TEST(EndpointTest, Rejects) {
  for (const char* bad :
       {"", "http://ctrl", "ftp://ctrl", "ctrl:0", "ctrl:65536", "ctrl:x", "https://ctrl/api",
        "[::1", "[::1]x", "ctrl name", "https://", "[zz::1]", "ctrl:"}) {
    auto ep = ParseEndpoint(bad);
    EXPECT_THAT(ep, Not(IsOk())) << bad;
    if (!ep.ok()) {
      EXPECT_NE(ep.status().message().find("controller"), absl::string_view::npos);
    }
  }
}

TEST(EndpointTest, UserInfoIsRejectedWithoutEchoingIt) {
  auto ep = ParseEndpoint("https://admin:s3cret-Passw0rd@ctrl");
  ASSERT_THAT(ep, Not(IsOk()));
  EXPECT_EQ(ep.status().message().find("s3cret-Passw0rd"), absl::string_view::npos);
}

TEST(ConfigTest, DefaultsAreValid) {
  ClientConfig c = Good();
  EXPECT_EQ(c.tenant, "admin");
  EXPECT_FALSE(c.insecure);
  EXPECT_TRUE(c.api_version.empty());
  EXPECT_THAT(ValidateConfig(c), IsOk());
}

TEST(ConfigTest, ErrorsNameTheSetting) {
  ClientConfig c = Good();
  c.controller = "";
  ExpectInvalid(c, "controller");
  c = Good();
  c.username = "";
  ExpectInvalid(c, "username");
  c = Good();
  c.password = "";
  ExpectInvalid(c, "password");
  c = Good();
  c.auth_token = "t0ken-value";
  ExpectInvalid(c, "auth_token");
  c = Good();
  c.tenant = "";
  ExpectInvalid(c, "tenant");
  c = Good();
  c.api_version = "latest";
  ExpectInvalid(c, "api_version");
  c = Good();
  c.ca_file = "/nonexistent/ca.pem";
  ExpectInvalid(c, "ca_file");
  c = Good();
  c.ca_pem = "not a certificate";
  ExpectInvalid(c, "ca_pem");
  c = Good();
  c.insecure = true;
  c.ca_pem = "-----BEGIN CERTIFICATE-----\n";
  ExpectInvalid(c, "insecure");
  c = Good();
  c.request_timeout = absl::ZeroDuration();
  ExpectInvalid(c, "request_timeout");
  c = Good();
  c.total_timeout = -absl::Seconds(1);
  ExpectInvalid(c, "total_timeout");
  c = Good();
  c.max_retries = -1;
  ExpectInvalid(c, "max_retries");
  c = Good();
  c.page_size = 201;
  ExpectInvalid(c, "page_size");
  c = Good();
  c.backoff_initial = absl::Minutes(5);
  ExpectInvalid(c, "backoff_initial");
  c = Good();
  c.password = "bad\npassword";
  ExpectInvalid(c, "password");
}

TEST(ConfigTest, TokenInsteadOfPassword) {
  ClientConfig c = Good();
  c.password = "";
  c.auth_token = "t0ken-value";
  EXPECT_THAT(ValidateConfig(c), IsOk());
}

TEST(ConfigTest, ReadableCaFileIsAccepted) {
  std::string path = ::testing::TempDir() + "/config_test_ca.pem";
  {
    std::ofstream out(path);
    out << "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n";
  }
  ClientConfig c = Good();
  c.ca_file = path;
  EXPECT_THAT(ValidateConfig(c), IsOk());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace nsxalb::controller
