// Display rounding: capacities down, needs up, thousands separators, Gbps to 0.01; counts and
// SE shapes in prose.
#include "plugin/sizing/format.h"

#include "gtest/gtest.h"

namespace nsxalb::sizing {
namespace {

TEST(FormatTest, Integers) {
  EXPECT_EQ(FormatInt(0), "0");
  EXPECT_EQ(FormatInt(999), "999");
  EXPECT_EQ(FormatInt(10350), "10,350");
  EXPECT_EQ(FormatInt(1234567), "1,234,567");
  EXPECT_EQ(FormatInt(-5800), "-5,800");
}

TEST(FormatTest, MetricValues) {
  EXPECT_EQ(FormatValue(Metric::kSslTpsEcc, 5800, Rounding::kDown), "5,800");
  EXPECT_EQ(FormatValue(Metric::kL7Rps, 1428.57, Rounding::kUp), "1,429");
  EXPECT_EQ(FormatValue(Metric::kL7Rps, 1428.57, Rounding::kDown), "1,428");
  EXPECT_EQ(FormatValue(Metric::kL7SslGbps, 10000, Rounding::kDown), "10 Gbps");
  EXPECT_EQ(FormatValue(Metric::kL7Gbps, 5600, Rounding::kDown), "5.6 Gbps");
  EXPECT_EQ(FormatValue(Metric::kL4Gbps, 11250, Rounding::kDown), "11.25 Gbps");
  EXPECT_EQ(FormatValue(Metric::kL4Gbps, 11255, Rounding::kDown), "11.25 Gbps");
  EXPECT_EQ(FormatValue(Metric::kL4Gbps, 11251, Rounding::kUp), "11.26 Gbps");
  EXPECT_EQ(FormatValue(Metric::kL4Gbps, 1234500, Rounding::kDown), "1,234.5 Gbps");
  EXPECT_EQ(FormatAmount(Metric::kSslTpsEcc, 5800, Rounding::kDown), "5,800 ECC SSL TPS");
  EXPECT_EQ(FormatAmount(Metric::kL7SslGbps, 7200, Rounding::kDown), "7.2 Gbps L7 SSL throughput");
  EXPECT_EQ(FormatPercent(69.5652), "69.6%");
}

TEST(FormatTest, DisplayUnitsToBaseUnitsAndBack) {
  EXPECT_EQ(BaseFromDisplay(Metric::kL7SslGbps, 5.6), 5600);  // exactly, not 5599.999...
  EXPECT_EQ(BaseFromDisplay(Metric::kL4Gbps, 0.001), 1);
  EXPECT_EQ(BaseFromDisplay(Metric::kL7Rps, 1000.5), 1000.5);
  EXPECT_EQ(DisplayFromBase(Metric::kL7Gbps, 7200), 7.2);
  EXPECT_EQ(DisplayFromBase(Metric::kL4OpenConns, 320000), 320000);
}

TEST(FormatTest, CountsAndShapesAgreeInNumber) {
  EXPECT_EQ(FormatCount(1, "finding", "findings"), "1 finding");
  EXPECT_EQ(FormatCount(0, "finding", "findings"), "0 findings");
  EXPECT_EQ(FormatSeCount(1), "1 SE");
  EXPECT_EQ(FormatSeCount(1000), "1000 SEs");
  EXPECT_EQ(FormatVcpus(1), "1 vCPU");
  EXPECT_EQ(FormatVcpus(6), "6 vCPUs");
  // A shape always names its SE count, and the verb after it agrees with that count.
  EXPECT_EQ(FormatShape(1, 6), "1 SE of 6 vCPUs");
  EXPECT_EQ(FormatShape(3, 1), "3 SEs of 1 vCPU");
  EXPECT_STREQ(Agree(1, "carries", "carry"), "carries");
  EXPECT_STREQ(Agree(2, "carries", "carry"), "carry");
}

}  // namespace
}  // namespace nsxalb::sizing
