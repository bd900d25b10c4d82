// The two measured Service Engine performance profiles from the seed documents, compiled in as
// data with their provenance (seed file, Avi version, cloud type, CPU model, NIC note).
//
// Values are stored in each metric's base unit: transactions, requests or connections per second,
// open connections, and Mbps for throughput (the seeds' Gbps figures times 1000), so that every
// measured cell is an exact integer. Nothing here computes; see capacity.h for the model.
#ifndef NSXALB_PLUGIN_SIZING_PROFILES_H_
#define NSXALB_PLUGIN_SIZING_PROFILES_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nsxalb::sizing {

// The cloud a profile was measured on.
enum class Platform { kVcenter = 0, kNsxt };
inline constexpr std::array<Platform, 2> kAllPlatforms = {Platform::kVcenter, Platform::kNsxt};

// The performance metrics the seed tables publish, in table order.
enum class Metric {
  kSslTpsEcc = 0,
  kSslTpsRsa,
  kL7Rps,
  kL4Cps,
  kL4OpenConns,
  kL4Gbps,
  kL7Gbps,
  kL7SslGbps,
};
inline constexpr int kMetricCount = 8;
inline constexpr std::array<Metric, kMetricCount> kAllMetrics = {
    Metric::kSslTpsEcc,   Metric::kSslTpsRsa, Metric::kL7Rps,  Metric::kL4Cps,
    Metric::kL4OpenConns, Metric::kL4Gbps,    Metric::kL7Gbps, Metric::kL7SslGbps};

// How a metric behaves outside the measured sizes (see capacity.h).
enum class MetricKind {
  kCpuBound,     // SSL TPS, RPS, CPS: scale with cores, extrapolated above 6 vCPUs
  kThroughput,   // Gbps: bound by PPS and the NIC, held at the 6-vCPU value above it
  kConnections,  // open connections: scale with memory
};

// Names and units of one metric.
struct MetricInfo {
  Metric metric;
  const char* key;       // workload input and JSON key, e.g. "ssl_tps_ecc"
  const char* label;     // prose label, e.g. "ECC SSL TPS"
  const char* seed_row;  // the row heading in the seed tables
  const char* unit;      // display unit: "TPS", "RPS", "CPS", "connections" or "Gbps"
  MetricKind kind;
  int64_t base_per_display;  // base units per display unit: 1, or 1000 (Mbps per Gbps)
};

// Returns the names and units of `metric`.
const MetricInfo& InfoOf(Metric metric);

// Parses a metric key such as "l7_rps"; nullopt when unknown.
std::optional<Metric> MetricFromKey(absl::string_view key);

// One measured column of a seed table: an SE size and what it delivered.
struct MeasuredSize {
  int vcpus;
  int memory_gb;
  std::optional<int> disk_gb;  // "SE Disk" row; published for vcenter only
  std::array<std::optional<int64_t>, kMetricCount> values;  // base units; nullopt = not published
};

// A seed table with its provenance.
struct Profile {
  Platform platform;
  const char* name;         // "vcenter" or "nsxt"
  const char* seed_file;    // file name under the seeds folder
  const char* avi_version;  // e.g. "20.1.6"
  const char* cloud_type;   // e.g. "vCenter cloud (VMware Cloud Connector, write access)"
  const char* cpu_model;    // e.g. "Intel Xeon Gold 6148 @ 2.40 GHz"
  const char* nic_note;     // what the seed says about the NIC, or "" when it says nothing
  std::array<MeasuredSize, 4> sizes;  // ascending: 1, 2, 4 and 6 vCPUs
};

// The measured vCPU counts of both tables.
inline constexpr std::array<int, 4> kMeasuredVcpus = {1, 2, 4, 6};

// Returns the embedded profile for `platform`.
const Profile& ProfileOf(Platform platform);

// "vcenter" or "nsxt".
const char* PlatformName(Platform platform);

// Parses "vcenter" or "nsxt" (case-insensitive); InvalidArgument naming the accepted values.
absl::StatusOr<Platform> ParsePlatform(absl::string_view name);

// "4C/8G": how the seeds name a size.
std::string SizeName(const MeasuredSize& size);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_PROFILES_H_
