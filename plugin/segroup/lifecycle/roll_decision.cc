// Implementation of roll_decision.h.
#include "plugin/segroup/lifecycle/roll_decision.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/ha_mode.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup::lifecycle {
namespace {

constexpr char kLegacyActiveStandby[] = "HA_MODE_LEGACY_ACTIVE_STANDBY";
constexpr char kDistributed[] = "PLACEMENT_ALGO_DISTRIBUTED";
constexpr double kEpsilon = 1e-9;
constexpr std::array<LoadMetric, kLoadMetricCount> kLoadMetrics = {
    LoadMetric::kCpu, LoadMetric::kMemory, LoadMetric::kThroughput};
constexpr double kBitsPerMbps = 1e6;  // the model's throughput is in Mbps (profiles.h)
constexpr double kBitsPerGbps = 1e9;

// A figure per metric (vCPU-percent, MB-percent, bit/s-percent; or an SE's vCPUs, MB and
// throughput capacity in bit/s), by LoadMetric.
using PerMetric = std::array<double, kLoadMetricCount>;

size_t Index(LoadMetric m) { return static_cast<size_t>(m); }

// A whole number of the group, else the catalog's default, else `fallback`.
int GroupInt(const nlohmann::json& body, const char* field, int fallback) {
  auto it = body.find(field);
  if (it != body.end() && it->is_number_integer()) return it->get<int>();
  const controller::SeGroupField* f = controller::FindSeGroupField(field);
  int parsed = 0;
  if (f != nullptr && absl::SimpleAtoi(std::string(f->default_json), &parsed)) return parsed;
  return fallback;
}

std::string GroupString(const nlohmann::json& body, const char* field, const char* fallback) {
  auto it = body.find(field);
  if (it != body.end() && it->is_string()) return it->get<std::string>();
  return fallback;
}

// Names compared as people number them: "se-2" before "se-10".
bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i;
      size_t je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i);
      const std::string nb = b.substr(j, je - j);
      const std::string ta = na.substr(std::min(na.find_first_not_of('0'), na.size()));
      const std::string tb = nb.substr(std::min(nb.find_first_not_of('0'), nb.size()));
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::string Percent(double pct) { return absl::StrFormat("%.1f%%", pct); }

// The measured figures of the SEs, SE uuid -> percent, by LoadMetric.
using MeasuredLoad = std::array<std::map<std::string, double>, kLoadMetricCount>;

// One SE in the simulation.
struct SimSe {
  std::string uuid;
  std::string name;
  int vcpus = 1;
  int64_t memory_mb = 0;          // as the Controller gives it; 0 unknown
  ThroughputCapacity throughput;  // at its vCPUs (bits_per_second 0: throughput not judged)
  PerMetric size{};     // what its figures are percentages of: its vCPUs, its MB, its capacity
  int order = 0;        // creation order: the running SEs by name, then the new ones
  bool present = true;  // false once deleted (a replaced SE after its step)
  bool enabled = true;  // false while it leaves
  bool is_new = false;  // created in the roll
  // Load: vCPU-percent (cpu_pct x vcpus), MB-percent (mem_pct x MB), bit/s-percent (tput_pct x
  // capacity in bit/s, so 100 x its bits per second).
  PerMetric units{};
};

// One virtual service in the simulation: the SEs it is on and its load on each.
struct SimVs {
  std::string name;
  std::vector<int> on;             // SE indices
  std::map<int, PerMetric> share;  // SE index -> its load there, in SimSe::units' units
};

// The roll simulated on the group's SEs and virtual services.
class Simulation {
 public:
  // `measured`: each judged metric's figure of every running SE (an empty map: not judged).
  Simulation(const RollInput& in, const MeasuredLoad& measured) : in_(in), p_(in.placement) {
    for (LoadMetric m : kLoadMetrics) judged_[Index(m)] = !measured[Index(m)].empty();
    // An SE whose memory the Controller does not give weighs as the smallest known (its share
    // of memory then counts the most where it lands); none known: every SE weighs the same.
    for (const RunningSe& r : in.ses.running) {
      if (r.memory_mb > 0 && (smallest_memory_mb_ == 0 || r.memory_mb < smallest_memory_mb_)) {
        smallest_memory_mb_ = r.memory_mb;
      }
    }
    if (in.target.memory_mb > 0 &&
        (smallest_memory_mb_ == 0 || in.target.memory_mb < smallest_memory_mb_)) {
      smallest_memory_mb_ = in.target.memory_mb;
    }
    std::vector<RunningSe> running = in.ses.running;
    std::sort(running.begin(), running.end(),
              [](const RunningSe& a, const RunningSe& b) { return NaturalLess(a.name, b.name); });
    std::map<std::string, std::vector<int>> hosts;  // vs -> SE indices
    for (const RunningSe& r : running) {
      SimSe se = Sized(r.vcpus, r.memory_mb);
      se.uuid = r.uuid;
      se.name = r.name;
      se.order = static_cast<int>(ses_.size());
      for (LoadMetric m : kLoadMetrics) {
        const std::map<std::string, double>& figures = measured[Index(m)];
        auto f = figures.find(r.uuid);
        se.units[Index(m)] = f == figures.end() ? 0 : f->second * se.size[Index(m)];
      }
      const int index = static_cast<int>(ses_.size());
      ses_.push_back(se);
      auto v = in.virtual_services.find(r.uuid);
      if (v == in.virtual_services.end()) continue;
      for (const std::string& vs : v->second) hosts[vs].push_back(index);
    }
    std::vector<std::string> names;
    names.reserve(hosts.size());
    for (const auto& [name, on] : hosts) names.push_back(name);
    std::sort(names.begin(), names.end(), NaturalLess);
    for (const std::string& name : names) {
      SimVs vs;
      vs.name = name;
      vs.on = hosts[name];
      vss_.push_back(std::move(vs));
    }
    // Rule roll-load-shared-evenly: an SE's load is shared evenly by its virtual services.
    for (size_t s = 0; s < ses_.size(); ++s) {
      const int count = Count(static_cast<int>(s));
      for (SimVs& vs : vss_) {
        if (std::find(vs.on.begin(), vs.on.end(), static_cast<int>(s)) != vs.on.end()) {
          vs.share[static_cast<int>(s)] = Scaled(ses_[s].units, 1.0 / count);
        }
      }
    }
  }

