// Process tests of the shipped binary's plugin host: started exactly as Terraform starts it
// (tests/harness/plugin_process.h), over mutual TLS, plaintext, and in --debug mode.
#include <grpcpp/grpcpp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/common/limits.h"
#include "proto/health.grpc.pb.h"
#include "proto/tfplugin5.grpc.pb.h"
#include "tests/harness/plugin_process.h"
#include "tests/support/status_matchers.h"

#ifndef NSXALB_PROVIDER_BINARY
#error "NSXALB_PROVIDER_BINARY must name the built terraform-provider-nsxalb"
#endif

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

constexpr absl::Duration kRpcTimeout = absl::Seconds(10);

PluginProcessOptions TerraformOptions() {
  PluginProcessOptions options;
  options.binary = NSXALB_PROVIDER_BINARY;
  return options;
}

std::unique_ptr<PluginProcess> StartOrDie(const PluginProcessOptions& options) {
  absl::StatusOr<std::unique_ptr<PluginProcess>> process = PluginProcess::Start(options);
  EXPECT_THAT(process, IsOk());
  return process.ok() ? *std::move(process) : nullptr;
}

grpc::Status CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                         grpc::health::v1::HealthCheckResponse* response) {
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoSeconds(kRpcTimeout));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("plugin");
  return stub->Check(&context, request, response);
}

bool PathExists(const std::string& path) {
  struct stat st = {};
  return stat(path.c_str(), &st) == 0;
}

std::string Dirname(const std::string& path) { return path.substr(0, path.rfind('/')); }

// A directory under /tmp removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/nsxalb-host-test-XXXXXX";
    path_ = mkdtemp(templ) != nullptr ? templ : "";
  }
  ~TempDir() { rmdir(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(PluginHostTest, WithoutMagicCookieExplainsAndExitsOne) {
  PluginProcessOptions options = TerraformOptions();
  options.magic_cookie = false;
  options.expect_handshake = false;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 1);
  EXPECT_THAT(process->Stderr(), HasSubstr("This binary is a plugin"));
  EXPECT_THAT(process->Stdout(), IsEmpty());
}

TEST(PluginHostTest, SubcommandsNeedNoCookie) {
  PluginProcessOptions options = TerraformOptions();
  options.magic_cookie = false;
  options.auto_mtls = false;
  options.expect_handshake = false;
  for (const char* flag : {"version", "--version"}) {
    options.args = {flag};
    auto process = StartOrDie(options);
    ASSERT_NE(process, nullptr);
    absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
    ASSERT_THAT(code, IsOk());
    EXPECT_EQ(*code, 0) << flag;
    EXPECT_THAT(process->Stdout(), StartsWith("terraform-provider-nsxalb "));
    EXPECT_THAT(process->Stdout(), HasSubstr("protocol 5"));
  }
}

TEST(PluginHostTest, ProtocolFiveNotOfferedIsAClearError) {
  PluginProcessOptions options = TerraformOptions();
  options.protocol_versions = "6";
  options.expect_handshake = false;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 1);
  EXPECT_THAT(process->Stderr(), HasSubstr("[ERROR]"));
  EXPECT_THAT(process->Stderr(), HasSubstr("PLUGIN_PROTOCOL_VERSIONS=\"6\""));
  EXPECT_THAT(process->Stderr(), HasSubstr("protocol version 5"));
  EXPECT_THAT(process->Stdout(), IsEmpty());
}

TEST(PluginHostTest, BadClientCertificateIsAClearError) {
  PluginProcessOptions options = TerraformOptions();
  options.expect_handshake = false;
  for (const char* bad :
       {"not a certificate",
        "-----BEGIN CERTIFICATE-----\nMIIBnjCCAUWgAwIBAgIQ\n-----END CERTIFICATE-----\n"}) {
    options.env["PLUGIN_CLIENT_CERT"] = bad;
    auto process = StartOrDie(options);
    ASSERT_NE(process, nullptr);
    absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
    ASSERT_THAT(code, IsOk());
    EXPECT_EQ(*code, 1);
    EXPECT_THAT(process->Stderr(), HasSubstr("PLUGIN_CLIENT_CERT"));
    EXPECT_THAT(process->Stdout(), IsEmpty());
  }
}

