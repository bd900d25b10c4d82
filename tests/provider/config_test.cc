// The nsxalb provider block: validation with attribute paths, environment defaults, Configure.
#include "plugin/provider/config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"

namespace nsxalb::provider {
namespace {

using framework::Diagnostics;
using framework::Severity;

const framework::Block& Schema() { return EmbeddedProviderSchema().block; }

cty::Value Config(std::map<std::string, cty::Value> attrs) {
  return cty::Value::ObjectOf(framework::ImpliedType(Schema()), std::move(attrs));
}

cty::Value S(const std::string& s) { return cty::Value::String(s); }

framework::EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

bool Has(const Diagnostics& d, Severity sev, const std::string& attr) {
  for (const auto& x : d) {
    if (x.severity == sev && x.path.has_value() &&
        *x.path == cty::AttributePath().Attribute(attr)) {
      return true;
    }
  }
  return false;
}

std::map<std::string, cty::Value> Minimal() {
  return {{"controller", S("ctl.example.com")}, {"username", S("admin")}, {"password", S("pw")}};
}

class TempFile {
 public:
  // A file of its own (mkstemp), so that tests running in parallel processes never share one.
  explicit TempFile(const std::string& content) {
    std::string pattern = ::testing::TempDir() + "provider_config_test_ca_XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) close(fd);
    path_ = pattern;
    std::ofstream(path_) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(ProviderConfigTest, EmbeddedSchemaHasEveryAttribute) {
  for (const char* name : {"controller", "username", "password", "auth_token", "tenant",
                           "api_version", "ca_file", "ca_pem", "insecure"}) {
    EXPECT_NE(Schema().FindAttribute(name), nullptr) << name;
  }
  EXPECT_TRUE(Schema().attributes.at("password").sensitive);
  EXPECT_TRUE(Schema().attributes.at("auth_token").sensitive);
  EXPECT_EQ(Schema().attributes.at("controller").env,
            std::vector<std::string>{"NSXALB_CONTROLLER"});
}

TEST(ProviderConfigTest, MinimalConfigurationIsValid) {
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), Config(Minimal()), ConfigPhase::kConfigure, Env({}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.controller, "https://ctl.example.com");
  EXPECT_EQ(out.tenant, "admin");
  EXPECT_FALSE(out.insecure);
}

TEST(ProviderConfigTest, PasswordAndTokenTogetherIsAnErrorOnAuthToken) {
  auto attrs = Minimal();
  attrs["auth_token"] = S("tok-secret-123");
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "auth_token")) << d.ToString();
  EXPECT_EQ(d.ToString().find("tok-secret-123"), std::string::npos);
  EXPECT_EQ(d.ToString().find("pw"), std::string::npos);
}

TEST(ProviderConfigTest, UnreadableCaFileIsAnErrorOnCaFile) {
  auto attrs = Minimal();
  attrs["ca_file"] = S("/nonexistent/dir/ca.pem");
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  ASSERT_TRUE(Has(d, Severity::kError, "ca_file")) << d.ToString();
  EXPECT_NE(d.ToString().find("/nonexistent/dir/ca.pem"), std::string::npos);
}

TEST(ProviderConfigTest, CaFileWithoutCertificateIsAnError) {
  TempFile f("not a certificate");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "ca_file")) << d.ToString();
}

TEST(ProviderConfigTest, InsecureWithCaFileIsAnError) {
  TempFile f("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  attrs["insecure"] = cty::Value::Bool(true);
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kConfigure, Env({}), &out);
  EXPECT_TRUE(Has(d, Severity::kError, "insecure")) << d.ToString();
  // The controller client refuses the same combination, so the provider reports it up front.
  EXPECT_FALSE(out.insecure);
}

TEST(ProviderConfigTest, CaFileAndCaPemTogetherIsAnError) {
  TempFile f("-----BEGIN CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  attrs["ca_pem"] = S("-----BEGIN CERTIFICATE-----\n");
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "ca_pem")) << d.ToString();
}

TEST(ProviderConfigTest, InvalidControllerAndApiVersion) {
  for (const char* bad :
       {"ftp://x", "http://ctl", "https://", "host name", "h:99999", "h/path", "u@h"}) {
    auto attrs = Minimal();
    attrs["controller"] = S(bad);
    Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
    EXPECT_TRUE(Has(d, Severity::kError, "controller")) << bad;
  }
  for (const char* good :
       {"https://127.0.0.1:8443/", "[::1]:443", "2001:db8::1", "ctl", "HTTPS://ctl"}) {
    auto attrs = Minimal();
    attrs["controller"] = S(good);
    Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr);
    EXPECT_FALSE(d.HasError()) << good << ": " << d.ToString();
  }
  auto attrs = Minimal();
  attrs["api_version"] = S("latest");
  EXPECT_TRUE(Has(CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr),
                  Severity::kError, "api_version"));
  attrs["api_version"] = S("22.1.3");
  EXPECT_FALSE(
      CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr).HasError());
}

