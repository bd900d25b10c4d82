#include "plugin/sizing/recommend.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/shape_warnings.h"

namespace nsxalb::sizing {
namespace {

Finding RangeError(std::string attribute, std::string summary, std::string detail) {
  return Finding{Severity::kError, std::move(attribute), rules::kInputRange, std::move(summary),
                 std::move(detail)};
}

void CheckIntRange(std::vector<Finding>& out, const std::string& attribute, int value, int lo,
                   int hi, const std::string& why) {
  if (value >= lo && value <= hi) return;
  out.push_back(RangeError(attribute,
                           absl::StrCat(attribute, " must be ", lo, "-", hi, ", got ", value),
                           absl::StrCat(attribute, " = ", value, " is outside ", lo, "-", hi, " (",
                                        why, "). Set it within that range.")));
}

// True when `capacity` per SE on `se_count` SEs carries `demand` at `util` percent. Exact for the
// integer and half-integer figures of the model.
bool CarriesOne(double capacity, int se_count, double demand, int util) {
  return capacity * se_count * util >= demand * 100;
}

int64_t TableMemory(Platform platform, int vcpus) {
  return static_cast<int64_t>(TableMemoryMb(platform, vcpus).value);
}

// Whether `se_count` SEs of `vcpus` and `memory_mb` carry the workload within `util_pct`: what
// LoadsCarried says of LoadsOn at that utilization, computed from the demanded metrics' capacities
// alone, since the search for a shape asks it many times.
bool CarriesWithin(const Workload& w, int vcpus, int64_t memory_mb, int se_count, int util_pct) {
  if (se_count < 1) return false;
  CpuBudgetSum cpu;
  for (Metric m : kAllMetrics) {
    const std::optional<double>& d = w.demand.Get(m);
    if (!d.has_value()) continue;
    const double capacity = MetricCapacity(w.platform, m, vcpus, memory_mb).value;
    const bool carried = CarriesOne(capacity, se_count, *d, util_pct);
    if (!SharesCpuBudget(m)) {
      if (!carried) return false;
      continue;
    }
    // As LoadsOn: a zero capacity counts 0% (and is not carried alone unless the demand is 0).
    cpu.Add(capacity > 0 ? *d * 100 / (capacity * se_count) : 0, carried);
  }
  return cpu.Carried(util_pct);
}

// Why the least active count is what it is: "active/active places every virtual service on 2
// SEs", "25 virtual services at 10 per SE".
std::string LeastActiveReason(const Workload& w) {
  std::vector<std::string> why;
  if (w.ha_mode == HaMode::kSharedPair) {
    why.push_back("active/active places every virtual service on at least 2 SEs");
  }
  if (w.virtual_services.has_value() && *w.virtual_services > 1) {
    why.push_back(absl::StrCat(FormatInt(*w.virtual_services), " virtual services at ",
                               w.max_vs_per_se, " per SE"));
  }
  return absl::StrJoin(why, "; ");
}

bool Feasible(const Workload& w, int vcpus, int se_count, int64_t* memory_mb) {
  const std::optional<int64_t> memory = MemoryFor(w, vcpus, se_count);
  if (!memory.has_value()) return false;
  if (!Carries(w, vcpus, *memory, se_count)) return false;
  if (memory_mb != nullptr) *memory_mb = *memory;
  return true;
}

// "table memory for 6 vCPUs on nsxt": the reason of a memory_per_se that is the table's.
std::string TableMemoryReason(Platform platform, int vcpus) {
  return absl::StrCat("table memory for ", FormatVcpus(vcpus), " on ", ProfileOf(platform).name);
}

int RatioDispatchers(int vcpus) { return vcpus < 4 ? 0 : SnapDownToAllowedCoreCount(vcpus / 3); }

// A shape the search found: `count` SEs of `vcpus`, with `memory_mb` each.
struct FoundShape {
  int vcpus = 0;  // 0: none found
  int count = 0;
  int64_t memory_mb = 0;
};

// The smallest SE, up to max_vcpus_per_se, with which `count` SEs carry the workload, and its
// memory (MemoryFor); vcpus 0 when none does.
FoundShape SmallestAt(const Workload& w, int count) {
  FoundShape found;
  found.count = count;
  for (int v = 1; v <= w.max_vcpus_per_se; ++v) {
    if (Feasible(w, v, count, &found.memory_mb)) {
      found.vcpus = v;
      break;
    }
  }
  return found;
}

// The fewest SEs of max_vcpus_per_se, more than `least`, that carry the workload: a lower bound
// from the capacities, then settled exactly. kMaxSeCount + 1 when more than kMaxSeCount would.
int FewestSesOfLargest(const Workload& w, int least) {
  const int top = w.max_vcpus_per_se;
  double cpu_estimate = 0;  // the CPU budget in SEs at the target
  double cpu_whole = 0;     // the same at 100% (active/active: one SE may be lost)
  double estimate = least + 1;
  for (Metric m : kAllMetrics) {
    const std::optional<double>& d = w.demand.Get(m);
    if (!d.has_value()) continue;
    const int64_t mem = m == Metric::kL4OpenConns ? MaxRecommendedMemoryMb(w.platform, top)
                                                  : TableMemory(w.platform, top);
    const double cap = MetricCapacity(w.platform, m, top, mem).value;
    if (cap <= 0) continue;
    const double ses = *d * 100 / (cap * w.target_utilization_pct);
    if (SharesCpuBudget(m)) {
      cpu_estimate += ses;
      cpu_whole += *d / cap;
    } else {
      estimate = std::max(estimate, std::ceil(ses));
    }
  }
  // Rounded down a little first, so that floating-point error never overshoots; the loops
  // below settle the count exactly.
  estimate = std::max(estimate, std::floor(cpu_estimate));
  if (w.ha_mode == HaMode::kSharedPair) estimate = std::max(estimate, std::floor(cpu_whole) + 1);
  int count = static_cast<int>(std::min<double>(estimate, kMaxSeCount + 1));
  while (count <= kMaxSeCount && !Feasible(w, top, count, nullptr)) ++count;
  if (count > kMaxSeCount) return count;
  while (count > least + 1 && Feasible(w, top, count - 1, nullptr)) --count;
  return count;
}

// "80%", and in active/active the failure the SEs must survive.
std::string TargetText(const Workload& w) {
  return absl::StrCat(
      w.target_utilization_pct, "%",
      w.ha_mode == HaMode::kSharedPair ? " and survive the loss of one within 100%" : "");
}

// The shape search (see recommend.h): the size into `vcpus_per_se`, with the rule that chose it and
// why, and the SE count and memory found with it. `least` is LeastActiveSes. InvalidArgument when
// more than kMaxSeCount SEs of max_vcpus_per_se would be needed.
absl::StatusOr<FoundShape> ChooseSize(const Workload& w, int least, Choice<int>& vcpus_per_se) {
  const int top = w.max_vcpus_per_se;
  const std::string at = TargetText(w);
  FoundShape found = SmallestAt(w, least);
  if (found.vcpus > 0 && least == 1) {
    vcpus_per_se = {found.vcpus, Basis::kRule, rules::kSmallestSingleSe,
                    absl::StrCat("the smallest single SE (up to ", FormatVcpus(top),
                                 ") that carries the workload at ", at)};
    return found;
  }
  if (found.vcpus > 0) {
    vcpus_per_se = {
        found.vcpus, Basis::kRule, rules::kSmallestAtLeastCount,
        absl::StrCat("the smallest SE (up to ", FormatVcpus(top), ") with which ", least,
                     " active SEs (", LeastActiveReason(w), ") carry the workload at ", at)};
    return found;
  }
  if (!ScalesOut(w.ha_mode)) {
    // Legacy active/standby: one active SE, no scale-out. The largest SE is planned; validation
    // reports that it does not carry the workload.
    found.vcpus = top;
    found.memory_mb = MemoryFor(w, top, 1).value_or(MaxRecommendedMemoryMb(w.platform, top));
    vcpus_per_se = {found.vcpus, Basis::kRule, rules::kLegacyOneActive,
                    absl::StrCat("HA_MODE_LEGACY_ACTIVE_STANDBY has one active SE and no "
                                 "scale-out; no SE of up to ",
                                 FormatVcpus(top), " carries the workload at ", at,
                                 ", so the largest is planned")};
    return found;
  }
  // Fewest SEs of max_vcpus_per_se, then the smallest size with which that many carry it.
  const int count = FewestSesOfLargest(w, least);
  if (count > kMaxSeCount) {
    return absl::InvalidArgumentError(absl::StrCat(
        "workload: needs more than ", FormatShape(kMaxSeCount, top), " (Avi max_se is at most ",
        kMaxSeCount, "); raise workload.max_vcpus_per_se or split it"));
  }
  found = SmallestAt(w, count);
  vcpus_per_se = {
      found.vcpus, Basis::kRule, rules::kFewestSes,
      absl::StrCat(least == 1 ? "no single SE" : absl::StrCat("no ", FormatSeCount(least)),
                   " of up to ", FormatVcpus(top), Agree(least, " carries", " carry"),
                   " the workload at ", at, "; ", count, " SEs of ", top, " do, and so do ", count,
                   " of ", found.vcpus)};
  return found;
}

// Appended to the size's reason when it is the memory cap (rule memory-at-most-2x-table) that
// keeps a smaller shape out: one vCPU fewer, or one SE fewer of max_vcpus_per_se.
void NoteMemoryCap(const Workload& w, int least, const FoundShape& found, std::string& reason) {
  if (w.demand.Get(Metric::kL4OpenConns).has_value() &&
      ((found.vcpus > 1 && Carries(w, found.vcpus - 1, kMaxMemoryMb, found.count)) ||
       (found.count > least && Carries(w, w.max_vcpus_per_se, kMaxMemoryMb, found.count - 1)))) {
    absl::StrAppend(&reason,
                    "; a smaller shape would need more than twice its table memory for the open "
                    "connections (",
                    rules::kMemoryAtMostTwice, ")");
  }
}

// Why the search settled on `count` active SEs, `least` being LeastActiveSes.
std::string CountReason(const Workload& w, int least, int count) {
  if (!ScalesOut(w.ha_mode)) return "HA_MODE_LEGACY_ACTIVE_STANDBY has one active SE";
  if (count > least) return absl::StrCat(count - 1, " SEs would not carry the workload");
  if (least == 1) return "one SE carries the workload";
  return absl::StrCat("at least ", least, " active SEs: ", LeastActiveReason(w));
}

// memory_per_se for the shape found: the table memory, or the memory raised for the open
// connections, labelled as the open-connection figure it was chosen from.
Choice<int64_t> MemoryChoice(const Workload& w, const FoundShape& found) {
  const int vcpus = found.vcpus;
  const int64_t memory = found.memory_mb;
  const Figure table_memory = TableMemoryMb(w.platform, vcpus);
  if (memory == static_cast<int64_t>(table_memory.value)) {
    return {memory, table_memory.basis, rules::kTableMemory, TableMemoryReason(w.platform, vcpus)};
  }
  // Chosen from the open-connection figure at that memory, so labelled as that figure is.
  const Figure conns = MetricCapacity(w.platform, Metric::kL4OpenConns, vcpus, memory);
  return {memory, WeakestBasis({Basis::kRule, table_memory.basis, conns.basis}),
          rules::kMemoryForConns,
          absl::StrCat("raised from the table's ", static_cast<int64_t>(table_memory.value),
                       " MB in whole GB to carry the open connections (at most twice the table "
                       "memory)")};
}

// Everything that follows from the shape (r.vcpus_per_se, r.memory_per_se and r.se_count, set by
// the caller): disk, capacity, loads, binding metric, the settings that follow the measured
// configurations, max_se, the Service Units at max_se and the warnings about the plan.
absl::Status CompleteShape(const Workload& w, Recommendation& r);

}  // namespace

bool Demand::Empty() const {
  for (const std::optional<double>& v : values) {
    if (v.has_value()) return false;
  }
  return true;
}

std::vector<Finding> CheckWorkload(const Workload& w) {
  std::vector<Finding> out;
  for (Metric m : kAllMetrics) {
    const std::optional<double>& d = w.demand.Get(m);
    if (!d.has_value()) continue;
    if (!std::isfinite(*d) || *d < 0) {
      const std::string attribute = absl::StrCat("workload.", InfoOf(m).key);
      out.push_back(RangeError(
          attribute, absl::StrCat(attribute, " must be a number >= 0"),
          absl::StrCat("The demand for ", InfoOf(m).label, " must be a finite number >= 0.")));
    }
  }
  CheckIntRange(out, "workload.target_utilization", w.target_utilization_pct,
                kMinTargetUtilizationPct, kMaxTargetUtilizationPct, "Avi max_cpu_usage range");
  CheckIntRange(out, "workload.max_vcpus_per_se", w.max_vcpus_per_se, kMinVcpus, kMaxVcpus,
                "SE vCPU limits in seed 000");
  CheckIntRange(out, "buffer_se", w.buffer_se, 0, kMaxSeCount, "Avi max_se range");
  CheckIntRange(out, "max_scaleout_per_vs", w.max_scaleout_per_vs, 1, kMaxScaleoutPerVs,
                "Avi max_scaleout_per_vs range");
  CheckIntRange(out, "max_vs_per_se", w.max_vs_per_se, 1, kMaxVsPerSe, "Avi max_vs_per_se range");
  if (w.service_unit_settings.max_num_se_dps.has_value()) {
    CheckIntRange(out, "max_num_se_dps", *w.service_unit_settings.max_num_se_dps, kMinNumSeDps,
                  kMaxNumSeDps, "Avi max_num_se_dps range");
  }
  if (w.service_unit_settings.per_app && w.max_vs_per_se > kPerAppMaxVsPerSe) {
    out.push_back(Finding{Severity::kError, "max_vs_per_se", rules::kPerAppTwoVsPerSe,
                          absl::StrCat("max_vs_per_se must be at most ", kPerAppMaxVsPerSe,
                                       " with per_app = true, got ", w.max_vs_per_se),
                          absl::StrCat("An SE in per-app mode holds at most ", kPerAppMaxVsPerSe,
                                       " virtual services. Set max_vs_per_se to 1 or ",
                                       kPerAppMaxVsPerSe, ", or leave it unset (per_app plans ",
                                       kPerAppMaxVsPerSe, "), or set per_app = false.")});
  }
  if (w.virtual_services.has_value()) {
    CheckIntRange(out, "workload.virtual_services", *w.virtual_services, 1, kMaxVirtualServices,
                  "at most max_vs_per_se times the largest group");
  }
  return out;
}

std::vector<MetricLoad> LoadsOn(const Workload& w, const SeCapacity& capacity, int se_count) {
  std::vector<MetricLoad> loads;
  for (Metric m : kAllMetrics) {
    const std::optional<double>& d = w.demand.Get(m);
    if (!d.has_value()) continue;
    MetricLoad load;
    load.metric = m;
    load.demand = *d;
    load.needed = *d * 100 / w.target_utilization_pct;
    load.per_se = capacity.Of(m);
    load.se_count = se_count;
    load.group_capacity = load.per_se.value * se_count;
    load.utilization_pct = load.group_capacity > 0 ? *d * 100 / load.group_capacity : 0;
    load.carried = CarriesOne(load.per_se.value, se_count, *d, w.target_utilization_pct);
    loads.push_back(std::move(load));
  }
  return loads;
}

bool LoadsCarried(const std::vector<MetricLoad>& loads, const CpuLoad& cpu) {
  if (!cpu.carried) return false;
  for (const MetricLoad& load : loads) {
    if (!SharesCpuBudget(load.metric) && !load.carried) return false;
  }
  return true;
}

bool CarriesAtTarget(const Workload& w, int vcpus, int64_t memory_mb, int se_count) {
  return CarriesWithin(w, vcpus, memory_mb, se_count, w.target_utilization_pct);
}

bool SurvivesOneSeLoss(const Workload& w, int vcpus, int64_t memory_mb, int se_count) {
  return se_count >= 2 && CarriesWithin(w, vcpus, memory_mb, se_count - 1, 100);
}

bool Carries(const Workload& w, int vcpus, int64_t memory_mb, int se_count) {
  if (se_count < MinActiveSes(w.ha_mode)) return false;
  if (!CarriesAtTarget(w, vcpus, memory_mb, se_count)) return false;
  return w.ha_mode != HaMode::kSharedPair || SurvivesOneSeLoss(w, vcpus, memory_mb, se_count);
}

int ScaleoutPerVs(const Workload& w, int active) {
  if (!ScalesOut(w.ha_mode)) return 1;
  const int least = MinScaleoutOfMode(w.ha_mode);
  if (!w.virtual_services.has_value() || *w.virtual_services <= 1) return std::max(least, active);
  return std::max(least, (active + *w.virtual_services - 1) / *w.virtual_services);
}

int LeastActiveSes(const Workload& w, std::optional<int> given_scaleout_per_vs) {
  if (!ScalesOut(w.ha_mode)) return 1;
  int active = std::max(MinActiveSes(w.ha_mode), given_scaleout_per_vs.value_or(0));
  if (!w.virtual_services.has_value()) return active;
  const int64_t services = *w.virtual_services;
  while (active <= kMaxSeCount &&
         services * (given_scaleout_per_vs ? GivenScaleoutInMode(w.ha_mode, *given_scaleout_per_vs)
                                           : ScaleoutPerVs(w, active)) >
             int64_t{active} * w.max_vs_per_se) {
    ++active;
  }
  return active;
}

std::string BindingKey(const Recommendation& r) {
  if (r.cpu_binds) return "cpu";
  return r.binding.has_value() ? InfoOf(*r.binding).key : "";
}

double BindingUtilizationPct(const Recommendation& r) {
  if (r.cpu_binds) return r.cpu.utilization_pct;
  for (const MetricLoad& load : r.loads) {
    if (r.binding.has_value() && load.metric == *r.binding) return load.utilization_pct;
  }
  return 0;
}

int64_t MaxRecommendedMemoryMb(Platform platform, int vcpus) {
  return std::min(2 * TableMemory(platform, vcpus), kMaxMemoryMb);
}

std::optional<int64_t> MemoryFor(const Workload& w, int vcpus, int se_count) {
  const int64_t table = TableMemory(w.platform, vcpus);
  const std::optional<double>& conns = w.demand.Get(Metric::kL4OpenConns);
  if (!conns.has_value()) return table;
  const int64_t most = MaxRecommendedMemoryMb(w.platform, vcpus);
  const bool pair = w.ha_mode == HaMode::kSharedPair;
  for (int64_t memory = table; memory <= most; memory += kMbPerGb) {
    const Figure cap = MetricCapacity(w.platform, Metric::kL4OpenConns, vcpus, memory);
    if (!CarriesOne(cap.value, se_count, *conns, w.target_utilization_pct)) continue;
    if (pair && (se_count < 2 || !CarriesOne(cap.value, se_count - 1, *conns, 100))) continue;
    return memory;
  }
  return std::nullopt;
}

DispatcherPlan PlanDispatchers(Platform platform, int vcpus, bool l4_throughput_binds) {
  DispatcherPlan plan;
  const std::string where = absl::StrCat(PlatformName(platform), " ", FormatVcpus(vcpus));
  if (vcpus <= 2) {
    plan.cores = 0;
    plan.basis = Basis::kMeasured;
    plan.rule = rules::kDispatchersMeasured;
    plan.reason = "1- and 2-vCPU SEs were measured without a dedicated dispatcher";
    return plan;
  }
  if (platform == Platform::kVcenter && vcpus >= 4 && l4_throughput_binds) {
    plan.cores = std::max(2, RatioDispatchers(vcpus));
    plan.basis = vcpus == 4 || vcpus == 6 ? Basis::kMeasured : Basis::kRule;
    plan.rule = rules::kDispatchersL4;
    plan.reason =
        "L4 throughput binds; vcenter L4 throughput at 4+ vCPUs was measured with 2 "
        "dispatcher cores";
    return plan;
  }
  if (vcpus == 4 || vcpus == 6) {
    plan.cores = vcpus == 4 ? 1 : 2;
    plan.basis = Basis::kMeasured;
    plan.rule = rules::kDispatchersMeasured;
    plan.reason = absl::StrCat(where, " was measured with ", plan.cores, " dedicated dispatcher",
                               plan.cores == 1 ? "" : "s");
    return plan;
  }
  plan.cores = RatioDispatchers(vcpus);
  plan.basis = Basis::kRule;
  plan.rule = rules::kDispatchersRatio;
  plan.reason = vcpus < 4
                    ? "below 4 vCPUs, like the measured 1- and 2-vCPU SEs"
                    : absl::StrCat(vcpus, " / 3 = ", vcpus / 3, ", snapped down to ", plan.cores);
  return plan;
}

std::vector<int> AcceptedDispatcherCores(Platform platform, int vcpus) {
  std::vector<int> accepted = {PlanDispatchers(platform, vcpus, false).cores};
  const int l4 = PlanDispatchers(platform, vcpus, true).cores;
  if (l4 != accepted[0]) accepted.push_back(l4);
  return accepted;
}

absl::StatusOr<Recommendation> Recommend(const Workload& w) {
  const std::vector<Finding> errors = CheckWorkload(w);
  if (!errors.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(errors[0].attribute, ": ", errors[0].detail));
  }
  Recommendation r;
  r.platform = w.platform;
  r.target_utilization_pct = w.target_utilization_pct;

