// Tests for plugin/controller/version.h.
#include "plugin/controller/version.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/controller/version_literal.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

TEST(ApiVersionTest, ParsesDottedNumbers) {
  EXPECT_EQ(V("22.1.3").ToString(), "22.1.3");
  EXPECT_EQ(V("30.2.1").parts(), (std::vector<int>{30, 2, 1}));
  EXPECT_EQ(V(" 22.1.3-9096 ").ToString(), "22.1.3");
  EXPECT_EQ(V("22.1.3(9096)").ToString(), "22.1.3");
  EXPECT_EQ(V("v18_2_8").ToString(), "18.2.8");
  EXPECT_EQ(V("22.1").ToString(), "22.1");
}

TEST(ApiVersionTest, RejectsNonVersions) {
  for (const char* bad : {"", "22", "abc", "22.", ".1.2", "x22.1.3", "1234567890.1"}) {
    auto v = ApiVersion::Parse(bad);
    EXPECT_THAT(v, Not(IsOk())) << bad;
    if (!v.ok()) {
      EXPECT_THAT(v, StatusIs(absl::StatusCode::kInvalidArgument));
    }
  }
}

TEST(ApiVersionTest, ParsesExactlyAsTheControllerReadsXAviVersion) {
  auto exact = [](const char* text) {
    auto v = ApiVersion::ParseExact(text);
    EXPECT_THAT(v, IsOk()) << text << ": " << v.status();
    return v.ok() ? *v : ApiVersion();
  };
  EXPECT_EQ(exact("22.1.3").ToString(), "22.1.3");
  EXPECT_EQ(exact(" 18.2.8 ").ToString(), "18.2.8");
  EXPECT_EQ(exact("30.2").ToString(), "30.2.0");
  for (const char* bad :
       {"", "22", "22.1.3.4", "a.b.c", "22.-1.3", "22..3", "v22_1_3", "22.1.3-9096", "22.1."}) {
    auto v = ApiVersion::ParseExact(bad);
    EXPECT_THAT(v, Not(IsOk())) << bad;
    if (!v.ok()) {
      EXPECT_THAT(v, StatusIs(absl::StatusCode::kInvalidArgument));
    }
  }
  EXPECT_NE(std::string(ApiVersion::ParseExact("x.y").status().message()).find("\"x.y\""),
            std::string::npos);
}

TEST(ApiVersionTest, PrintsTheControllersTagForm) {
  EXPECT_EQ(V("18.2.8").ToTag(), "v18_2_8");
  EXPECT_EQ(V("22.1").ToTag(), "v22_1_0");
  EXPECT_EQ(ApiVersion(22, 1, 3).ToTag(), "v22_1_3");
  EXPECT_EQ(ApiVersion(22, 1, 3), V("22.1.3"));
}

TEST(ApiVersionTest, ComparesNumericallyNotLexically) {
  EXPECT_LT(V("22.1.3"), V("30.2.1"));
  EXPECT_LT(V("20.1.9"), V("20.1.10"));
  EXPECT_LT(V("9.9.9"), V("10.0.0"));
  EXPECT_EQ(V("22.1"), V("22.1.0"));
  EXPECT_GT(V("22.1.0.1"), V("22.1"));
  EXPECT_EQ(V("22.1.3").Train(), "22.1");
}

TEST(IntroducedInTest, SingleVersion) {
  auto in = IntroducedIn::Parse("21.1.3");
  ASSERT_THAT(in, IsOk());
  EXPECT_FALSE(in->AvailableIn(V("21.1.2")));
  EXPECT_TRUE(in->AvailableIn(V("21.1.3")));
  EXPECT_TRUE(in->AvailableIn(V("22.1.3")));
  EXPECT_FALSE(in->AvailableIn(V("20.1.9")));
  EXPECT_EQ(in->Describe(), "21.1.3");
}

TEST(IntroducedInTest, EmptyMeansAlways) {
  auto in = IntroducedIn::Parse("");
  ASSERT_THAT(in, IsOk());
  EXPECT_TRUE(in->AvailableIn(V("16.1.1")));
}

TEST(IntroducedInTest, BackportsApplyPerTrain) {
  auto in = IntroducedIn::Parse("17.2.12,18.1.3,18.2.1");
  ASSERT_THAT(in, IsOk());
  EXPECT_TRUE(in->AvailableIn(V("17.2.12")));
  EXPECT_TRUE(in->AvailableIn(V("17.2.14")));
  EXPECT_FALSE(in->AvailableIn(V("17.2.11")));
  EXPECT_FALSE(in->AvailableIn(V("18.1.2")));
  EXPECT_TRUE(in->AvailableIn(V("18.1.3")));
  EXPECT_TRUE(in->AvailableIn(V("18.2.1")));
  EXPECT_TRUE(in->AvailableIn(V("20.1.1")));
  EXPECT_FALSE(in->AvailableIn(V("17.1.20")));  // an older train that never got it
  EXPECT_FALSE(in->AvailableIn(V("18.0.9")));   // a train between listed ones
  EXPECT_EQ(in->Describe(),
            "17.2.12 on the 17.2 train, 18.1.3 on the 18.1 train, or 18.2.1 and later");
}

TEST(IntroducedInTest, FirstMissingNamesTheVersionToAskFor) {
  auto in = IntroducedIn::Parse("17.2.12,18.1.3,18.2.1");
  ASSERT_THAT(in, IsOk());
  EXPECT_FALSE(in->FirstMissing(V("17.2.12")).has_value());
  EXPECT_FALSE(in->FirstMissing(V("18.1.3")).has_value());
  EXPECT_FALSE(in->FirstMissing(V("18.2.1")).has_value());
  EXPECT_FALSE(in->FirstMissing(V("22.1.3")).has_value());
  EXPECT_EQ(in->FirstMissing(V("17.2.11")).value(), V("17.2.12"));
  EXPECT_EQ(in->FirstMissing(V("18.1.2")).value(), V("18.1.3"));
  EXPECT_EQ(in->FirstMissing(V("17.1.9")).value(), V("17.2.12"));
  // 18.0 is no listed train and not above the last listed version.
  EXPECT_EQ(in->FirstMissing(V("18.0.5")).value(), V("18.1.3"));
  EXPECT_FALSE(IntroducedIn().FirstMissing(V("10.1.1")).has_value());
  auto single = IntroducedIn::Parse("21.1.3");
  ASSERT_THAT(single, IsOk());
  EXPECT_EQ(single->FirstMissing(V("21.1.2")).value(), V("21.1.3"));
  EXPECT_FALSE(single->FirstMissing(V("21.1.3")).has_value());
}

TEST(IntroducedInTest, UnsortedListIsSorted) {
  auto in = IntroducedIn::Parse("20.1.1, 18.2.7");
  ASSERT_THAT(in, IsOk());
  EXPECT_TRUE(in->AvailableIn(V("18.2.8")));
  EXPECT_FALSE(in->AvailableIn(V("18.2.6")));
  EXPECT_FALSE(in->AvailableIn(V("20.1.0")));
  EXPECT_TRUE(in->AvailableIn(V("21.1.1")));
}

TEST(IntroducedInTest, BadListIsAnError) {
  EXPECT_THAT(IntroducedIn::Parse("18.2.7,banana"), Not(IsOk()));
}

}  // namespace
}  // namespace nsxalb::controller
