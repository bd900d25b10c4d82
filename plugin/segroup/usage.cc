#include "plugin/segroup/usage.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/civil_time.h"
#include "plugin/common/limits.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/errors.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/cpu_budget.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using Json = nlohmann::json;

constexpr int kShortStepSeconds = 300;
constexpr int kLongStepSeconds = 3600;
constexpr absl::Duration kShortStepUpTo = absl::Hours(24 * 7);
// A rate, count or bit rate above this is not a measurement (1 Pbps; 10^15 requests a second).
constexpr double kAbsurdValue = 1e15;
constexpr double kBitsPerGbps = 1e9;
constexpr double kBitsPerMbps = 1e6;

// The series a usage report reads, by metric id.
enum Series {
  kCpu = 0,  // se_stats.avg_cpu_usage, percent
  kMem,      // se_stats.avg_mem_usage, percent
  kSeBandwidth,
  kRps,
  kTps,
  kCps,
  kOpenConns,
  kVsBandwidth,  // bits/s
  kSeriesCount,
};

std::optional<Series> SeriesOf(std::string_view metric) {
  static const auto* const kIds = new std::unordered_map<std::string_view, Series>{
      {"se_stats.avg_cpu_usage", kCpu},           {"se_stats.avg_mem_usage", kMem},
      {"se_if.avg_bandwidth", kSeBandwidth},      {"l7_client.avg_complete_responses", kRps},
      {"l7_client.avg_ssl_handshakes_new", kTps}, {"l4_client.avg_new_established_conns", kCps},
      {"l4_client.max_open_conns", kOpenConns},   {"l4_client.avg_bandwidth", kVsBandwidth},
  };
  auto it = kIds->find(metric);
  if (it == kIds->end()) return std::nullopt;
  return it->second;
}

// True for the series of the SE itself (one value per timestamp); the virtual-service series of
// an SE add up (several virtual services, if the Controller did not aggregate them).
bool IsSeStat(Series s) { return s == kCpu || s == kMem || s == kSeBandwidth; }
bool IsPercent(Series s) { return s == kCpu || s == kMem; }

// One timestamp of one SE.
struct Sample {
  std::array<double, kSeriesCount> value{};
  uint16_t known = 0;  // bit per Series

  bool Has(int s) const { return (known >> s) & 1; }
  void Add(int s, double v) {
    value[s] = Has(s) ? value[s] + v : v;
    known |= static_cast<uint16_t>(1u << s);
  }
};

// What the decoder keeps of one SE: its samples by Unix second.
using SeSamples = std::map<int64_t, Sample>;

// Why a point was dropped, for the finding.
enum Drop { kNotNumber = 0, kNegative, kNonFinite, kAbsurd, kBadTimestamp, kOutside, kDuplicate };
constexpr int kDropCount = 7;
constexpr const char* kDropText[kDropCount] = {
    "not a number",          "negative",           "NaN or infinite", "absurd",
    "no readable timestamp", "outside the window", "duplicated"};

// Counts of what the decoder dropped or cut.
struct DecodeNotes {
  std::array<int, kDropCount> dropped{};
  std::string first_dropped;           // "series.se-stats.se-1[0].data[3].value (-5)"
  std::vector<std::string> malformed;  // structural problems, by path (a few)
  int malformed_count = 0;
  int capped_series = 0;
  int64_t capped_points = 0;  // points cut by the cap
  int64_t points_before_cap = 0;

  void DropAt(Drop why, const std::string& path) {
    ++dropped[why];
    if (first_dropped.empty()) first_dropped = path;
  }
  void Malformed(std::string what) {
    if (malformed.size() < 3) malformed.push_back(std::move(what));
    ++malformed_count;
  }
  int DroppedTotal() const {
    int n = 0;
    for (int d : dropped) n += d;
    return n;
  }
};

std::string JsonTypeName(const Json& j) { return j.type_name(); }

// At most `n` bytes of `s`, cut at a UTF-8 character boundary, with "..." when cut: keys and
// values from the response are quoted in findings, and a finding stays one readable line.
std::string Clip(std::string_view s, size_t n = 64) {
  if (s.size() <= n) return std::string(s);
  size_t end = n;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return absl::StrCat(std::string(s.substr(0, end)), "...");
}

// A JSON value for a finding: ASCII (escaped), clipped.
std::string Quote(const Json& j) { return Clip(j.dump(-1, ' ', true), 40); }

// Two digits at s[i], or -1.
int Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    const char c = s[i + k];
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Parses an analytics timestamp: ISO 8601 "2026-11-28T14:05:00", with optional fraction and "Z"
// or "+hh:mm" / "-hh:mm" offset (none: UTC). The fixed layout is parsed by hand (a 30-day window
// of a large group has hundreds of thousands of points); anything else goes to absl::ParseTime.
std::optional<int64_t> ParseTimestamp(std::string_view s) {
  const int y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2), h = Digits(s, 11, 2),
            mi = Digits(s, 14, 2), se = Digits(s, 17, 2);
  if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 23 && mi >= 0 &&
      mi <= 59 && se >= 0 && se <= 60 && s.size() >= 19 && s[4] == '-' && s[7] == '-' &&
      (s[10] == 'T' || s[10] == ' ') && s[13] == ':' && s[16] == ':') {
    size_t i = 19;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == start) return std::nullopt;
    }
    int64_t offset = 0;
    if (i == s.size()) {
      // no zone: UTC
    } else if (s[i] == 'Z' && i + 1 == s.size()) {
      ++i;
    } else if ((s[i] == '+' || s[i] == '-') && i + 6 == s.size() && s[i + 3] == ':') {
      const int oh = Digits(s, i + 1, 2), om = Digits(s, i + 4, 2);
      if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
      offset = (s[i] == '+' ? 1 : -1) * (int64_t{oh} * 3600 + int64_t{om} * 60);
    } else {
      return std::nullopt;
    }
    const absl::CivilSecond cs(y, mo, d, h, mi, se);
    // CivilSecond normalizes (Feb 30 is Mar 2): such a date is not a timestamp.
    if (cs.month() != mo || cs.day() != d) return std::nullopt;
    return absl::ToUnixSeconds(absl::FromCivil(cs, absl::UTCTimeZone())) - offset;
  }
  absl::Time t;
  std::string err;
  if (absl::ParseTime(absl::RFC3339_full, std::string(s), &t, &err)) {
    return absl::ToUnixSeconds(t);
  }
  return std::nullopt;
}

