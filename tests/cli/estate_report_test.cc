// The estate's front ends in-process, from a hand-built estate: the CSV's quoting, the table's
// order and total line, the JSON read back with the path of what is wrong, estate-report's
// Markdown and chart from a file, its errors on bad input, and plan-report's Estate section from
// the same renderer.
#include "plugin/cli/estate/estate_report.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/estate/estate_html.h"
#include "plugin/cli/estate/estate_report_command.h"
#include "plugin/cli/estate/estate_usage_text.h"
#include "plugin/cli/estate/estate_view.h"
#include "plugin/cli/plan_report/plan_report_command.h"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/usage/estate_reader.h"
#include "plugin/segroup/usage/report.h"
#include "tests/support/temp_file.h"

namespace nsxalb::cli {
namespace {

using ::nsxalb::testing::TestTempPath;
using ::nsxalb::testing::WriteTestTempFile;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

// One group as the estate reader reports it.
struct GroupSpec {
  std::string name;
  std::string cloud;
  std::vector<double> se_cpu;  // one SE each, its CPU peak; empty with observed = false
  std::optional<double> now, recommended, reclaimable;
  std::optional<int> days_to_target;
  bool at_risk = false;
  bool observed = true;
};

segroup::EstateGroup Group(const GroupSpec& spec) {
  segroup::EstateGroup g;
  g.name = spec.name;
  g.uuid = "serviceenginegroup-" + spec.name.substr(0, 3);
  g.cloud = spec.cloud;
  g.platform = sizing::Platform::kNsxt;
  g.at_risk = spec.at_risk;
  g.observed = spec.observed;
  segroup::UsageReport& r = g.report;
  r.target_pct = 80;
  r.se_count = static_cast<int>(spec.se_cpu.size());
  double highest = 0;
  for (size_t i = 0; i < spec.se_cpu.size(); ++i) {
    segroup::SeUsage se;
    se.uuid = "se-" + std::to_string(i);
    se.name = spec.name + "-se-" + std::to_string(i + 1);
    if (spec.observed) se.cpu.value = spec.se_cpu[i];
    highest = std::max(highest, spec.se_cpu[i]);
    r.service_engines.push_back(se);
  }
  if (spec.observed) r.observed[static_cast<int>(segroup::ObservedKey::kCpuPct)].value = highest;
  // Its running SEs, matched by the lifecycle code against 4 vCPUs: the first SE of `big` runs
  // 2 vCPUs (behind the settings); `dark` has no listing (as an estate written before 0.3).
  if (spec.name != "dark") {
    std::vector<segroup::lifecycle::RunningSe> running;
    for (const segroup::SeUsage& se : r.service_engines) {
      running.push_back({se.uuid, se.name, spec.name == "big" && se.uuid == "se-0" ? 2 : 4, 8192,
                         20, "SE_STATE_ENABLED", "OPER_UP", false});
    }
    r.running_ses = segroup::lifecycle::MatchSettings(
        std::move(running), {{"vcpus_per_se", 4}, {"memory_per_se", 8192}}, {});
  }
  r.service_units = {spec.now, spec.recommended, spec.reclaimable,
                     spec.reclaimable.has_value() ? "" : "no observed load"};
  if (spec.days_to_target.has_value()) {
    r.forecast.days_to_target = spec.days_to_target;
    r.forecast.reaches_at = absl::FromCivil(absl::CivilDay(2026, 5, 1), absl::UTCTimeZone()) +
                            absl::Hours(24 * *spec.days_to_target);
    r.forecast_subject = spec.name + "-se-1";
  }
  if (!spec.observed) {
    r.findings.push_back(segroup::AnalyticsUnavailableFinding(
        absl::PermissionDeniedError("HTTP 403: analytics are not licensed")));
  }
  return g;
}

// Four groups in the reader's order (most reclaimable first, unknown last): one over-sized, one
// whose SE ran above the target (its name needs CSV quoting), one whose forecast reaches the
// target, one without analytics.
segroup::EstateUsage HandBuiltEstate() {
  segroup::EstateUsage estate;
  estate.groups = {
      Group({"big", "nsxt-cloud", {12, 10}, 24, 8, 16, std::nullopt, false, true}),
      Group({"web, \"east\"", "Default-Cloud", {91, 40, 35}, 18, 12, 6, std::nullopt, true, true}),
      Group({"api", "nsxt-cloud", {55}, 6, 6, 0, 20, true, true}),
      Group({"dark",
             "nsxt-cloud",
             {0, 0},
             12,
             std::nullopt,
             std::nullopt,
             std::nullopt,
             false,
             false}),
  };
  estate.totals = {4, 2, 1, 60, 26, 22, 1};
  estate.metrics_requests = 1;
  return estate;
}

EstateView HandBuiltView() {
  absl::StatusOr<EstateView> view = ReadEstateView(segroup::EstateUsageJson(HandBuiltEstate()));
  EXPECT_TRUE(view.ok()) << view.status();
  return view.ok() ? *view : EstateView();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome EstateReport(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = RunEstateReportCommand(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(CsvRecordTest, QuotesFieldsWithCommasQuotesAndLineBreaks) {
  EXPECT_EQ(CsvRecord({"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", ""}),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rhere\",\n");
  EXPECT_EQ(CsvRecord({"\""}), "\"\"\"\"\n");
  EXPECT_EQ(CsvRecord({}), "\n");
}

TEST(EstateUsageTextTest, CsvHasTheHeaderAndOneRowPerGroupWithPlainFigures) {
  const std::string csv = EstateUsageCsv(HandBuiltView());
  const std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 5u) << csv;
  EXPECT_EQ(lines[0],
            "name,uuid,cloud,platform,se_count,ses_behind_settings,su_now,su_recommended,"
            "su_reclaimable,cpu_peak_pct,days_to_target,reaches_on,at_risk,observed,note,"
            "license_tier,su_now_ledger,tier_licensed,tier_consumed,tier_escrow,tier_remaining,"
            "tier_remaining_after_reclaim");
  // Without the ledger the licence columns are empty.
  EXPECT_EQ(lines[1],
            "big,serviceenginegroup-big,nsxt-cloud,nsxt,2,1,24,8,16,12,,,false,true,,,,,,,,");
  EXPECT_EQ(lines[2],
            "\"web, \"\"east\"\"\",serviceenginegroup-web,Default-Cloud,nsxt,3,0,18,12,6,91,,,"
            "true,true,,,,,,,,");
  EXPECT_EQ(lines[3],
            "api,serviceenginegroup-api,nsxt-cloud,nsxt,1,0,6,6,0,55,20,2026-05-21,true,"
            "true,,,,,,,,");
  EXPECT_EQ(lines[4],
            "dark,serviceenginegroup-dar,nsxt-cloud,nsxt,2,,12,,,,,,false,false,"
            "The Controller's analytics are unavailable,,,,,,,");
}

// The licence: SUs now from the ledger with the derivation beside it where they differ, the
// pool line per tier, and the CSV's licence columns from the row's tier.
TEST(EstateUsageTextTest, TheLicencePoolAndTheLedgersUnits) {
  EstateView view = HandBuiltView();
  view.groups[0].license_tier = "ENTERPRISE";
  view.groups[0].license_service_units_now = 20;  // the vCPUs give 24
  view.groups[1].license_tier = "ENTERPRISE";
  view.groups[1].license_service_units_now = 18;  // as the vCPUs
  segroup::EstateLicensePool pool;
  pool.pool = {"ENTERPRISE", 64, 56, 4, 4};
  pool.remaining_after_reclaim = 26;
  view.license_pool.push_back(pool);
  const std::string text = EstateUsageText(view);
  EXPECT_THAT(text, HasSubstr("20 (vCPUs: 24)"));
  EXPECT_THAT(text, HasSubstr("Licence pool ENTERPRISE: 64 licensed, 56 consumed, 4 in escrow, 4 "
                              "remaining; 26 remaining after the reclaimable units come back\n"));
  const std::vector<std::string> lines =
      absl::StrSplit(EstateUsageCsv(view), '\n', absl::SkipEmpty());
  EXPECT_THAT(lines[1], ::testing::EndsWith(",ENTERPRISE,20,64,56,4,4,26"));
  EXPECT_THAT(lines[2], ::testing::EndsWith(",ENTERPRISE,18,64,56,4,4,26"));
  view.license_error = "controller: HTTP 403";
  EXPECT_THAT(EstateUsageText(view), HasSubstr("Licence pool unknown: controller: HTTP 403\n"));
}

TEST(EstateUsageTextTest, TableFollowsTheEstatesOrderAndEndsWithTheTotal) {
  EXPECT_EQ(EstateUsageText(HandBuiltView()),
            "SE group     cloud          SEs  SEs behind settings  SUs now  SUs recommended  SUs "
            "reclaimable  CPU peak  forecast  at risk  note\n"
            "big          nsxt-cloud       2                    1       24                8      "
            "         16     12.0%         -  no\n"
            "web, \"east\"  Default-Cloud    3                    0       18               12      "
            "          6     91.0%         -  yes\n"
            "api          nsxt-cloud       1                    0        6                6      "
            "          0     55.0%   20 days  yes\n"
            "dark         nsxt-cloud       2                    -       12                -      "
            "          -         -         -  no       The Controller's analytics are unavailable\n"
            "\n"
            "Total: 4 groups, 60 SUs now, 26 recommended, 22 reclaimable; 2 at risk; 1 without "
            "observed load; 1 SE behind settings\n");
}

TEST(EstateViewTest, ReadsWhyAGroupIsAtRisk) {
  const EstateView view = HandBuiltView();
  ASSERT_EQ(view.groups.size(), 4u);
  EXPECT_EQ(AtRiskReason(view.groups[1]),
            "CPU peak 91.0% above the 80% target (web, \"east\"-se-1 91.0%)");
  EXPECT_EQ(AtRiskReason(view.groups[2]),
            "the forecast reaches 80% in 20 days (2026-05-21, api-se-1)");
  EXPECT_EQ(view.metrics_requests, 1);
}

TEST(EstateViewTest, NamesTheJsonPathOfWhatIsMissingOrOfAnotherType) {
  const Json good = segroup::EstateUsageJson(HandBuiltEstate());
  const auto error = [](const Json& j) {
    return std::string(ReadEstateView(j).status().message());
  };
  Json j = good;
  j["groups"][1]["usage"].erase("se_count");
  EXPECT_EQ(error(j), "$.groups[1].usage.se_count: missing");
  j = good;
  j["totals"]["groups"] = "4";
  EXPECT_EQ(error(j), "$.totals.groups: want a whole number, got string \"4\"");
  j = good;
  j["groups"][0]["usage"]["service_units"]["now"] = nullptr;
  EXPECT_TRUE(ReadEstateView(j).ok());  // unknown figures are null
  j = good;
  j["groups"][2]["at_risk"] = 1;
  EXPECT_EQ(error(j), "$.groups[2].at_risk: want true or false, got number 1");
  j = good;
  j.erase("groups");
  EXPECT_EQ(error(j), "$.groups: missing");
  EXPECT_EQ(error(Json::array()), "$: want an object with groups and totals, got array");
}

TEST(EstateReportTest, WritesMarkdownAndAChartFromAFile) {
  const std::string input =
      WriteTestTempFile("estate.json", segroup::EstateUsageJson(HandBuiltEstate()).dump(2));
  const std::string svg_path = TestTempPath("estate.svg");
  Outcome run = EstateReport({input, "--svg", svg_path});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_THAT(run.out,
              HasSubstr("## NSX ALB SE groups: usage of the estate\n\nTotal: 4 groups, 60 "
                        "SUs now, 26 recommended, 22 reclaimable; 2 at risk; 1 without "
                        "observed load; 1 SE behind settings. Read with 1 metrics request"));
  EXPECT_THAT(run.out, HasSubstr("| SE group | cloud | SEs | SEs behind settings | SUs now | SUs "
                                 "recommended | SUs reclaimable | CPU peak | forecast | at risk | "
                                 "note |\n"
                                 "|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|\n"));
  EXPECT_THAT(run.out, HasSubstr("| web, \"east\" | Default-Cloud | 3 | 0 | 18 | 12 | 6 | 91.0% | "
                                 "- | yes |  |\n"));
  EXPECT_THAT(run.out, HasSubstr("### SEs behind settings\n\n"
                                 "- `big` (nsxt-cloud): big-se-1: new-ses-only (vcpus_per_se).\n"
                                 "\n(rule ses-behind-settings: "));
  EXPECT_EQ(Count(run.out, "\n| "), 5);  // the header and four groups
  EXPECT_THAT(run.out,
              HasSubstr("### At risk\n\n"
                        "- `web, \"east\"` (Default-Cloud): CPU peak 91.0% above the 80% target "
                        "(web, \"east\"-se-1 91.0%).\n"
                        "- `api` (nsxt-cloud): the forecast reaches 80% in 20 days (2026-05-21, "
                        "api-se-1).\n"));
  EXPECT_THAT(run.out, HasSubstr("### Reclaimable\n\n"
                                 "- `big` (nsxt-cloud): **16 SUs reclaimable** of 24 SUs now (8 "
                                 "recommended from the observed load).\n"
                                 "- `web, \"east\"` (Default-Cloud): **6 SUs reclaimable** of 18 "
                                 "SUs now (12 recommended from the observed load).\n\n"));
  EXPECT_THAT(run.out, HasSubstr("](" + svg_path + ")"));

  const std::string svg = ReadFile(svg_path);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u) << svg;
  EXPECT_EQ(Count(svg, "<rect class=\"su-now\""), 4);
  EXPECT_EQ(Count(svg, "<rect class=\"su-recommended\""), 4);
  EXPECT_EQ(Count(svg, "class=\"at-risk\""), 2);
  EXPECT_EQ(Count(svg, "class=\"legend-at-risk\""), 1);
  EXPECT_THAT(svg, HasSubstr("<title>SE groups' Service Units: 60 SUs now, 26 recommended, 22 "
                             "reclaimable (4 groups, 2 at risk)</title>"));
  EXPECT_THAT(svg, HasSubstr("web, &quot;east&quot;"));
  EXPECT_THAT(svg, Not(HasSubstr("<script")));
  EXPECT_THAT(svg, Not(HasSubstr("href")));
  // The bars share one scale: 24 SUs is the longest (470 px), 12 SUs half of it.
  EXPECT_THAT(svg, HasSubstr("class=\"su-now\" x=\"230.0\" y=\"84.0\" width=\"470.0\""));
  EXPECT_THAT(svg, HasSubstr("class=\"su-recommended\" x=\"230.0\" y=\"138.0\" width=\"235.0\""));

  // --out: the same Markdown in a file, nothing on stdout.
  const std::string md_path = TestTempPath("estate.md");
  Outcome to_file = EstateReport({input, "--out", md_path, "--svg=" + svg_path});
  ASSERT_EQ(to_file.code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(ReadFile(md_path), run.out);
}

// The hand-built estate with a hostile group name, a tenant per group and a licence pool, as the
// JSON `controller usage --all --all-tenants --json` writes with the ledger.
Json HostileEstateJson() {
  segroup::EstateUsage estate = HandBuiltEstate();
  estate.groups[0].name = "<script>alert('x')</script>";
  estate.groups[1].cloud = "\"><img src=x onerror=alert(1)>";
  Json json = segroup::EstateUsageJson(estate);
  json["groups"][0]["tenant"] = "team-a & <b>";
  json["groups"][2]["tenant"] = "admin";
  json["license_pool"] = Json::array({Json{{"tier", "ENTERPRISE"},
                                           {"licensed", 64},
                                           {"consumed", 56},
                                           {"escrow", 4},
                                           {"remaining", 4},
                                           {"remaining_after_reclaim", 26}}});
  return json;
}

TEST(EstateHtmlTest, EscapesEveryStringFromTheController) {
  absl::StatusOr<EstateView> view = ReadEstateView(HostileEstateJson());
  ASSERT_TRUE(view.ok()) << view.status();
  const std::string html = EstateHtml(*view, "Estate <of> \"us\"");
  // One script element, the page's own; the hostile strings are text.
  EXPECT_EQ(Count(html, "<script"), 1) << html;
  EXPECT_EQ(Count(html, "<img"), 0);
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert('x')&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
  EXPECT_THAT(html, HasSubstr("team-a &amp; &lt;b&gt;"));
  EXPECT_THAT(html, HasSubstr("<title>Estate &lt;of&gt; &quot;us&quot;</title>"));
  // Nothing is loaded from anywhere: the only URL is the SVG namespace.
  EXPECT_EQ(Count(html, "://"), Count(html, "http://www.w3.org/2000/svg"));
  EXPECT_THAT(html, HasSubstr("content=\"default-src 'none';"));
}

TEST(EstateHtmlTest, ShowsThePoolTheTotalsTheTenantAndSortableFigures) {
  absl::StatusOr<EstateView> view = ReadEstateView(HostileEstateJson());
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_EQ(view->license_pool.size(), 1u);
  const std::string html = EstateHtml(*view, "Estate");
  EXPECT_THAT(html, HasSubstr("<p class=\"pool-line\" data-tier=\"ENTERPRISE\">Licence pool "
                              "ENTERPRISE: 64 licensed, 56 consumed, 4 in escrow, 4 remaining; 26 "
                              "remaining after the reclaimable units come back</p>"));
  // The meter: consumed 56 of 64 and 4 in escrow, as widths.
  EXPECT_THAT(html, HasSubstr("class=\"consumed\" style=\"width:87.50%\""));
  EXPECT_THAT(html, HasSubstr("class=\"escrow\" style=\"width:6.25%\""));
  EXPECT_THAT(html, HasSubstr(">Total: 4 groups, 60 SUs now, 26 recommended, 22 reclaimable; 2 "
                              "at risk; 1 without observed load; 1 SE behind settings.</p>"));
  // A tenant column after the name (some groups carry one), "-" where a group has none.
  EXPECT_THAT(html, HasSubstr("<th scope=\"col\" data-key=\"se-group\" data-type=\"text\">SE "
                              "group</th><th scope=\"col\" data-key=\"tenant\""));
  EXPECT_THAT(html, HasSubstr("</a></td><td>team-a &amp; &lt;b&gt;</td>"));
  // Figures sort as numbers: data-sort holds the number, "" when unknown.
  EXPECT_THAT(html, HasSubstr("<td class=\"num\" data-sort=\"24\">24</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\" data-sort=\"\">-</td>"));
  EXPECT_THAT(html, HasSubstr("data-key=\"sus-reclaimable\" data-type=\"number\" class=\"num\""));
  // One row and one chart per group; the charts of the groups at risk first.
  EXPECT_EQ(Count(html, "<tr data-order="), 4);
  EXPECT_EQ(Count(html, "<article class=\"card group"), 4);
  const size_t web = html.find("<article class=\"card group at-risk\" id=\"group-1\"");
  const size_t api = html.find("<article class=\"card group at-risk\" id=\"group-2\"");
  const size_t big = html.find("<article class=\"card group\" id=\"group-0\"");
  ASSERT_NE(web, std::string::npos);
  ASSERT_NE(api, std::string::npos);
  ASSERT_NE(big, std::string::npos);
  EXPECT_LT(web, api);
  EXPECT_LT(api, big);
  EXPECT_THAT(html, HasSubstr("CPU peak 91.0% above the 80% target"));
}

TEST(EstateHtmlTest, WithoutAPoolSaysSoAndColumnKeysAreSlugs) {
  const std::string html = EstateHtml(HandBuiltView(), "Estate");
  EXPECT_THAT(html, HasSubstr("carries no licence pool"));
  EXPECT_THAT(html, Not(HasSubstr("data-key=\"tenant\"")));
  EXPECT_EQ(EstateColumnKey("SUs now"), "sus-now");
  EXPECT_EQ(EstateColumnKey("SE group"), "se-group");
  EXPECT_EQ(EstateColumnKey("CPU peak"), "cpu-peak");
}

TEST(EstateReportTest, HtmlFlagWritesThePage) {
  const std::string input = WriteTestTempFile("estate-html.json", HostileEstateJson().dump());
  const std::string html_path = TestTempPath("estate.html");
  Outcome run = EstateReport({input, "--html", html_path});
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string html = ReadFile(html_path);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_THAT(html, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_THAT(html, Not(HasSubstr("<?xml")));
  // The Markdown still goes to stdout, with the tenant column.
  EXPECT_THAT(run.out, HasSubstr("| SE group | tenant | cloud |"));
  Outcome unwritable = EstateReport({input, "--html", ::testing::TempDir() + "/no/such/x.html"});
  EXPECT_EQ(unwritable.code, 1);
  EXPECT_THAT(unwritable.err, HasSubstr("cannot write"));
}

TEST(EstateReportTest, BadInputNamesTheFileAndTheJsonPath) {
  const std::string missing = ::testing::TempDir() + "/no-such-estate.json";
  Outcome run = EstateReport({missing});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr(missing + ": cannot be read"));

  const std::string not_json = WriteTestTempFile("not-json.json", "groups: []\n");
  run = EstateReport({not_json});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr(not_json + " is not JSON ("));

  Json estate = segroup::EstateUsageJson(HandBuiltEstate());
  estate["groups"][3]["usage"].erase("forecast");
  const std::string no_forecast = WriteTestTempFile("no-forecast.json", estate.dump());
  run = EstateReport({no_forecast});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr(no_forecast + " is not an estate as `controller usage --all "
                                               "--json` writes it: $.groups[3].usage.forecast: "
                                               "missing"));
  EXPECT_EQ(run.out, "");

  // The single group's JSON (`controller usage NAME --json`) is not an estate either.
  const std::string one_group =
      WriteTestTempFile("one-group.json", R"({"name": "web", "se_count": 2})");
  run = EstateReport({one_group});
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("$.groups: missing"));

