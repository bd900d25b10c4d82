// The seed tables, transcribed cell by cell. Each row cites its heading in the seed documents.
#include "plugin/sizing/profiles.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::sizing {
namespace {

using Values = std::array<std::optional<int64_t>, kMetricCount>;

const std::array<MetricInfo, kMetricCount>& Infos() {
  static const std::array<MetricInfo, kMetricCount> kInfos = {{
      {Metric::kSslTpsEcc, "ssl_tps_ecc", "ECC SSL TPS", "SSL Transactions per sec (ECC)", "TPS",
       MetricKind::kCpuBound, 1},
      {Metric::kSslTpsRsa, "ssl_tps_rsa", "RSA SSL TPS", "SSL Transactions per sec (RSA)", "TPS",
       MetricKind::kCpuBound, 1},
      {Metric::kL7Rps, "l7_rps", "L7 RPS", "L7 Requests per sec", "RPS", MetricKind::kCpuBound, 1},
      {Metric::kL4Cps, "l4_cps", "L4 CPS", "L4 Connections per sec (TCP)", "CPS",
       MetricKind::kCpuBound, 1},
      {Metric::kL4OpenConns, "l4_open_conns", "L4 open connections", "L4 Open Connections",
       "connections", MetricKind::kConnections, 1},
      {Metric::kL4Gbps, "l4_gbps", "L4 throughput", "L4 Throughput", "Gbps",
       MetricKind::kThroughput, 1000},
      {Metric::kL7Gbps, "l7_gbps", "L7 throughput", "L7 Throughput", "Gbps",
       MetricKind::kThroughput, 1000},
      {Metric::kL7SslGbps, "l7_ssl_gbps", "L7 SSL throughput", "L7 SSL Throughput", "Gbps",
       MetricKind::kThroughput, 1000},
  }};
  return kInfos;
}

// Column order in Values: ECC TPS, RSA TPS, L7 RPS, L4 CPS, L4 open connections, L4 Mbps,
// L7 Mbps, L7 SSL Mbps.
Values Row(int64_t ecc, int64_t rsa, int64_t rps, int64_t cps, std::optional<int64_t> conns,
           int64_t l4_mbps, int64_t l7_mbps, int64_t ssl_mbps) {
  return Values{ecc, rsa, rps, cps, conns, l4_mbps, l7_mbps, ssl_mbps};
}

const Profile& Vcenter() {
  // Seed 000_e5a429f3661e1e94.txt, "vCenter Cloud" table and its notes 1, 2 and 9.
  static const Profile kProfile = {
      Platform::kVcenter,
      "vcenter",
      "000_e5a429f3661e1e94.txt",
      "20.1.6",
      "vCenter cloud (VMware Cloud Connector, write access)",
      "Intel Xeon Gold 6148 @ 2.40 GHz (Supermicro, 32 CPUs, 256 GB)",
      "",
      {{
          {1, 2, 15, Row(2900, 950, 58000, 42000, 40000, 6000, 5000, 2600)},
          {2, 2, 20, Row(5800, 1800, 80000, 54000, 80000, 6000, 5600, 3800)},
          {4, 4, 30, Row(8700, 2600, 150000, 100000, 160000, 9500, 11000, 7200)},
          {6, 6, 40, Row(12000, 4000, 185000, 132000, 320000, 13000, 12000, 10000)},
      }},
  };
  return kProfile;
}

const Profile& Nsxt() {
  // Seed 001_abd1a4d572c28938.txt, "Service Engine Size -> Performance Metric" table, notes 1,
  // 2 and 6. Open connections and disk are not published.
  static const Profile kProfile = {
      Platform::kNsxt,
      "nsxt",
      "001_abd1a4d572c28938.txt",
      "22.1.3",
      "NSX-T cloud (overlay), NSX-T 4.0.0.1, vCenter 7.0.3",
      "Intel Xeon Gold 6130",
      "E810-C NIC limited to 25 Gbps",
      {{
          {1, 2, std::nullopt, Row(2950, 1020, 60000, 43000, std::nullopt, 16500, 12000, 5000)},
          {2, 4, std::nullopt, Row(6000, 1950, 94000, 47000, std::nullopt, 16500, 13000, 5500)},
          {4, 8, std::nullopt, Row(8200, 3000, 153000, 86500, std::nullopt, 16500, 14000, 11000)},
          {6, 12, std::nullopt, Row(11500, 3750, 205000, 99000, std::nullopt, 19000, 17000, 13000)},
      }},
  };
  return kProfile;
}

}  // namespace

const MetricInfo& InfoOf(Metric metric) { return Infos()[static_cast<int>(metric)]; }

std::optional<Metric> MetricFromKey(absl::string_view key) {
  for (const MetricInfo& info : Infos()) {
    if (key == info.key) return info.metric;
  }
  return std::nullopt;
}

const Profile& ProfileOf(Platform platform) {
  return platform == Platform::kNsxt ? Nsxt() : Vcenter();
}

const char* PlatformName(Platform platform) { return ProfileOf(platform).name; }

absl::StatusOr<Platform> ParsePlatform(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  for (Platform p : kAllPlatforms) {
    if (lower == PlatformName(p)) return p;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("platform: must be \"vcenter\" or \"nsxt\", got \"", name, "\""));
}

std::string SizeName(const MeasuredSize& size) {
  return absl::StrCat(size.vcpus, "C/", size.memory_gb, "G");
}

}  // namespace nsxalb::sizing
