// The streaming decode of the analytics answer (plugin/segroup/usage/decode.h): the answer pushed
// in chunks of any size through yajl, parsed whole by nlohmann's SAX parser, or replayed from a
// document gives the same samples and the same report; broken text is an error naming the byte;
// a retried request starts over; and the notes of a batch of groups stay with their group.
#include "plugin/segroup/usage/decode.h"

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/common/limits.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/values.h"
#include "tests/segroup/usage_test_support.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup {
namespace {

using ::nsxalb::testing::StatusIs;
using ::testing::HasSubstr;
using usage_internal::CollectionDecoder;
using usage_internal::SeSamples;
using usage_testing::At;
using usage_testing::Iso;
using usage_testing::kNow;
using usage_testing::Response;
using Json = nlohmann::json;

constexpr absl::Duration kWindow = absl::Hours(24);

// `n` points of `metric` for `entity`, the last at kNow, 5 minutes apart, value f(i).
template <typename F>
Json Series(const std::string& metric, const std::string& entity, int n, F f) {
  Json data = Json::array();
  for (int i = 0; i < n; ++i) {
    data.push_back({{"timestamp", Iso(kNow - absl::Minutes(5 * (n - 1 - i)))}, {"value", f(i)}});
  }
  return {{"header", {{"name", metric}, {"entity_uuid", entity}}}, {"data", data}};
}

std::vector<ObservedSe> Ses() {
  return {{"se-a", "se-a", 4, 8192}, {"se-b", "se-b", 4, 8192}, {"se-c", "se-c", 2, 4096}};
}

// An answer for the three SEs, with a few bad points and an unknown request.
Json Answer() {
  Response r;
  for (const ObservedSe& se : Ses()) {
    const double base = static_cast<double>(se.vcpus);
    r.Se(se.uuid, Series("se_stats.avg_cpu_usage", se.uuid, 288,
                         [&](int i) { return 10 + base * (i % 12); }));
    r.Vs(se.uuid, Series("l7_client.avg_complete_responses", "*", 288,
                         [&](int i) { return 1000.0 * base + 3 * i; }));
    r.Vs(se.uuid,
         Series("l4_client.avg_new_established_conns", "*", 288, [&](int i) { return 100.0 + i; }));
  }
  Json j = r.json();
  j["series"]["vs-on:se-b"]["*"][0]["data"][5]["value"] = -4;   // dropped: negative
  j["series"]["vs-on:se-c"]["*"][0]["data"][7]["value"] = "x";  // dropped: not a number
  j["series"]["someone-else"] = {{"x", Json::array({1, 2})}};   // not ours
  j["meta"] = {{"took", 3}};
  return j;
}

CollectionDecoder NewDecoder() {
  return CollectionDecoder(Ses(), absl::ToUnixSeconds(kNow - kWindow), absl::ToUnixSeconds(kNow));
}

UsageInput Input() {
  UsageInput in;
  in.ses = Ses();
  in.query.window = kWindow;
  in.now = kNow;
  in.platform = sizing::Platform::kNsxt;
  return in;
}

Json ReportOf(const CollectionDecoder& d) {
  absl::StatusOr<UsageReport> r = AnalyzeDecoded(Input(), d, {0, 1, 2}, 0);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? UsageReportJson(*r) : Json();
}

void ExpectSameSamples(const CollectionDecoder& a, const CollectionDecoder& b) {
  for (size_t se = 0; se < Ses().size(); ++se) {
    const SeSamples& x = a.SamplesOf(se);
    const SeSamples& y = b.SamplesOf(se);
    ASSERT_EQ(x.size(), y.size()) << se;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j) {
      ASSERT_EQ(i->first, j->first);
      ASSERT_EQ(i->second.known, j->second.known);
      ASSERT_EQ(i->second.value, j->second.value);
    }
  }
}

TEST(CollectionDecoderTest, AnyChunkingGivesTheSameSamplesAsTheDocument) {
  const Json answer = Answer();
  const std::string text = answer.dump();
  CollectionDecoder whole = NewDecoder();
  whole.DecodeDocument(answer);
  EXPECT_EQ(whole.SamplesOf(0).size(), 288u);
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}, text.size()}) {
    CollectionDecoder pushed = NewDecoder();
    for (size_t at = 0; at < text.size(); at += chunk) {
      ASSERT_TRUE(pushed.Feed(std::string_view(text).substr(at, chunk)).ok()) << chunk;
    }
    ASSERT_TRUE(pushed.Finish().ok());
    ExpectSameSamples(whole, pushed);
    EXPECT_EQ(ReportOf(pushed), ReportOf(whole)) << "chunks of " << chunk;
  }
}