// The handshake line goes out before gRPC builds its TLS context (serve.h), and OpenSSL's
// configuration file is read in between. A configuration under which no TLS context can be
// built must still stop the plugin with the reason, not leave it serving nothing: here every
// algorithm fetch asks for a FIPS provider that is not there.
TEST(PluginHostTest, UnusableOpenSslConfigurationFailsAfterTheHandshake) {
  char path[] = "/tmp/nsxalb-openssl-cnf-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string config =
      "openssl_conf = openssl_init\n[openssl_init]\nalg_section = evp_properties\n"
      "[evp_properties]\ndefault_properties = \"fips=yes\"\n";
  ASSERT_EQ(write(fd, config.data(), config.size()), static_cast<ssize_t>(config.size()));
  close(fd);
  PluginProcessOptions options = TerraformOptions();
  options.env["OPENSSL_CONF"] = path;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  unlink(path);
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 1);
  EXPECT_THAT(process->Stderr(), HasSubstr("[ERROR] nsxalb plugin: cannot serve on unix socket"));
  EXPECT_THAT(process->Stderr(), HasSubstr("ssl"));
}

TEST(PluginHostTest, HandshakeLineHasSixFieldsAndALocalhostCertificate) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  const std::string line = process->handshake_line();
  const std::vector<std::string> fields = absl::StrSplit(line, '|');
  ASSERT_EQ(fields.size(), 6u) << line;
  EXPECT_EQ(fields[0], "1");
  EXPECT_EQ(fields[1], "5");
  EXPECT_EQ(fields[2], "unix");
  EXPECT_THAT(fields[3], StartsWith("/"));
  EXPECT_EQ(fields[4], "grpc");
  EXPECT_EQ(fields[5].find('='), std::string::npos);
  EXPECT_GT(fields[5].size(), 50u);
  EXPECT_EQ(process->Stdout(), line + "\n");

  std::string der;
  ASSERT_TRUE(absl::Base64Unescape(fields[5], &der));
  const unsigned char* in = reinterpret_cast<const unsigned char*>(der.data());
  X509* cert = d2i_X509(nullptr, &in, static_cast<long>(der.size()));  // NOLINT
  ASSERT_NE(cert, nullptr);
  EXPECT_EQ(X509_check_host(cert, "localhost", 0, 0, nullptr), 1);
  X509_free(cert);

  // The socket sits alone in a private directory.
  struct stat st = {};
  ASSERT_EQ(stat(Dirname(fields[3]).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_THAT(process->Shutdown(), IsOk());
}

TEST(PluginHostTest, MutualTlsHealthAndProviderRoundTrip) {
  for (const char* offered : {"5", "5,6", "6,5"}) {
    PluginProcessOptions options = TerraformOptions();
    options.protocol_versions = offered;
    auto process = StartOrDie(options);
    ASSERT_NE(process, nullptr) << offered;
    EXPECT_EQ(process->handshake().protocol_version, 5);

    grpc::health::v1::HealthCheckResponse health;
    grpc::Status status = CheckHealth(process->channel(), &health);
    ASSERT_THAT(status, IsOk()) << offered << ": " << status.error_message();
    EXPECT_EQ(health.status(), grpc::health::v1::HealthCheckResponse::SERVING);

    // A tfplugin5 call reaches the provider service through TLS: it either answers or says the
    // RPC is not implemented, never a transport error.
    auto provider = tfplugin5::Provider::NewStub(process->channel());
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoSeconds(kRpcTimeout));
    tfplugin5::GetProviderSchema::Response schema;
    status = provider->GetSchema(&context, tfplugin5::GetProviderSchema::Request(), &schema);
    EXPECT_TRUE(status.ok() || status.error_code() == grpc::StatusCode::UNIMPLEMENTED)
        << status.error_code() << " " << status.error_message();

    ASSERT_THAT(process->Shutdown(), IsOk());
  }
}

TEST(PluginHostTest, AnotherClientCertificateIsRefused) {
  PluginProcessOptions options = TerraformOptions();
  options.present_other_client_cert = true;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  grpc::health::v1::HealthCheckResponse health;
  const grpc::Status status = CheckHealth(process->channel(), &health);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_TRUE(process->Running());
}