  // The least active count, then the shape search from it.
  const int least = LeastActiveSes(w);
  if (least > kMaxSeCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("workload.virtual_services: ", FormatInt(*w.virtual_services),
                     " virtual services need more than ", kMaxSeCount,
                     " SEs at max_vs_per_se = ", w.max_vs_per_se, " (Avi max_se is at most ",
                     kMaxSeCount, "); raise max_vs_per_se or split them"));
  }
  NSXALB_ASSIGN_OR_RETURN(FoundShape found, ChooseSize(w, least, r.vcpus_per_se));
  NoteMemoryCap(w, least, found, r.vcpus_per_se.reason);
  r.se_count = {found.count, Basis::kRule, r.vcpus_per_se.rule, CountReason(w, least, found.count)};
  r.memory_per_se = MemoryChoice(w, found);
  NSXALB_RETURN_IF_ERROR(CompleteShape(w, r));
  return r;
}

absl::StatusOr<Recommendation> RecommendForShape(const Workload& w, int vcpus, int64_t memory_mb,
                                                 int se_count) {
  const std::vector<Finding> errors = CheckWorkload(w);
  if (!errors.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(errors[0].attribute, ": ", errors[0].detail));
  }
  if (se_count < 1 || se_count > kMaxSeCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("se_count: must be 1-", kMaxSeCount, ", got ", se_count));
  }
  if (vcpus < kMinVcpus || vcpus > kMaxVcpus) {
    return absl::InvalidArgumentError(
        absl::StrCat("vcpus_per_se: must be ", VcpuRangeText(), ", got ", vcpus));
  }
  Recommendation r;
  r.platform = w.platform;
  r.target_utilization_pct = w.target_utilization_pct;
  r.vcpus_per_se = {vcpus, Basis::kRule, "", "given"};
  r.se_count = {se_count, Basis::kRule, "", "given"};
  const Figure table_memory = TableMemoryMb(w.platform, vcpus);
  if (memory_mb == static_cast<int64_t>(table_memory.value)) {
    r.memory_per_se = {memory_mb, table_memory.basis, rules::kTableMemory,
                       TableMemoryReason(w.platform, vcpus)};
  } else {
    r.memory_per_se = {memory_mb, Basis::kRule, "", "given"};
  }
  NSXALB_RETURN_IF_ERROR(CompleteShape(w, r));
  return r;
}

