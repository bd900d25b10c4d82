#include "plugin/sizing/limits.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace nsxalb::sizing {

bool IsAllowedCoreCount(int value) {
  for (int allowed : kAllowedCoreCounts) {
    if (value == allowed) return true;
  }
  return false;
}

int SnapDownToAllowedCoreCount(int n) {
  int best = 0;
  for (int allowed : kAllowedCoreCounts) {
    if (allowed <= n) best = allowed;
  }
  return best;
}

std::string AllowedCoreCountsText(const char* last) {
  std::string text;
  for (size_t i = 0; i < kAllowedCoreCounts.size(); ++i) {
    if (i > 0) absl::StrAppend(&text, i + 1 == kAllowedCoreCounts.size() ? last : ", ");
    absl::StrAppend(&text, kAllowedCoreCounts[i]);
  }
  return text;
}

std::string VcpuRangeText() { return absl::StrCat(kMinVcpus, "-", kMaxVcpus); }

std::string MemoryRangeText() { return absl::StrCat(kMinMemoryMb, "-", kMaxMemoryMb); }

}  // namespace nsxalb::sizing
