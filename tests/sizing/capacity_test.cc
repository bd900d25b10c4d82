// Hand-computed cases for every capacity rule: interpolation, extrapolation, throughput hold,
// table memory, open connections scaling with memory, the density rule above 6 vCPUs,
// cross-profile borrowing, and the disk rule.
#include "plugin/sizing/capacity.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/rules.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::Contains;
using ::testing::HasSubstr;

Figure Cap(Platform p, Metric m, int vcpus) {
  return MetricCapacity(p, m, vcpus, static_cast<int64_t>(TableMemoryMb(p, vcpus).value));
}

TEST(CapacityTest, InterpolatesAtThreeAndFiveVcpus) {
  // vcenter ECC: (5800 + 8700) / 2 and (8700 + 12000) / 2.
  Figure f = Cap(Platform::kVcenter, Metric::kSslTpsEcc, 3);
  EXPECT_EQ(f.value, 7250);
  EXPECT_EQ(f.basis, Basis::kInterpolated);
  EXPECT_THAT(f.rules, Contains(std::string(rules::kInterpolate)));
  EXPECT_THAT(f.source, HasSubstr("2C/2G and 4C/4G"));
  EXPECT_EQ(Cap(Platform::kVcenter, Metric::kSslTpsEcc, 5).value, 10350);
  // vcenter L7 throughput: (5.6 + 11) / 2 = 8.3 Gbps, held exactly as 8300 Mbps.
  EXPECT_EQ(Cap(Platform::kVcenter, Metric::kL7Gbps, 3).value, 8300);
  EXPECT_EQ(Cap(Platform::kVcenter, Metric::kL4Gbps, 5).value, 11250);
  // nsxt CPS (47000 + 86500) / 2, RSA (3000 + 3750) / 2, RPS (153000 + 205000) / 2.
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kL4Cps, 3).value, 66750);
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kSslTpsRsa, 5).value, 3375);
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kL7Rps, 5).value, 179000);
}

TEST(CapacityTest, ExtrapolatesCpuBoundMetricsAtTheFourToSixRate) {
  // vcenter ECC at 8: 12000 + 2 x (12000 - 8700) / 2 = 15300.
  Figure f = Cap(Platform::kVcenter, Metric::kSslTpsEcc, 8);
  EXPECT_EQ(f.value, 15300);
  EXPECT_EQ(f.basis, Basis::kExtrapolated);
  EXPECT_THAT(f.rules, Contains(std::string(rules::kExtrapolateCpu)));
  // vcenter RPS at 8: 185000 + 2 x 17500.
  EXPECT_EQ(Cap(Platform::kVcenter, Metric::kL7Rps, 8).value, 220000);
  // nsxt ECC at 64: 11500 + 58 x 1650.
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kSslTpsEcc, 64).value, 107200);
  // nsxt CPS at 7: 99000 + 6250.
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kL4Cps, 7).value, 105250);
}

TEST(CapacityTest, HoldsThroughputAtTheSixVcpuValue) {
  for (int vcpus : {7, 12, 64}) {
    Figure f = Cap(Platform::kNsxt, Metric::kL4Gbps, vcpus);
    EXPECT_EQ(f.value, 19000);
    EXPECT_EQ(f.basis, Basis::kExtrapolated);
    EXPECT_THAT(f.rules, Contains(std::string(rules::kHoldThroughput)));
    EXPECT_EQ(Cap(Platform::kVcenter, Metric::kL7SslGbps, vcpus).value, 10000);
  }
}

TEST(CapacityTest, TableMemoryPerVcpu) {
  EXPECT_EQ(TableMemoryMb(Platform::kVcenter, 3).value, 3072);
  EXPECT_EQ(TableMemoryMb(Platform::kVcenter, 3).basis, Basis::kInterpolated);
  EXPECT_EQ(TableMemoryMb(Platform::kNsxt, 5).value, 10240);
  // Above 6 at the 4-to-6 rate: vcenter +1 GB per vCPU, nsxt +2 GB.
  EXPECT_EQ(TableMemoryMb(Platform::kVcenter, 8).value, 8192);
  EXPECT_EQ(TableMemoryMb(Platform::kVcenter, 64).value, 65536);
  EXPECT_EQ(TableMemoryMb(Platform::kNsxt, 64).value, 131072);
  EXPECT_EQ(TableMemoryMb(Platform::kNsxt, 64).basis, Basis::kExtrapolated);
  EXPECT_THAT(TableMemoryMb(Platform::kNsxt, 64).rules, Contains(std::string(rules::kTableMemory)));
}

