// The limits have one home (plugin/sizing/limits.h): the rule names that carry a number agree with
// it, the Avi ranges agree with the Controller field catalog, and the helpers use the allowed set.
#include "plugin/sizing/limits.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing {
namespace {

TEST(LimitsTest, RuleNamesSayTheLimits) {
  EXPECT_EQ(rules::kRangeVcpus, absl::StrCat("range-vcpus-", kMinVcpus, "-", kMaxVcpus));
  EXPECT_EQ(rules::kRangeMemory,
            absl::StrCat("range-memory-", kMinMemoryMb, "-", kMaxMemoryMb, "-mb"));
  EXPECT_EQ(rules::kAllowedValues,
            absl::StrCat("allowed-", absl::StrJoin(kAllowedCoreCounts, "-")));
  EXPECT_EQ(rules::kRps160k, absl::StrCat("rps-", kEsxiMaxRpsPerSe / 1000, "k-per-se-on-esxi"));
  EXPECT_EQ(rules::kMemoryMin2048,
            absl::StrCat("memory-min-", kControllerMinMemoryMb, "-mb-from-30.1"));
}

// The Avi field ranges in limits.h are those of the vendor's model, as the field catalog has them.
TEST(LimitsTest, AviRangesMatchTheFieldCatalog) {
  auto allowed = [](const char* name) {
    const controller::SeGroupField* field = controller::FindSeGroupField(name);
    return field == nullptr ? std::string("(not in the catalog)") : std::string(field->allowed);
  };
  const std::string counts = absl::StrJoin(kAllowedCoreCounts, ",");
  EXPECT_EQ(allowed("num_dispatcher_cores"), counts);
  EXPECT_EQ(allowed("max_queues_per_vnic"), counts);
  EXPECT_EQ(allowed("max_scaleout_per_vs"), absl::StrCat("1-", kMaxScaleoutPerVs));
  EXPECT_EQ(allowed("max_se"), absl::StrCat("0-", kMaxSeCount));
  EXPECT_EQ(allowed("memory_per_se"), absl::StrCat(kControllerMinMemoryMb, "-", kMaxMemoryMb));
  EXPECT_EQ(allowed("max_num_se_dps"), absl::StrCat(kMinNumSeDps, "-", kMaxNumSeDps));
}

TEST(LimitsTest, AllowedCoreCounts) {
  for (int n = -1; n <= 20; ++n) {
    const bool listed = n == 0 || n == 1 || n == 2 || n == 4 || n == 8 || n == 16;
    EXPECT_EQ(IsAllowedCoreCount(n), listed) << n;
  }
  EXPECT_EQ(SnapDownToAllowedCoreCount(-1), 0);
  EXPECT_EQ(SnapDownToAllowedCoreCount(3), 2);
  EXPECT_EQ(SnapDownToAllowedCoreCount(7), 4);
  EXPECT_EQ(SnapDownToAllowedCoreCount(21), 16);
  EXPECT_EQ(AllowedCoreCountsText(), "0, 1, 2, 4, 8, 16");
  EXPECT_EQ(AllowedCoreCountsText(" or "), "0, 1, 2, 4, 8 or 16");
  EXPECT_EQ(VcpuRangeText(), "1-64");
  EXPECT_EQ(MemoryRangeText(), "1024-262144");
}

}  // namespace
}  // namespace nsxalb::sizing
