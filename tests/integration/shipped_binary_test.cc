// The shipped terraform-provider-nsxalb, launched exactly as Terraform launches it: handshake
// with AutoMTLS, GetSchema over mutual TLS (equal to what `terraform-provider-nsxalb schema
// --json` prints, and valid by Terraform's InternalValidate), PrepareProviderConfig and
// Configure, Shutdown within a second, a foreign client certificate refused, the nsxalb_se_sizing
// data source read over the wire, and no resources yet (real ones come in their own issue). Also
// runs the nsxalb-tf demo CLI.
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/harness/terraform_driver.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kAddress[] = "registry.terraform.io/nsxalb/nsxalb";
// Variables the provider reads as defaults; cleared so the host's environment cannot leak in.
const std::vector<std::string> kProviderEnv = {
    "NSXALB_CONTROLLER", "NSXALB_USERNAME", "NSXALB_PASSWORD",
    "NSXALB_AUTH_TOKEN", "NSXALB_TENANT",   "NSXALB_API_VERSION",
    "NSXALB_INSECURE",   "NSXALB_CA_FILE",  "NSXALB_CA_PEM"};

DriverOptions Shipped() {
  DriverOptions options;
  options.process.binary = NSXALB_SHIPPED_PROVIDER;
  options.process.unset_env = kProviderEnv;
  options.provider_address = kAddress;
  return options;
}

// Runs a shell command line (bounded by coreutils timeout) and returns its stdout and exit code.
struct CommandResult {
  std::string out;
  int code = -1;
};
CommandResult RunCommand(const std::string& command_line) {
  CommandResult result;
  FILE* pipe = popen(absl::StrCat("timeout 30 ", command_line).c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string Quoted(const std::string& path) { return absl::StrCat("'", path, "'"); }

TEST(ShippedBinaryTest, HandshakesWithAutoMtlsForOldAndCurrentTerraform) {
  for (const char* versions : {"5", "5,6", "6,5"}) {
    PluginProcessOptions options = Shipped().process;
    options.protocol_versions = versions;
    absl::StatusOr<std::unique_ptr<PluginProcess>> p = PluginProcess::Start(options);
    ASSERT_THAT(p, IsOk()) << versions << ": " << p.status();
    EXPECT_EQ((*p)->handshake().core_version, 1);
    EXPECT_EQ((*p)->handshake().protocol_version, 5);
    EXPECT_EQ((*p)->handshake().network, "unix");
    EXPECT_EQ((*p)->handshake().protocol, "grpc");
    EXPECT_FALSE((*p)->handshake().cert_der.empty());
    absl::StatusOr<absl::Duration> exit = (*p)->Shutdown(absl::Seconds(1));
    EXPECT_THAT(exit, IsOk());
    EXPECT_EQ((*p)->StdoutAfterHandshake(), "");
  }
}

TEST(ShippedBinaryTest, GetSchemaOverMutualTlsEqualsTheSchemaCommand) {
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "schema", &log);
  ASSERT_THAT(session, IsOk());
  const std::string from_grpc = ProviderSchemasJsonFromProto(kAddress, (*session)->raw_schema());
  ASSERT_THAT((*session)->Close(), IsOk());

  // As a user types it, with no plugin environment.
  CommandResult cli =
      RunCommand(absl::StrCat("env -u TF_PLUGIN_MAGIC_COOKIE -u PLUGIN_CLIENT_CERT ",
                              Quoted(NSXALB_SHIPPED_PROVIDER), " schema --json"));
  ASSERT_EQ(cli.code, 0) << cli.out;
  nlohmann::json doc = nlohmann::json::parse(cli.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << cli.out;
  ASSERT_TRUE(doc["provider_schemas"].contains(kAddress)) << cli.out;
  std::string why;
  EXPECT_TRUE(SameProviderSchemasJson(from_grpc, cli.out, &why))
      << why << "\nGetSchema:\n"
      << from_grpc << "\nschema --json:\n"
      << cli.out;

  // The comparison does see a difference: one flag changed in the CLI's document.
  nlohmann::json& attrs = doc["provider_schemas"][kAddress]["provider"]["block"]["attributes"];
  ASSERT_TRUE(attrs.contains("controller"));
  attrs["controller"]["sensitive"] = true;
  EXPECT_FALSE(SameProviderSchemasJson(from_grpc, doc.dump(), &why));
  EXPECT_THAT(why, HasSubstr("controller"));
}

TEST(ShippedBinaryTest, SchemaPassesTerraformsInternalValidate) {
  std::vector<std::string> log;
  // Open already validates every resource and data source schema; check the provider block too.
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "schema", &log);
  ASSERT_THAT(session, IsOk());
  const tfplugin5::GetProviderSchema::Response& raw = (*session)->raw_schema();
  EXPECT_THAT(ValidateSchema(raw.provider(), "provider"), IsOk());
  EXPECT_GT(raw.provider().block().attributes_size(), 0);
  for (const auto& [name, schema] : raw.resource_schemas()) {
    EXPECT_THAT(ValidateSchema(schema, name), IsOk()) << name;
  }
  ASSERT_THAT((*session)->Close(), IsOk());
}

TEST(ShippedBinaryTest, CarriesOneResourceAndFiveDataSources) {
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "schema", &log);
  ASSERT_THAT(session, IsOk());
  const auto& raw = (*session)->raw_schema();
  ASSERT_EQ(raw.resource_schemas_size(), 1);
  EXPECT_FALSE(raw.resource_schemas().at("nsxalb_se_group").block().description().empty());
  EXPECT_EQ(raw.data_source_schemas_size(), 6);
  for (const char* name :
       {"nsxalb_se_sizing", "nsxalb_cloud", "nsxalb_se_group", "nsxalb_se_group_usage",
        "nsxalb_se_groups_usage", "nsxalb_license_usage"}) {
    ASSERT_TRUE(raw.data_source_schemas().contains(name)) << name;
    EXPECT_FALSE(raw.data_source_schemas().at(name).block().description().empty()) << name;
  }
  ASSERT_THAT((*session)->Close(), IsOk());
}