  // The SE index of `uuid`, or -1.
  int IndexOf(const std::string& uuid) const {
    for (size_t i = 0; i < ses_.size(); ++i) {
      if (ses_[i].uuid == uuid) return static_cast<int>(i);
    }
    return -1;
  }

  // The group's write, before the first step: the Controller places at once every virtual
  // service the new settings want on more SEs (a raised min_scaleout_per_vs), and a virtual
  // service's load is then shared evenly by its SEs. Returns the SEs this creates.
  std::vector<std::string> Settle() {
    RollStep settle;
    const size_t first_new = ses_.size();
    for (SimVs& vs : vss_) {
      const size_t before = vs.on.size();
      PlaceAgain(vs, settle);
      if (vs.on.size() == before) continue;
      PerMetric total{};
      for (const auto& [s, units] : vs.share) AddTo(total, units, 1);
      for (const auto& [s, units] : vs.share) AddTo(ses_[s].units, units, -1);
      vs.share.clear();
      for (int s : vs.on) {
        vs.share[s] = Scaled(total, 1.0 / static_cast<double>(vs.on.size()));
        AddTo(ses_[s].units, vs.share[s], 1);
      }
    }
    joined_.clear();
    std::vector<std::string> created;
    for (size_t s = first_new; s < ses_.size(); ++s) created.push_back(ses_[s].name);
    return created;
  }

  // Runs one step: `batch` (SE indices) leave, one after the other; replaced ones are deleted at
  // its end, rebooted ones come back enabled and empty.
  RollStep Step(int number, const std::vector<std::pair<int, bool>>& batch) {
    RollStep step;
    step.number = number;
    std::vector<PerMetric> before;
    for (const SimSe& se : ses_) before.push_back(se.units);
    const size_t first_new = ses_.size();
    for (const auto& [index, replaced] : batch) {
      step.leaving.push_back(ses_[index].name);
      ses_[index].enabled = false;
      for (SimVs& vs : vss_) PlaceAgain(vs, step);
    }
    // The migrations end: each leaving SE's share goes to the SEs that stay with the virtual
    // service (evenly over those that joined it in this step, else over all that stay).
    for (const auto& [index, replaced] : batch) {
      for (SimVs& vs : vss_) {
        auto share = vs.share.find(index);
        if (share == vs.share.end()) continue;
        std::vector<int> staying;
        std::vector<int> joined;
        for (int s : vs.on) {
          if (s == index || !ses_[s].enabled || !ses_[s].present) continue;
          staying.push_back(s);
          if (joined_.count({vs.name, s}) > 0) joined.push_back(s);
        }
        const PerMetric units = share->second;
        vs.share.erase(share);
        vs.on.erase(std::remove(vs.on.begin(), vs.on.end(), index), vs.on.end());
        AddTo(ses_[index].units, units, -1);
        if (staying.empty()) {
          if (std::find(step.unplaced.begin(), step.unplaced.end(), vs.name) ==
              step.unplaced.end()) {
            step.unplaced.push_back(vs.name);
          }
          continue;
        }
        const std::vector<int>& to = joined.empty() ? staying : joined;
        for (int s : to) {
          const PerMetric part = Scaled(units, 1.0 / static_cast<double>(to.size()));
          AddTo(vs.share[s], part, 1);
          AddTo(ses_[s].units, part, 1);
          step.moves.push_back(VsMove{vs.name, ses_[index].name, ses_[s].name, ses_[s].is_new});
        }
      }
    }
    for (size_t s = first_new; s < ses_.size(); ++s) step.created.push_back(ses_[s].name);
    for (size_t s = 0; s < ses_.size(); ++s) {
      const SimSe& se = ses_[s];
      if (!se.present || !se.enabled) continue;
      bool gained = false;
      for (LoadMetric m : kLoadMetrics) {
        const double was = s < before.size() ? before[s][Index(m)] : 0;
        gained |= se.units[Index(m)] > was + kEpsilon;
      }
      SeLoadAfter load;
      load.name = se.name;
      load.vcpus = se.vcpus;
      load.memory_mb = se.memory_mb;
      load.cpu_pct = Pct(se, LoadMetric::kCpu);
      if (judged_[Index(LoadMetric::kMemory)]) load.mem_pct = Pct(se, LoadMetric::kMemory);
      if (judged_[Index(LoadMetric::kThroughput)]) {
        load.tput_pct = Pct(se, LoadMetric::kThroughput);
        load.bandwidth_bps = se.units[Index(LoadMetric::kThroughput)] / 100;
        load.throughput_capacity = se.throughput;
      }
      load.gained = gained;
      load.is_new = se.is_new;
      step.loads.push_back(load);
    }
    for (const auto& [index, replaced] : batch) {
      SimSe& se = ses_[index];
      se.units = PerMetric{};
      if (replaced) {
        se.present = false;
      } else {
        se.enabled = true;  // rebooted: back, enabled, with nothing (placement does not rebalance)
      }
    }
    joined_.clear();
    return step;
  }

 private:
  // to += sign x from, metric by metric.
  static void AddTo(PerMetric& to, const PerMetric& from, double sign) {
    for (size_t m = 0; m < to.size(); ++m) to[m] += sign * from[m];
  }

  static PerMetric Scaled(const PerMetric& units, double factor) {
    PerMetric out = units;
    for (double& u : out) u *= factor;
    return out;
  }

  // An SE's figure of `metric`: its load over its size (rules roll-load-scales-with-vcpus,
  // roll-memory-scales-with-memory and roll-throughput-keeps-its-bits: a share keeps its
  // vCPU-seconds, its megabytes and its bits per second).
  static double Pct(const SimSe& se, LoadMetric metric) {
    return se.units[Index(metric)] / se.size[Index(metric)];
  }

  // An SE of `vcpus` and `memory_mb` (0: unknown) with its sizes set.
  SimSe Sized(int vcpus, int64_t memory_mb) const {
    SimSe se;
    se.vcpus = std::max(1, vcpus);
    se.memory_mb = memory_mb;
    se.size[Index(LoadMetric::kCpu)] = se.vcpus;
    const int64_t weighed = memory_mb > 0 ? memory_mb : smallest_memory_mb_;
    se.size[Index(LoadMetric::kMemory)] = weighed > 0 ? static_cast<double>(weighed) : 1.0;
    se.throughput = ThroughputCapacityOf(in_.declared, vcpus);
    se.size[Index(LoadMetric::kThroughput)] =
        se.throughput.bits_per_second > 0 ? se.throughput.bits_per_second : 1.0;
    return se;
  }

