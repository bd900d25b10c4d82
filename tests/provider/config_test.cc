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
#include "tests/provider/test_values.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;

using framework::Diagnostics;
using framework::Severity;

const framework::Block& Schema() { return EmbeddedProviderSchema().block; }

// The provider block with `attrs`; unset attributes are null.
cty::Value ProviderBlockValue(std::map<std::string, cty::Value> attrs) {
  return cty::Value::ObjectOf(framework::ImpliedType(Schema()), std::move(attrs));
}

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
            (std::vector<std::string>{"NSXALB_CONTROLLER", "AVI_CONTROLLER"}));
}

TEST(ProviderConfigTest, MinimalConfigurationIsValid) {
  ProviderConfig out;
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(Minimal()), ConfigPhase::kConfigure, Env({}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.controller, "https://ctl.example.com");
  EXPECT_EQ(out.client.tenant, "admin");
  EXPECT_FALSE(out.client.insecure);
}

TEST(ProviderConfigTest, PasswordAndTokenTogetherIsAnErrorOnAuthToken) {
  auto attrs = Minimal();
  attrs["auth_token"] = S("tok-secret-123");
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "auth_token")) << d.ToString();
  EXPECT_EQ(d.ToString().find("tok-secret-123"), std::string::npos);
  EXPECT_EQ(d.ToString().find("pw"), std::string::npos);
}

TEST(ProviderConfigTest, UnreadableCaFileIsAnErrorOnCaFile) {
  auto attrs = Minimal();
  attrs["ca_file"] = S("/nonexistent/dir/ca.pem");
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  ASSERT_TRUE(Has(d, Severity::kError, "ca_file")) << d.ToString();
  EXPECT_NE(d.ToString().find("/nonexistent/dir/ca.pem"), std::string::npos);
}

TEST(ProviderConfigTest, CaFileWithoutCertificateIsAnError) {
  TempFile f("not a certificate");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "ca_file")) << d.ToString();
}

TEST(ProviderConfigTest, InsecureWithCaFileIsAnError) {
  TempFile f("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  attrs["insecure"] = cty::Value::Bool(true);
  ProviderConfig out;
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kConfigure, Env({}), &out);
  EXPECT_TRUE(Has(d, Severity::kError, "insecure")) << d.ToString();
  // The controller client refuses the same combination, so the provider reports it up front.
  EXPECT_FALSE(out.client.insecure);
}

TEST(ProviderConfigTest, CaFileAndCaPemTogetherIsAnError) {
  TempFile f("-----BEGIN CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(f.path());
  attrs["ca_pem"] = S("-----BEGIN CERTIFICATE-----\n");
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "ca_pem")) << d.ToString();
}

TEST(ProviderConfigTest, InvalidControllerAndApiVersion) {
  for (const char* bad :
       {"ftp://x", "http://ctl", "https://", "host name", "h:99999", "h/path", "u@h"}) {
    auto attrs = Minimal();
    attrs["controller"] = S(bad);
    Diagnostics d =
        CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
    EXPECT_TRUE(Has(d, Severity::kError, "controller")) << bad;
  }
  for (const char* good :
       {"https://127.0.0.1:8443/", "[::1]:443", "2001:db8::1", "ctl", "HTTPS://ctl"}) {
    auto attrs = Minimal();
    attrs["controller"] = S(good);
    Diagnostics d =
        CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr);
    EXPECT_FALSE(d.HasError()) << good << ": " << d.ToString();
  }
  auto attrs = Minimal();
  attrs["api_version"] = S("latest");
  EXPECT_TRUE(Has(
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr),
      Severity::kError, "api_version"));
  attrs["api_version"] = S("22.1.3");
  EXPECT_FALSE(
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr)
          .HasError());
}

