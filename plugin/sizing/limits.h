// The platform's limits that the sizing model checks and plans around, each in one place with its
// source. Findings, rule descriptions and the CLI help print these constants and never repeat the
// numbers; the rule names that carry a number (range-vcpus-1-64, rps-160k-per-se-on-esxi, ...) are
// checked against them by tests/sizing/limits_test.cc, and the Avi field ranges against the
// Controller field catalog.
#ifndef NSXALB_PLUGIN_SIZING_LIMITS_H_
#define NSXALB_PLUGIN_SIZING_LIMITS_H_

#include <array>
#include <cstdint>
#include <string>

namespace nsxalb::sizing {

// SE size. Seed 000: "The Service Engines can be configured with a minimum of 1 vCPU core and 1 GB
// RAM up to a maximum of 64 vCPU cores and 256 GB RAM."
inline constexpr int kMinVcpus = 1;
inline constexpr int kMaxVcpus = 64;
inline constexpr int64_t kMinMemoryMb = 1024;
inline constexpr int64_t kMaxMemoryMb = 262144;

// Avi memory_per_se range 2048-262144 MB, enforced by Controllers from 30.1 on (field catalog).
inline constexpr int64_t kControllerMinMemoryMb = 2048;

// RPS of one SE VM on ESXi. Seed 000: "On vSphere, the Service Engine can provide approximately
// 40k RPS per core running on Intel v3 servers. Maximum RPS on the Service Engine virtual machine
// running on ESXi will be approximately 160k."
inline constexpr int64_t kEsxiMaxRpsPerSe = 160000;
inline constexpr int64_t kRpsPerCoreIntelV3 = 40000;

// The values Avi allows for num_dispatcher_cores and max_queues_per_vnic. No seed lists them: the
// vendor's ServiceEngineGroup model says "Allowed values are 0,1,2,4,8,16" for both (field
// catalog).
inline constexpr std::array<int, 6> kAllowedCoreCounts = {0, 1, 2, 4, 8, 16};

// Avi ranges of the SE group's scale-out fields (field catalog): max_scaleout_per_vs 1-64 and
// max_se 0-1000 (so at most 1000 active SEs).
inline constexpr int kMaxScaleoutPerVs = 64;
inline constexpr int kMaxSeCount = 1000;

// Avi max_vs_per_se: default 10, range 1-1000 (field catalog). A workload places at most as many
// virtual services as the largest group can hold.
inline constexpr int kDefaultMaxVsPerSe = 10;
inline constexpr int kMaxVsPerSe = 1000;
inline constexpr int kMaxVirtualServices = kMaxSeCount * kMaxVsPerSe;

// Avi max_num_se_dps: the data-path processes per SE, and so its Service Units; range 1-128
// (field catalog).
inline constexpr int kMinNumSeDps = 1;
inline constexpr int kMaxNumSeDps = 128;

// True when `value` is one of kAllowedCoreCounts.
bool IsAllowedCoreCount(int value);

// The largest of kAllowedCoreCounts not above `n` (0 when `n` < 1).
int SnapDownToAllowedCoreCount(int n);

// kAllowedCoreCounts for prose, the last two joined by `last`: "0, 1, 2, 4, 8, 16" with ", ",
// "0, 1, 2, 4, 8 or 16" with " or ".
std::string AllowedCoreCountsText(const char* last = ", ");

// "1-64": the vCPU range of an SE.
std::string VcpuRangeText();

// "1024-262144": the memory range of an SE in MB.
std::string MemoryRangeText();

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_LIMITS_H_