  // Virtual services on the SE (placed or awaiting it).
  int Count(int s) const {
    int n = 0;
    for (const SimVs& vs : vss_) n += std::find(vs.on.begin(), vs.on.end(), s) != vs.on.end();
    return n;
  }

  int PresentSes() const {
    int n = 0;
    for (const SimSe& se : ses_) n += se.present;
    return n;
  }

  // The Controller's placement of one virtual service while some SEs leave (file comment).
  void PlaceAgain(SimVs& vs, RollStep& step) {
    const int wanted = std::max(1, p_.min_scaleout_per_vs);
    for (int guard = 0; guard < 1000; ++guard) {
      int have = 0;
      for (int s : vs.on) have += ses_[s].enabled && ses_[s].present;
      if (have >= wanted) return;
      int best = -1;
      int best_load = 0;
      for (size_t i = 0; i < ses_.size(); ++i) {
        const SimSe& se = ses_[i];
        if (!se.present || !se.enabled) continue;
        if (std::find(vs.on.begin(), vs.on.end(), static_cast<int>(i)) != vs.on.end()) continue;
        const int load = Count(static_cast<int>(i));
        if (load >= p_.max_vs_per_se) continue;
        const bool better = best < 0 || (p_.distributed ? load < best_load : load > best_load) ||
                            (load == best_load && se.order < ses_[best].order);
        if (better) best = static_cast<int>(i), best_load = load;
      }
      const bool can_create = in_.cloud.creates_ses && PresentSes() < p_.max_se;
      if (best >= 0 && !(p_.distributed && can_create && best_load > 0)) {
        Join(vs, best);
        continue;
      }
      if (!can_create) {
        if (have == 0 &&
            std::find(step.unplaced.begin(), step.unplaced.end(), vs.name) == step.unplaced.end()) {
          // Recorded when its migration ends with no SE that stays (Step).
        }
        return;
      }
      SimSe se = Sized(in_.target.num_vcpus, in_.target.memory_mb);
      se.uuid = absl::StrCat("new-", ++created_);
      se.name = absl::StrCat("new SE ", created_);
      se.order = static_cast<int>(ses_.size());
      se.is_new = true;
      ses_.push_back(se);
      Join(vs, static_cast<int>(ses_.size()) - 1);
    }
  }

  void Join(SimVs& vs, int s) {
    vs.on.push_back(s);
    joined_.insert({vs.name, s});
  }

  const RollInput& in_;
  const PlacementSettings p_;
  std::array<bool, kLoadMetricCount> judged_{};  // by LoadMetric
  int64_t smallest_memory_mb_ = 0;  // of the running SEs and the target shape; 0 none known
  std::vector<SimSe> ses_;
  std::vector<SimVs> vss_;
  std::set<std::pair<std::string, int>> joined_;  // (vs, SE) placed in the current step
  int created_ = 0;
};

bool Replaced(const LaggingSe& se) { return se.why == controller::TakesEffect::kNewSesOnly; }

// What would let the Controller create a replacement for `se` when it moved the virtual services
// to running SEs: the settings to change.
std::string ReplacementAdvice(const RollInput& in, int present_ses, int most_hosted) {
  const PlacementSettings& p = in.placement;
  std::vector<std::string> ways;
  if (present_ses >= p.max_se) {
    ways.push_back(absl::StrCat("raise max_se to ", present_ses + 1, " (the group runs ",
                                present_ses, " SEs, max_se is ", p.max_se,
                                ", so the Controller may not create one)"));
  }
  if (!p.distributed && most_hosted >= 1 && most_hosted < p.max_vs_per_se) {
    ways.push_back(absl::StrCat("set max_vs_per_se = ", most_hosted,
                                " (the most virtual services an SE hosts now), so the SEs that "
                                "stay have no room and the Controller creates a new SE at the "
                                "new shape"));
  }
  if (!p.distributed) {
    ways.push_back(
        absl::StrCat("set algo = \"", kDistributed, "\" (new SEs are created until max_se)"));
  }
  return absl::StrJoin(ways, "; or ");
}

// "12,288 MB", or "unknown memory" when the Controller gives none.
std::string MemoryText(int64_t memory_mb) {
  return memory_mb > 0 ? absl::StrCat(sizing::FormatInt(memory_mb), " MB") : "unknown memory";
}

// Whether the decision judged `metric` (it keeps a peak of each judged metric).
bool Judged(const RollDecision& d, LoadMetric metric) {
  for (const MetricPeak& p : d.peaks) {
    if (p.metric == metric) return true;
  }
  return false;
}

// "; memory not judged (why): CPU only" when the decision judged no memory, else "" (": CPU
// only" left out when throughput is judged).
std::string MemoryNotJudged(const RollDecision& d, const RollInput& in) {
  if (Judged(d, LoadMetric::kMemory)) return "";
  return absl::StrCat("; memory not judged (",
                      in.load.memory_missing_reason.empty() ? "no se_stats.avg_mem_usage sample"
                                                            : in.load.memory_missing_reason,
                      ")", Judged(d, LoadMetric::kThroughput) ? "" : ": CPU only");
}

// "7.2 Gbps L7 SSL throughput": a throughput capacity as the plan writes it.
std::string CapacityText(const ThroughputCapacity& c) {
  return sizing::FormatAmount(c.kind, c.bits_per_second / kBitsPerMbps, sizing::Rounding::kDown);
}

// "5.60 Gbps": bits per second in Gbps, to the hundredth.
std::string GbpsText(double bits_per_second) {
  return absl::StrFormat("%.2f Gbps", bits_per_second / kBitsPerGbps);
}