TEST(ProviderConfigTest, ValidateDoesNotRequireWhatConfigureRequires) {
  Diagnostics validate =
      CheckConfig(Schema(), ProviderBlockValue({}), ConfigPhase::kValidate, Env({}), nullptr);
  EXPECT_FALSE(validate.HasError()) << validate.ToString();
  // No Controller is valid (nsxalb_se_sizing needs none); what is missing is kept for the
  // resources' error, which names every argument and variable to set.
  ProviderConfig out;
  Diagnostics configure =
      CheckConfig(Schema(), ProviderBlockValue({}), ConfigPhase::kConfigure, Env({}), &out);
  EXPECT_FALSE(configure.HasError()) << configure.ToString();
  for (const char* needle : {"\"controller\"", "NSXALB_CONTROLLER", "AVI_CONTROLLER",
                             "\"username\"", "\"password\"", "AVI_AUTHTOKEN"}) {
    EXPECT_NE(out.missing_controller_settings.find(needle), std::string::npos) << needle;
  }
  ProviderConfig full;
  ASSERT_FALSE(
      CheckConfig(Schema(), ProviderBlockValue(Minimal()), ConfigPhase::kConfigure, Env({}), &full)
          .HasError());
  EXPECT_EQ(full.missing_controller_settings, "");
}

TEST(ProviderConfigTest, AviEnvironmentVariablesAreFallbacks) {
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), ProviderBlockValue({}), ConfigPhase::kConfigure,
                              Env({{"AVI_CONTROLLER", "avi-ctl"},
                                   {"AVI_USERNAME", "avi-user"},
                                   {"AVI_AUTHTOKEN", "avi-token"},
                                   {"AVI_TENANT", "avi-tenant"},
                                   {"AVI_VERSION", "21.1.3"},
                                   {"AVI_API_TIMEOUT", "42"},
                                   {"NSXALB_TENANT", "nsxalb-tenant"}}),
                              &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.controller, "https://avi-ctl");
  EXPECT_EQ(out.client.username, "avi-user");
  EXPECT_EQ(out.client.auth_token, "avi-token");
  EXPECT_EQ(out.client.tenant, "nsxalb-tenant");  // NSXALB_* wins over AVI_*
  EXPECT_EQ(out.client.api_version, "21.1.3");
  EXPECT_EQ(out.client.total_timeout, absl::Seconds(42));
  ProviderConfig with_password;
  ASSERT_FALSE(
      CheckConfig(Schema(), ProviderBlockValue({}), ConfigPhase::kConfigure,
                  Env({{"AVI_CONTROLLER", "c"}, {"AVI_USERNAME", "u"}, {"AVI_PASSWORD", "p"}}),
                  &with_password)
          .HasError());
  EXPECT_EQ(with_password.client.password, "p");
}

TEST(ProviderConfigTest, TimeoutAndSizingPolicy) {
  auto attrs = Minimal();
  attrs["timeout_seconds"] = cty::Value::Int(5);
  attrs["sizing_policy"] = S("enforce");
  ProviderConfig out;
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kConfigure, Env({}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.total_timeout, absl::Seconds(5));
  EXPECT_LE(out.client.request_timeout, absl::Seconds(5));
  EXPECT_EQ(out.sizing_policy, segroup::SizingPolicy::kEnforce);
  ProviderConfig defaults;
  ASSERT_FALSE(CheckConfig(Schema(), ProviderBlockValue(Minimal()), ConfigPhase::kConfigure,
                           Env({}), &defaults)
                   .HasError());
  EXPECT_EQ(defaults.client.total_timeout, absl::Seconds(300));
  EXPECT_EQ(defaults.sizing_policy, segroup::SizingPolicy::kWarn);
  for (cty::Value bad : {cty::Value::Int(-1), cty::Value::Float(1.5), cty::Value::Int(100000)}) {
    attrs = Minimal();
    attrs["timeout_seconds"] = bad;
    EXPECT_TRUE(Has(
        CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr),
        Severity::kError, "timeout_seconds"))
        << bad.DebugString();
  }
  attrs = Minimal();
  attrs["sizing_policy"] = S("strict");
  EXPECT_TRUE(Has(
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr),
      Severity::kError, "sizing_policy"));
}