TEST(CollectionDecoderTest, NlohmannSaxParseGivesTheSameSamples) {
  const std::string text = Answer().dump();
  CollectionDecoder pushed = NewDecoder();
  ASSERT_TRUE(pushed.Feed(text).ok());
  ASSERT_TRUE(pushed.Finish().ok());
  CollectionDecoder parsed = NewDecoder();
  ASSERT_TRUE(Json::sax_parse(text, &parsed));
  ExpectSameSamples(pushed, parsed);
}

TEST(CollectionDecoderTest, TheStreamedReportIsAnalyzeUsages) {
  UsageInput in = Input();
  in.collection_response = Answer();
  absl::StatusOr<UsageReport> direct = AnalyzeUsage(in);
  ASSERT_TRUE(direct.ok());
  CollectionDecoder pushed = NewDecoder();
  ASSERT_TRUE(pushed.Feed(Answer().dump()).ok());
  ASSERT_TRUE(pushed.Finish().ok());
  const Json streamed = ReportOf(pushed);
  EXPECT_EQ(streamed, UsageReportJson(*direct));
  // The bad points are reported with their path.
  EXPECT_THAT(streamed["findings"].dump(), HasSubstr("series.vs-on:se-b.*[0].data[5].value (-4)"));
}

TEST(CollectionDecoderTest, TimestampsAreTheUnixSecondsAbslReads) {
  // Leap days, the end of a year, offsets, a fraction, a space for the T, a leap second.
  const std::vector<std::string> texts = {"2024-02-29T23:59:59Z",      "2000-02-29T00:00:00+00:00",
                                          "1999-12-31T23:59:59-01:30", "2026-11-28T14:05:00.123Z",
                                          "2026-11-28 14:05:00",       "2100-03-01T00:00:00+14:00",
                                          "2026-06-30T23:59:60Z"};
  Json data = Json::array();
  for (const std::string& t : texts) data.push_back({{"timestamp", t}, {"value", 1}});
  data.push_back({{"timestamp", "2023-02-29T00:00:00Z"}, {"value", 1}});  // no such day
  const Json answer = {
      {"series",
       {{kSeStatsRequestId,
         {{"se-a", {{{"header", {{"name", "se_stats.avg_cpu_usage"}}}, {"data", data}}}}}}}}};
  CollectionDecoder d({{"se-a", "se-a", 4, 8192}}, std::numeric_limits<int64_t>::min() / 2,
                      std::numeric_limits<int64_t>::max() / 2);
  ASSERT_TRUE(d.Feed(answer.dump()).ok());
  ASSERT_TRUE(d.Finish().ok());
  std::set<int64_t> expected;
  for (std::string t : texts) {
    if (t[10] == ' ') t[10] = 'T';
    if (t.size() == 19) t += "Z";
    absl::Time parsed;
    std::string err;
    ASSERT_TRUE(absl::ParseTime(absl::RFC3339_full, t, &parsed, &err)) << t << ": " << err;
    expected.insert(absl::ToUnixSeconds(parsed));
  }
  std::set<int64_t> got;
  for (const auto& [t, sample] : d.SamplesOf(0)) got.insert(t);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(d.NotesOfGroup(0).dropped[usage_internal::kBadTimestamp], 1);
}

TEST(CollectionDecoderTest, TextThatIsNotJsonIsAnErrorNamingTheByte) {
  CollectionDecoder d = NewDecoder();
  EXPECT_TRUE(d.Feed("{\"series\": {\"se-stats\": ").ok());
  EXPECT_THAT(d.Feed("[1, }"), StatusIs(absl::StatusCode::kInternal, HasSubstr("at byte 2")));
  // Nothing more is taken.
  EXPECT_THAT(d.Feed("{}"), StatusIs(absl::StatusCode::kInternal));
}

TEST(CollectionDecoderTest, TextThatEndsInsideAValueIsAnError) {
  CollectionDecoder d = NewDecoder();
  EXPECT_TRUE(d.Feed("{\"series\": {").ok());
  EXPECT_THAT(d.Finish(), StatusIs(absl::StatusCode::kInternal, HasSubstr("ends inside")));
}