// What the load line says of throughput: how it is judged (rule roll-throughput-keeps-its-bits);
// why not, when the workload states throughput but the SEs have no bandwidth samples, or when
// they have samples but the workload states no throughput; else "" (nothing to say).
std::string ThroughputLine(const RollDecision& d, const RollInput& in) {
  if (Judged(d, LoadMetric::kThroughput)) {
    return absl::StrCat(
        "; throughput: se_if.avg_bandwidth of each SE (every interface, client- and server-facing) "
        "as a share of the model's throughput capacity of an SE of its vCPUs (the least of the "
        "declared kinds), scaled by the ratio of the capacities when it moves (rule ",
        sizing::rules::kRollThroughputKeepsItsBits, ")");
  }
  if (!in.declared.throughput_kinds.empty()) {
    return absl::StrCat("; throughput not judged (",
                        in.load.bandwidth_missing_reason.empty() ? "no se_if.avg_bandwidth sample"
                                                                 : in.load.bandwidth_missing_reason,
                        ")");
  }
  if (!in.load.bandwidth_bps.empty()) {
    return "; throughput not judged: the workload states no throughput (l4_gbps, l7_gbps or "
           "l7_ssl_gbps), which an SE's throughput capacity depends on";
  }
  return "";
}

// The capacity guard's figures when it passes on measured load: the binding peak and the peak of
// each other judged metric (the load line says when memory is not judged).
std::string CapacityPasses(const RollDecision& d, const RollInput& in) {
  std::string text;
  if (d.peak_step == 0) {
    text = absl::StrCat("no SE takes more load; target ", Percent(in.target_pct));
  } else {
    text = absl::StrFormat("predicted peak %.1f%% %s on %s at step %d, target %.0f%%", d.peak_pct,
                           LoadMetricName(d.peak_metric), d.peak_se, d.peak_step, in.target_pct);
    for (const MetricPeak& p : d.peaks) {
      if (p.metric == d.peak_metric || p.step == 0) continue;
      absl::StrAppend(&text, absl::StrFormat("; %s peak %.1f%% on %s at step %d",
                                             LoadMetricName(p.metric), p.pct, p.se, p.step));
    }
  }
  return text;
}

}  // namespace

const char* LoadMetricName(LoadMetric metric) {
  switch (metric) {
    case LoadMetric::kMemory:
      return "memory";
    case LoadMetric::kThroughput:
      return "throughput";
    case LoadMetric::kCpu:
      break;
  }
  return "CPU";
}

const char* LoadMetricKey(LoadMetric metric) {
  return metric == LoadMetric::kCpu ? "cpu" : LoadMetricName(metric);
}

ThroughputCapacity ThroughputCapacityOf(const CapacityFigures& declared, int vcpus) {
  ThroughputCapacity least;
  const int size = std::clamp(vcpus, sizing::kMinVcpus, sizing::kMaxVcpus);
  for (sizing::Metric kind : declared.throughput_kinds) {
    // Throughput does not depend on memory (capacity.h); the call wants a valid one.
    const double bps =
        sizing::MetricCapacity(declared.platform, kind, size, sizing::kMinMemoryMb).value *
        kBitsPerMbps;
    if (bps > 0 && (least.bits_per_second == 0 || bps < least.bits_per_second)) {
      least = {bps, kind};
    }
  }
  return least;
}

double SeLoadAfter::Pct(LoadMetric metric) const {
  switch (metric) {
    case LoadMetric::kMemory:
      return mem_pct.value_or(0);
    case LoadMetric::kThroughput:
      return tput_pct.value_or(0);
    case LoadMetric::kCpu:
      break;
  }
  return cpu_pct;
}

PlacementSettings PlacementSettingsOf(const nlohmann::json& body) {
  PlacementSettings p;
  p.distributed = GroupString(body, "algo", "PLACEMENT_ALGO_PACKED") == kDistributed;
  p.max_vs_per_se = std::max(1, GroupInt(body, "max_vs_per_se", 10));
  p.min_scaleout_per_vs = std::max(1, GroupInt(body, "min_scaleout_per_vs", 1));
  p.max_se = std::max(1, GroupInt(body, "max_se", 10));
  p.ha_mode = GroupString(body, "ha_mode", "HA_MODE_SHARED");
  p.buffer_se = GroupInt(body, "buffer_se", 1);
  p.vs_scalein_timeout_s = GroupInt(body, "vs_scalein_timeout", 30);
  return p;
}

