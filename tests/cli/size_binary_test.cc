// Runs the built terraform-provider-nsxalb binary the way a user types it, with no plugin
// environment and no Controller, and checks the seed points the issue names.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace {

struct Result {
  int exit_code = -1;
  std::string output;
};

// Runs `binary args` through the shell with stdout (and stderr when asked) captured.
Result RunBinary(const std::string& args, bool merge_stderr = false) {
  const std::string command = std::string(
                                  "env -u PLUGIN_PROTOCOL_VERSIONS -u "
                                  "TF_PLUGIN_MAGIC_COOKIE '") +
                              NSXALB_PROVIDER_BINARY + "' " + args +
                              (merge_stderr ? " 2>&1" : " 2>/dev/null");
  Result r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

nlohmann::json Parse(const Result& r) {
  nlohmann::json j = nlohmann::json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << r.output;
  return j;
}

TEST(SizeBinaryTest, NsxtFourVcpusReports153000L7RpsMeasured) {
  Result r = RunBinary("size --platform nsxt --vcpus-per-se 4 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json rps = Parse(r)["check"]["capacity"]["per_se"]["l7_rps"];
  EXPECT_EQ(rps["value"], 153000);
  EXPECT_EQ(rps["basis"], "measured");
}

TEST(SizeBinaryTest, VcenterSixVcpusReports10GbpsL7SslMeasured) {
  Result r = RunBinary("size --platform vcenter --vcpus-per-se 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json ssl = Parse(r)["check"]["capacity"]["per_se"]["l7_ssl_gbps"];
  EXPECT_EQ(ssl["value"], 10.0);
  EXPECT_EQ(ssl["unit"], "Gbps");
  EXPECT_EQ(ssl["basis"], "measured");
}

TEST(SizeBinaryTest, WorkloadRecommendationInText) {
  Result r = RunBinary("size --platform nsxt --l7-rps 150000 --ssl-tps-ecc 8000");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Recommendation: 2 active SEs + 1 buffer, 6 vCPUs"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("205,000  measured"), std::string::npos) << r.output;
}

TEST(SizeBinaryTest, StrictUnderSizingAndUsageErrorsExitNonZero) {
  EXPECT_EQ(
      RunBinary("size --platform vcenter --ssl-tps-ecc 8000 --vcpus-per-se 2 --strict").exit_code,
      1);
  Result bad = RunBinary("size --platform nsxt --l7-rps lots", /*merge_stderr=*/true);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--l7-rps"), std::string::npos) << bad.output;
}

TEST(SizeBinaryTest, TablesPrintBothSeedTables) {
  Result r = RunBinary("size --tables");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("000_e5a429f3661e1e94.txt"), std::string::npos);
  EXPECT_NE(r.output.find("001_abd1a4d572c28938.txt"), std::string::npos);
}

}  // namespace