TEST(ShippedBinaryTest, SizesWithTheDataSourceOverTheWire) {
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "plan", &log);
  ASSERT_THAT(session, IsOk());
  absl::StatusOr<const Schema*> schema = (*session)->DataSourceSchema("nsxalb_se_sizing");
  ASSERT_THAT(schema, IsOk());
  absl::StatusOr<cty::Value> config = NormalizeConfig(
      (*schema)->block,
      cty::Value::Object(
          {{"platform", cty::Value::String("nsxt")},
           {"workload", cty::Value::Object({{"l7_rps", cty::Value::Int(150000)},
                                            {"l7_gbps", cty::Value::Float(1.5)}})}}));
  ASSERT_THAT(config, IsOk());
  ASSERT_THAT((*session)->ValidateDataSourceConfig("nsxalb_se_sizing", *config), IsOk());
  absl::StatusOr<cty::Value> state =
      (*session)->ReadDataSource("data.nsxalb_se_sizing.s", "nsxalb_se_sizing", *config);
  ASSERT_THAT(state, IsOk());
  EXPECT_EQ(state->GetAttribute("vcpus_per_se")->AsNumber().ToString(), "6");
  EXPECT_EQ(state->GetAttribute("summary")->AsString(),
            "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)");
  ASSERT_EQ(state->GetAttribute("metrics")->elements().size(), 2u);
  EXPECT_EQ(state->GetAttribute("metrics")->elements()[1].GetAttribute("demand")->AsNumber(),
            cty::Number::Float(1.5));
  EXPECT_TRUE((*session)->warnings().empty());
  ASSERT_THAT((*session)->Close(), IsOk());
}