std::string IsoTime(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// The decoder of the collection response (see UsageInput::collection_response).
class Decoder {
 public:
  Decoder(const std::vector<ObservedSe>& ses, int64_t window_start, int64_t window_stop)
      : start_(window_start), stop_(window_stop), samples_(ses.size()) {
    for (size_t i = 0; i < ses.size(); ++i) index_.emplace(ses[i].uuid, i);
  }

  void Decode(const Json& response) {
    if (response.is_null()) return;
    if (!response.is_object()) {
      notes_.Malformed(absl::StrCat("the response is ", JsonTypeName(response), ", not an object"));
      return;
    }
    auto series = response.find("series");
    if (series == response.end()) {
      notes_.Malformed("the response has no series");
      return;
    }
    if (!series->is_object()) {
      notes_.Malformed(absl::StrCat("series is ", JsonTypeName(*series), ", not an object"));
      return;
    }
    for (auto req = series->begin(); req != series->end(); ++req) {
      const std::string& id = req.key();
      const std::string path = absl::StrCat("series.", Clip(id));
      std::optional<size_t> vs_se;
      if (id == kSeStatsRequestId) {
        // the SE is each entity
      } else if (id.rfind(kVsOnSeRequestPrefix, 0) == 0) {
        auto it = index_.find(id.substr(sizeof(kVsOnSeRequestPrefix) - 1));
        if (it == index_.end()) continue;  // not one of the group's SEs
        vs_se = it->second;
      } else {
        continue;  // not a request of ours
      }
      if (!req->is_object()) {
        notes_.Malformed(absl::StrCat(path, " is ", JsonTypeName(*req), ", not an object"));
        continue;
      }
      for (auto ent = req->begin(); ent != req->end(); ++ent) {
        const std::string epath = absl::StrCat(path, ".", Clip(ent.key()));
        if (!ent->is_array()) {
          notes_.Malformed(absl::StrCat(epath, " is ", JsonTypeName(*ent), ", not a list"));
          continue;
        }
        for (size_t k = 0; k < ent->size(); ++k) {
          DecodeSeries((*ent)[k], absl::StrCat(epath, "[", k, "]"), ent.key(), vs_se);
        }
      }
    }
  }

  std::vector<SeSamples>& samples() { return samples_; }
  const DecodeNotes& notes() const { return notes_; }

 private:
  void DecodeSeries(const Json& s, const std::string& path, const std::string& entity_key,
                    std::optional<size_t> vs_se) {
    if (!s.is_object()) {
      notes_.Malformed(absl::StrCat(path, " is ", JsonTypeName(s), ", not an object"));
      return;
    }
    auto header = s.find("header");
    if (header == s.end() || !header->is_object()) {
      notes_.Malformed(absl::StrCat(path, ".header is missing or not an object"));
      return;
    }
    auto name = header->find("name");
    if (name == header->end() || !name->is_string()) {
      notes_.Malformed(absl::StrCat(path, ".header.name is missing or not a string"));
      return;
    }
    const std::optional<Series> kind = SeriesOf(name->get_ref<const std::string&>());
    if (!kind.has_value()) return;  // a metric the report does not read
    size_t se = 0;
    if (vs_se.has_value()) {
      se = *vs_se;
    } else {
      std::optional<size_t> found;
      auto eu = header->find("entity_uuid");
      if (eu != header->end() && eu->is_string()) {
        auto it = index_.find(eu->get_ref<const std::string&>());
        if (it != index_.end()) found = it->second;
      }
      if (!found.has_value()) {
        auto it = index_.find(entity_key);
        if (it != index_.end()) found = it->second;
      }
      if (!found.has_value()) return;  // not one of the group's SEs
      se = *found;
    }
    auto data = s.find("data");
    if (data == s.end()) return;  // no points
    if (!data->is_array()) {
      notes_.Malformed(absl::StrCat(path, ".data is ", JsonTypeName(*data), ", not a list"));
      return;
    }
    points_.clear();
    for (size_t i = 0; i < data->size(); ++i) {
      const Json& p = (*data)[i];
      if (!p.is_object()) {
        notes_.DropAt(kNotNumber, absl::StrCat(path, ".data[", i, "] (", JsonTypeName(p), ")"));
        continue;
      }
      auto is_null = p.find("is_null");
      if (is_null != p.end() && is_null->is_boolean() && is_null->get<bool>()) continue;  // a gap
      auto value = p.find("value");
      if (value == p.end() || value->is_null()) continue;  // a gap
      if (!value->is_number()) {
        notes_.DropAt(kNotNumber, absl::StrCat(path, ".data[", i, "].value (", Quote(*value), ")"));
        continue;
      }
      const double v = value->get<double>();
      Drop why;
      if (!std::isfinite(v)) {
        why = kNonFinite;
      } else if (v < 0) {
        why = kNegative;
      } else if (v > kAbsurdValue || (IsPercent(*kind) && v > 100)) {
        why = kAbsurd;
      } else {
        auto ts = p.find("timestamp");
        std::optional<int64_t> t;
        if (ts != p.end() && ts->is_string()) t = ParseTimestamp(ts->get_ref<const std::string&>());
        if (!t.has_value()) {
          notes_.DropAt(kBadTimestamp, absl::StrCat(path, ".data[", i, "].timestamp"));
          continue;
        }
        if (*t <= start_ || *t > stop_) {
          notes_.DropAt(kOutside,
                        absl::StrCat(path, ".data[", i, "].timestamp (", Quote(*ts), ")"));
          continue;
        }
        points_.push_back({*t, v, i});
        continue;
      }
      notes_.DropAt(why, absl::StrCat(path, ".data[", i, "].value (", absl::StrCat(v), ")"));
    }
    // Oldest first; among equal timestamps the first in the response is kept.
    std::stable_sort(points_.begin(), points_.end(),
                     [](const Point& a, const Point& b) { return a.t < b.t; });
    size_t kept = 0;
    for (size_t i = 0; i < points_.size(); ++i) {
      if (kept > 0 && points_[kept - 1].t == points_[i].t) {
        notes_.DropAt(kDuplicate, absl::StrCat(path, ".data[", points_[i].index, "].timestamp"));
        continue;
      }
      points_[kept++] = points_[i];
    }
    points_.resize(kept);
    size_t first = 0;
    notes_.points_before_cap += static_cast<int64_t>(points_.size());
    if (points_.size() > static_cast<size_t>(limits::kMaxUsagePointsPerSeries)) {
      first = points_.size() - limits::kMaxUsagePointsPerSeries;
      ++notes_.capped_series;
      notes_.capped_points += static_cast<int64_t>(first);
    }
    SeSamples& out = samples_[se];
    for (size_t i = first; i < points_.size(); ++i) {
      Sample& sample = out[points_[i].t];
      if (IsSeStat(*kind) && sample.Has(*kind)) {
        // The same SE statistic from a second series: one value per timestamp.
        notes_.DropAt(kDuplicate, absl::StrCat(path, ".data[", points_[i].index, "].timestamp"));
        continue;
      }
      sample.Add(*kind, points_[i].v);
    }
  }

  struct Point {
    int64_t t;
    double v;
    size_t index;
  };

  int64_t start_;
  int64_t stop_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<SeSamples> samples_;
  std::vector<Point> points_;  // reused per series
  DecodeNotes notes_;
};

int Percentile(UsageStatistic s) {
  switch (s) {
    case UsageStatistic::kMax:
      return 100;
    case UsageStatistic::kP99:
      return 99;
    case UsageStatistic::kP95:
      return 95;
  }
  return 100;
}

// The statistic of `points` (unix seconds, value) by nearest rank, with the earliest time of the
// chosen value. Empty without points.
ObservedPeak StatisticOf(const std::vector<std::pair<int64_t, double>>& points,
                         UsageStatistic statistic, double scale = 1) {
  ObservedPeak out;
  if (points.empty()) return out;
  const size_t n = points.size();
  const int p = Percentile(statistic);
  // rank = ceil(p x n / 100), in integers so that 95% of 20 is exactly 19.
  const size_t rank = std::max<size_t>(1, (static_cast<size_t>(p) * n + 99) / 100);
  std::vector<double> values;
  values.reserve(n);
  for (const auto& [t, v] : points) values.push_back(v);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                   values.end());
  const double chosen = values[rank - 1];
  int64_t at = std::numeric_limits<int64_t>::max();
  for (const auto& [t, v] : points) {
    if (v == chosen) at = std::min(at, t);
  }
  out.value = chosen / scale;
  out.at = absl::FromUnixSeconds(at);
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A number for a JSON report: integral values as integers.
Json NumberJson(double v) {
  if (std::trunc(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

Json PeakJson(const std::optional<double>& v) { return v.has_value() ? NumberJson(*v) : Json(); }
Json TimeJson(const std::optional<absl::Time>& t) {
  return t.has_value() ? Json(IsoTime(*t)) : Json();
}

// "91%" or "91.4%": a percent to a tenth, without a trailing ".0".
std::string PercentText(double pct) {
  const double tenth = std::round(pct * 10) / 10;
  if (tenth == std::trunc(tenth)) return absl::StrCat(static_cast<int64_t>(tenth), "%");
  return absl::StrFormat("%.1f%%", tenth);
}

// A whole-number member of a JSON object: nullopt when absent or null; an error when it is not
// a whole number within int.
absl::StatusOr<std::optional<int>> WholeMember(const Json& object, const char* name,
                                               const std::string& display) {
  if (!object.is_object()) return std::optional<int>();
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::optional<int>();
  if (it->is_number()) {
    const double d = it->get<double>();
    if (std::isfinite(d) && std::trunc(d) == d && d >= std::numeric_limits<int>::min() &&
        d <= std::numeric_limits<int>::max()) {
      return std::optional<int>(static_cast<int>(d));
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat(display, " must be a whole number, got ", Quote(*it)));
}

// A number member >= 0, or nullopt.
std::optional<double> NumberMember(const Json& object, const char* name) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(name);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  const double d = it->get<double>();
  if (!std::isfinite(d) || d < 0) return std::nullopt;
  return d;
}

std::string StepText(int step_seconds) {
  return step_seconds % 3600 == 0 ? absl::StrCat(step_seconds / 3600, "-hour")
                                  : absl::StrCat(step_seconds / 60, "-minute");
}

// The settings the recommendation keeps from the group: its HA mode and scale-out limits.
constexpr const char* kKeptSettings[] = {
    "ha_mode", "buffer_se", "max_vs_per_se", "max_scaleout_per_vs", "max_num_se_dps", "per_app"};
// The workload policy the recommendation keeps from the declared workload.
constexpr const char* kKeptWorkload[] = {"max_vcpus_per_se", "virtual_services"};
// Metric keys of the CPU-bound demand (sizing::SharesCpuBudget).
bool IsCpuBoundKey(const std::string& key) {
  const std::optional<sz::Metric> m = sz::MetricFromKey(key);
  return m.has_value() && sz::SharesCpuBudget(*m);
}

// The ECC share of the declared handshakes (observed-handshakes-split-as-declared): 0 without
// declared handshakes (all RSA, the costlier).
double EccShare(const Json& declared) {
  const double ecc = NumberMember(declared, "ssl_tps_ecc").value_or(0);
  const double rsa = NumberMember(declared, "ssl_tps_rsa").value_or(0);
  return ecc + rsa > 0 ? ecc / (ecc + rsa) : 0;
}

// The workload key observed throughput is taken as (observed-throughput-as-declared-kind).
std::string ThroughputKey(const Json& declared, bool handshakes_seen) {
  for (const char* key : {"l7_ssl_gbps", "l7_gbps", "l4_gbps"}) {
    if (NumberMember(declared, key).has_value()) return key;
  }
  return handshakes_seen ? "l7_ssl_gbps" : "l4_gbps";
}

// The model's CPU-bound workload for one SE's rates at one timestamp (see Calibration).
void SetRates(const Sample& s, double ecc_share, sz::Metric throughput, sz::Workload& w) {
  w.demand = sz::Demand();
  if (s.Has(kRps)) w.demand.Set(sz::Metric::kL7Rps, s.value[kRps]);
  if (s.Has(kCps)) w.demand.Set(sz::Metric::kL4Cps, s.value[kCps]);
  if (s.Has(kTps)) {
    if (ecc_share > 0) w.demand.Set(sz::Metric::kSslTpsEcc, s.value[kTps] * ecc_share);
    if (ecc_share < 1) w.demand.Set(sz::Metric::kSslTpsRsa, s.value[kTps] * (1 - ecc_share));
  }
  if (s.Has(kVsBandwidth) && sz::SharesCpuBudget(throughput)) {
    w.demand.Set(throughput, s.value[kVsBandwidth] / kBitsPerMbps);
  }
}

bool HasCpuBoundRate(const Sample& s, sz::Metric throughput) {
  return s.Has(kRps) || s.Has(kCps) || s.Has(kTps) ||
         (s.Has(kVsBandwidth) && sz::SharesCpuBudget(throughput));
}

// A sample the calibration can use: the SE's CPU is known and above zero, and so is one of its
// CPU-bound rates. A reading of 0% beside traffic is not a measurement of that traffic (an SE that
// forwards requests spends CPU on them); its ratio of 0 would only pull the median down, the side
// that under-sizes.
bool IsCalibrationSample(const Sample& s, sz::Metric throughput) {
  return s.Has(kCpu) && s.value[kCpu] > 0 && HasCpuBoundRate(s, throughput);
}

// A report with the query's figures and no observation.
// "web-se-1": an SE as findings name it (its uuid without a name).
std::string SeLabel(const SeUsage& se) { return se.name.empty() ? se.uuid : se.name; }

// The forecast of one CPU-bound rate of the group as a percent of the capacity of its SEs (at
// 100%, the model's per-SE figure at each SE's real size): the handshakes split as the
// calibration splits them. Unset when an SE's size is one the model does not know.
std::optional<ForecastInput> RateForecastInput(const UsageInput& in,
                                               const std::map<int64_t, Sample>& group,
                                               Series series, double ecc_share,
                                               const UsageReport& r) {
  // The capacity of the group's SEs, per second at 100%, for one unit of the series.
  double capacity = 0;
  for (const ObservedSe& se : in.ses) {
    if (se.vcpus < sz::kMinVcpus || se.vcpus > sz::kMaxVcpus) return std::nullopt;
    absl::StatusOr<sz::SeCapacity> c = se.memory_mb > 0
                                           ? sz::CapacityOf(in.platform, se.vcpus, se.memory_mb)
                                           : sz::CapacityOf(in.platform, se.vcpus);
    if (!c.ok()) return std::nullopt;
    if (series == kTps) {
      const double ecc = c->Of(sz::Metric::kSslTpsEcc).value;
      const double rsa = c->Of(sz::Metric::kSslTpsRsa).value;
      if (!(ecc > 0) || !(rsa > 0)) return std::nullopt;
      capacity += 1 / (ecc_share / ecc + (1 - ecc_share) / rsa);
    } else {
      capacity += c->Of(series == kRps ? sz::Metric::kL7Rps : sz::Metric::kL4Cps).value;
    }
  }
  if (!(capacity > 0)) return std::nullopt;
  ForecastInput out;
  out.measure = series == kRps   ? "l7_rps_pct_of_capacity"
                : series == kTps ? "ssl_tps_pct_of_capacity"
                                 : "l4_cps_pct_of_capacity";
  for (const auto& [t, s] : group) {
    if (s.Has(series)) out.points.emplace_back(t, s.value[series] * 100 / capacity);
  }
  out.window_start = in.now - in.query.window;
  out.window_end = in.now;
  out.target = r.target_pct;
  return out;
}

// The headroom forecast (forecast.h) of the measure that reaches the target first: the highest
// SE's CPU and each CPU-bound rate against the SEs' capacity; none for a window under 7 days.
void AddForecast(const UsageInput& in, const std::vector<SeSamples>& per_se,
                 const std::map<int64_t, Sample>& group, UsageReport& r) {
  if (in.query.window < kMinForecastWindow) {
    r.forecast.reason = absl::StrCat("the window (", UsageWindowProse(in.query.window),
                                     ") is shorter than 7 days: a forecast needs at least ",
                                     kMinForecastDailyPeaks, " daily peaks");
    return;
  }
  std::vector<Forecast> forecasts;
  std::vector<std::string> subjects;
  // The highest SE's CPU at each timestamp, spoken of as the SE with the highest statistic.
  std::map<int64_t, double> highest;
  for (const SeSamples& se : per_se) {
    for (const auto& [t, s] : se) {
      if (!s.Has(kCpu)) continue;
      auto [it, fresh] = highest.emplace(t, s.value[kCpu]);
      if (!fresh) it->second = std::max(it->second, s.value[kCpu]);
    }
  }
  const SeUsage* busiest = nullptr;
  for (const SeUsage& u : r.service_engines) {
    if (u.cpu.value.has_value() && (busiest == nullptr || *u.cpu.value > *busiest->cpu.value)) {
      busiest = &u;
    }
  }
  ForecastInput cpu;
  cpu.measure = kCpuForecastMeasure;
  cpu.points.assign(highest.begin(), highest.end());
  cpu.window_start = in.now - in.query.window;
  cpu.window_end = in.now;
  cpu.target = r.target_pct;
  forecasts.push_back(ForecastHeadroom(cpu));
  subjects.push_back(busiest != nullptr ? SeLabel(*busiest) : "the busiest SE");
  for (Series series : {kRps, kTps, kCps}) {
    if (std::optional<ForecastInput> rate = RateForecastInput(in, group, series, r.ecc_share, r)) {
      if (rate->points.empty()) continue;
      forecasts.push_back(ForecastHeadroom(*rate));
      const sz::Metric metric = series == kRps   ? sz::Metric::kL7Rps
                                : series == kTps ? sz::Metric::kSslTpsEcc
                                                 : sz::Metric::kL4Cps;
      subjects.push_back(absl::StrCat(
          "the group's ", series == kTps ? std::string("SSL TPS") : sz::InfoOf(metric).label,
          " (as a share of its SEs' capacity)"));
    }
  }
  std::map<std::string, std::string> subject_of;  // by measure
  for (size_t i = 0; i < forecasts.size(); ++i) subject_of[forecasts[i].measure] = subjects[i];
  r.forecast = BindingForecast(std::move(forecasts));
  r.forecast_subject = subject_of[r.forecast.measure];
}

UsageReport EmptyReport(const std::vector<ObservedSe>& ses, const UsageQuery& query) {
  UsageReport r;
  r.se_count = static_cast<int>(ses.size());
  r.window = query.window;
  r.statistic = query.statistic;
  r.step_seconds = UsageStepSeconds(query.window);
  r.expected_samples = UsageExpectedSamples(query.window);
  r.basis = sz::BasisName(sz::Basis::kObserved);
  for (const ObservedSe& se : ses) {
    SeUsage u;
    u.uuid = se.uuid;
    u.name = se.name;
    u.vcpus = se.vcpus;
    u.memory_mb = se.memory_mb;
    r.service_engines.push_back(std::move(u));
  }
  // Until the analysis says otherwise: nothing was observed.
  r.service_units.reason = "no observed load";
  r.forecast.reason = "no observed load";
  return r;
}

}  // namespace

Finding ObservedLoadWarning(const char* rule, std::string attribute, std::string summary,
                            std::string detail, bool policy_dependent) {
  sz::Finding f;
  f.severity = sz::Severity::kWarning;
  f.attribute = attribute;
  f.rule = rule;
  f.summary = std::move(summary);
  f.detail = std::move(detail);
  return Finding{std::move(f), std::move(attribute), policy_dependent};
}

absl::StatusOr<UsageStatistic> ParseUsageStatistic(std::string_view text) {
  if (text == "max") return UsageStatistic::kMax;
  if (text == "p99") return UsageStatistic::kP99;
  if (text == "p95") return UsageStatistic::kP95;
  return absl::InvalidArgumentError(absl::StrCat(
      "statistic must be \"max\", \"p99\" or \"p95\", got \"", std::string(text), "\""));
}

const char* UsageStatisticName(UsageStatistic statistic) {
  switch (statistic) {
    case UsageStatistic::kMax:
      return "max";
    case UsageStatistic::kP99:
      return "p99";
    case UsageStatistic::kP95:
      return "p95";
  }
  return "max";
}

absl::StatusOr<absl::Duration> ParseUsageWindow(std::string_view text) {
  const std::string range = absl::StrCat("from ", UsageWindowText(kMinUsageWindow), " to ",
                                         UsageWindowText(kMaxUsageWindow));
  absl::Duration d;
  bool parsed = false;
  if (text.size() >= 2 && text.size() <= 7 && text.back() == 'd') {
    int days = 0;
    const std::string_view digits = text.substr(0, text.size() - 1);
    if (std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit) &&
        absl::SimpleAtoi(absl::string_view(digits.data(), digits.size()), &days)) {
      d = absl::Hours(24) * days;
      parsed = true;
    }
  }
  if (!parsed) parsed = absl::ParseDuration(std::string(text), &d);
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "window \"", std::string(text),
        "\" is not a duration: use a number and a unit (such as \"24h\", \"90m\" or \"7d\"), ",
        range));
  }
  if (d < kMinUsageWindow || d > kMaxUsageWindow) {
    return absl::InvalidArgumentError(
        absl::StrCat("window must be ", range, ", got \"", std::string(text), "\""));
  }
  return d;
}