TEST(CapacityTest, OpenConnectionsScaleWithMemory) {
  // vcenter 4C: 160000 at 4 GB; doubling memory doubles them, halving halves them. Above the
  // measured memory nothing was measured: extrapolated. Below it: the seed's rule.
  Figure doubled = MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 4, 8192);
  EXPECT_EQ(doubled.value, 320000);
  EXPECT_EQ(doubled.basis, Basis::kExtrapolated);
  EXPECT_THAT(doubled.rules, Contains(std::string(rules::kOpenConnsMemory)));
  Figure halved = MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 1, 1024);
  EXPECT_EQ(halved.value, 20000);
  EXPECT_EQ(halved.basis, Basis::kRule);
  // The case of docs/sizing.md: 1 vCPU with 13 GB.
  Figure one = MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 1, 13 * 1024);
  EXPECT_EQ(one.value, 260000);
  EXPECT_EQ(one.basis, Basis::kExtrapolated);
  // At the table memory: the cell.
  EXPECT_EQ(MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 1, 2048).basis,
            Basis::kMeasured);
  // 3 vCPUs: interpolated 120000 at an interpolated 3 GB, scaled to 5 GB = 200000, beyond the
  // memory of the size: extrapolated; scaled to 2 GB = 80000: still interpolated.
  Figure interp = MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 3, 5120);
  EXPECT_EQ(interp.value, 200000);
  EXPECT_EQ(interp.basis, Basis::kExtrapolated);
  EXPECT_EQ(MetricCapacity(Platform::kVcenter, Metric::kL4OpenConns, 3, 2048).basis,
            Basis::kInterpolated);
  // Memory does not move the other metrics.
  EXPECT_EQ(MetricCapacity(Platform::kVcenter, Metric::kL7Rps, 4, 65536).value, 150000);
}

TEST(CapacityTest, OpenConnectionsAboveSixVcpusKeepTheSixVcpuDensity) {
  // 320000 per 6 GB, at 8 GB: floor(320000 x 8192 / 6144) = 426666.
  Figure f = Cap(Platform::kVcenter, Metric::kL4OpenConns, 8);
  EXPECT_EQ(f.value, 426666);
  EXPECT_EQ(f.basis, Basis::kExtrapolated);
  EXPECT_THAT(f.rules, Contains(std::string(rules::kOpenConnsDensity)));
  EXPECT_THAT(f.rules, Contains(std::string(rules::kOpenConnsMemory)));
}

TEST(CapacityTest, NsxtBorrowsVcenterOpenConnections) {
  // vcenter 2C/2G = 80000; nsxt's 2C has 4 GB, so 160000.
  Figure f = Cap(Platform::kNsxt, Metric::kL4OpenConns, 2);
  EXPECT_EQ(f.value, 160000);
  EXPECT_EQ(f.basis, Basis::kCrossProfile);
  EXPECT_THAT(f.rules, Contains(std::string(rules::kCrossProfile)));
  EXPECT_THAT(f.source, HasSubstr("vcenter 2C/2G"));
  // At vcenter's own memory the borrowed figure is vcenter's cell.
  EXPECT_EQ(MetricCapacity(Platform::kNsxt, Metric::kL4OpenConns, 6, 6144).value, 320000);
  // 3 vCPUs: 120000 at 3 GB, nsxt table memory 6 GB.
  EXPECT_EQ(Cap(Platform::kNsxt, Metric::kL4OpenConns, 3).value, 240000);
}