RollDecision DecideRoll(const RollInput& in) {
  RollDecision d;
  d.order = RollOrder(in.ses.lagging);
  if (d.order.empty()) return d;
  const PlacementSettings& p = in.placement;
  const int running = static_cast<int>(in.ses.running.size());
  const int out = std::min<int>(std::max(1, in.max_unavailable), static_cast<int>(d.order.size()));
  const bool any_replaced = std::any_of(d.order.begin(), d.order.end(), Replaced);
  auto refuse = [&d](const std::string& guard, std::string message) {
    if (d.refused_by.empty()) {
      d.refused_by = guard;
      d.refusal = std::move(message);
    }
  };
  auto verdict = [&d](const std::string& guard, bool passed, std::string figures) {
    d.guards.push_back(GuardVerdict{guard, passed, std::move(figures)});
  };

  // The Controller's upgrade.
  if (in.upgrade_in_progress.has_value()) {
    const std::string text =
        absl::StrCat("the Controller runs ", *in.upgrade_in_progress,
                     "; placement is paused or blocked until it ends, so no SE may be taken out");
    verdict("upgrade", false, text);
    refuse("upgrade", absl::StrCat("rollout refused by the upgrade guard: ", text,
                                   ". Apply again once /api/upgradestatusinfo shows it complete."));
  } else {
    verdict("upgrade", true,
            in.unknown_upgrade.empty()
                ? "no upgrade running"
                : absl::StrCat("the upgrade state could not be read (", in.unknown_upgrade,
                               "); apply reads it again before the first SE write"));
  }

  // The HA mode: legacy active/standby cannot migrate; the others keep their minimum.
  if (p.ha_mode == kLegacyActiveStandby) {
    const std::string text =
        "the group is legacy active/standby (HA_MODE_LEGACY_ACTIVE_STANDBY), where the vendor "
        "does not support migration and an SE cannot be disabled per SE";
    verdict("ha-mode", false, text);
    refuse("ha-mode",
           absl::StrCat(
               "rollout refused by the HA-mode guard: ", text,
               ". The documented path, by hand, for each SE: switch it over (POST "
               "/api/serviceengine/<uuid>/switchover) until every virtual service on it is "
               "standby, move it to a separate maintenance SE group, and let the Controller (with "
               "write access to the cloud) spin up a replacement at the group's settings. Or set "
               "ha_mode to an elastic mode first, where your edition allows it."));
  } else {
    auto mode = sizing::ParseHaMode(p.ha_mode);
    const int minimum = std::max(in.ha_minimum_ses, 1);
    const int left = running - out;
    const std::string text =
        absl::StrCat(p.ha_mode, (mode.ok() ? "" : " (unknown mode)"), ": ", running, " running, ",
                     out, " out at a time, ", left, " left; minimum ", minimum);
    const bool ok = left >= minimum;
    verdict("ha-mode", ok, text);
    if (!ok) {
      refuse("ha-mode",
             absl::StrCat("rollout refused by the HA-mode guard: ", running, " SEs run; with ", out,
                          " out at a time ", left,
                          " would be left, below the HA mode's "
                          "minimum of ",
                          minimum,
                          out > 1 ? ". Lower rollout.max_unavailable."
                                  : ". Run one more SE first (the Controller places one when a "
                                    "virtual service needs it), then apply again."));
    }
  }

  // The cloud and the licence, for a replacement.
  if (any_replaced) {
    if (!in.cloud.creates_ses) {
      std::vector<std::string> names;
      for (const LaggingSe& se : d.order) {
        if (Replaced(se)) names.push_back(se.se.name);
      }
      const std::string text =
          absl::StrCat("cloud \"", in.cloud.name, "\" is a no-access cloud: it creates no SE");
      verdict("cloud", false, text);
      refuse("cloud",
             absl::StrCat("rollout refused by the cloud guard: ", text,
                          ", so nothing would replace a deleted one. By hand, for each of ",
                          absl::StrJoin(names, ", "),
                          ": deploy a new SE VM at the group's settings, wait until it is up in "
                          "the group, disable the old SE (enable_state SE_STATE_DISABLED), wait "
                          "for OPER_DISABLED, then delete it."));
    } else {
      verdict("cloud", true, absl::StrCat("cloud \"", in.cloud.name, "\" creates replacement SEs"));
    }
    const LicenseFigures& l = in.license;
    if (!l.known) {
      const std::string text =
          absl::StrCat("the licence ledger could not be read",
                       l.unknown_reason.empty() ? "" : absl::StrCat(" (", l.unknown_reason, ")"));
      verdict("license", false, text);
      refuse("license", absl::StrCat("rollout refused by the license guard: ", text,
                                     ", so it is unknown whether a replacement SE can be "
                                     "licensed"));
    } else {
      const double needed = l.replacement_units * out;
      const bool ok = needed <= l.remaining_units + kEpsilon;
      const std::string text =
          absl::StrFormat("%d replacement%s at a time need%s %g %s; the %s tier has %g left", out,
                          out == 1 ? "" : "s", out == 1 ? "s" : "", needed,
                          needed == 1 ? "SU" : "SUs", l.tier, l.remaining_units);
      verdict("license", ok, text);
      if (!ok) {
        refuse("license",
               absl::StrFormat("rollout refused by the license guard: each replacement SE takes "
                               "its Service Units before the SE it replaces gives its own back; "
                               "%s (the Controller would refuse: \"Insufficient licensable "
                               "resources available to create Service Engine\"). Free or add %g "
                               "%s, then apply again.",
                               text, needed - l.remaining_units,
                               needed - l.remaining_units == 1 ? "SU" : "SUs"));
      }
    }
  }

  // The simulation: where each step's virtual services go, and the load each SE then carries.
  // CPU decides whether the load is measured; memory is judged with it when the SEs have memory
  // samples (else the guard judges CPU only and says so); throughput when the workload states
  // throughput and the SEs have bandwidth samples, each SE's bits per second as a percentage of
  // its capacity at its vCPUs (rule roll-throughput-keeps-its-bits).
  MeasuredLoad load{in.load.cpu_pct, in.load.mem_pct, {}};
  if (!in.declared.throughput_kinds.empty()) {
    for (const RunningSe& se : in.ses.running) {
      auto bps = in.load.bandwidth_bps.find(se.uuid);
      if (bps == in.load.bandwidth_bps.end()) continue;
      load[Index(LoadMetric::kThroughput)][se.uuid] =
          100 * bps->second / ThroughputCapacityOf(in.declared, se.vcpus).bits_per_second;
    }
  }
  const bool measured = !in.load.cpu_pct.empty();
  if (!measured) {
    load[Index(LoadMetric::kMemory)].clear();
    load[Index(LoadMetric::kThroughput)].clear();
  }
  std::vector<LoadMetric> judged;
  for (LoadMetric m : kLoadMetrics) {
    if (!load[Index(m)].empty()) judged.push_back(m);
  }
  d.load_basis = measured ? "measured" : in.declared.known ? "declared" : "none";
  for (LoadMetric m : judged) {
    // An SE without samples counts as the busiest SE with samples (conservative).
    std::map<std::string, double>& figures = load[Index(m)];
    double highest = 0;
    for (const auto& [uuid, pct] : figures) highest = std::max(highest, pct);
    std::vector<std::string> without;
    for (const RunningSe& se : in.ses.running) {
      if (figures.emplace(se.uuid, highest).second) without.push_back(se.name);
    }
    if (m != LoadMetric::kCpu && !without.empty()) {
      d.notes.push_back(absl::StrFormat(
          "%s no %s sample: counted as the busiest SE with samples (%.1f%% %s)",
          absl::StrCat(absl::StrJoin(without, ", "), without.size() == 1 ? " has" : " have"),
          m == LoadMetric::kMemory ? "se_stats.avg_mem_usage" : "se_if.avg_bandwidth", highest,
          LoadMetricName(m)));
    }
  }
  Simulation sim(in, load);
  const std::vector<std::string> at_write = sim.Settle();
  if (!at_write.empty()) {
    d.notes.push_back(absl::StrCat(
        "the group's write makes the Controller place virtual services on more SEs before the "
        "roll (min_scaleout_per_vs ",
        p.min_scaleout_per_vs, "): it creates ", absl::StrJoin(at_write, ", "), " at ",
        in.target.num_vcpus, " vCPUs"));
  }
  std::string placement_problem;
  if (!in.placement_known) {
    placement_problem =
        "where the group's virtual services sit could not be read (the SE inventory), so where "
        "a leaving SE's virtual services would go is unknown; plan again once it can be read";
  }
  std::string capacity_problem;
  int spares = std::max(0, in.spare_replacements);
  int present = running + static_cast<int>(at_write.size());
  int most_hosted = 0;
  for (const auto& [uuid, vss] : in.virtual_services) {
    most_hosted = std::max(most_hosted, static_cast<int>(vss.size()));
  }
  // The first step that puts an SE it moves load onto over the target, the SE and the metric.
  int over_step = 0;
  std::string over_se;
  double over_pct = 0;
  LoadMetric over_metric = LoadMetric::kCpu;
  for (LoadMetric m : judged) d.peaks.push_back(MetricPeak{m, 0, "", 0});
  for (size_t start = 0; start < d.order.size() && placement_problem.empty();
       start += static_cast<size_t>(out)) {
    std::vector<std::pair<int, bool>> batch;
    int replaced = 0;
    for (size_t i = start; i < d.order.size() && i < start + static_cast<size_t>(out); ++i) {
      batch.push_back({sim.IndexOf(d.order[i].se.uuid), Replaced(d.order[i])});
      replaced += Replaced(d.order[i]);
    }
    batch.erase(std::remove_if(batch.begin(), batch.end(),
                               [](const std::pair<int, bool>& b) { return b.first < 0; }),
                batch.end());
    RollStep step = sim.Step(static_cast<int>(d.steps.size()) + 1, batch);
    const int created = static_cast<int>(step.created.size());
    if (placement_problem.empty() && !step.unplaced.empty()) {
      placement_problem = absl::StrCat(
          "at step ", step.number, " (", absl::StrJoin(step.leaving, ", "), " out), ",
          absl::StrJoin(step.unplaced, ", "), step.unplaced.size() == 1 ? " finds" : " find",
          " no place: no SE that stays has room (max_vs_per_se ", p.max_vs_per_se,
          ") and the Controller may not create one (", present + created, " SEs, max_se ", p.max_se,
          in.cloud.creates_ses ? "" : ", no-access cloud",
          "), so it would report MIGRATE_SE_FAILED. ",
          in.cloud.creates_ses ? absl::StrCat("Raise max_se to ", present + created + 1, ".")
                               : "Add an SE by hand first.");
    }
    const int from_spares = std::max(0, replaced - created);
    if (placement_problem.empty() && replaced > 0 && from_spares > spares) {
      std::vector<std::string> where;
      for (const VsMove& m : step.moves) where.push_back(absl::StrCat(m.vs, " -> ", m.to));
      placement_problem = absl::StrCat(
          "at step ", step.number, " the Controller would move the virtual services of ",
          absl::StrJoin(step.leaving, ", "), " to SEs already running (",
          where.empty() ? "none hosted" : absl::StrJoin(where, ", "), ") and create ",
          created == 0 ? "no new SE" : absl::StrCat("only ", created, " new SE(s)"),
          ", so deleting it would leave the group smaller. To have it create a replacement at "
          "the new shape: ",
          ReplacementAdvice(in, present + created, most_hosted), ".");
    }
    spares -= std::min(spares, from_spares);
    present += created - replaced;
    if (measured) {
      // The busiest SE that gains load, by its highest judged metric (CPU first on a tie: every
      // metric has the same target).
      const SeLoadAfter* busiest = nullptr;
      LoadMetric binding = LoadMetric::kCpu;
      for (const SeLoadAfter& se : step.loads) {
        if (!se.gained) continue;
        for (MetricPeak& peak : d.peaks) {
          const double pct = se.Pct(peak.metric);
          if (peak.step == 0 || pct > peak.pct + kEpsilon) {
            peak = {peak.metric, pct, se.name, step.number};
          }
          if (busiest == nullptr || pct > busiest->Pct(binding) + kEpsilon) {
            busiest = &se;
            binding = peak.metric;
          }
        }
      }
      if (busiest != nullptr) {
        const double pct = busiest->Pct(binding);
        if (d.peak_step == 0 || pct > d.peak_pct + kEpsilon) {
          d.peak_pct = pct;
          d.peak_se = busiest->name;
          d.peak_step = step.number;
          d.peak_metric = binding;
        }
        if (over_step == 0 && pct > in.target_pct + kEpsilon) {
          over_step = step.number;
          over_se = busiest->name;
          over_pct = pct;
          over_metric = binding;
        }
      }
    }
    d.steps.push_back(std::move(step));
    // The roll stops at the first step with no replacement or no place: the steps after it would
    // never run, so they are not predicted.
    if (!placement_problem.empty() || over_step != 0) break;
  }
  const int new_ses = [&d] {
    int n = 0;
    for (const RollStep& s : d.steps) n += static_cast<int>(s.created.size());
    return n;
  }();
  verdict("placement", placement_problem.empty(),
          placement_problem.empty()
              ? absl::StrCat(p.distributed ? "distributed" : "packed", " placement, max_vs_per_se ",
                             p.max_vs_per_se, ", min_scaleout_per_vs ", p.min_scaleout_per_vs,
                             ", max_se ", p.max_se, ": every virtual service has a place; ",
                             new_ses == 0
                                 ? "no new SE"
                                 : absl::StrCat(sizing::FormatCount(new_ses, "new SE", "new SEs"),
                                                " at ", in.target.num_vcpus, " vCPUs"))
              : placement_problem);

  // Capacity: no step may put an SE over the target.
  if (measured) {
    if (over_step > 0) {
      const RollStep& worst = d.steps[over_step - 1];
      std::vector<std::string> from;
      for (const VsMove& m : worst.moves) {
        if (m.to == over_se) from.push_back(absl::StrCat(m.vs, " from ", m.from));
      }
      const SeLoadAfter& over =
          *std::find_if(worst.loads.begin(), worst.loads.end(),
                        [&over_se](const SeLoadAfter& s) { return s.name == over_se; });
      const bool onto_running = !over.is_new;
      const bool memory = over_metric == LoadMetric::kMemory;
      const bool throughput = over_metric == LoadMetric::kThroughput;
      std::string of_its;
      if (memory) of_its = absl::StrCat(" (of its ", MemoryText(over.memory_mb), ")");
      if (throughput) {
        of_its =
            absl::StrCat(" (", GbpsText(over.bandwidth_bps), " of its ",
                         CapacityText(over.throughput_capacity), " at ", over.vcpus, " vCPUs)");
      }
      std::string advice;
      if (onto_running) {
        std::vector<std::string> ways;
        if (present >= p.max_se || running >= p.max_se) {
          ways.push_back(absl::StrCat("raise max_se (", p.max_se,
                                      ") so the Controller can create replacements"));
        }
        if (!p.distributed && most_hosted >= 1 && most_hosted < p.max_vs_per_se) {
          ways.push_back(absl::StrCat("set max_vs_per_se = ", most_hosted,
                                      " so the leaving SEs' virtual services go to new SEs"));
        }
        ways.push_back("roll in a quieter hour");
        advice = absl::StrCat(" To let it roll: ", absl::StrJoin(ways, "; or "), ".");
      } else if (memory) {
        advice = absl::StrCat(" To let it roll: raise memory_per_se (",
                              sizing::FormatInt(in.target.memory_mb),
                              " MB) so that each new SE holds the memory the moved virtual "
                              "services use, or roll in a quieter hour.");
      } else if (throughput) {
        // Rule hold-throughput-at-6-vcpus: no larger SE carries more than the largest measured.
        const int held = sizing::kMeasuredVcpus.back();
        advice = in.target.num_vcpus < held
                     ? absl::StrCat(" To let it roll: raise vcpus_per_se (", in.target.num_vcpus,
                                    "; the model's throughput grows with vCPUs up to ", held,
                                    " and is held there), or roll in a quieter hour.")
                     : absl::StrCat(
                           " To let it roll: roll in a quieter hour (the model holds an "
                           "SE's throughput at its ",
                           held, "-vCPU figure, so a larger SE carries no more).");
      } else {
        advice = " To let it roll: roll in a quieter hour, or raise vcpus_per_se further.";
      }
      capacity_problem = absl::StrFormat(
          "at step %d (%s out) %s would take %s and run at %.1f%% %s%s, over the %.0f%% target "
          "(the load the SEs carry now: %s%s).%s",
          worst.number, absl::StrJoin(worst.leaving, ", "), over_se,
          from.empty() ? "more load" : absl::StrJoin(from, ", "), over_pct,
          LoadMetricName(over_metric), of_its, in.target_pct, in.load.source,
          throughput ? "; bandwidth: se_if.avg_bandwidth of each SE over the same window" : "",
          advice);
    }
    verdict("capacity", capacity_problem.empty(),
            capacity_problem.empty() ? CapacityPasses(d, in) : capacity_problem);
  } else if (in.declared.known) {
    // No samples: the declared workload on the SEs left (rule rollout-capacity-with-ses-out).
    const CapacityFigures& c = in.declared;
    const bool ok = c.cpu_percent_out <= c.target_percent + kEpsilon;
    const std::string text = absl::StrFormat(
        "the Controller has no samples of the SEs' load%s, so with %d of %d running SEs out, the "
        "%d left (at their real shape) would run %s at %.1f%% %s (%s), target %.0f%%",
        in.load.missing_reason.empty() ? "" : absl::StrCat(" (", in.load.missing_reason, ")"), out,
        running, running - out, c.load, c.cpu_percent_out, c.measure, c.basis, c.target_percent);
    verdict("capacity", ok, text);
    if (!ok) {
      capacity_problem = absl::StrCat(
          text,
          ". Lower the load first or roll in a quieter hour; once the Controller has samples "
          "of the SEs' CPU, the guard judges what they carry.");
    }
    d.peak_pct = c.cpu_percent_out;
  } else {
    verdict(
        "capacity", true,
        absl::StrCat(
            "not judged: the Controller has no samples of the SEs' load",
            in.load.missing_reason.empty() ? "" : absl::StrCat(" (", in.load.missing_reason, ")"),
            " and the group declares no workload"));
  }
  // An overload is named first; a missing replacement, when both, follows it.
  if (!capacity_problem.empty()) {
    refuse("capacity", absl::StrCat("rollout refused by the capacity guard: ", capacity_problem,
                                    placement_problem.empty()
                                        ? ""
                                        : absl::StrCat(" The placement guard refuses too: ",
                                                       placement_problem)));
  }
  if (!placement_problem.empty()) {
    refuse("placement",
           absl::StrCat("rollout refused by the placement guard: ", placement_problem));
  }

  // Long-lived connections on the SEs that leave.
  bool moves = false;
  for (const RollStep& s : d.steps) moves |= !s.moves.empty();
  if (moves) {
    d.notes.push_back(absl::StrCat(
        "connections on each SE that leaves get vs_scalein_timeout (", p.vs_scalein_timeout_s,
        " s) to finish once its virtual services moved, then are cut: raise vs_scalein_timeout "
        "before the roll for long-lived connections"));
  }
  d.verdict = d.refused_by.empty() ? RollVerdict::kRoll : RollVerdict::kRefused;
  return d;
}