std::string UsageWindowText(absl::Duration window) {
  const absl::Duration day = absl::Hours(24);
  if (window > absl::ZeroDuration() && window % day == absl::ZeroDuration()) {
    return absl::StrCat(window / day, "d");
  }
  return absl::FormatDuration(window);
}

std::string UsageWindowProse(absl::Duration window) {
  const auto plural = [](int64_t n, const char* unit) {
    return absl::StrCat(n, " ", unit, n == 1 ? "" : "s");
  };
  const absl::Duration day = absl::Hours(24);
  if (window >= 2 * day && window % day == absl::ZeroDuration()) {
    return plural(window / day, "day");
  }
  if (window % absl::Hours(1) == absl::ZeroDuration()) {
    return plural(window / absl::Hours(1), "hour");
  }
  if (window % absl::Minutes(1) == absl::ZeroDuration()) {
    return plural(window / absl::Minutes(1), "minute");
  }
  return absl::FormatDuration(window);
}

int UsageStepSeconds(absl::Duration window) {
  return window <= kShortStepUpTo ? kShortStepSeconds : kLongStepSeconds;
}

int UsageExpectedSamples(absl::Duration window) {
  absl::Duration rest;
  const int64_t n = absl::IDivDuration(window, absl::Seconds(UsageStepSeconds(window)), &rest);
  return static_cast<int>(
      std::clamp<int64_t>(n, 0, static_cast<int64_t>(limits::kMaxUsagePointsPerSeries)));
}