TEST(PluginHostTest, ClientWithoutTlsIsRefusedWhenAutoMtlsIsOn) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  auto channel = grpc::CreateChannel("unix:" + process->handshake().address,
                                     grpc::InsecureChannelCredentials());
  grpc::health::v1::HealthCheckResponse health;
  const grpc::Status status = CheckHealth(channel, &health);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  ASSERT_THAT(process->Shutdown(), IsOk());
}

TEST(PluginHostTest, PlaintextWithoutClientCertificate) {
  PluginProcessOptions options = TerraformOptions();
  options.auto_mtls = false;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  EXPECT_THAT(process->handshake_line(), ::testing::EndsWith("|grpc|"));
  grpc::health::v1::HealthCheckResponse health;
  const grpc::Status status = CheckHealth(process->channel(), &health);
  ASSERT_THAT(status, IsOk()) << status.error_message();
  EXPECT_EQ(health.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  ASSERT_THAT(process->Shutdown(), IsOk());
}

TEST(PluginHostTest, NothingOnStdoutAfterTheHandshakeEvenWhileLogging) {
  PluginProcessOptions options = TerraformOptions();
  options.env["TF_LOG"] = "TRACE";
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  grpc::health::v1::HealthCheckResponse health;
  ASSERT_THAT(CheckHealth(process->channel(), &health), IsOk());
  ASSERT_THAT(process->Shutdown(), IsOk());
  EXPECT_THAT(process->StdoutAfterHandshake(), IsEmpty());
  EXPECT_EQ(process->Stdout(), process->handshake_line() + "\n");
  // The logs went to stderr, in go-plugin's "[LEVEL]" form.
  EXPECT_THAT(process->Stderr(), HasSubstr("[DEBUG] "));
}

TEST(PluginHostTest, ExitsWithinASecondOfShutdownAndRemovesTheSocket) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  const std::string socket = process->handshake().address;
  ASSERT_TRUE(PathExists(socket));
  // The requirement (Terraform itself kills the plugin after 2 s).
  absl::StatusOr<absl::Duration> took = process->Shutdown(absl::Seconds(1));
  ASSERT_THAT(took, IsOk());
  ::testing::Test::RecordProperty("exit_after_shutdown_ms",
                                  std::to_string(absl::ToDoubleMilliseconds(*took)));
  EXPECT_FALSE(PathExists(socket));
  EXPECT_FALSE(PathExists(Dirname(socket)));
}

TEST(PluginHostTest, SigtermExitsCleanlyAndRemovesTheSocket) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  const std::string socket = process->handshake().address;
  process->Signal(SIGTERM);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 0);
  EXPECT_FALSE(PathExists(Dirname(socket)));
}

TEST(PluginHostTest, SigintIsIgnored) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  process->Signal(SIGINT);
  // Still answering after the signal, and still running a while later.
  grpc::health::v1::HealthCheckResponse health;
  EXPECT_THAT(CheckHealth(process->channel(), &health), IsOk());
  EXPECT_EQ(process->Wait(absl::Milliseconds(300)).status().code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(process->Running());
  EXPECT_THAT(CheckHealth(process->channel(), &health), IsOk());
  ASSERT_THAT(process->Shutdown(), IsOk());
}

TEST(PluginHostTest, HonoursPluginUnixSocketDir) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  PluginProcessOptions options = TerraformOptions();
  options.env["PLUGIN_UNIX_SOCKET_DIR"] = dir.path();
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  EXPECT_THAT(process->handshake().address, StartsWith(dir.path() + "/"));
  ASSERT_THAT(process->Shutdown(), IsOk());
}

TEST(PluginHostTest, TmpdirOverTheSunPathLimitIsAClearError) {
  PluginProcessOptions options = TerraformOptions();
  options.expect_handshake = false;
  options.unset_env = {"PLUGIN_UNIX_SOCKET_DIR"};
  options.env["TMPDIR"] = "/tmp/" + std::string(110, 'x');
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 1);
  EXPECT_THAT(process->Stderr(), HasSubstr("107 bytes"));
  EXPECT_THAT(process->Stderr(), HasSubstr("TMPDIR"));
  EXPECT_THAT(process->Stdout(), IsEmpty());
}