namespace {

// disk_per_se: the seed rule for the memory, or the tested disk of the size when that is more.
void PlanDisk(const Workload& w, Recommendation& r) {
  const int vcpus = r.vcpus_per_se.value;
  const int64_t memory = r.memory_per_se.value;
  r.disk = RecommendedDiskGb(w.platform, vcpus, memory);
  const bool tested_binds = r.disk.rules.size() > 1;
  r.disk_per_se = {
      static_cast<int64_t>(r.disk.value), r.disk.basis,
      tested_binds ? rules::kDiskTested : rules::kDisk,
      absl::StrCat("max(15, 2 x ", (memory + kMbPerGb - 1) / kMbPerGb,
                   " + 5) = ", MinimumDiskGb(memory), " GB",
                   tested_binds ? absl::StrCat("; tested disk for the size is ",
                                               static_cast<int64_t>(r.disk.value), " GB")
                                : "")};
}

// The capacity of the shape, the loads on its SEs, whether they carry the workload, and what binds:
// the CPU budget or one metric. The size and the SE count take the weakest basis of the capacities.
absl::Status PlanLoads(const Workload& w, Recommendation& r) {
  const int vcpus = r.vcpus_per_se.value;
  const int64_t memory = r.memory_per_se.value;
  const int count = r.se_count.value;
  NSXALB_ASSIGN_OR_RETURN(SeCapacity capacity, CapacityOf(w.platform, vcpus, memory));
  r.capacity = std::move(capacity);
  r.loads = LoadsOn(w, r.capacity, count);
  // The size and the SE count rest on the capacities that carry the demand.
  std::vector<Basis> carried_on = {Basis::kRule};
  for (const MetricLoad& load : r.loads) carried_on.push_back(load.per_se.basis);
  r.vcpus_per_se.basis = WeakestBasis(carried_on);
  r.se_count.basis = r.vcpus_per_se.basis;
  r.cpu = CpuLoadOf(r.loads, w.target_utilization_pct);
  r.carried = LoadsCarried(r.loads, r.cpu) &&
              (w.ha_mode != HaMode::kSharedPair || SurvivesOneSeLoss(w, vcpus, memory, count));
  // The CPU budget binds as one when it has two or more parts; a lone part is its metric.
  const bool budget_of_many = r.cpu.parts.size() >= 2;
  double highest = -1;
  if (budget_of_many) {
    highest = r.cpu.utilization_pct;
    r.cpu_binds = true;
  }
  for (const MetricLoad& load : r.loads) {
    if (budget_of_many && SharesCpuBudget(load.metric)) continue;
    if (load.utilization_pct > highest) {
      highest = load.utilization_pct;
      r.binding = load.metric;
      r.cpu_binds = false;
    }
  }
  return absl::OkStatus();
}

// The settings that follow the measured configurations: reservations, dispatchers, queues per
// vNIC, Hybrid RSS.
void PlanMeasuredSettings(const Workload& w, Recommendation& r) {
  const int vcpus = r.vcpus_per_se.value;
  r.cpu_reserve = {true, Basis::kRule, rules::kReserve,
                   "seed 000: vCPU reservation is highly "
                   "recommended"};
  r.mem_reserve = {true, Basis::kRule, rules::kReserve,
                   "seed 000: memory is reserved on NSX-T clouds; Avi's default"};
  const DispatcherPlan dispatchers =
      PlanDispatchers(w.platform, vcpus, r.binding == Metric::kL4Gbps);
  r.num_dispatcher_cores = {dispatchers.cores, dispatchers.basis, dispatchers.rule,
                            dispatchers.reason};
  r.dedicated_dispatcher_core = {dispatchers.cores > 0, dispatchers.basis, dispatchers.rule,
                                 dispatchers.reason};
  if (w.platform == Platform::kNsxt && vcpus >= 6) {
    r.max_queues_per_vnic = {2, vcpus == 6 ? Basis::kMeasured : Basis::kRule, rules::kQueuesNsxt,
                             "the 6-vCPU nsxt SE was measured with 2 queues per vNIC"};
  } else if (w.platform == Platform::kNsxt) {
    r.max_queues_per_vnic = {0, Basis::kRule, rules::kQueuesAuto,
                             "0 = auto; seed 001 says it needs to be zero (the default 1 is not)"};
  } else {
    // Note 11 is in the NSX-T seed; seed 000 says nothing about queues.
    r.max_queues_per_vnic = {0, Basis::kCrossProfile, rules::kQueuesAuto,
                             "0 = auto; NSX-T seed 001 says it needs to be zero (the default 1 is "
                             "not); seed 000 says nothing about queues"};
  }
  if (w.platform == Platform::kNsxt && vcpus == 2) {
    r.hybrid_rss_mode = {true, Basis::kMeasured, rules::kHybridRss,
                         "the 2-vCPU nsxt SE was measured with Hybrid RSS"};
  } else {
    r.hybrid_rss_mode = {false, Basis::kRule, rules::kHybridRss,
                         "Hybrid RSS was measured only on the 2-vCPU nsxt SE"};
  }
}

// Scale-out and the group's size: min_scaleout_per_vs over the active SEs, then max_se and
// buffer_se as the HA mode has them.
void PlanScaleout(const Workload& w, Recommendation& r) {
  const int count = r.se_count.value;
  const int per_vs = ScaleoutPerVs(w, count);
  r.ha_mode = w.ha_mode;
  r.min_scaleout_per_vs = {
      per_vs, Basis::kRule, rules::kMinScaleout,
      !ScalesOut(w.ha_mode)
          ? std::string("legacy active/standby places a virtual service on its one active SE")
      : !w.virtual_services.has_value() || *w.virtual_services <= 1
          ? (count == 1   ? std::string("one virtual service on the one active SE")
             : count == 2 ? std::string("one virtual service on both active SEs")
                          : absl::StrCat("one virtual service on all ", count, " active SEs"))
          : absl::StrCat(FormatInt(*w.virtual_services), " virtual services over ", count,
                         " active SEs, each on ", per_vs)};
  switch (w.ha_mode) {
    case HaMode::kShared:
      r.buffer_se = w.buffer_se;
      r.max_se = {count + w.buffer_se, Basis::kRule, rules::kMaxSe,
                  absl::StrCat(count, " active + ", w.buffer_se, " buffer (N+M)")};
      break;
    case HaMode::kSharedPair:
      r.buffer_se = 0;
      r.max_se = {count, Basis::kRule, rules::kActiveActive,
                  absl::StrCat(count,
                               " active SEs (active/active has no buffer; the loss of one must "
                               "leave the rest within 100%)")};
      break;
    case HaMode::kLegacyActiveStandby:
      r.buffer_se = 0;
      r.max_se = {2, Basis::kRule, rules::kLegacyOneActive,
                  "1 active + 1 standby (active/standby)"};
      break;
  }
}

// The warnings about the plan: the shape rules that validation checks too (shape_warnings.h).
void WarnAboutPlan(const Workload& w, Recommendation& r) {
  const int vcpus = r.vcpus_per_se.value;
  const int count = r.se_count.value;
  if (std::optional<Finding> f = EsxiRpsPerSeWarning(w, vcpus, count, "workload.l7_rps")) {
    r.findings.push_back(*std::move(f));
  }
  if (std::optional<Finding> f =
          ScaleoutPerVsWarning(w, vcpus, r.min_scaleout_per_vs.value, "max_scaleout_per_vs")) {
    r.findings.push_back(*std::move(f));
  }
}

absl::Status CompleteShape(const Workload& w, Recommendation& r) {
  PlanDisk(w, r);
  NSXALB_RETURN_IF_ERROR(PlanLoads(w, r));
  PlanMeasuredSettings(w, r);
  PlanScaleout(w, r);
  r.service_units = ServiceUnitsOf(r.vcpus_per_se.value, r.max_se, w.service_unit_settings);
  WarnAboutPlan(w, r);
  return absl::OkStatus();
}

}  // namespace
}  // namespace nsxalb::sizing