Json UsageCollectionRequest(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                            absl::Time now) {
  const int step = UsageStepSeconds(query.window);
  const int limit = UsageExpectedSamples(query.window);
  const std::string start = IsoTime(now - query.window);
  const std::string stop = IsoTime(now);
  const auto window = [&](Json request) {
    request["step"] = step;
    request["limit"] = limit;
    request["start"] = start;
    request["stop"] = stop;
    request["pad_missing_data"] = false;
    return request;
  };
  std::vector<std::string> uuids;
  uuids.reserve(ses.size());
  for (const ObservedSe& se : ses) uuids.push_back(se.uuid);
  Json requests = Json::array();
  requests.push_back(window(Json{{"id", kSeStatsRequestId},
                                 {"entity_uuid", absl::StrJoin(uuids, ",")},
                                 {"metric_id", kSeStatsMetricIds}}));
  for (const ObservedSe& se : ses) {
    requests.push_back(window(Json{{"id", absl::StrCat(kVsOnSeRequestPrefix, se.uuid)},
                                   {"entity_uuid", "*"},
                                   {"serviceengine_uuid", se.uuid},
                                   {"aggregate_entity", true},
                                   {"metric_id", kVsOnSeMetricIds}}));
  }
  return Json{{"metric_requests", std::move(requests)}};
}