TEST(PluginHostTest, DebugModePrintsReattachJsonAndServesPlaintext) {
  PluginProcessOptions options = TerraformOptions();
  options.args = {"--debug"};
  options.magic_cookie = false;
  options.auto_mtls = false;
  options.expect_handshake = false;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<std::string> out = process->WaitForStdout("'\n", absl::Seconds(20));
  ASSERT_THAT(out, IsOk()) << out.status() << "\nstderr: " << process->Stderr();

  const std::string marker = "TF_REATTACH_PROVIDERS='";
  const size_t start = out->find(marker);
  ASSERT_NE(start, std::string::npos) << *out;
  const size_t end = out->find('\'', start + marker.size());
  const nlohmann::json reattach = nlohmann::json::parse(
      out->substr(start + marker.size(), end - start - marker.size()), nullptr, false);
  ASSERT_FALSE(reattach.is_discarded()) << *out;
  ASSERT_TRUE(reattach.contains("registry.terraform.io/nsxalb/nsxalb")) << reattach;
  const nlohmann::json& entry = reattach["registry.terraform.io/nsxalb/nsxalb"];
  EXPECT_EQ(entry["Protocol"], "grpc");
  EXPECT_EQ(entry["ProtocolVersion"], 5);
  EXPECT_EQ(entry["Pid"], process->pid());
  EXPECT_EQ(entry["Test"], true);
  EXPECT_EQ(entry["Addr"]["Network"], "unix");
  const std::string socket = entry["Addr"]["String"];

  auto channel = grpc::CreateChannel("unix:" + socket, grpc::InsecureChannelCredentials());
  grpc::health::v1::HealthCheckResponse health;
  const grpc::Status status = CheckHealth(channel, &health);
  ASSERT_THAT(status, IsOk()) << status.error_message();
  EXPECT_EQ(health.status(), grpc::health::v1::HealthCheckResponse::SERVING);

  // In debug mode Ctrl-C stops the provider.
  process->Signal(SIGINT);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 0);
  EXPECT_FALSE(PathExists(Dirname(socket)));
}

TEST(PluginHostTest, UnknownFlagIsRejected) {
  PluginProcessOptions options = TerraformOptions();
  options.args = {"--frobnicate"};
  options.expect_handshake = false;
  auto process = StartOrDie(options);
  ASSERT_NE(process, nullptr);
  absl::StatusOr<int> code = process->Wait(absl::Seconds(10));
  ASSERT_THAT(code, IsOk());
  EXPECT_EQ(*code, 2);
  EXPECT_THAT(process->Stderr(), HasSubstr("--frobnicate"));
}

}  // namespace
}  // namespace nsxalb::harness

namespace nsxalb::harness {
namespace {

// limits::kMaxGrpcMessageBytes, at the limit, through the shipped binary over mutual TLS: a
// request of exactly that size reaches the provider (which answers with a diagnostic about the
// bytes), one byte more is refused by gRPC before any handler runs.
TEST(PluginHostTest, GrpcMessageSizeAtTheLimit) {
  auto process = StartOrDie(TerraformOptions());
  ASSERT_NE(process, nullptr);
  auto provider = tfplugin5::Provider::NewStub(process->channel());
  auto send = [&provider](size_t size, tfplugin5::PrepareProviderConfig::Response* response) {
    tfplugin5::PrepareProviderConfig::Request request;
    std::string* bytes = request.mutable_config()->mutable_msgpack();
    bytes->reserve(size);
    bytes->assign(size - 16, '\xc0');  // msgpack nil, then trailing bytes: a quick decode error
    while (request.ByteSizeLong() < size) bytes->push_back('\xc0');
    EXPECT_EQ(request.ByteSizeLong(), size);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    return provider->PrepareProviderConfig(&context, request, response);
  };
  const size_t limit = static_cast<size_t>(limits::kMaxGrpcMessageBytes);
  tfplugin5::PrepareProviderConfig::Response at;
  grpc::Status status = send(limit, &at);
  ASSERT_THAT(status, IsOk()) << status.error_code() << " " << status.error_message();
  ASSERT_FALSE(at.diagnostics().empty());
  EXPECT_EQ(at.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);

  tfplugin5::PrepareProviderConfig::Response over;
  status = send(limit + 1, &over);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("larger than max"));
  ASSERT_THAT(process->Shutdown(), IsOk());
}

}  // namespace
}  // namespace nsxalb::harness
