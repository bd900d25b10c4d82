// Tests for plugin/controller/refs.h.
#include "plugin/controller/refs.h"

#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

constexpr char kUuid[] = "cloud-def13c1e-3c1d-4d0e-9a39-8a2d0c9b2f00";

TEST(RefsTest, FullUrlWithAndWithoutName) {
  auto a = ParseRef(std::string("https://10.0.0.1/api/cloud/") + kUuid, "cloud", "cloud_ref");
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(a->uuid, kUuid);
  EXPECT_EQ(a->name, "");
  auto b = ParseRef(std::string("https://[::1]:8443/api/cloud/") + kUuid + "#Default-Cloud",
                    "cloud", "cloud_ref");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->uuid, kUuid);
  EXPECT_EQ(b->name, "Default-Cloud");
  EXPECT_TRUE(SameObject(*a, *b));
  EXPECT_EQ(a->Normalized(), b->Normalized());
  EXPECT_EQ(a->Normalized(), std::string("/api/cloud/") + kUuid);
}

TEST(RefsTest, PathAndQueryForms) {
  auto a = ParseRef(std::string("/api/cloud/") + kUuid, "cloud", "cloud_ref");
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(a->uuid, kUuid);
  auto b = ParseRef("/api/cloud/?name=Default-Cloud", "cloud", "cloud_ref");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->uuid, "");
  EXPECT_EQ(b->name, "Default-Cloud");
  auto c = ParseRef("/api/cloud?tenant=admin&name=My%20Cloud", "cloud", "cloud_ref");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->name, "My Cloud");
  EXPECT_EQ(c->Normalized(), "/api/cloud/?name=My%20Cloud");
  auto d = ParseRef("/api/tenant/?name=admin", "tenant", "tenant_ref");
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->name, "admin");
}

TEST(RefsTest, BareUuidAndBareName) {
  auto a = ParseRef(kUuid, "cloud", "cloud");
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(a->uuid, kUuid);
  EXPECT_EQ(a->name, "");
  auto b = ParseRef("Default-Cloud", "cloud", "cloud");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->name, "Default-Cloud");
  EXPECT_EQ(b->uuid, "");
  auto t = ParseRef("admin", "tenant", "tenant");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->name, "admin");
}

TEST(RefsTest, NamesCompareByNameWhenNoUuid) {
  auto a = ParseRef("Default-Cloud", "cloud", "cloud");
  auto b = ParseRef(std::string("/api/cloud/") + kUuid + "#Default-Cloud", "cloud", "cloud");
  auto c = ParseRef("Other", "cloud", "cloud");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE(SameObject(*a, *b));
  EXPECT_FALSE(SameObject(*a, *c));
}

TEST(RefsTest, WrongTypeIsAnErrorNamingTheField) {
  auto a = ParseRef("/api/tenant/admin", "cloud", "cloud_ref");
  ASSERT_THAT(a, Not(IsOk()));
  EXPECT_THAT(a, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_NE(a.status().message().find("cloud_ref"), absl::string_view::npos);
  EXPECT_NE(a.status().message().find("tenant"), absl::string_view::npos);
  auto b = ParseRef("tenant-def13c1e-3c1d-4d0e-9a39-8a2d0c9b2f00", "cloud", "cloud_ref");
  EXPECT_THAT(b, Not(IsOk()));
}

TEST(RefsTest, MalformedRefsAreErrors) {
  for (const char* bad : {"", "   ", "https://ctrl", "/foo/cloud/x", "/api/cloud/",
                          "/api/cloud/a/b", "a/b", "name\nwith newline"}) {
    auto r = ParseRef(bad, "cloud", "cloud_ref");
    EXPECT_THAT(r, Not(IsOk())) << bad;
  }
  EXPECT_THAT(ParseRef(std::string(3000, 'a'), "cloud", "cloud_ref"), Not(IsOk()));
}

TEST(RefsTest, LooksLikeUuid) {
  EXPECT_TRUE(LooksLikeUuid(kUuid));
  EXPECT_TRUE(LooksLikeUuid("serviceenginegroup-0a1b2c3d-0000-4000-8000-00000000abcd"));
  EXPECT_FALSE(LooksLikeUuid("Default-Cloud"));
  EXPECT_FALSE(LooksLikeUuid("admin"));
  EXPECT_FALSE(LooksLikeUuid("-def13c1e-3c1d-4d0e-9a39-8a2d0c9b2f00"));
  EXPECT_FALSE(LooksLikeUuid("cloud-def13c1e-3c1d-4d0e-9a39-8a2d0c9b2f0"));
}

TEST(RefsTest, UrlCodingRoundTrips) {
  EXPECT_EQ(UrlEncode("a b/c?d"), "a%20b%2Fc%3Fd");
  EXPECT_EQ(UrlDecode(UrlEncode("näme & co")), "näme & co");
  EXPECT_EQ(UrlDecode("a+b%2"), "a b%2");
}

}  // namespace
}  // namespace nsxalb::controller
