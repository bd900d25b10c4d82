// Every seed table cell, for both profiles, comes back exactly from the capacity model at the
// table size. The expected values are transcribed here independently of profiles.cc.
#include "plugin/sizing/profiles.h"

#include <array>
#include <cstdint>

#include "gtest/gtest.h"
#include "plugin/sizing/capacity.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

struct SeedColumn {
  int vcpus;
  int memory_gb;
  int disk_gb;  // 0 = not published
  // ECC TPS, RSA TPS, L7 RPS, L4 CPS, open conns (0 = not published), L4 Gbps, L7 Gbps, SSL Gbps
  std::array<double, 8> cells;
};

// Seed 000_e5a429f3661e1e94.txt, vCenter Cloud.
constexpr std::array<SeedColumn, 4> kVcenter = {{
    {1, 2, 15, {2900, 950, 58000, 42000, 40000, 6, 5, 2.6}},
    {2, 2, 20, {5800, 1800, 80000, 54000, 80000, 6, 5.6, 3.8}},
    {4, 4, 30, {8700, 2600, 150000, 100000, 160000, 9.5, 11, 7.2}},
    {6, 6, 40, {12000, 4000, 185000, 132000, 320000, 13, 12, 10}},
}};

// Seed 001_abd1a4d572c28938.txt, NSX-T cloud.
constexpr std::array<SeedColumn, 4> kNsxt = {{
    {1, 2, 0, {2950, 1020, 60000, 43000, 0, 16.5, 12, 5}},
    {2, 4, 0, {6000, 1950, 94000, 47000, 0, 16.5, 13, 5.5}},
    {4, 8, 0, {8200, 3000, 153000, 86500, 0, 16.5, 14, 11}},
    {6, 12, 0, {11500, 3750, 205000, 99000, 0, 19, 17, 13}},
}};

void ExpectColumns(Platform platform, const std::array<SeedColumn, 4>& columns) {
  const Profile& profile = ProfileOf(platform);
  for (int i = 0; i < 4; ++i) {
    const SeedColumn& col = columns[i];
    SCOPED_TRACE(::testing::Message() << profile.name << " " << col.vcpus << " vCPUs");
    EXPECT_EQ(profile.sizes[i].vcpus, col.vcpus);
    EXPECT_EQ(profile.sizes[i].memory_gb, col.memory_gb);
    EXPECT_EQ(profile.sizes[i].disk_gb.value_or(0), col.disk_gb);
    absl::StatusOr<SeCapacity> cap = CapacityOf(platform, col.vcpus);
    ASSERT_THAT(cap, IsOk());
    EXPECT_EQ(cap->memory_mb, col.memory_gb * 1024);
    EXPECT_EQ(cap->table_memory_mb.basis, Basis::kMeasured);
    for (Metric m : kAllMetrics) {
      const double cell = col.cells[static_cast<int>(m)];
      const Figure& f = cap->Of(m);
      SCOPED_TRACE(InfoOf(m).key);
      if (cell == 0) {
        // Not published: the figure is borrowed, and says so.
        EXPECT_EQ(f.basis, Basis::kCrossProfile);
        EXPECT_FALSE(profile.sizes[i].values[static_cast<int>(m)].has_value());
        continue;
      }
      const double expected = cell * InfoOf(m).base_per_display;
      EXPECT_EQ(f.value, expected);
      EXPECT_EQ(f.basis, Basis::kMeasured);
      EXPECT_TRUE(f.rules.empty());
      EXPECT_NE(f.source.find(profile.seed_file), std::string::npos);
    }
  }
}

TEST(ProfilesTest, EveryVcenterCellIsReproducedExactly) {
  ExpectColumns(Platform::kVcenter, kVcenter);
}

TEST(ProfilesTest, EveryNsxtCellIsReproducedExactly) { ExpectColumns(Platform::kNsxt, kNsxt); }

TEST(ProfilesTest, ProvenanceNamesSeedVersionCloudAndCpu) {
  const Profile& v = ProfileOf(Platform::kVcenter);
  EXPECT_STREQ(v.seed_file, "000_e5a429f3661e1e94.txt");
  EXPECT_STREQ(v.avi_version, "20.1.6");
  EXPECT_NE(std::string(v.cloud_type).find("vCenter"), std::string::npos);
  EXPECT_NE(std::string(v.cpu_model).find("Gold 6148"), std::string::npos);
  const Profile& n = ProfileOf(Platform::kNsxt);
  EXPECT_STREQ(n.seed_file, "001_abd1a4d572c28938.txt");
  EXPECT_STREQ(n.avi_version, "22.1.3");
  EXPECT_NE(std::string(n.cloud_type).find("NSX-T"), std::string::npos);
  EXPECT_NE(std::string(n.cpu_model).find("Gold 6130"), std::string::npos);
  EXPECT_NE(std::string(n.nic_note).find("25 Gbps"), std::string::npos);
}

TEST(ProfilesTest, ParsesPlatformsAndMetricKeys) {
  EXPECT_EQ(*ParsePlatform("vcenter"), Platform::kVcenter);
  EXPECT_EQ(*ParsePlatform("NSXT"), Platform::kNsxt);
  absl::StatusOr<Platform> bad = ParsePlatform("aws");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_NE(bad.status().message().find("platform"), absl::string_view::npos);
  for (Metric m : kAllMetrics) EXPECT_EQ(MetricFromKey(InfoOf(m).key), m);
  EXPECT_FALSE(MetricFromKey("rps").has_value());
}

}  // namespace
}  // namespace nsxalb::sizing