std::string DecisionSummary(const RollDecision& d) {
  switch (d.verdict) {
    case RollVerdict::kNothing:
      return "";
    case RollVerdict::kRoll:
      return absl::StrCat("Apply will roll ",
                          sizing::FormatCount(static_cast<int>(d.order.size()), "SE", "SEs"));
    case RollVerdict::kRefused:
      return absl::StrCat("Rollout refused by the ", d.refused_by, " guard");
  }
  return "";
}

std::vector<std::string> DescribeDecision(const RollDecision& d, const RollInput& in) {
  std::vector<std::string> lines;
  if (d.verdict == RollVerdict::kNothing) return lines;
  lines.push_back(DescribeRollout(d.order, in.target, std::max(1, in.max_unavailable)));
  for (const RollStep& s : d.steps) {
    std::map<std::string, std::vector<std::string>> by_destination;
    for (const VsMove& m : s.moves) by_destination[m.to].push_back(m.vs);
    std::vector<std::string> parts;
    parts.reserve(by_destination.size());
    for (const auto& [to, vss] : by_destination) {
      parts.push_back(absl::StrCat(absl::StrJoin(vss, ", "), " -> ", to));
    }
    std::vector<std::string> loads;
    std::vector<std::string> memory;
    std::vector<std::string> throughput;
    for (const SeLoadAfter& l : s.loads) {
      if (l.gained || l.is_new) {
        loads.push_back(absl::StrFormat("%s (%d vCPUs) %.1f%%", l.name, l.vcpus, l.cpu_pct));
        if (l.mem_pct.has_value()) {
          memory.push_back(
              absl::StrFormat("%s (%s) %.1f%%", l.name, MemoryText(l.memory_mb), *l.mem_pct));
        }
        if (l.tput_pct.has_value()) {
          throughput.push_back(
              absl::StrFormat("%s %s of %s, %.1f%%", l.name, GbpsText(l.bandwidth_bps),
                              GbpsText(l.throughput_capacity.bits_per_second), *l.tput_pct));
        }
      }
    }
    std::string line =
        absl::StrCat("step ", s.number, ": ", absl::StrJoin(s.leaving, ", "), " out; ",
                     parts.empty() ? "no virtual service to move" : absl::StrJoin(parts, "; "));
    if (!s.created.empty()) {
      absl::StrAppend(&line, "; the Controller creates ", absl::StrJoin(s.created, ", "), " at ",
                      in.target.num_vcpus, " vCPUs");
    }
    if (!s.unplaced.empty()) {
      absl::StrAppend(&line, "; no place for ", absl::StrJoin(s.unplaced, ", "));
    }
    if (d.load_basis == "measured" && !loads.empty()) {
      absl::StrAppend(&line, "; predicted CPU: ", absl::StrJoin(loads, ", "));
    }
    if (d.load_basis == "measured" && !memory.empty()) {
      absl::StrAppend(&line, "; predicted memory: ", absl::StrJoin(memory, ", "));
    }
    if (d.load_basis == "measured" && !throughput.empty()) {
      absl::StrAppend(&line, "; predicted throughput: ", absl::StrJoin(throughput, ", "));
    }
    lines.push_back(line);
  }
  if (d.load_basis == "measured") {
    lines.push_back(absl::StrCat(
        "load: what the SEs carry now, ", in.load.source,
        "; an SE's load shared evenly by its virtual services; when it moves, CPU scaled by "
        "vCPUs and memory by memory size (rules ",
        sizing::rules::kRollLoadSharedEvenly, ", ", sizing::rules::kRollLoadScalesWithVcpus, ", ",
        sizing::rules::kRollMemoryScalesWithMemory, ")", MemoryNotJudged(d, in),
        ThroughputLine(d, in)));
  }
  for (const GuardVerdict& g : d.guards) {
    lines.push_back(
        absl::StrCat("guard ", g.guard, ": ", g.passed ? "passes: " : "REFUSES: ", g.figures));
  }
  for (const std::string& n : d.notes) lines.push_back(absl::StrCat("note: ", n));
  if (d.verdict == RollVerdict::kRefused) lines.push_back(d.refusal);
  return lines;
}