TEST(CollectionDecoderTest, DeepNestingIsAnError) {
  CollectionDecoder d = NewDecoder();
  const std::string deep(static_cast<size_t>(limits::kMaxNestingDepth) + 1, '[');
  EXPECT_THAT(d.Feed(deep), StatusIs(absl::StatusCode::kInternal, HasSubstr("nests deeper")));
}

TEST(CollectionDecoderTest, ResetStartsOverForARetriedRequest) {
  const std::string text = Answer().dump();
  CollectionDecoder d = NewDecoder();
  ASSERT_TRUE(d.Feed(text.substr(0, text.size() / 2)).ok());
  d.Reset();
  ASSERT_TRUE(d.Feed(text).ok());
  ASSERT_TRUE(d.Finish().ok());
  CollectionDecoder once = NewDecoder();
  once.DecodeDocument(Answer());
  ExpectSameSamples(once, d);
  EXPECT_EQ(ReportOf(d), ReportOf(once));
}

TEST(CollectionDecoderTest, StructuralProblemsAreNotedWithTheirPath) {
  CollectionDecoder d = NewDecoder();
  ASSERT_TRUE(d.Feed(R"({"series": {"se-stats": [], "vs-on:se-a": {"*": {"a": 1}}}})").ok());
  ASSERT_TRUE(d.Finish().ok());
  const usage_internal::DecodeNotes notes = d.NotesOfGroup(0);
  EXPECT_EQ(notes.malformed_count, 2);
  EXPECT_THAT(notes.malformed,
              ::testing::UnorderedElementsAre("series.se-stats is array, not an object",
                                              "series.vs-on:se-a.* is object, not a list"));
  CollectionDecoder root = NewDecoder();
  ASSERT_TRUE(root.Feed("[]").ok());
  ASSERT_TRUE(root.Finish().ok());
  EXPECT_THAT(root.NotesOfGroup(0).malformed,
              ::testing::ElementsAre("the response is array, not an object"));
}

TEST(CollectionDecoderTest, EachGroupOfABatchKeepsItsOwnNotes) {
  // se-a in group 0, se-b and se-c in group 1.
  CollectionDecoder d(Ses(), {0, 1, 1}, 2, absl::ToUnixSeconds(kNow - kWindow),
                      absl::ToUnixSeconds(kNow));
  ASSERT_TRUE(d.Feed(Answer().dump()).ok());
  ASSERT_TRUE(d.Finish().ok());
  EXPECT_EQ(d.NotesOfGroup(0).DroppedTotal(), 0);
  EXPECT_EQ(d.NotesOfGroup(1).DroppedTotal(), 2);
  EXPECT_EQ(d.SamplesOf(0).size(), 288u);
  // One group's report from the batch equals the report of the group read alone.
  UsageInput alone = Input();
  alone.ses = {Ses()[1], Ses()[2]};
  alone.collection_response = Answer();
  absl::StatusOr<UsageReport> direct = AnalyzeUsage(alone);
  ASSERT_TRUE(direct.ok());
  absl::StatusOr<UsageReport> batched = AnalyzeDecoded(alone, d, {1, 2}, 1);
  ASSERT_TRUE(batched.ok());
  EXPECT_EQ(UsageReportJson(*batched), UsageReportJson(*direct));
}

// The one percent formatter of the usage reports and the forecast (both printed it, each its own
// way, until the unity build put them in one translation unit).
TEST(UsageValuesTest, PercentTextIsATenthWithoutATrailingZeroOrANegativeZero) {
  EXPECT_EQ(usage_internal::PercentText(80), "80%");
  EXPECT_EQ(usage_internal::PercentText(80.46), "80.5%");
  EXPECT_EQ(usage_internal::PercentText(99.96), "100%");
  EXPECT_EQ(usage_internal::PercentText(-0.04), "0%");
  EXPECT_EQ(usage_internal::PercentText(-12.25), "-12.3%");
  EXPECT_EQ(usage_internal::PercentText(1234567.5), "1234567.5%");
  // Past 10^15, and where pct * 10 overflows, %g's form rather than hundreds of digits.
  EXPECT_EQ(usage_internal::PercentText(1e300), "1e+300%");
  EXPECT_EQ(usage_internal::PercentText(std::numeric_limits<double>::max()), "1.79769e+308%");
  EXPECT_EQ(usage_internal::PercentText(std::numeric_limits<double>::infinity()), "inf%");
}

}  // namespace
}  // namespace nsxalb::segroup