const char* ObservedKeyName(ObservedKey key) {
  switch (key) {
    case ObservedKey::kL7Rps:
      return "l7_rps";
    case ObservedKey::kSslTps:
      return "ssl_tps";
    case ObservedKey::kL4Cps:
      return "l4_cps";
    case ObservedKey::kL4OpenConns:
      return "l4_open_conns";
    case ObservedKey::kThroughputGbps:
      return "throughput_gbps";
    case ObservedKey::kCpuPct:
      return "cpu_pct";
  }
  return "";
}

int UsageTargetPct(const Json& settings, const Json& declared_workload) {
  for (const auto& [object, name] :
       {std::pair<const Json*, const char*>{&declared_workload, "target_utilization"},
        std::pair<const Json*, const char*>{&settings, "max_cpu_usage"}}) {
    absl::StatusOr<std::optional<int>> v = WholeMember(*object, name, name);
    if (v.ok() && v->has_value()) return **v;
  }
  return sz::kDefaultTargetUtilizationPct;
}

std::string UsageTimeText(absl::Time t) {
  return absl::StrCat(absl::FormatTime("%b ", t, absl::UTCTimeZone()),
                      absl::ToCivilDay(t, absl::UTCTimeZone()).day(),
                      absl::FormatTime(" %H:%M UTC", t, absl::UTCTimeZone()));
}

Finding AnalyticsUnavailableFinding(const absl::Status& status) {
  const std::optional<int> http = controller::HttpStatusOf(status);
  std::string why = std::string(status.message());
  if (why.empty()) why = absl::StatusCodeToString(status.code());
  if (http.has_value() && why.find(absl::StrCat("HTTP ", *http)) == std::string::npos) {
    why = absl::StrCat("HTTP ", *http, ": ", why);
  }
  return ObservedLoadWarning(
      rules::kAnalyticsUnavailable, "", "The Controller's analytics are unavailable",
      absl::StrCat("The metrics request failed (", why,
                   "); the observed load is not known, and the plan goes on without "
                   "it."));
}

UsageReport UsageUnavailableReport(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                                   const absl::Status& status) {
  UsageReport r = EmptyReport(ses, query);
  r.findings.push_back(AnalyticsUnavailableFinding(status));
  return r;
}

