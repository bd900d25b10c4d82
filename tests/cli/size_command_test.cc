// The size command in-process: reports, JSON shape, exit codes and usage errors.
#include "plugin/cli/size/size_command.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/temp_file.h"

namespace nsxalb::cli {
namespace {

using ::nsxalb::testing::TestTempPath;
using ::nsxalb::testing::WriteTestTempFile;
using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome Size(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = RunSizeCommand(args, out, err);
  return {code, out.str(), err.str()};
}

nlohmann::json Json(const Outcome& run) {
  nlohmann::json j = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << run.out;
  return j;
}

TEST(SizeCommandTest, ReproducesMeasuredCellsForExplicitVcpus) {
  Outcome nsxt = Size({"--platform", "nsxt", "--vcpus-per-se", "4", "--json"});
  ASSERT_EQ(nsxt.code, 0) << nsxt.err;
  nlohmann::json j = Json(nsxt);
  const nlohmann::json& rps = j["check"]["capacity"]["per_se"]["l7_rps"];
  EXPECT_EQ(rps["value"], 153000);
  EXPECT_EQ(rps["basis"], "measured");
  EXPECT_EQ(rps["unit"], "RPS");
  EXPECT_THAT(rps["source"].get<std::string>(), HasSubstr("001_abd1a4d572c28938.txt"));
  Outcome vc = Size({"--platform", "vcenter", "--vcpus-per-se", "6", "--json"});
  ASSERT_EQ(vc.code, 0) << vc.err;
  const nlohmann::json ssl = Json(vc)["check"]["capacity"]["per_se"]["l7_ssl_gbps"];
  EXPECT_EQ(ssl["value"], 10.0);
  EXPECT_EQ(ssl["unit"], "Gbps");
  EXPECT_EQ(ssl["basis"], "measured");
  EXPECT_EQ(ssl["text"], "10 Gbps");
}

TEST(SizeCommandTest, RecommendsForAWorkloadWithBasisAndProvenance) {
  Outcome run =
      Size({"--platform", "nsxt", "--l7-rps", "150000", "--ssl-tps-ecc", "8000", "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  nlohmann::json j = Json(run);
  EXPECT_EQ(j["profile"]["seed_file"], "001_abd1a4d572c28938.txt");
  EXPECT_EQ(j["profile"]["avi_version"], "22.1.3");
  EXPECT_THAT(j["profile"]["cpu_model"].get<std::string>(), HasSubstr("6130"));
  const nlohmann::json& rec = j["recommendation"];
  EXPECT_EQ(rec["settings"]["vcpus_per_se"]["value"], 6);
  EXPECT_EQ(rec["settings"]["memory_per_se"]["value"], 12288);
  EXPECT_EQ(rec["settings"]["disk_per_se"]["value"], 29);
  EXPECT_EQ(rec["settings"]["num_dispatcher_cores"]["value"], 2);
  // One CPU budget: 73.2% + 69.6% on one SE; 2 SEs of 6 vCPUs at 71.4%.
  EXPECT_EQ(rec["settings"]["max_se"]["value"], 3);
  EXPECT_EQ(rec["se_count"]["value"], 2);
  EXPECT_EQ(rec["binding_metric"], "cpu");
  EXPECT_NEAR(rec["utilization"]["cpu"]["utilization_pct"].get<double>(), 71.37, 0.01);
  EXPECT_NEAR(rec["utilization"]["cpu"]["parts"]["l7_rps"].get<double>(), 36.59, 0.01);
  EXPECT_NEAR(rec["utilization"]["cpu"]["parts"]["ssl_tps_ecc"].get<double>(), 34.78, 0.01);
  EXPECT_EQ(rec["utilization"]["cpu"]["rule"], "one-cpu-budget-per-se");
  EXPECT_EQ(rec["ha_mode"], "HA_MODE_SHARED");
  for (const auto& [name, setting] : rec["settings"].items()) {
    EXPECT_TRUE(setting.contains("basis")) << name;
    EXPECT_TRUE(setting.contains("reason")) << name;
  }
  for (const auto& [key, figure] : rec["capacity"]["per_se"].items()) {
    EXPECT_FALSE(figure["basis"].get<std::string>().empty()) << key;
    EXPECT_FALSE(figure["source"].get<std::string>().empty()) << key;
  }
  EXPECT_EQ(rec["capacity"]["per_se"]["l4_open_conns"]["basis"], "cross-profile");
  EXPECT_NEAR(rec["utilization"]["l7_rps"]["utilization_pct"].get<double>(),
              150000.0 * 100 / 205000 / 2, 1e-9);
  EXPECT_EQ(rec["utilization"]["ssl_tps_ecc"]["needed"], 10000);
}

TEST(SizeCommandTest, TextReportShowsRecommendationCapacityAndWarnings) {
  Outcome run = Size({"--platform", "vcenter", "--ssl-tps-ecc", "8000", "--vcpus-per-se", "2"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Recommendation: 1 active SE + 1 buffer, 5 vCPUs"));
  EXPECT_THAT(run.out, HasSubstr("10,350  interpolated"));
  EXPECT_THAT(
      run.out,
      HasSubstr("1 SE of 2 vCPUs delivers 5,800 ECC SSL TPS (vcenter, measured); the workload "
                "needs 8,000 at 80% utilization = 10,000. Set vcpus_per_se = 5 (10,350, "
                "interpolated), or run 2 SEs."));
  EXPECT_THAT(run.out, HasSubstr("seed 000_e5a429f3661e1e94.txt"));
}

TEST(SizeCommandTest, StrictExitsOneWhenUnderSized) {
  EXPECT_EQ(
      Size({"--platform", "vcenter", "--ssl-tps-ecc", "8000", "--vcpus-per-se", "2", "--strict"})
          .code,
      1);
  EXPECT_EQ(
      Size({"--platform", "vcenter", "--ssl-tps-ecc", "8000", "--vcpus-per-se", "5", "--strict"})
          .code,
      0);
  // JSON reports under_sized too.
  Outcome run = Size({"--platform", "vcenter", "--ssl-tps-ecc=8000", "--vcpus-per-se=2", "--json"});
  EXPECT_EQ(Json(run)["check"]["under_sized"], true);
  EXPECT_EQ(Json(run)["findings"][0]["attribute"], "vcpus_per_se");
  EXPECT_EQ(Json(run)["findings"][0]["rule"], "demand-within-capacity");
}

TEST(SizeCommandTest, Tables) {
  Outcome text = Size({"--tables"});
  ASSERT_EQ(text.code, 0);
  EXPECT_THAT(text.out, HasSubstr("153,000"));
  EXPECT_THAT(text.out, HasSubstr("L7 SSL Throughput"));
  EXPECT_THAT(text.out, HasSubstr("Avi 20.1.6"));
  EXPECT_THAT(text.out, HasSubstr("n/p"));
  Outcome one = Size({"--tables", "--platform", "vcenter", "--json"});
  ASSERT_EQ(one.code, 0);
  nlohmann::json j = Json(one);
  ASSERT_EQ(j["profiles"].size(), 1u);
  EXPECT_EQ(j["profiles"][0]["sizes"][3]["values"]["l7_ssl_gbps"], 10.0);
  EXPECT_EQ(j["profiles"][0]["sizes"][1]["disk_gb"], 20);
}

TEST(SizeCommandTest, ThroughputFlagsAreGbps) {
  // 5.6 Gbps L7 at 80% needs 7 Gbps: vcenter 4 vCPUs (11 Gbps); 3 give 8.3.
  Outcome run =
      Size({"--platform", "vcenter", "--l7-gbps", "5.6", "--json", "--target-utilization", "80%"});
  ASSERT_EQ(run.code, 0) << run.err;
  nlohmann::json j = Json(run);
  EXPECT_EQ(j["workload"]["demand"]["l7_gbps"], 5.6);
  EXPECT_EQ(j["recommendation"]["settings"]["vcpus_per_se"]["value"], 3);
}

TEST(SizeCommandTest, InvalidSettingValuesExitTwoNamingFlagAndAttribute) {
  Outcome run = Size({"--platform", "nsxt", "--vcpus-per-se", "100"});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("--vcpus-per-se (vcpus_per_se)"));
  Outcome util = Size({"--platform", "nsxt", "--l7-rps", "1000", "--target-utilization", "95"});
  EXPECT_EQ(util.code, 2);
  EXPECT_THAT(util.err, HasSubstr("--target-utilization (workload.target_utilization)"));
  Outcome disp = Size({"--platform", "nsxt", "--vcpus-per-se", "4", "--num-dispatcher-cores", "3"});
  EXPECT_EQ(disp.code, 2);
  EXPECT_THAT(disp.err, HasSubstr("--num-dispatcher-cores"));
}

TEST(SizeCommandTest, UsageErrorsExitTwoNamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--platform", "nsxt", "--frobnicate", "1"}, "unknown flag --frobnicate"},
      {{"--platform", "nsxt", "--l7-rps", "abc"}, "--l7-rps: \"abc\" is not a number"},
      {{"--platform", "nsxt", "--l7-rps", "-5"}, "--l7-rps: -5 must be 0 or more"},
      {{"--platform", "nsxt", "--l4-gbps", "nan"}, "--l4-gbps"},
      {{"--platform", "nsxt", "--vcpus-per-se"}, "--vcpus-per-se: needs a value"},
      {{"--platform", "nsxt", "--vcpus-per-se", "2.5"},
       "--vcpus-per-se: \"2.5\" is not a whole number"},
      {{"--platform", "nsxt", "--cpu-reserve", "maybe"}, "--cpu-reserve: \"maybe\" must be"},
      {{"--platform", "aws", "--vcpus-per-se", "2"}, "--platform: \"aws\" must be vcenter or nsxt"},
      {{"--vcpus-per-se", "2"}, "--platform is required"},
      {{"--platform", "nsxt"}, "give a workload"},
      {{"--platform", "nsxt", "--vcpus-per-se", "2", "--vcpus-per-se", "4"},
       "--vcpus-per-se: given more than once"},
      {{"--platform", "nsxt", "--vcpus-per-se", "2", "--json=yes"}, "--json: takes no value"},
      {{"--platform", "nsxt", "4"}, "unexpected argument \"4\""},
  };
  for (const auto& [args, message] : cases) {
    Outcome run = Size(args);
    EXPECT_EQ(run.code, 2) << message;
    EXPECT_THAT(run.err, HasSubstr(message));
    EXPECT_THAT(run.err, HasSubstr("size --help"));
    EXPECT_EQ(run.out, "");
  }
}

TEST(SizeCommandTest, Help) {
  Outcome run = Size({"--help"});
  EXPECT_EQ(run.code, 0);
  for (const char* flag : {"--platform",
                           "--ssl-tps-ecc",
                           "--ssl-tps-rsa",
                           "--l7-rps",
                           "--l4-cps",
                           "--l4-open-conns",
                           "--l4-gbps",
                           "--l7-gbps",
                           "--l7-ssl-gbps",
                           "--target-utilization",
                           "--max-vcpus-per-se",
                           "--buffer-se",
                           "--max-scaleout-per-vs",
                           "--vcpus-per-se",
                           "--memory-per-se",
                           "--disk-per-se",
                           "--cpu-reserve",
                           "--mem-reserve",
                           "--dedicated-dispatcher-core",
                           "--num-dispatcher-cores",
                           "--max-queues-per-vnic",
                           "--hybrid-rss-mode",
                           "--min-scaleout-per-vs",
                           "--json",
                           "--strict",
                           "--tables",
                           "--svg",
                           "--observed-peak",
                           "--observed-usage"}) {
    EXPECT_THAT(run.out, HasSubstr(flag));
  }
  EXPECT_THAT(run.err, Not(HasSubstr("error")));
}

TEST(SizeCommandTest, EveryDocumentedFlagParses) {
  Outcome run = Size({"--platform",
                      "vcenter",
                      "--ssl-tps-ecc",
                      "1",
                      "--ssl-tps-rsa",
                      "1",
                      "--l7-rps",
                      "1",
                      "--l4-cps",
                      "1",
                      "--l4-open-conns",
                      "1",
                      "--l4-gbps",
                      "0.1",
                      "--l7-gbps",
                      "0.1",
                      "--l7-ssl-gbps",
                      "0.1",
                      "--target-utilization",
                      "70",
                      "--max-vcpus-per-se",
                      "8",
                      "--buffer-se",
                      "2",
                      "--max-scaleout-per-vs",
                      "2",
                      "--vcpus-per-se",
                      "1",
                      "--memory-per-se",
                      "2048",
                      "--disk-per-se",
                      "15",
                      "--cpu-reserve",
                      "true",
                      "--mem-reserve",
                      "true",
                      "--dedicated-dispatcher-core",
                      "false",
                      "--num-dispatcher-cores",
                      "0",
                      "--max-queues-per-vnic",
                      "0",
                      "--hybrid-rss-mode",
                      "false",
                      "--min-scaleout-per-vs",
                      "1",
                      "--json",
                      "--strict"});
  EXPECT_EQ(run.code, 0) << run.err;
  nlohmann::json j = Json(run);
  EXPECT_EQ(j["workload"]["max_vcpus_per_se"], 8);
  EXPECT_EQ(j["workload"]["buffer_se"], 2);
  EXPECT_EQ(j["check"]["given"].size(), 10u);
  EXPECT_EQ(j["findings"].size(), 0u) << j["findings"].dump();
}

// The flags' old names (before they took the Avi fields' names) stay accepted through 0.2.x, and
// the help says so: each gives the same report as its new name, and an old and a new name
// together are one flag given twice.
TEST(SizeCommandTest, OldFlagNamesAreAliases) {
  const std::vector<std::string> old_names = {"--platform",
                                              "nsxt",
                                              "--l7-rps",
                                              "150000",
                                              "--vcpus",
                                              "4",
                                              "--memory-mb",
                                              "8192",
                                              "--disk-gb",
                                              "30",
                                              "--dedicated-dispatcher",
                                              "true",
                                              "--hybrid-rss",
                                              "false",
                                              "--se-count",
                                              "2",
                                              "--json"};
  const std::vector<std::string> new_names = {"--platform",
                                              "nsxt",
                                              "--l7-rps",
                                              "150000",
                                              "--vcpus-per-se",
                                              "4",
                                              "--memory-per-se",
                                              "8192",
                                              "--disk-per-se",
                                              "30",
                                              "--dedicated-dispatcher-core",
                                              "true",
                                              "--hybrid-rss-mode",
                                              "false",
                                              "--min-scaleout-per-vs",
                                              "2",
                                              "--json"};
  Outcome old_run = Size(old_names);
  Outcome new_run = Size(new_names);
  ASSERT_EQ(old_run.code, 0) << old_run.err;
  EXPECT_EQ(old_run.out, new_run.out);
  nlohmann::json given = Json(new_run)["check"]["given"];
  EXPECT_EQ(given.size(), 6u) << given.dump();

  Outcome twice = Size({"--platform", "nsxt", "--vcpus", "2", "--vcpus-per-se", "4"});
  EXPECT_EQ(twice.code, 2);
  EXPECT_THAT(twice.err, HasSubstr("--vcpus-per-se: given more than once"));
  Outcome help = Size({"--help"});
  EXPECT_THAT(help.out, HasSubstr("Old names, accepted as aliases through 0.2.x"));
  for (const char* old_name : {"--vcpus (", "--memory-mb (", "--disk-gb (",
                               "--dedicated-dispatcher\n", "--hybrid-rss (", "--se-count\n"}) {
    EXPECT_THAT(help.out, HasSubstr(old_name));
  }
}

// --min-scaleout-per-vs is read as nsxalb_se_group reads min_scaleout_per_vs: with one virtual
// service, the active SEs; with several, the SEs each is placed on, checked against Avi's range.
TEST(SizeCommandTest, MinScaleoutPerVsFollowsTheVirtualServices) {
  nlohmann::json one = Json(
      Size({"--platform", "nsxt", "--l7-rps", "150000", "--min-scaleout-per-vs", "3", "--json"}));
  EXPECT_EQ(one["check"]["given"]["se_count"], 3) << one["check"].dump();
  Outcome many = Size({"--platform", "nsxt", "--l7-rps", "150000", "--min-scaleout-per-vs", "65",
                       "--virtual-services", "4"});
  EXPECT_EQ(many.code, 2);
  EXPECT_THAT(many.err, HasSubstr("--min-scaleout-per-vs (min_scaleout_per_vs): "
                                  "min_scaleout_per_vs must be 1-64, got 65"));
}

TEST(SizeCommandTest, ASingleMetricWorkloadKeepsItsRecommendation) {
  nlohmann::json rec =
      Json(Size({"--platform", "nsxt", "--l7-rps", "150000", "--json"}))["recommendation"];
  EXPECT_EQ(rec["se_count"]["value"], 1);
  EXPECT_EQ(rec["settings"]["vcpus_per_se"]["value"], 6);
  EXPECT_EQ(rec["binding_metric"], "l7_rps");
  EXPECT_NEAR(rec["utilization"]["cpu"]["utilization_pct"].get<double>(), 73.17, 0.01);
}

TEST(SizeCommandTest, StrictJudgesTheSumOfTheCpuBudget) {
  // vcenter 6 vCPUs: 100,000 RPS is 54% and 6,000 ECC TPS 50%; each fits 80% alone, the sum not.
  Outcome run = Size({"--platform", "vcenter", "--vcpus-per-se", "6", "--l7-rps", "100000",
                      "--ssl-tps-ecc", "6000", "--strict"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("CPU 104.1% = L7 RPS 54.1% + ECC SSL TPS 50.0%, over the 80% "
                                 "target"));
  EXPECT_THAT(run.out, HasSubstr("CPU budget per SE: CPU 104.1% = L7 RPS 54.1% + ECC SSL TPS "
                                 "50.0% !"));
  // Either alone fits.
  EXPECT_EQ(
      Size({"--platform", "vcenter", "--vcpus-per-se", "6", "--l7-rps", "100000", "--strict"}).code,
      0);
  EXPECT_EQ(
      Size({"--platform", "vcenter", "--vcpus-per-se", "6", "--ssl-tps-ecc", "6000", "--strict"})
          .code,
      0);
}

TEST(SizeCommandTest, HaModesShapeTheRecommendation) {
  nlohmann::json legacy = Json(Size({"--platform", "nsxt", "--l7-rps", "50000", "--ha-mode",
                                     "HA_MODE_LEGACY_ACTIVE_STANDBY", "--json"}));
  EXPECT_EQ(legacy["recommendation"]["se_count"]["value"], 1);
  EXPECT_EQ(legacy["recommendation"]["settings"]["max_se"]["value"], 2);
  EXPECT_EQ(legacy["workload"]["ha_mode"], "HA_MODE_LEGACY_ACTIVE_STANDBY");

  Outcome over = Size({"--platform", "nsxt", "--l7-rps", "400000", "--ha-mode",
                       "HA_MODE_LEGACY_ACTIVE_STANDBY", "--strict"});
  EXPECT_EQ(over.code, 1);
  EXPECT_THAT(over.out, HasSubstr("legacy-active-standby-one-active"));
  EXPECT_THAT(over.out, HasSubstr("HA_MODE_LEGACY_ACTIVE_STANDBY has one active SE and no "
                                  "scale-out"));
  EXPECT_THAT(over.out, HasSubstr("Recommendation: 1 active SE + 1 standby (active/standby)"));

  nlohmann::json pair = Json(Size({"--platform", "nsxt", "--l7-rps", "50000", "--ha-mode",
                                   "HA_MODE_SHARED_PAIR", "--json"}))["recommendation"];
  EXPECT_GE(pair["se_count"]["value"].get<int>(), 2);
  EXPECT_EQ(pair["settings"]["max_se"]["value"], pair["se_count"]["value"]);
  EXPECT_EQ(pair["settings"]["buffer_se"]["value"], 0);

  Outcome bad = Size({"--platform", "nsxt", "--l7-rps", "1", "--ha-mode", "ACTIVE_ACTIVE"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--ha-mode: ha_mode must be HA_MODE_SHARED"));
}

TEST(SizeCommandTest, VirtualServiceSlotsSetTheActiveCount) {
  nlohmann::json rec = Json(Size({"--platform", "nsxt", "--l7-rps", "1000", "--virtual-services",
                                  "25", "--max-vs-per-se", "10", "--json"}))["recommendation"];
  EXPECT_EQ(rec["se_count"]["value"], 3);
  EXPECT_EQ(rec["settings"]["max_se"]["value"], 4);
  EXPECT_EQ(rec["settings"]["min_scaleout_per_vs"]["value"], 1);
  Outcome slots = Size({"--platform", "nsxt", "--l7-rps", "1000", "--virtual-services", "25",
                        "--max-se", "3", "--strict"});
  EXPECT_EQ(slots.code, 1);
  EXPECT_THAT(slots.out, HasSubstr("[max_se] max_se = 3 leaves slots for 20 of 25"));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int Occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A usage report as `controller usage --json` writes it, with 10 daily CPU peaks from 50% growing
// by 2 points a day (68% on 2026-11-10): 80% in 6 days, on 2026-11-16.
nlohmann::json GrowingUsage() {
  nlohmann::json peaks = nlohmann::json::array();
  for (int i = 0; i < 10; ++i) {
    const std::string day = absl::StrCat(i + 1 < 10 ? "2026-11-0" : "2026-11-", i + 1);
    peaks.push_back({{"day", day}, {"value", 50 + 2 * i}});
  }
  return {{"name", "web"},
          {"observed", {{"l7_rps", 40000}, {"ssl_tps", nullptr}, {"cpu_pct", 68}}},
          {"assumptions", {{"ecc_share", 0}, {"throughput_key", "l4_gbps"}}},
          {"forecast",
           {{"days_to_target", 6},
            {"reaches_on", "2026-11-16"},
            {"measure", "cpu_pct"},
            {"subject", "web-se-1"},
            {"target_pct", 80},
            {"slope_per_day", 2},
            {"r_squared", 1},
            {"daily_peaks", peaks},
            {"reason", nullptr}}}};
}

// The chart of `size --platform nsxt --l7-rps 100000` with `usage` as --observed-usage.
Outcome ChartWithUsage(const nlohmann::json& usage, const std::string& svg) {
  std::remove(svg.c_str());
  const std::string file = WriteTestTempFile("usage.json", usage.dump(2));
  return Size({"--platform", "nsxt", "--l7-rps", "100000", "--svg", svg, "--observed-usage", file});
}

TEST(SizeCommandTest, ObservedUsageDrawsTheForecastPanel) {
  const nlohmann::json usage = GrowingUsage();
  const std::string svg_path = TestTempPath("forecast.svg");
  Outcome run = ChartWithUsage(usage, svg_path);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const std::string svg = ReadFile(svg_path);
  const nlohmann::json& peaks = usage["forecast"]["daily_peaks"];
  EXPECT_EQ(Occurrences(svg, "class=\"daily-peak\""), static_cast<int>(peaks.size()));
  for (const nlohmann::json& peak : peaks) {
    EXPECT_THAT(svg, HasSubstr(absl::StrCat("data-day=\"", peak["day"].get<std::string>(), "\"")));
  }
  EXPECT_EQ(Occurrences(svg, "class=\"trend\""), 1);
  EXPECT_EQ(Occurrences(svg, "class=\"forecast-target\""), 1);
  EXPECT_THAT(svg, HasSubstr(">reaches 80% in 6 days (2026-11-16)</text>"));
  EXPECT_THAT(svg, HasSubstr("Headroom forecast for web-se-1: daily peaks of cpu_pct"));
  // The line fitted again from the peaks: +2 a day, R² 1.
  EXPECT_THAT(svg, HasSubstr("trend, +2.00 a day"));
  EXPECT_THAT(svg, HasSubstr("R² 1.00"));
  // The report's observed L7 RPS, per SE at 80% on 1 SE: 40,000 / 0.8 = 50,000.
  EXPECT_THAT(svg, HasSubstr("observed peak, per SE: 50,000<"));
  // No SVG script or external reference.
  EXPECT_THAT(svg, Not(HasSubstr("<script")));
  EXPECT_THAT(svg, Not(HasSubstr("href=")));
}

TEST(SizeCommandTest, ObservedUsageWithoutAForecastSaysWhy) {
  nlohmann::json usage = GrowingUsage();
  nlohmann::json& f = usage["forecast"];
  for (size_t i = 0; i < f["daily_peaks"].size(); ++i) f["daily_peaks"][i]["value"] = 60.0 - i;
  f["days_to_target"] = nullptr;
  f["reaches_on"] = nullptr;
  f["reason"] = "the daily peaks do not grow (slope -1.00 a day)";
  const std::string svg_path = TestTempPath("falling.svg");
  Outcome run = ChartWithUsage(usage, svg_path);
  ASSERT_EQ(run.code, 0) << run.err;
  std::string svg = ReadFile(svg_path);
  EXPECT_EQ(Occurrences(svg, "class=\"daily-peak\""), 10);
  EXPECT_EQ(Occurrences(svg, "class=\"trend\""), 1);  // a falling line is still a line
  EXPECT_THAT(svg, HasSubstr(">no forecast: the daily peaks do not grow (slope -1.00 a day)<"));
  EXPECT_THAT(svg, Not(HasSubstr(">reaches ")));

  // One daily peak fits no line.
  f["daily_peaks"] = nlohmann::json::array({{{"day", "2026-11-01"}, {"value", 42}}});
  f["reason"] = "1 complete day of data; a forecast needs at least 7";
  run = ChartWithUsage(usage, svg_path);
  ASSERT_EQ(run.code, 0) << run.err;
  svg = ReadFile(svg_path);
  EXPECT_EQ(Occurrences(svg, "class=\"daily-peak\""), 1);
  EXPECT_EQ(Occurrences(svg, "class=\"trend\""), 0);
  EXPECT_THAT(svg, HasSubstr(">no forecast: 1 complete day of data; a forecast needs at least 7<"));
}

TEST(SizeCommandTest, ObservedPeakWinsOverTheUsageFile) {
  const std::string svg_path = TestTempPath("peak.svg");
  const std::string file = WriteTestTempFile("usage.json", GrowingUsage().dump());
  Outcome run = Size({"--platform", "nsxt", "--l7-rps", "100000", "--svg", svg_path,
                      "--observed-usage", file, "--observed-peak", "80000"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(ReadFile(svg_path), HasSubstr("observed peak, per SE: 100,000<"));
  // SSL TPS: the report does not split ECC from RSA, so it draws no observed peak for it.
  run = Size(
      {"--platform", "nsxt", "--ssl-tps-ecc", "8000", "--svg", svg_path, "--observed-usage", file});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(ReadFile(svg_path), Not(HasSubstr("class=\"observed\"")));
  EXPECT_THAT(ReadFile(svg_path), HasSubstr("class=\"daily-peak\""));
}

TEST(SizeCommandTest, ObservedUsageErrorsExitTwoNamingTheFlagAndTheMember) {
  const std::string svg = TestTempPath("never.svg");
  const std::string missing = TestTempPath("no-such-usage.json");
  std::remove(missing.c_str());
  const std::string not_json = WriteTestTempFile("not-json.json", "{\"forecast\": [1,");
  const auto with = [](const char* name, const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json usage = GrowingUsage();
    change(usage);
    return WriteTestTempFile(name, usage.dump());
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {missing, "--observed-usage: cannot read " + missing},
      {not_json, "--observed-usage: " + not_json + " is not JSON"},
      {with("no-forecast.json", [](nlohmann::json& u) { u.erase("forecast"); }),
       "forecast: missing"},
      {with("bad-value.json",
            [](nlohmann::json& u) { u["forecast"]["daily_peaks"][1]["value"] = "high"; }),
       "forecast.daily_peaks[1].value: a number is needed, not string"},
      {with("bad-day.json",
            [](nlohmann::json& u) { u["forecast"]["daily_peaks"][0]["day"] = "Nov 1"; }),
       "forecast.daily_peaks[0].day: \"Nov 1\" is not a day (YYYY-MM-DD)"},
      {with("repeated-day.json",
            [](nlohmann::json& u) { u["forecast"]["daily_peaks"][2]["day"] = "2026-11-02"; }),
       "forecast.daily_peaks[2].day: 2026-11-02 is not after the day before it"},
      {with("fractional-days.json",
            [](nlohmann::json& u) { u["forecast"]["days_to_target"] = 2.5; }),
       "forecast.days_to_target: 2.5 is not a whole number of days 0-365"},
      {with("no-target.json", [](nlohmann::json& u) { u["forecast"].erase("target_pct"); }),
       "forecast.target_pct: a number is needed, not null"},
      {with("bad-observed.json", [](nlohmann::json& u) { u["observed"]["l7_rps"] = "lots"; }),
       "observed.l7_rps: a number is needed, not string"},
  };
  for (const auto& [file, message] : cases) {
    std::remove(svg.c_str());
    Outcome run =
        Size({"--platform", "nsxt", "--l7-rps", "100000", "--svg", svg, "--observed-usage", file});
    EXPECT_EQ(run.code, 2) << message;
    EXPECT_THAT(run.err, HasSubstr(message));
    EXPECT_THAT(run.err, HasSubstr("size --help"));
    // The file is read before any output: a bad one prints no report and writes no chart.
    EXPECT_EQ(run.out, "") << message;
    EXPECT_FALSE(std::ifstream(svg).good()) << message;
  }
  // The forecast is only drawn: without --svg the flag is a usage error.
  Outcome no_svg = Size({"--platform", "nsxt", "--l7-rps", "100000", "--observed-usage",
                         WriteTestTempFile("usage.json", GrowingUsage().dump())});
  EXPECT_EQ(no_svg.code, 2);
  EXPECT_THAT(no_svg.err, HasSubstr("--observed-usage draws on the chart: give --svg FILE too"));
}

}  // namespace
}  // namespace nsxalb::cli