std::string DecisionFingerprint(const RollDecision& d) {
  std::vector<std::string> ses;
  for (const LaggingSe& se : d.order) {
    ses.push_back(absl::StrCat(se.se.name, "=", Replaced(se) ? "replace" : "reboot"));
  }
  switch (d.verdict) {
    case RollVerdict::kNothing:
      return "none";
    case RollVerdict::kRoll:
      return absl::StrCat("roll:", absl::StrJoin(ses, ","));
    case RollVerdict::kRefused:
      return absl::StrCat("refused:", d.refused_by, ":", absl::StrJoin(ses, ","));
  }
  return "none";
}

nlohmann::json DecisionJson(const RollDecision& d) {
  using nlohmann::json;
  json out = json::object();
  out["verdict"] = d.verdict == RollVerdict::kRoll      ? "roll"
                   : d.verdict == RollVerdict::kRefused ? "refused"
                                                        : "nothing";
  out["summary"] = DecisionSummary(d);
  out["refused_by"] = d.refused_by;
  out["refusal"] = d.refusal;
  out["peak_pct"] = d.peak_pct;
  out["peak_se"] = d.peak_se;
  out["peak_step"] = d.peak_step;
  out["peak_metric"] =
      d.peak_step > 0 || d.load_basis == "declared" ? LoadMetricKey(d.peak_metric) : "";
  json peaks = json::array();
  for (const MetricPeak& p : d.peaks) {
    peaks.push_back(
        {{"metric", LoadMetricKey(p.metric)}, {"pct", p.pct}, {"se", p.se}, {"step", p.step}});
  }
  out["peaks"] = peaks;
  out["load_basis"] = d.load_basis;
  json ses = json::array();
  for (const LaggingSe& se : d.order) {
    ses.push_back({{"name", se.se.name}, {"action", Replaced(se) ? "replace" : "reboot"}});
  }
  out["ses"] = ses;
  json steps = json::array();
  for (const RollStep& s : d.steps) {
    json moves = json::array();
    for (const VsMove& m : s.moves) {
      moves.push_back({{"vs", m.vs}, {"from", m.from}, {"to", m.to}, {"to_new_se", m.to_new_se}});
    }
    json loads = json::array();
    for (const SeLoadAfter& l : s.loads) {
      loads.push_back(
          {{"name", l.name},
           {"vcpus", l.vcpus},
           {"memory_mb", l.memory_mb},
           {"cpu_pct", l.cpu_pct},
           {"mem_pct", l.mem_pct.has_value() ? json(*l.mem_pct) : json(nullptr)},
           {"throughput_gbps",
            l.tput_pct.has_value() ? json(l.bandwidth_bps / kBitsPerGbps) : json(nullptr)},
           {"throughput_capacity_gbps",
            l.tput_pct.has_value() ? json(l.throughput_capacity.bits_per_second / kBitsPerGbps)
                                   : json(nullptr)},
           {"throughput_pct", l.tput_pct.has_value() ? json(*l.tput_pct) : json(nullptr)},
           {"gained", l.gained},
           {"is_new", l.is_new}});
    }
    steps.push_back({{"number", s.number},
                     {"leaving", s.leaving},
                     {"moves", moves},
                     {"created", s.created},
                     {"unplaced", s.unplaced},
                     {"loads", loads}});
  }
  out["steps"] = steps;
  json guards = json::array();
  for (const GuardVerdict& g : d.guards) {
    guards.push_back({{"guard", g.guard}, {"passed", g.passed}, {"figures", g.figures}});
  }
  out["guards"] = guards;
  out["notes"] = d.notes;
  out["fingerprint"] = DecisionFingerprint(d);
  return out;
}

}  // namespace nsxalb::segroup::lifecycle