// Terraform 0.13.7 (which cannot run on the development machine) replayed by the harness: its
// destroy is a plan process that only upgrades the state, then an apply process that deletes, so
// PlanResourceChange never runs and sizing_policy = "enforce" cannot block it, even after the
// configuration was edited to another under-sized group; a normal apply of that edit still
// fails on the gate (docs/design/se-group-resource.md, "The enforce gate never blocks a destroy").
TEST(ShippedBinaryTest, Terraform0137DestroyNeverMeetsTheEnforceGate) {
  auto emulator = nsxalb::testing::EmulatorProcess::Start({});
  ASSERT_THAT(emulator, IsOk());
  DriverOptions options = Shipped();
  options.process.unset_env = {"NSXALB_AUTH_TOKEN", "NSXALB_TENANT", "NSXALB_API_VERSION",
                               "NSXALB_INSECURE", "NSXALB_CA_PEM"};
  options.process.env = {{"NSXALB_CONTROLLER", (*emulator)->url()},
                         {"NSXALB_USERNAME", "admin"},
                         {"NSXALB_PASSWORD", "admin"},
                         {"NSXALB_CA_FILE", (*emulator)->ca_file()}};
  options.provider_config = cty::Value::Object({{"sizing_policy", cty::Value::String("warn")}});
  TerraformDriver driver(options);
  const std::string address = "nsxalb_se_group.tls";
  auto group = [](int vcpus) {
    return cty::Value::Object(
        {{"name", cty::Value::String("tls")},
         {"platform", cty::Value::String("vcenter")},
         {"vcpus_per_se", cty::Value::Int(vcpus)},
         {"workload", cty::Value::Object({{"ssl_tps_ecc", cty::Value::Int(8000)}})}});
  };
  absl::StatusOr<PlannedChange> created = driver.Apply(address, group(2));
  ASSERT_THAT(created, IsOk());
  ASSERT_NE(driver.State(address), nullptr);

  driver.mutable_options().provider_config =
      cty::Value::Object({{"sizing_policy", cty::Value::String("enforce")}});
  absl::StatusOr<PlannedChange> edited = driver.Apply(address, group(3));
  ASSERT_THAT(edited, Not(IsOk()));
  EXPECT_THAT(std::string(edited.status().message()), HasSubstr("ECC SSL TPS under-delivered"));

  driver.ClearLog();
  absl::Status destroyed = driver.Destroy(address);
  ASSERT_THAT(destroyed, IsOk());
  EXPECT_EQ(driver.State(address), nullptr);
  for (const std::string& call : driver.log()) {
    EXPECT_THAT(call, Not(HasSubstr("PlanResourceChange"))) << "0.13.7 plans no destroy";
  }
  auto state = (*emulator)->Control("GET", "state");
  ASSERT_THAT(state, IsOk());
  for (const nlohmann::json& g : (*state)["serviceenginegroup"]) EXPECT_NE(g["name"], "tls");
}

TEST(ShippedBinaryTest, PrepareProviderConfigAndConfigure) {
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "configure", &log);
  ASSERT_THAT(session, IsOk());
  absl::StatusOr<cty::Value> config =
      NormalizeConfig((*session)->provider_schema().block,
                      cty::Value::Object({{"controller", cty::Value::String("127.0.0.1:8443")},
                                          {"username", cty::Value::String("admin")},
                                          {"password", cty::Value::String("pw-123")}}));
  ASSERT_THAT(config, IsOk());
  absl::StatusOr<cty::Value> prepared = (*session)->PrepareProviderConfig(*config);
  ASSERT_THAT(prepared, IsOk());
  EXPECT_THAT((*session)->Configure(*config), IsOk());
  EXPECT_THAT((*session)->Close(), IsOk());
  EXPECT_THAT(log,
              ::testing::ElementsAre("configure: GetSchema", "configure: PrepareProviderConfig",
                                     "configure: Configure", "configure: Shutdown"));
}