  EXPECT_EQ(EstateReport({}).code, 2);
  EXPECT_EQ(EstateReport({one_group, "--frobnicate"}).code, 2);
  EXPECT_EQ(EstateReport({one_group, "--svg"}).code, 2);
  Outcome help = EstateReport({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.rfind("Usage: terraform-provider-nsxalb estate-report", 0), 0u);
}

TEST(EstateReportTest, AnEmptyEstateSaysSo) {
  segroup::EstateUsage none;
  const std::string input = WriteTestTempFile("empty.json", segroup::EstateUsageJson(none).dump());
  Outcome run = EstateReport({input, "--svg", ::testing::TempDir() + "/empty.svg"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Total: 0 groups, 0 SUs now"));
  EXPECT_THAT(run.out, HasSubstr("No SE group matched."));
  EXPECT_EQ(Count(ReadFile(::testing::TempDir() + "/empty.svg"), "class=\"su-now\""), 0);
}

// The data source's value in a plan: the Estate section is estate-report's Markdown, one heading
// level down, under the data source's address.
TEST(PlanReportEstateTest, AnEstateDataSourceGetsTheSameMarkdown) {
  Json values = segroup::EstateUsageJson(HandBuiltEstate());
  values["cloud"] = nullptr;
  values["name_regex"] = "";
  values["window"] = "7d";
  const Json resource = {{"address", "data.nsxalb_se_groups_usage.all"},
                         {"mode", "data"},
                         {"type", "nsxalb_se_groups_usage"},
                         {"name", "all"},
                         {"values", values}};
  const Json plan = {{"format_version", "1.2"},
                     {"planned_values", {{"root_module", {{"resources", {resource}}}}}},
                     {"prior_state", {{"values", {{"root_module", {{"resources", {resource}}}}}}}}};
  const std::string path = WriteTestTempFile("estate-plan.json", plan.dump());
  std::ostringstream out, err;
  ASSERT_EQ(RunPlanReportCommand({path}, out, err), 0) << err.str();
  const std::string report = out.str();
  const std::string section =
      EstateMarkdown(HandBuiltView(), "Estate: `data.nsxalb_se_groups_usage.all`", 3);
  EXPECT_THAT(report, HasSubstr("\n" + section));
  EXPECT_EQ(Count(report, "### Estate: "), 1);  // once, though both trees hold it
  EXPECT_THAT(section, HasSubstr("#### At risk\n"));

  // A value that is not an estate says where.
  Json broken = plan;
  broken["prior_state"]["values"]["root_module"]["resources"][0]["values"]["totals"] = 3;
  broken["planned_values"]["root_module"]["resources"][0]["values"]["groups"] = nullptr;
  const std::string broken_path = WriteTestTempFile("broken-plan.json", broken.dump());
  std::ostringstream broken_out;
  ASSERT_EQ(RunPlanReportCommand({broken_path}, broken_out, err), 0) << err.str();
  EXPECT_THAT(broken_out.str(),
              HasSubstr("### Estate: `data.nsxalb_se_groups_usage.all`\n\nThe data source's value "
                        "is not an estate: $.totals: want an object, got number 3.\n"));
}

}  // namespace
}  // namespace nsxalb::cli

namespace nsxalb::cli {
namespace {

// The checkout story of issue 39 as a plan: 3 running SEs recorded matching 4 vCPUs and 8,192 MB
// (service_engines of the refreshed prior state), a plan to 5 vCPUs and 10,240 MB.
Json CheckoutChange(const Json& service_engines, int vcpus_after, int memory_after) {
  const Json before = {{"name", "checkout"},
                       {"platform", "nsxt"},
                       {"vcpus_per_se", 4},
                       {"memory_per_se", 8192},
                       {"min_scaleout_per_vs", 3},
                       {"max_se", 4},
                       {"workload", {{"l7_rps", 300000}, {"ssl_tps_ecc", 6000}}},
                       {"service_engines", service_engines}};
  Json after = before;
  after["vcpus_per_se"] = vcpus_after;
  after["memory_per_se"] = memory_after;
  const bool changes = after != before;
  if (changes) after.erase("service_engines");
  return {{"address", "nsxalb_se_group.checkout"},
          {"mode", "managed"},
          {"type", "nsxalb_se_group"},
          {"name", "checkout"},
          {"change",
           {{"actions", {changes ? "update" : "no-op"}},
            {"before", before},
            {"after", after},
            {"after_unknown", changes ? Json{{"service_engines", true}} : Json::object()}}}};
}

std::string PlanReport(const Json& changes) {
  const Json plan = {{"format_version", "1.2"}, {"resource_changes", changes}};
  const std::string path = WriteTestTempFile("lifecycle-plan.json", plan.dump());
  std::ostringstream out, err;
  EXPECT_EQ(RunPlanReportCommand({path}, out, err), 0) << err.str();
  return out.str();
}

TEST(PlanReportLifecycleTest, AResizeOfRunningSesListsThemWithTheUtilizationAtTheirShape) {
  const Json matched = {{"running", 3},
                        {"matching", 3},
                        {"lagging", Json::array()},
                        {"reboot_fields", Json::array()}};
  const std::string report = PlanReport(Json::array({CheckoutChange(matched, 5, 10240)}));
  EXPECT_THAT(report, HasSubstr("\n### SEs behind settings\n\n- `nsxalb_se_group.checkout`: **3 of "
                                "checkout's 3 running SEs lag its settings** (this plan changes "
                                "the settings).\n"));
  EXPECT_THAT(report, HasSubstr("  - SE #1: 4 vCPUs, 8,192 MB; behind the settings: new-ses-only "
                                "(vcpus_per_se, memory_per_se)\n"));
  EXPECT_THAT(report, HasSubstr("  - At the running shape (rule utilization-at-running-shape): "
                                "3 SEs of 4 vCPUs would run 300,000 L7 RPS + 6,000 ECC SSL TPS at "
                                "89.7% CPU, over the 80% target"));
  EXPECT_THAT(report, HasSubstr("vcpus_per_se 4 -> 5"));
}

TEST(PlanReportLifecycleTest, LaggingSesRecordedStayListedAndMatchingOnesSayNothing) {
  const Json lagging = {{"running", 2},
                        {"matching", 0},
                        {"lagging",
                         {{{"name", "checkout-se-1"},
                           {"vcpus", 2},
                           {"memory_mb", 4096},
                           {"why", "new-ses-only"},
                           {"fields", {"vcpus_per_se", "memory_per_se"}}},
                          {{"name", "checkout-se-2"},
                           {"vcpus", 2},
                           {"memory_mb", 4096},
                           {"why", "new-ses-only"},
                           {"fields", {"vcpus_per_se", "memory_per_se"}}}}},
                        {"reboot_fields", Json::array()}};
  const std::string report = PlanReport(Json::array({CheckoutChange(lagging, 4, 8192)}));
  EXPECT_THAT(report, HasSubstr("- `nsxalb_se_group.checkout`: **2 of checkout's 2 running SEs lag "
                                "its settings**.\n"));
  EXPECT_THAT(report, HasSubstr("  - checkout-se-2: 2 vCPUs, 4,096 MB; behind the settings"));

  const Json matched = {{"running", 3},
                        {"matching", 3},
                        {"lagging", Json::array()},
                        {"reboot_fields", Json::array()}};
  const std::string quiet = PlanReport(Json::array({CheckoutChange(matched, 4, 8192)}));
  EXPECT_THAT(quiet, HasSubstr("### SEs behind settings\n\nEvery running SE of the 1 group with "
                               "running SEs recorded has the settings this plan leaves.\n"));
  EXPECT_THAT(quiet, Not(HasSubstr("lag its settings")));

  Json broken = matched;
  broken["matching"] = 2;
  EXPECT_THAT(PlanReport(Json::array({CheckoutChange(broken, 4, 8192)})),
              HasSubstr("its recorded service_engines: running (3) is not matching (2) plus the "
                        "lagging SEs (0)"));
}

}  // namespace
}  // namespace nsxalb::cli