TEST(ProviderConfigTest, EnvironmentFillsUnsetAttributes) {
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), ProviderBlockValue({{"username", S("from-config")}}),
                              ConfigPhase::kConfigure,
                              Env({{"NSXALB_CONTROLLER", "https://env-ctl:9443"},
                                   {"NSXALB_USERNAME", "from-env"},
                                   {"NSXALB_AUTH_TOKEN", "tok"},
                                   {"NSXALB_INSECURE", "true"},
                                   {"NSXALB_TENANT", "t1"}}),
                              &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.controller, "https://env-ctl:9443");
  EXPECT_EQ(out.client.username, "from-config");
  EXPECT_EQ(out.client.auth_token, "tok");
  EXPECT_TRUE(out.client.insecure);
  EXPECT_EQ(out.client.tenant, "t1");
}

TEST(ProviderConfigTest, WrittenPasswordSuppressesTokenFromEnvironment) {
  ProviderConfig out;
  Diagnostics d = CheckConfig(Schema(), ProviderBlockValue(Minimal()), ConfigPhase::kConfigure,
                              Env({{"NSXALB_AUTH_TOKEN", "tok"}}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.password, "pw");
  EXPECT_EQ(out.client.auth_token, "");
  Diagnostics both =
      CheckConfig(Schema(), ProviderBlockValue({{"controller", S("c")}, {"username", S("u")}}),
                  ConfigPhase::kConfigure,
                  Env({{"NSXALB_AUTH_TOKEN", "tok"}, {"NSXALB_PASSWORD", "pw"}}), nullptr);
  EXPECT_TRUE(Has(both, Severity::kError, "auth_token")) << both.ToString();
}

TEST(ProviderConfigTest, UnknownValuesAreSkippedInValidateAndRejectedInConfigure) {
  auto attrs = Minimal();
  attrs["controller"] = cty::Value::Unknown(cty::Type::String());
  EXPECT_FALSE(
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kValidate, Env({}), nullptr)
          .HasError());
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kConfigure, Env({}), nullptr);
  EXPECT_TRUE(Has(d, Severity::kError, "controller")) << d.ToString();
}

TEST(ProviderTest, ConfigureKeepsTheParsedConfiguration) {
  NsxalbProvider provider(Env({}));
  EXPECT_EQ(provider.config(), nullptr);
  framework::ConfigureRequest bad;
  bad.config = ProviderBlockValue({{"controller", S("https://")}});
  framework::ConfigureResponse bad_resp;
  provider.Configure(bad, bad_resp);
  EXPECT_TRUE(bad_resp.diagnostics.HasError());
  EXPECT_EQ(provider.config(), nullptr);

  framework::ConfigureRequest good;
  good.config = ProviderBlockValue(Minimal());
  framework::ConfigureResponse good_resp;
  provider.Configure(good, good_resp);
  ASSERT_FALSE(good_resp.diagnostics.HasError()) << good_resp.diagnostics.ToString();
  ASSERT_NE(provider.config(), nullptr);
  EXPECT_EQ(provider.config()->client.username, "admin");
  EXPECT_EQ(provider.Resources().size(), 1u);
  EXPECT_EQ(provider.DataSources().size(), 6u);
}

// What Configure accepts is a configuration the Controller client accepts too.
TEST(ProviderConfigTest, ConfiguredSettingsAreValidClientSettings) {
  TempFile ca("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  auto attrs = Minimal();
  attrs["ca_file"] = S(ca.path());
  attrs["api_version"] = S("22.1.3");
  ProviderConfig out;
  Diagnostics d =
      CheckConfig(Schema(), ProviderBlockValue(attrs), ConfigPhase::kConfigure, Env({}), &out);
  ASSERT_FALSE(d.HasError()) << d.ToString();
  EXPECT_EQ(out.client.controller, "https://ctl.example.com");
  EXPECT_EQ(out.client.ca_file, ca.path());
  EXPECT_TRUE(out.client.ca_pem.empty());
  EXPECT_THAT(controller::ValidateConfig(out.client), IsOk());
}

}  // namespace
}  // namespace nsxalb::provider