TEST(CapacityTest, DiskRule) {
  EXPECT_EQ(MinimumDiskGb(2048), 15);   // 2 x 2 + 5 = 9 -> 15
  EXPECT_EQ(MinimumDiskGb(6144), 17);   // 2 x 6 + 5
  EXPECT_EQ(MinimumDiskGb(12288), 29);  // 2 x 12 + 5
  EXPECT_EQ(MinimumDiskGb(5000), 15);   // 5 GB rounded up: 15
  EXPECT_EQ(MinimumDiskGb(9000), 23);   // 9 GB rounded up: 2 x 9 + 5
  EXPECT_EQ(MinimumDiskGb(262144), 517);
  // vcenter: not below the tested disk.
  Figure measured = RecommendedDiskGb(Platform::kVcenter, 4, 4096);
  EXPECT_EQ(measured.value, 30);
  EXPECT_EQ(measured.basis, Basis::kMeasured);
  EXPECT_THAT(measured.rules, Contains(std::string(rules::kDiskTested)));
  EXPECT_EQ(RecommendedDiskGb(Platform::kVcenter, 3, 3072).value, 25);
  EXPECT_EQ(RecommendedDiskGb(Platform::kVcenter, 8, 8192).value, 40);
  // The rule wins when memory is large.
  Figure big = RecommendedDiskGb(Platform::kVcenter, 6, 32768);
  EXPECT_EQ(big.value, 69);
  EXPECT_EQ(big.basis, Basis::kRule);
  // nsxt publishes no disk: the rule alone.
  Figure nsxt = RecommendedDiskGb(Platform::kNsxt, 6, 12288);
  EXPECT_EQ(nsxt.value, 29);
  EXPECT_EQ(nsxt.basis, Basis::kRule);
  EXPECT_THAT(nsxt.rules, Contains(std::string(rules::kDisk)));
}

TEST(CapacityTest, RejectsOutOfRangeShapesNamingTheAttribute) {
  for (int vcpus : {0, -1, 65}) {
    absl::StatusOr<SeCapacity> c = CapacityOf(Platform::kVcenter, vcpus);
    ASSERT_THAT(c, StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(std::string(c.status().message()), HasSubstr("vcpus_per_se"));
  }
  for (int64_t memory : {int64_t{1023}, int64_t{262145}}) {
    absl::StatusOr<SeCapacity> c = CapacityOf(Platform::kNsxt, 4, memory);
    ASSERT_THAT(c, Not(IsOk()));
    EXPECT_THAT(std::string(c.status().message()), HasSubstr("memory_per_se"));
  }
  EXPECT_THAT(CapacityOf(Platform::kNsxt, 64, 262144), IsOk());
  EXPECT_THAT(CapacityOf(Platform::kNsxt, 1, 1024), IsOk());
}

TEST(CapacityTest, CapacityNeverDecreasesWithVcpus) {
  for (Platform p : kAllPlatforms) {
    for (Metric m : kAllMetrics) {
      for (int v = 2; v <= kMaxVcpus; ++v) {
        EXPECT_GE(Cap(p, m, v).value, Cap(p, m, v - 1).value)
            << PlatformName(p) << " " << InfoOf(m).key << " at " << v;
      }
    }
  }
}

TEST(CapacityTest, WeakestBasisFollowsTheReadmeOrder) {
  // measured > rule > interpolated > extrapolated > cross-profile.
  const std::vector<Basis> order = {Basis::kMeasured, Basis::kRule, Basis::kInterpolated,
                                    Basis::kExtrapolated, Basis::kCrossProfile};
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t j = 0; j < order.size(); ++j) {
      EXPECT_EQ(WeakestBasis({order[i], order[j]}), order[std::max(i, j)]);
    }
  }
  EXPECT_EQ(WeakestBasis({}), Basis::kMeasured);
}

TEST(CapacityTest, BasisNames) {
  EXPECT_STREQ(BasisName(Basis::kMeasured), "measured");
  EXPECT_STREQ(BasisName(Basis::kInterpolated), "interpolated");
  EXPECT_STREQ(BasisName(Basis::kExtrapolated), "extrapolated");
  EXPECT_STREQ(BasisName(Basis::kCrossProfile), "cross-profile");
  EXPECT_STREQ(BasisName(Basis::kRule), "rule");
}

}  // namespace
}  // namespace nsxalb::sizing