absl::StatusOr<UsageReport> AnalyzeUsage(const UsageInput& in) {
  // max_cpu_usage is only checked here (UsageTargetPct reads it).
  NSXALB_RETURN_IF_ERROR(WholeMember(in.settings, "max_cpu_usage", "max_cpu_usage").status());
  if (in.query.window < kMinUsageWindow || in.query.window > kMaxUsageWindow) {
    return absl::InvalidArgumentError(
        absl::StrCat("window must be from ", UsageWindowText(kMinUsageWindow), " to ",
                     UsageWindowText(kMaxUsageWindow), ", got ", UsageWindowText(in.query.window)));
  }
  UsageReport r = EmptyReport(in.ses, in.query);
  const int target = UsageTargetPct(in.settings, in.declared_workload);
  r.target_pct = target;
  if (in.ses.empty()) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kUsageNoSes, "", "The group has no Service Engines",
        "There is no observed load to compare with the declared workload; it appears once the "
        "group places a virtual service."));
    return r;
  }

  // Decode.
  const int64_t stop = absl::ToUnixSeconds(in.now);
  const int64_t start = absl::ToUnixSeconds(in.now - in.query.window);
  Decoder decoder(in.ses, start, stop);
  decoder.Decode(in.collection_response);
  std::vector<SeSamples>& per_se = decoder.samples();
  const DecodeNotes& notes = decoder.notes();

  // Per SE: its CPU and samples. The group: sums per timestamp.
  std::map<int64_t, Sample> group;
  std::vector<std::pair<int64_t, double>> points;
  for (size_t i = 0; i < per_se.size(); ++i) {
    SeUsage& u = r.service_engines[i];
    u.samples = static_cast<int>(per_se[i].size());
    points.clear();
    for (const auto& [t, s] : per_se[i]) {
      if (s.Has(kCpu)) points.emplace_back(t, s.value[kCpu]);
      Sample& g = group[t];
      for (int k : {kRps, kTps, kCps, kOpenConns, kVsBandwidth}) {
        if (s.Has(k)) g.Add(k, s.value[k]);
      }
    }
    u.cpu = StatisticOf(points, in.query.statistic);
  }
  r.samples = static_cast<int>(group.size());
  const std::pair<ObservedKey, Series> kGroupKeys[] = {
      {ObservedKey::kL7Rps, kRps},
      {ObservedKey::kSslTps, kTps},
      {ObservedKey::kL4Cps, kCps},
      {ObservedKey::kL4OpenConns, kOpenConns},
      {ObservedKey::kThroughputGbps, kVsBandwidth}};
  for (const auto& [key, series] : kGroupKeys) {
    points.clear();
    for (const auto& [t, s] : group) {
      if (s.Has(series)) points.emplace_back(t, s.value[series]);
    }
    r.observed[static_cast<int>(key)] =
        StatisticOf(points, in.query.statistic, series == kVsBandwidth ? kBitsPerGbps : 1);
  }
  // cpu_pct: the highest of any one SE (the first SE on a tie).
  ObservedPeak& cpu = r.observed[static_cast<int>(ObservedKey::kCpuPct)];
  for (const SeUsage& u : r.service_engines) {
    if (u.cpu.value.has_value() && (!cpu.value.has_value() || *u.cpu.value > *cpu.value)) {
      cpu = u.cpu;
    }
  }

  // Assumptions.
  const ObservedPeak& tps = r.Observed(ObservedKey::kSslTps);
  const bool handshakes_seen = tps.value.has_value() && *tps.value > 0;
  r.ecc_share = EccShare(in.declared_workload);
  r.throughput_key = ThroughputKey(in.declared_workload, handshakes_seen);
  const sz::Metric throughput = *sz::MetricFromKey(r.throughput_key);

  // Calibration.
  std::vector<double> ratios;
  std::vector<std::string> uncalibrated;
  sz::Workload w;
  w.platform = in.platform;
  for (size_t i = 0; i < per_se.size(); ++i) {
    const ObservedSe& se = in.ses[i];
    bool any = false;
    for (const auto& [t, s] : per_se[i]) {
      if (IsCalibrationSample(s, throughput)) {
        any = true;
        break;
      }
    }
    if (!any) continue;
    absl::StatusOr<sz::SeCapacity> capacity =
        se.vcpus < sz::kMinVcpus || se.vcpus > sz::kMaxVcpus
            ? absl::StatusOr<sz::SeCapacity>(absl::InvalidArgumentError("vcpus"))
            : (se.memory_mb > 0 ? sz::CapacityOf(in.platform, se.vcpus, se.memory_mb)
                                : sz::CapacityOf(in.platform, se.vcpus));
    if (!capacity.ok()) {
      uncalibrated.push_back(absl::StrCat(SeLabel(r.service_engines[i]), " (",
                                          sz::FormatVcpus(se.vcpus), ", ", se.memory_mb, " MB)"));
      continue;
    }
    for (const auto& [t, s] : per_se[i]) {
      if (!IsCalibrationSample(s, throughput)) continue;
      SetRates(s, r.ecc_share, throughput, w);
      const sz::CpuLoad load = sz::CpuLoadOf(sz::LoadsOn(w, *capacity, 1), target);
      if (load.utilization_pct >= kMinCalibrationPredictedPct) {
        ratios.push_back(s.value[kCpu] / load.utilization_pct);
      }
    }
  }
  r.calibration.samples = static_cast<int>(ratios.size());
  if (!ratios.empty()) r.calibration.ratio = Median(std::move(ratios));
  r.calibration.applied = r.calibration.ratio.has_value() && *r.calibration.ratio > 1;

  // The observed workload and its recommendation.
  bool observed_any = false;
  for (ObservedKey key : kAllObservedKeys) {
    if (key != ObservedKey::kCpuPct && r.Observed(key).value.has_value()) observed_any = true;
  }
  if (observed_any) {
    Json workload = Json::object();
    const auto put = [&](const std::string& key, double v) {
      if (!(v > 0)) return;
      if (r.calibration.applied && IsCpuBoundKey(key)) v *= *r.calibration.ratio;
      // To a thousandth, as BaseFromDisplay keeps inputs, so that 2,240 x 1.2 is 2,688.
      workload[key] = NumberJson(std::round(v * 1000) / 1000);
    };
    const auto value = [&](ObservedKey key) { return r.Observed(key).value.value_or(0); };
    put("l7_rps", value(ObservedKey::kL7Rps));
    put("ssl_tps_ecc", value(ObservedKey::kSslTps) * r.ecc_share);
    put("ssl_tps_rsa", value(ObservedKey::kSslTps) * (1 - r.ecc_share));
    put("l4_cps", value(ObservedKey::kL4Cps));
    put("l4_open_conns", value(ObservedKey::kL4OpenConns));
    put(r.throughput_key, value(ObservedKey::kThroughputGbps));
    workload["target_utilization"] = target;
    for (const char* key : kKeptWorkload) {
      if (in.declared_workload.is_object() && in.declared_workload.contains(key)) {
        workload[key] = in.declared_workload[key];
      }
    }
    SizingInput sizing;
    for (const char* key : kKeptSettings) {
      if (in.settings.is_object() && in.settings.contains(key))
        sizing.settings[key] = in.settings[key];
    }
    sizing.workload = workload;
    r.recommendation = PlanSizing(sizing, in.platform);
    r.observed_workload = std::move(workload);
  }

  // What the group costs now and from its observed load, and how long its headroom lasts.
  std::vector<int> vcpus;
  vcpus.reserve(in.ses.size());
  for (const ObservedSe& se : in.ses) vcpus.push_back(se.vcpus);
  r.service_units =
      ReclaimableServiceUnits(ServiceUnitsNow(vcpus, LicenceSettingsOf(in.settings)),
                              r.recommendation.has_value() && r.recommendation->summary.has_value()
                                  ? r.recommendation->summary->service_units
                                  : std::nullopt,
                              r.samples, r.expected_samples);
  AddForecast(in, per_se, group, r);

  // Findings about the data.
  if (notes.malformed_count > 0) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kBadPoints, "", "Part of the metrics response is not readable",
        absl::StrCat(
            notes.malformed_count, notes.malformed_count == 1 ? " part was" : " parts were",
            " skipped: ", absl::StrJoin(notes.malformed, "; "),
            notes.malformed_count > static_cast<int>(notes.malformed.size()) ? "; ..." : "", ".")));
  }
  if (const int dropped = notes.DroppedTotal(); dropped > 0) {
    std::vector<std::string> why;
    for (int d = 0; d < kDropCount; ++d) {
      if (notes.dropped[d] > 0) why.push_back(absl::StrCat(notes.dropped[d], " ", kDropText[d]));
    }
    r.findings.push_back(ObservedLoadWarning(
        rules::kBadPoints, "",
        absl::StrCat("Dropped ", sz::FormatInt(dropped), dropped == 1 ? " point" : " points",
                     " of the metrics response"),
        absl::StrCat("Dropped: ", absl::StrJoin(why, ", "), "; the first at ", notes.first_dropped,
                     ". The figures are taken from the remaining points.")));
  }
  if (notes.capped_series > 0) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kUsagePointsCapped, "",
        absl::StrCat("Read the most recent ", sz::FormatInt(limits::kMaxUsagePointsPerSeries),
                     " points of ", notes.capped_series, " series"),
        absl::StrCat(sz::FormatInt(notes.capped_points), " older of ",
                     sz::FormatInt(notes.points_before_cap), " points were not read (at most ",
                     sz::FormatInt(limits::kMaxUsagePointsPerSeries),
                     " per series); a peak among them is not seen.")));
  }
  if (r.samples < r.expected_samples) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kFewerSamples, "",
        absl::StrCat("Observed ", sz::FormatInt(r.samples), " of ",
                     sz::FormatInt(r.expected_samples), " samples"),
        absl::StrCat("A window of ", UsageWindowProse(r.window), " at ", StepText(r.step_seconds),
                     " steps holds ", sz::FormatInt(r.expected_samples),
                     "; a peak among the missing ones is not seen (analytics off for a time, or "
                     "SEs newer than the window).")));
  }
  if (handshakes_seen) {
    const std::string amount = absl::StrCat(
        sz::FormatValue(sz::Metric::kSslTpsEcc, *tps.value, sz::Rounding::kUp), " SSL TPS");
    r.findings.push_back(ObservedLoadWarning(
        rules::kHandshakeSplit, "workload", "The metrics do not split ECC and RSA handshakes",
        r.ecc_share > 0
            ? absl::StrCat("The observed ", amount, " are taken as ",
                           PercentText(r.ecc_share * 100), " ECC and ",
                           PercentText((1 - r.ecc_share) * 100),
                           " RSA, as the declared workload splits them.")
            : absl::StrCat("The observed ", amount,
                           " are taken as RSA (the costlier), as the workload declares no "
                           "handshakes.")));
  }
  if (!uncalibrated.empty()) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kCalibrate, "", "Some SEs have no size the model knows",
        absl::StrCat("Not calibrated: ", absl::StrJoin(uncalibrated, ", "), "; the model needs ",
                     sz::VcpuRangeText(), " vCPUs and ", sz::MemoryRangeText(), " MB.")));
  }
  return r;
}