TEST(ProviderConfigTest, ValidateDoesNotRequireWhatConfigureRequires) {
  Diagnostics validate =
      CheckConfig(Schema(), Config({}), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_FALSE(validate.HasError()) << validate.ToString();
  Diagnostics configure =
      CheckConfig(Schema(), Config({}), ConfigPhase::kConfigure, Env({}), nullptr);
  EXPECT_TRUE(Has(configure, Severity::kError, "controller"));
  EXPECT_TRUE(Has(configure, Severity::kError, "username"));
  EXPECT_TRUE(Has(configure, Severity::kError, "password"));
}

TEST(ProviderConfigTest, EnvironmentFillsUnsetAttributes) {
  ProviderConfig out;
  Diagnostics d =
      CheckConfig(Schema(), Config({{"username", S("from-config")}}), ConfigPhase::kConfigure,
                  Env({{"NSXALB_CONTROLLER", "https://env-ctl:9443"},
                       {"NSXALB_USERNAME", "from-env"},
                       {"NSXALB_AUTH_TOKEN", "tok"},
                       {"NSXALB_INSECURE", "true"},
                       {"NSXALB_TENANT", "t1"}}),
                  &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.controller, "https://env-ctl:9443");
  EXPECT_EQ(out.username, "from-config");
  EXPECT_EQ(out.auth_token, "tok");
  EXPECT_TRUE(out.insecure);
  EXPECT_EQ(out.tenant, "t1");
}

TEST(ProviderConfigTest, WrittenPasswordSuppressesTokenFromEnvironment) {
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), Config(Minimal()), ConfigPhase::kConfigure,
                              Env({{"NSXALB_AUTH_TOKEN", "tok"}}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.password, "pw");
  EXPECT_EQ(out.auth_token, "");
  Diagnostics both = CheckConfig(
      Schema(), Config({{"controller", S("c")}, {"username", S("u")}}), ConfigPhase::kConfigure,
      Env({{"NSXALB_AUTH_TOKEN", "tok"}, {"NSXALB_PASSWORD", "pw"}}), nullptr);
  EXPECT_TRUE(Has(both, Severity::kError, "auth_token")) << both.ToString();
}

TEST(ProviderConfigTest, UnknownValuesAreSkippedInValidateAndRejectedInConfigure) {
  auto attrs = Minimal();
  attrs["controller"] = cty::Value::Unknown(cty::Type::String());
  EXPECT_FALSE(
      CheckConfig(Schema(), Config(attrs), ConfigPhase::kValidate, Env({}), nullptr).HasError());
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kConfigure, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "controller")) << d.ToString();
}

TEST(ProviderTest, ConfigureKeepsTheParsedConfiguration) {
  NsxalbProvider provider(Env({}));
  EXPECT_EQ(provider.config(), nullptr);
  framework::ConfigureRequest bad;
  bad.config = Config({});
  framework::ConfigureResponse bad_resp;
  provider.Configure(bad, bad_resp);
  EXPECT_TRUE(bad_resp.diagnostics.HasError());
  EXPECT_EQ(provider.config(), nullptr);

  framework::ConfigureRequest good;
  good.config = Config(Minimal());
  framework::ConfigureResponse good_resp;
  provider.Configure(good, good_resp);
  ASSERT_FALSE(good_resp.diagnostics.HasError()) << good_resp.diagnostics.ToString();
  ASSERT_NE(provider.config(), nullptr);
  EXPECT_EQ(provider.config()->username, "admin");
  EXPECT_TRUE(provider.Resources().empty());
  EXPECT_EQ(provider.DataSources().count("nsxalb_se_sizing"), 1u);
}

// What Configure accepts is a configuration the Controller client accepts too.
TEST(ProviderConfigTest, ConfiguredSettingsAreValidClientSettings) {
  TempFile ca("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(ca.path());
  attrs["api_version"] = S("22.1.3");
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), Config(attrs), ConfigPhase::kConfigure, Env({}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.controller, "https://ctl.example.com");
  EXPECT_EQ(out.ca_file, ca.path());
  EXPECT_TRUE(out.ca_pem.empty());
  EXPECT_TRUE(controller::ValidateConfig(out).ok()) << controller::ValidateConfig(out).status();
}

}  // namespace
}  // namespace nsxalb::provider
