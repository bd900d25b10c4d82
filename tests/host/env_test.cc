// Tests for the plugin environment contract (plugin/host/env.h).
#include "plugin/host/env.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::host {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

Environment TerraformEnv() {
  return {{kMagicCookieKey, kMagicCookieValue},
          {"PLUGIN_PROTOCOL_VERSIONS", "5,6"},
          {"PLUGIN_MIN_PORT", "10000"},
          {"PLUGIN_MAX_PORT", "25000"}};
}

TEST(ParseHostEnvironmentTest, TerraformDefaultsGivePlaintextProtocolFiveUnderTmp) {
  absl::StatusOr<HostConfig> config = ParseHostEnvironment(TerraformEnv());
  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->protocol_version, 5);
  EXPECT_EQ(config->client_cert_pem, "");
  EXPECT_EQ(config->socket_parent_dir, "/tmp");
}

TEST(ParseHostEnvironmentTest, MissingCookieIsNotAPlugin) {
  Environment env = TerraformEnv();
  env.erase(kMagicCookieKey);
  absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
  ASSERT_THAT(config, Not(IsOk()));
  EXPECT_THAT(config, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(config.status().message(), HasSubstr("This binary is a plugin"));
  EXPECT_FALSE(HasMagicCookie(env));
}

TEST(ParseHostEnvironmentTest, WrongCookieIsNotAPlugin) {
  Environment env = TerraformEnv();
  env[kMagicCookieKey] = "not-the-cookie";
  EXPECT_FALSE(HasMagicCookie(env));
  EXPECT_THAT(ParseHostEnvironment(env).status().message(), HasSubstr("This binary is a plugin"));
}

TEST(ParseHostEnvironmentTest, AcceptsEveryOfferThatContainsFive) {
  for (const char* offered : {"5", "5,6", "6,5", " 6 , 5 ", "4,5,6", "x,5", ""}) {
    Environment env = TerraformEnv();
    env["PLUGIN_PROTOCOL_VERSIONS"] = offered;
    absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
    ASSERT_THAT(config, IsOk()) << "offered \"" << offered << "\": " << config.status();
    EXPECT_EQ(config->protocol_version, 5);
  }
}

TEST(ParseHostEnvironmentTest, UnsetVersionsMeanFive) {
  Environment env = TerraformEnv();
  env.erase("PLUGIN_PROTOCOL_VERSIONS");
  absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->protocol_version, 5);
}

TEST(ParseHostEnvironmentTest, FiveNotOfferedIsAClearError) {
  for (const char* offered : {"6", "4,6", "55", "x", "6,50"}) {
    Environment env = TerraformEnv();
    env["PLUGIN_PROTOCOL_VERSIONS"] = offered;
    absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
    ASSERT_THAT(config, Not(IsOk())) << offered;
    EXPECT_THAT(config, StatusIs(absl::StatusCode::kFailedPrecondition));
    EXPECT_THAT(config.status().message(), HasSubstr("PLUGIN_PROTOCOL_VERSIONS"));
    EXPECT_THAT(config.status().message(), HasSubstr("protocol version 5"));
    EXPECT_THAT(config.status().message(), HasSubstr(offered));
  }
}

TEST(ParseHostEnvironmentTest, ClientCertMeansTls) {
  Environment env = TerraformEnv();
  env["PLUGIN_CLIENT_CERT"] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->client_cert_pem, env["PLUGIN_CLIENT_CERT"]);
}

TEST(ParseHostEnvironmentTest, EmptyClientCertMeansPlaintext) {
  Environment env = TerraformEnv();
  env["PLUGIN_CLIENT_CERT"] = "";
  absl::StatusOr<HostConfig> config = ParseHostEnvironment(env);
  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->client_cert_pem, "");
}

TEST(ParseHostEnvironmentTest, SocketDirPrefersPluginUnixSocketDirThenTmpdir) {
  Environment env = TerraformEnv();
  env["TMPDIR"] = "/var/tmp/t";
  EXPECT_EQ(ParseHostEnvironment(env)->socket_parent_dir, "/var/tmp/t");
  env["PLUGIN_UNIX_SOCKET_DIR"] = "/run/sockets";
  EXPECT_EQ(ParseHostEnvironment(env)->socket_parent_dir, "/run/sockets");
  env["PLUGIN_UNIX_SOCKET_DIR"] = "";
  EXPECT_EQ(ParseHostEnvironment(env)->socket_parent_dir, "/var/tmp/t");
  env["TMPDIR"] = "";
  EXPECT_EQ(ParseHostEnvironment(env)->socket_parent_dir, "/tmp");
}

TEST(ProcessEnvironmentTest, ReadsTheRealEnvironment) {
  ASSERT_EQ(setenv("NSXALB_HOST_ENV_TEST", "a=b", 1), 0);
  Environment env = ProcessEnvironment();
  EXPECT_EQ(env["NSXALB_HOST_ENV_TEST"], "a=b");
  unsetenv("NSXALB_HOST_ENV_TEST");
}

}  // namespace
}  // namespace nsxalb::host