std::vector<Finding> CompareWithDeclared(const UsageReport& report, const SizingPlan& declared,
                                         int target_pct) {
  std::vector<Finding> out;
  if (!declared.workload.has_value()) return out;
  const sz::Workload& w = *declared.workload;
  const std::string window = UsageWindowProse(report.window);
  const bool is_max = report.statistic == UsageStatistic::kMax;
  const std::string observed_word =
      is_max ? "observed peak" : absl::StrCat("observed ", UsageStatisticName(report.statistic));
  const auto when = [&](const ObservedPeak& p) {
    return p.at.has_value() ? absl::StrCat(UsageTimeText(*p.at), ", ", window) : window;
  };
  const auto demand = [&](sz::Metric m) { return w.demand.Get(m).value_or(0); };
  // " (its recommendation: 2 SEs of 6 vCPUs, 18 SUs)", or "" without one.
  const std::string recommendation =
      RecommendationText(report).empty()
          ? std::string()
          : absl::StrCat(" (its recommendation: ", RecommendationText(report), ")");

  // One observed figure against its declared demand (both in base units).
  const auto compare = [&](const ObservedPeak& peak, sz::Metric metric, double declared_base,
                           const std::string& label, const std::string& attribute) {
    if (!peak.value.has_value()) return;
    const double observed_base = sz::BaseFromDisplay(metric, *peak.value);
    if (sz::RoundForDisplay(metric, observed_base, sz::Rounding::kUp) <=
        sz::RoundForDisplay(metric, declared_base, sz::Rounding::kUp)) {
      return;
    }
    const std::string declared_text =
        declared_base > 0
            ? absl::StrCat(sz::FormatValue(metric, declared_base, sz::Rounding::kUp), " ", label)
            : absl::StrCat("no ", label);
    out.push_back(ObservedLoadWarning(
        rules::kObservedAboveDeclared, attribute,
        absl::StrCat("declared ", declared_text, "; ", observed_word, " ",
                     sz::FormatValue(metric, observed_base, sz::Rounding::kUp), " (", when(peak),
                     ")"),
        absl::StrCat("The plan is sized for the declared workload, and the group carried more; "
                     "raise ",
                     attribute, " to the observed figure, or size from the observed load",
                     recommendation, "."),
        true));
  };
  const auto key_of = [](sz::Metric m) { return absl::StrCat("workload.", sz::InfoOf(m).key); };
  compare(report.Observed(ObservedKey::kL7Rps), sz::Metric::kL7Rps, demand(sz::Metric::kL7Rps),
          sz::InfoOf(sz::Metric::kL7Rps).label, key_of(sz::Metric::kL7Rps));
  {
    const double ecc = demand(sz::Metric::kSslTpsEcc), rsa = demand(sz::Metric::kSslTpsRsa);
    const std::string attribute = rsa > 0 && ecc == 0   ? key_of(sz::Metric::kSslTpsRsa)
                                  : ecc > 0 && rsa == 0 ? key_of(sz::Metric::kSslTpsEcc)
                                                        : std::string("workload");
    compare(report.Observed(ObservedKey::kSslTps), sz::Metric::kSslTpsEcc, ecc + rsa, "SSL TPS",
            attribute);
  }
  compare(report.Observed(ObservedKey::kL4Cps), sz::Metric::kL4Cps, demand(sz::Metric::kL4Cps),
          sz::InfoOf(sz::Metric::kL4Cps).label, key_of(sz::Metric::kL4Cps));
  compare(report.Observed(ObservedKey::kL4OpenConns), sz::Metric::kL4OpenConns,
          demand(sz::Metric::kL4OpenConns), sz::InfoOf(sz::Metric::kL4OpenConns).label,
          key_of(sz::Metric::kL4OpenConns));
  if (const std::optional<sz::Metric> t = sz::MetricFromKey(report.throughput_key)) {
    compare(report.Observed(ObservedKey::kThroughputGbps), *t, demand(*t), sz::InfoOf(*t).label,
            key_of(*t));
  }

  // SEs above the target.
  for (const SeUsage& se : report.service_engines) {
    if (!se.cpu.value.has_value() || !(*se.cpu.value > target_pct)) continue;
    const std::string at = se.cpu.at.has_value() ? UsageTimeText(*se.cpu.at) : window;
    out.push_back(ObservedLoadWarning(
        rules::kObservedCpuAboveTarget, "workload",
        is_max ? absl::StrCat("SE ", SeLabel(se), " peaked at ", PercentText(*se.cpu.value),
                              " CPU (", at, ") against the group's ", target_pct, "% target")
               : absl::StrCat("SE ", SeLabel(se), " ran at ", PercentText(*se.cpu.value), " CPU (",
                              UsageStatisticName(report.statistic), ", ", at,
                              ") against the group's ", target_pct, "% target"),
        absl::StrCat("Avi rebalances and scales out above max_cpu_usage; this SE ran above it in "
                     "the last ",
                     window, ", so the group was short of capacity at its peak."),
        true));
  }

  // A calibration that the planned shape does not survive.
  if (report.calibration.ratio.has_value() && *report.calibration.ratio > 1 &&
      declared.planned_shape.has_value()) {
    const sz::Recommendation& shape = *declared.planned_shape;
    const double ratio = *report.calibration.ratio;
    sz::Workload calibrated = w;
    for (sz::Metric m : sz::kAllMetrics) {
      if (sz::SharesCpuBudget(m) && calibrated.demand.Get(m).has_value()) {
        calibrated.demand.Set(m, *calibrated.demand.Get(m) * ratio);
      }
    }
    const int vcpus = shape.vcpus_per_se.value;
    const int64_t memory = shape.memory_per_se.value;
    const int count = shape.se_count.value;
    if (sz::Carries(w, vcpus, memory, count) && !sz::Carries(calibrated, vcpus, memory, count)) {
      std::string cpu_text;
      if (absl::StatusOr<sz::SeCapacity> c = sz::CapacityOf(w.platform, vcpus, memory); c.ok()) {
        const sz::CpuLoad load =
            sz::CpuLoadOf(sz::LoadsOn(calibrated, *c, count), calibrated.target_utilization_pct);
        cpu_text = absl::StrCat(" (", sz::FormatPercent(load.utilization_pct), " CPU against the ",
                                calibrated.target_utilization_pct, "% target)");
      }
      out.push_back(ObservedLoadWarning(
          rules::kCalibrationUnderSized, "workload",
          absl::StrCat(
              absl::StrFormat("The SEs used %.2fx the CPU the tables predict; at that rate "
                              "the planned ",
                              ratio),
              sz::FormatShape(count, vcpus), sz::Agree(count, " does", " do"),
              " not carry the declared workload"),
          absl::StrCat("Calibrated over ", report.calibration.samples, " samples in the last ",
                       window, cpu_text,
                       "; the tables were measured on other hardware. Size from the observed "
                       "load",
                       RecommendationText(report).empty()
                           ? std::string(" (its recommendation applies the ratio)")
                           : absl::StrCat(" (its recommendation applies the ratio: ",
                                          RecommendationText(report), ")"),
                       "."),
          true));
    }
  }
  return out;
}