TEST(ShippedBinaryTest, BadProviderConfigFailsWithoutShowingTheSecret) {
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> session =
      ProviderSession::Open(Shipped(), "configure", &log);
  ASSERT_THAT(session, IsOk());
  // A Controller address that does not parse.
  absl::StatusOr<cty::Value> config = NormalizeConfig(
      (*session)->provider_schema().block,
      cty::Value::Object({{"controller", cty::Value::String("https://")},
                          {"username", cty::Value::String("admin")},
                          {"password", cty::Value::String("hunter2-very-secret")}}));
  ASSERT_THAT(config, IsOk());
  absl::Status configured = (*session)->Configure(*config);
  ASSERT_THAT(configured, Not(IsOk()));
  EXPECT_THAT(configured.message(), HasSubstr("Error: "));
  EXPECT_THAT(configured.message(), HasSubstr("controller"));
  EXPECT_THAT(configured.message(), Not(HasSubstr("hunter2-very-secret")));
  EXPECT_THAT((*session)->Close(), IsOk());
  EXPECT_THAT((*session)->process().Stderr(), Not(HasSubstr("hunter2-very-secret")));
}

TEST(ShippedBinaryTest, ValidateWalkAndRefusalOfAnotherClientCertificate) {
  TerraformDriver driver(Shipped());
  driver.mutable_options().provider_config =
      cty::Value::Object({{"controller", cty::Value::String("127.0.0.1:8443")}});
  // An unknown resource type is Terraform's "Invalid resource type".
  absl::Status r = driver.Validate("nsxalb_no_such_type", cty::Value::Object({}));
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.message(), HasSubstr("does not support resource type \"nsxalb_no_such_type\""));
  EXPECT_THAT(driver.CheckRefusesOtherClientCertificate(), IsOk());
}

TEST(NsxalbTfCliTest, HandshakeAndSchemaCommands) {
  const std::string tf = Quoted(NSXALB_TF_CLI);
  const std::string provider = Quoted(NSXALB_SHIPPED_PROVIDER);
  CommandResult handshake = RunCommand(absl::StrCat(tf, " handshake ", provider));
  ASSERT_EQ(handshake.code, 0) << handshake.out;
  EXPECT_THAT(handshake.out, HasSubstr("plugin protocol:    5 (tfplugin5)"));
  EXPECT_THAT(handshake.out, HasSubstr("mutual TLS"));
  EXPECT_THAT(handshake.out, HasSubstr("time to handshake:"));
  EXPECT_THAT(handshake.out, HasSubstr("RSS at handshake:"));
  EXPECT_THAT(handshake.out, HasSubstr("time to exit:"));
  EXPECT_THAT(handshake.out, HasSubstr("stdout after line:  nothing"));

  CommandResult schema = RunCommand(absl::StrCat(tf, " schema ", provider));
  ASSERT_EQ(schema.code, 0) << schema.out;
  EXPECT_THAT(schema.out, HasSubstr("controller  \"string\"  (optional)"));
  EXPECT_THAT(schema.out, HasSubstr("password  \"string\"  (optional, sensitive)"));
  EXPECT_THAT(schema.out, HasSubstr("resources: 1"));

  CommandResult test_provider =
      RunCommand(absl::StrCat(tf, " schema ", Quoted(NSXALB_TEST_PROVIDER)));
  ASSERT_EQ(test_provider.code, 0) << test_provider.out;
  EXPECT_THAT(test_provider.out, HasSubstr("nsxalbtest_thing (schema version 1)"));

  CommandResult usage = RunCommand(absl::StrCat(tf, " 2>&1"));
  EXPECT_EQ(usage.code, 2);
  EXPECT_THAT(usage.out, HasSubstr("usage: nsxalb-tf"));

  CommandResult not_a_plugin = RunCommand(absl::StrCat(tf, " handshake /bin/true 2>&1"));
  EXPECT_EQ(not_a_plugin.code, 1);
  EXPECT_THAT(not_a_plugin.out, HasSubstr("plugin exited before we could connect"));
}

}  // namespace
}  // namespace nsxalb::harness