Json UsageReportJson(const UsageReport& r) {
  Json observed = Json::object(), observed_at = Json::object();
  for (ObservedKey key : kAllObservedKeys) {
    observed[ObservedKeyName(key)] = PeakJson(r.Observed(key).value);
    observed_at[ObservedKeyName(key)] = TimeJson(r.Observed(key).at);
  }
  Json ses = Json::array();
  for (const SeUsage& se : r.service_engines) {
    ses.push_back(Json{{"uuid", se.uuid},
                       {"name", se.name},
                       {"vcpus", se.vcpus},
                       {"memory_mb", se.memory_mb},
                       {"cpu_peak_pct", PeakJson(se.cpu.value)},
                       {"cpu_peak_at", TimeJson(se.cpu.at)},
                       {"samples", se.samples}});
  }
  Json calibration = {{"ratio", r.calibration.ratio.has_value()
                                    ? Json(std::round(*r.calibration.ratio * 1000) / 1000)
                                    : Json()},
                      {"samples", r.calibration.samples},
                      {"applied", r.calibration.applied},
                      {"rule", rules::kCalibrate}};
  Json recommendation;
  if (r.recommendation.has_value()) {
    const SizingPlan& plan = *r.recommendation;
    recommendation = Json{
        {"vcpus_per_se", nullptr},        {"memory_per_se", nullptr}, {"se_count", nullptr},
        {"min_scaleout_per_vs", nullptr}, {"max_se", nullptr},        {"binding_metric", nullptr},
        {"utilization_pct", nullptr},     {"service_units", nullptr}, {"summary", nullptr}};
    if (plan.summary.has_value() && plan.planned_shape.has_value()) {
      const sz::Recommendation& shape = *plan.planned_shape;
      const Json summary = SizingSummaryJson(*plan.summary);
      recommendation["vcpus_per_se"] = shape.vcpus_per_se.value;
      recommendation["memory_per_se"] = shape.memory_per_se.value;
      recommendation["se_count"] = plan.summary->se_count;
      auto per_vs = plan.recommended.find("min_scaleout_per_vs");
      recommendation["min_scaleout_per_vs"] =
          per_vs != plan.recommended.end() ? per_vs->second : Json(shape.min_scaleout_per_vs.value);
      recommendation["max_se"] = shape.max_se.value;
      recommendation["binding_metric"] = summary["binding_metric"];
      recommendation["utilization_pct"] = summary["utilization_pct"];
      recommendation["service_units"] = summary["service_units"];
      recommendation["summary"] = plan.summary->summary;
    }
    std::vector<std::string> lines;
    for (const InputError& e : plan.input_errors) {
      lines.push_back(absl::StrCat("error [", e.attribute, "] ", e.summary, ". ", e.detail));
    }
    for (const Finding& f : plan.findings) lines.push_back(FindingText(f));
    recommendation["findings"] = lines;
    recommendation["workload"] = r.observed_workload;
  }
  const auto units = [](const std::optional<double>& v) { return v ? NumberJson(*v) : Json(); };
  const ServiceUnitsUsage& su = r.service_units;
  Json service_units = {{"now", units(su.now)},
                        {"recommended", units(su.recommended)},
                        {"reclaimable", units(su.reclaimable)},
                        {"reason", su.reason.empty() ? Json() : Json(su.reason)}};
  const Forecast& f = r.forecast;
  Json daily_peaks = Json::array();
  for (const DailyPeak& p : f.daily_peaks) {
    daily_peaks.push_back(Json{{"day", absl::FormatTime("%Y-%m-%d", p.day, absl::UTCTimeZone())},
                               {"value", NumberJson(std::round(p.value * 100) / 100)}});
  }
  const auto rounded = [](const std::optional<double>& v, double scale) {
    return v ? NumberJson(std::round(*v * scale) / scale) : Json();
  };
  Json forecast = {{"days_to_target", f.days_to_target ? Json(*f.days_to_target) : Json()},
                   {"reaches_on", f.reaches_at ? Json(absl::FormatTime("%Y-%m-%d", *f.reaches_at,
                                                                       absl::UTCTimeZone()))
                                               : Json()},
                   {"measure", f.measure.empty() ? Json() : Json(f.measure)},
                   {"subject", r.forecast_subject.empty() ? Json() : Json(r.forecast_subject)},
                   {"target_pct", r.target_pct},
                   {"slope_per_day", rounded(f.slope_per_day, 1000)},
                   {"r_squared", rounded(f.r_squared, 1000)},
                   {"daily_peaks", std::move(daily_peaks)},
                   {"reason", f.reason.empty() ? Json() : Json(f.reason)}};
  std::vector<std::string> findings;
  for (const Finding& f : r.findings) findings.push_back(FindingText(f));
  return Json{{"se_count", r.se_count},
              {"window", UsageWindowText(r.window)},
              {"statistic", UsageStatisticName(r.statistic)},
              {"step_seconds", r.step_seconds},
              {"samples", r.samples},
              {"expected_samples", r.expected_samples},
              {"basis", r.basis},
              {"observed", std::move(observed)},
              {"observed_at", std::move(observed_at)},
              {"service_engines", std::move(ses)},
              {"calibration", std::move(calibration)},
              {"assumptions",
               {{"ecc_share", NumberJson(std::round(r.ecc_share * 1000) / 1000)},
                {"throughput_key", r.throughput_key},
                {"rules", {rules::kHandshakeSplit, rules::kThroughputKind}}}},
              {"recommendation", std::move(recommendation)},
              {"service_units", std::move(service_units)},
              {"forecast", std::move(forecast)},
              {"findings", std::move(findings)}};
}

}  // namespace nsxalb::segroup
