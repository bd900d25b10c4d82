#include "plugin/sizing/validate.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/shape_warnings.h"

namespace nsxalb::sizing {
namespace {

Finding Error(std::string attribute, const char* rule, std::string summary, std::string detail) {
  return Finding{Severity::kError, std::move(attribute), rule, std::move(summary),
                 std::move(detail)};
}

Finding Warning(std::string attribute, const char* rule, std::string summary, std::string detail) {
  return Finding{Severity::kWarning, std::move(attribute), rule, std::move(summary),
                 std::move(detail)};
}

void CheckSettingRanges(const Settings& s, std::vector<Finding>& out) {
  if (s.vcpus_per_se && (*s.vcpus_per_se < kMinVcpus || *s.vcpus_per_se > kMaxVcpus)) {
    out.push_back(
        Error("vcpus_per_se", rules::kRangeVcpus,
              absl::StrCat("vcpus_per_se must be ", VcpuRangeText(), ", got ", *s.vcpus_per_se),
              absl::StrCat("vcpus_per_se = ", *s.vcpus_per_se, ": an SE takes ", kMinVcpus, " to ",
                           kMaxVcpus, " vCPUs (seed 000). Set ", VcpuRangeText(), ".")));
  }
  if (s.memory_per_se && (*s.memory_per_se < kMinMemoryMb || *s.memory_per_se > kMaxMemoryMb)) {
    out.push_back(Error(
        "memory_per_se", rules::kRangeMemory,
        absl::StrCat("memory_per_se must be ", MemoryRangeText(), " MB, got ", *s.memory_per_se),
        absl::StrCat("memory_per_se = ", *s.memory_per_se, " MB: an SE takes ",
                     kMinMemoryMb / kMbPerGb, " GB to ", kMaxMemoryMb / kMbPerGb,
                     " GB (seed 000). Set ", MemoryRangeText(), " MB.")));
  }
  if (s.disk_per_se && *s.disk_per_se < 1) {
    out.push_back(Error("disk_per_se", rules::kInputRange,
                        absl::StrCat("disk_per_se must be at least 1 GB, got ", *s.disk_per_se),
                        "disk_per_se is a size in GB and must be positive."));
  }
  if (s.num_dispatcher_cores && !IsAllowedCoreCount(*s.num_dispatcher_cores)) {
    out.push_back(
        Error("num_dispatcher_cores", rules::kAllowedValues,
              absl::StrCat("num_dispatcher_cores must be ", AllowedCoreCountsText(" or "), ", got ",
                           *s.num_dispatcher_cores),
              absl::StrCat("num_dispatcher_cores = ", *s.num_dispatcher_cores,
                           " is not one of Avi's allowed values ", AllowedCoreCountsText(), ".")));
  }
  if (s.max_queues_per_vnic && !IsAllowedCoreCount(*s.max_queues_per_vnic)) {
    out.push_back(
        Error("max_queues_per_vnic", rules::kAllowedValues,
              absl::StrCat("max_queues_per_vnic must be ", AllowedCoreCountsText(" or "), ", got ",
                           *s.max_queues_per_vnic),
              absl::StrCat("max_queues_per_vnic = ", *s.max_queues_per_vnic,
                           " is not one of Avi's allowed values ", AllowedCoreCountsText(),
                           "; 0 (auto) is what seed 001 asks for.")));
  }
  if (s.max_cpu_usage && (*s.max_cpu_usage < kMinTargetUtilizationPct ||
                          *s.max_cpu_usage > kMaxTargetUtilizationPct)) {
    out.push_back(
        Error("max_cpu_usage", rules::kInputRange,
              absl::StrCat("max_cpu_usage must be ", kMinTargetUtilizationPct, "-",
                           kMaxTargetUtilizationPct, ", got ", *s.max_cpu_usage),
              absl::StrCat("max_cpu_usage is the CPU percent at which the group scales "
                           "out; Avi accepts ",
                           kMinTargetUtilizationPct, " to ", kMaxTargetUtilizationPct, ".")));
  }
  if (s.max_se && (*s.max_se < 0 || *s.max_se > kMaxSeCount)) {
    out.push_back(Error("max_se", rules::kInputRange,
                        absl::StrCat("max_se must be 0-", kMaxSeCount, ", got ", *s.max_se),
                        absl::StrCat("max_se is the most SEs the group may have (Avi range 0-",
                                     kMaxSeCount, ").")));
  }
  if (s.min_scaleout_per_vs &&
      (*s.min_scaleout_per_vs < 1 || *s.min_scaleout_per_vs > kMaxScaleoutPerVs)) {
    out.push_back(Error("min_scaleout_per_vs", rules::kInputRange,
                        absl::StrCat("min_scaleout_per_vs must be 1-", kMaxScaleoutPerVs, ", got ",
                                     *s.min_scaleout_per_vs),
                        absl::StrCat("min_scaleout_per_vs is the number of SEs each virtual "
                                     "service is placed on (Avi range 1-",
                                     kMaxScaleoutPerVs, ").")));
  }
  if (s.se_count && (*s.se_count < 1 || *s.se_count > kMaxSeCount)) {
    out.push_back(Error("se_count", rules::kInputRange,
                        absl::StrCat("se_count must be 1-", kMaxSeCount, ", got ", *s.se_count),
                        absl::StrCat("se_count is the number of active SEs (Avi max_se is at most ",
                                     kMaxSeCount, ").")));
  }
}

// The hand-set min_scaleout_per_vs, when within Avi's range (out of range is an input error).
std::optional<int> GivenScaleoutPerVs(const Settings& s) {
  if (!s.min_scaleout_per_vs || *s.min_scaleout_per_vs < 1 ||
      *s.min_scaleout_per_vs > kMaxScaleoutPerVs) {
    return std::nullopt;
  }
  return s.min_scaleout_per_vs;
}

// The attribute an under-delivered metric is reported on.
std::string UnderDeliveryAttribute(const Settings& s, Metric m) {
  if (m == Metric::kL4OpenConns && s.memory_per_se) return "memory_per_se";
  if (s.vcpus_per_se) return "vcpus_per_se";
  if (s.se_count) return "se_count";
  if (s.memory_per_se) return "memory_per_se";
  return absl::StrCat("workload.", InfoOf(m).key);
}

// In legacy active/standby with one active SE: the limit, and what the workload needs in N+M.
std::string LegacyLimit(const Workload& w, int vcpus) {
  std::string out = absl::StrCat(
      "HA_MODE_LEGACY_ACTIVE_STANDBY has one active SE and no scale-out, so the group carries at "
      "most what one SE of up to ",
      FormatVcpus(std::max(w.max_vcpus_per_se, vcpus)), " (workload.max_vcpus_per_se) carries.");
  Workload shared = w;
  shared.ha_mode = HaMode::kShared;
  absl::StatusOr<Recommendation> elsewhere = Recommend(shared);
  if (elsewhere.ok()) {
    absl::StrAppend(&out, " In HA_MODE_SHARED (N+M) it needs ",
                    FormatShape(elsewhere->se_count.value, elsewhere->vcpus_per_se.value),
                    elsewhere->se_count.value == 1 ? "" : " each", " (max_se ",
                    elsewhere->max_se.value, ").");
  }
  return out;
}

// The rule of an under-sizing finding on the effective shape.
const char* UnderSizingRule(const Workload& w) {
  return ScalesOut(w.ha_mode) ? rules::kUnderDelivery : rules::kLegacyOneActive;
}

Finding UnderDelivery(const Workload& w, const Settings& s, const Validation& v,
                      const MetricLoad& load) {
  const Metric m = load.metric;
  const Profile& p = ProfileOf(w.platform);
  const std::string delivered =
      absl::StrCat(FormatShape(v.se_count, v.vcpus), Agree(v.se_count, " delivers ", " deliver "),
                   FormatAmount(m, load.group_capacity, Rounding::kDown), " (", p.name, ", ",
                   BasisName(load.per_se.basis), ")");
  std::string detail =
      absl::StrCat(delivered, "; the workload needs ", FormatValue(m, load.demand, Rounding::kUp),
                   " at ", w.target_utilization_pct,
                   "% utilization = ", FormatValue(m, load.needed, Rounding::kUp), ".");
  std::vector<std::string> remedies;
  if (m == Metric::kL4OpenConns) {
    // Memory up to twice the table memory of the size (memory-at-most-2x-table), else a larger
    // size with its memory.
    const std::optional<int64_t> memory = MemoryFor(w, v.vcpus, v.se_count);
    if (memory.has_value()) {
      const Figure cap = MetricCapacity(w.platform, m, v.vcpus, *memory);
      remedies.push_back(absl::StrCat("Set memory_per_se = ", *memory, " (",
                                      FormatValue(m, cap.value * v.se_count, Rounding::kDown), ", ",
                                      BasisName(cap.basis), ")"));
    } else {
      for (int vcpus = v.vcpus + 1; vcpus <= std::max(w.max_vcpus_per_se, v.vcpus); ++vcpus) {
        const std::optional<int64_t> larger = MemoryFor(w, vcpus, v.se_count);
        if (!larger.has_value()) continue;
        const Figure cap = MetricCapacity(w.platform, m, vcpus, *larger);
        remedies.push_back(absl::StrCat("Set vcpus_per_se = ", vcpus,
                                        " and memory_per_se = ", *larger, " (",
                                        FormatValue(m, cap.value * v.se_count, Rounding::kDown),
                                        ", ", BasisName(cap.basis), ")"));
        break;
      }
    }
  } else {
    for (int vcpus = v.vcpus + 1; vcpus <= std::max(w.max_vcpus_per_se, v.vcpus); ++vcpus) {
      const Figure cap = MetricCapacity(w.platform, m, vcpus, v.memory_mb);
      if (cap.value * v.se_count * w.target_utilization_pct >= load.demand * 100) {
        remedies.push_back(absl::StrCat("Set vcpus_per_se = ", vcpus, " (",
                                        FormatValue(m, cap.value * v.se_count, Rounding::kDown),
                                        ", ", BasisName(cap.basis), ")"));
        break;
      }
    }
  }
  if (load.per_se.value > 0 && ScalesOut(w.ha_mode)) {
    // Clamped before the conversion: a demand of many thousand SEs does not fit an int.
    const double estimate =
        std::ceil(load.demand * 100 / (load.per_se.value * w.target_utilization_pct));
    int count = estimate <= kMaxSeCount + 1 ? static_cast<int>(estimate) : kMaxSeCount + 2;
    count = std::max(count, v.se_count + 1);
    while (count > 1 &&
           (count - 1) * load.per_se.value * w.target_utilization_pct >= load.demand * 100) {
      --count;
    }
    if (count <= kMaxSeCount) remedies.push_back(absl::StrCat("run ", FormatSeCount(count)));
  }
  if (!remedies.empty()) {
    remedies[0][0] = remedies[0][0] == 'r' ? 'R' : remedies[0][0];
    absl::StrAppend(&detail, " ", absl::StrJoin(remedies, ", or "), ".");
  }
  if (!ScalesOut(w.ha_mode)) absl::StrAppend(&detail, " ", LegacyLimit(w, v.vcpus));
  return Warning(UnderDeliveryAttribute(s, m), UnderSizingRule(w),
                 absl::StrCat(InfoOf(m).label, " under-delivered: ",
                              FormatValue(m, load.group_capacity, Rounding::kDown), " of ",
                              FormatValue(m, load.needed, Rounding::kUp), " needed"),
                 detail);
}

// The CPU budget of `se_count` SEs of `vcpus` and `memory_mb` at the workload's target, with the
// weakest basis of the capacities it rests on; nullopt when the shape is invalid.
struct CpuAtShape {
  CpuLoad cpu;
  Basis basis = Basis::kMeasured;
};
std::optional<CpuAtShape> CpuAt(const Workload& w, int vcpus, int64_t memory_mb, int se_count) {
  absl::StatusOr<SeCapacity> capacity = CapacityOf(w.platform, vcpus, memory_mb);
  if (!capacity.ok()) return std::nullopt;
  const std::vector<MetricLoad> loads = LoadsOn(w, *capacity, se_count);
  std::vector<Basis> bases;
  for (const MetricLoad& load : loads) {
    if (SharesCpuBudget(load.metric)) bases.push_back(load.per_se.basis);
  }
  return CpuAtShape{CpuLoadOf(loads, w.target_utilization_pct), WeakestBasis(bases)};
}

// The fewest SEs, more than `from`, of `vcpus` and `memory_mb` that carry the workload in its HA
// mode; nullopt above kMaxSeCount.
std::optional<int> FewestSesFrom(const Workload& w, int vcpus, int64_t memory_mb, int from,
                                 double cpu_pct_at_from) {
  // The CPU budget falls as 1 / SEs: start where it would first fit.
  const double start = std::floor(cpu_pct_at_from * from / w.target_utilization_pct);
  int count = std::max(from + 1, static_cast<int>(std::min<double>(start, kMaxSeCount + 1)));
  for (; count <= kMaxSeCount; ++count) {
    if (Carries(w, vcpus, memory_mb, count)) return count;
  }
  return std::nullopt;
}

// The CPU budget is over the target with two or more parts (rule one-cpu-budget-per-se).
Finding CpuUnderDelivery(const Workload& w, const Settings& s, const Validation& v, Basis basis) {
  const Profile& p = ProfileOf(w.platform);
  std::vector<std::string> labels;
  for (const CpuPart& part : v.cpu.parts) labels.push_back(InfoOf(part.metric).label);
  const std::string last = labels.back();
  labels.pop_back();
  std::string detail = absl::StrCat(
      FormatShape(v.se_count, v.vcpus), Agree(v.se_count, " runs at ", " run at "),
      CpuLoadText(v.cpu), " (", p.name, ", ", BasisName(basis), "). ", absl::StrJoin(labels, ", "),
      " and ", last, " share the SE's cores, so their utilizations add up (rule ",
      rules::kCpuBudget, "); the sum must stay within ", w.target_utilization_pct, "%.");
  std::vector<std::string> remedies;
  for (int vcpus = v.vcpus + 1; vcpus <= std::max(w.max_vcpus_per_se, v.vcpus); ++vcpus) {
    if (!Carries(w, vcpus, v.memory_mb, v.se_count)) continue;
    if (std::optional<CpuAtShape> at = CpuAt(w, vcpus, v.memory_mb, v.se_count)) {
      remedies.push_back(absl::StrCat("Set vcpus_per_se = ", vcpus, " (CPU ",
                                      FormatPercent(at->cpu.utilization_pct), ", ",
                                      BasisName(at->basis), ")"));
    }
    break;
  }
  if (ScalesOut(w.ha_mode)) {
    if (std::optional<int> count =
            FewestSesFrom(w, v.vcpus, v.memory_mb, v.se_count, v.cpu.utilization_pct)) {
      if (std::optional<CpuAtShape> at = CpuAt(w, v.vcpus, v.memory_mb, *count)) {
        remedies.push_back(absl::StrCat("run ", FormatSeCount(*count), " (CPU ",
                                        FormatPercent(at->cpu.utilization_pct), ")"));
      }
    }
  }
  if (!remedies.empty()) {
    remedies[0][0] = remedies[0][0] == 'r' ? 'R' : remedies[0][0];
    absl::StrAppend(&detail, " ", absl::StrJoin(remedies, ", or "), ".");
  }
  if (!ScalesOut(w.ha_mode)) absl::StrAppend(&detail, " ", LegacyLimit(w, v.vcpus));
  return Warning(
      UnderDeliveryAttribute(s, v.cpu.parts[0].metric), UnderSizingRule(w),
      absl::StrCat(CpuLoadText(v.cpu), ", over the ", w.target_utilization_pct, "% target"),
      detail);
}

// Active/active: the loss of one of the effective SEs overloads the rest (rule
// active-active-survives-one-se-loss).
Finding FailoverOverload(const Workload& w, const Settings& s, const Validation& v) {
  Workload whole = w;
  whole.target_utilization_pct = 100;
  std::string over;
  if (std::optional<CpuAtShape> rest = CpuAt(whole, v.vcpus, v.memory_mb, v.se_count - 1);
      rest && !rest->cpu.Empty() && !rest->cpu.carried) {
    over = CpuLoadText(rest->cpu);
  }
  if (over.empty() && v.capacity) {
    for (const MetricLoad& load : LoadsOn(whole, *v.capacity, v.se_count - 1)) {
      if (SharesCpuBudget(load.metric) || load.carried) continue;
      over = absl::StrCat(InfoOf(load.metric).label, " ", FormatPercent(load.utilization_pct));
      break;
    }
  }
  std::string detail = absl::StrCat("HA_MODE_SHARED_PAIR has no buffer SE: when one of ",
                                    FormatShape(v.se_count, v.vcpus), " fails, the other ",
                                    Agree(v.se_count - 1, "one carries", "ones carry"),
                                    " its virtual services and would run at ", over,
                                    ", over 100% (rule ", rules::kActiveActive, ").");
  std::vector<std::string> remedies;
  for (int vcpus = v.vcpus + 1; vcpus <= std::max(w.max_vcpus_per_se, v.vcpus); ++vcpus) {
    if (Carries(w, vcpus, v.memory_mb, v.se_count)) {
      remedies.push_back(absl::StrCat("Set vcpus_per_se = ", vcpus));
      break;
    }
  }
  if (std::optional<int> count = FewestSesFrom(w, v.vcpus, v.memory_mb, v.se_count, 0)) {
    remedies.push_back(absl::StrCat("run ", FormatSeCount(*count), " (max_se ", *count, ")"));
  }
  if (!remedies.empty()) {
    remedies[0][0] = remedies[0][0] == 'r' ? 'R' : remedies[0][0];
    absl::StrAppend(&detail, " ", absl::StrJoin(remedies, ", or "), ".");
  }
  return Warning(
      s.se_count       ? "se_count"
      : s.vcpus_per_se ? "vcpus_per_se"
                       : "max_se",
      rules::kActiveActive,
      absl::StrCat("Losing one of ", FormatSeCount(v.se_count), " would put the rest at ", over),
      detail);
}

// The virtual-service slots a given max_se lacks (rule vs-slots-per-se).
void CheckVsSlots(const Workload& w, const Settings& s, Validation& v) {
  const char* mode = HaModeName(w.ha_mode);
  const std::optional<int> per_vs = GivenScaleoutPerVs(s);
  if (w.virtual_services && s.max_se && *s.max_se >= 0) {
    const int64_t active = w.ha_mode == HaMode::kShared       ? *s.max_se - w.buffer_se
                           : w.ha_mode == HaMode::kSharedPair ? *s.max_se
                                                              : std::min(*s.max_se, 1);
    const int scaleout =
        per_vs ? GivenScaleoutInMode(w.ha_mode, *per_vs) : MinScaleoutOfMode(w.ha_mode);
    const int64_t placements = int64_t{*w.virtual_services} * scaleout;
    if (active * w.max_vs_per_se < placements || active < scaleout) {
      const int least = LeastActiveSes(w, per_vs);
      const int needed = w.ha_mode == HaMode::kShared       ? least + w.buffer_se
                         : w.ha_mode == HaMode::kSharedPair ? least
                                                            : 2;
      v.under_sized = true;
      v.findings.push_back(Warning(
          "max_se", rules::kVsSlots,
          absl::StrCat("max_se = ", *s.max_se, " leaves slots for ",
                       FormatInt(std::max<int64_t>(active, 0) * w.max_vs_per_se), " of ",
                       FormatInt(placements), " virtual-service placements"),
          absl::StrCat(
              FormatInt(*w.virtual_services), " virtual services",
              scaleout > 1 ? absl::StrCat(", each on ", scaleout, " SEs,") : "",
              " at max_vs_per_se = ", w.max_vs_per_se, " need ", least, " active ",
              Agree(least, "SE", "SEs"), " (", mode,
              w.ha_mode == HaMode::kShared ? absl::StrCat(", ", w.buffer_se, " buffer") : "", "). ",
              ScalesOut(w.ha_mode)
                  ? absl::StrCat("Set max_se = ", needed, ", or raise max_vs_per_se.")
                  : "Raise max_vs_per_se, or set ha_mode = HA_MODE_SHARED.")));
    }
  }
}

// Settings that contradict the HA mode, then CheckVsSlots.
void CheckHaMode(const Workload& w, const Settings& s, Validation& v) {
  const char* mode = HaModeName(w.ha_mode);
  if (w.ha_mode == HaMode::kSharedPair && s.se_count && *s.se_count < 2) {
    v.under_sized = true;
    v.findings.push_back(
        Warning("se_count", rules::kHaModeSettings,
                absl::StrCat("se_count = ", *s.se_count, " under ", mode, ": fewer than 2 SEs"),
                absl::StrCat(mode,
                             " (active/active) places every virtual service on at least 2 SEs. "
                             "Set it to 2 or more, or set ha_mode = HA_MODE_SHARED.")));
  }
  if (w.ha_mode == HaMode::kSharedPair && s.max_se && *s.max_se < 2) {
    v.findings.push_back(
        Warning("max_se", rules::kHaModeSettings,
                absl::StrCat("max_se = ", *s.max_se, " under ", mode, ": fewer than 2 SEs"),
                absl::StrCat(mode, " (active/active) needs at least 2 SEs. Set max_se = ",
                             std::max(2, v.se_count), ".")));
  }
  if (w.ha_mode == HaMode::kLegacyActiveStandby && s.se_count && *s.se_count > 1) {
    v.findings.push_back(
        Warning("se_count", rules::kHaModeSettings,
                absl::StrCat("se_count = ", *s.se_count, " under ", mode, ": one SE is active"),
                absl::StrCat(mode,
                             " has one active SE and one standby, and does not scale out. Set it "
                             "to 1, or set ha_mode = HA_MODE_SHARED to scale out.")));
  }
  if (w.ha_mode == HaMode::kLegacyActiveStandby && s.max_se && *s.max_se != 2) {
    v.findings.push_back(
        Warning("max_se", rules::kHaModeSettings,
                absl::StrCat("max_se = ", *s.max_se, " under ", mode, ": the group is 2 SEs"),
                absl::StrCat(mode, " runs one active and one standby SE. Set max_se = 2.")));
  }
  const std::optional<int> per_vs = GivenScaleoutPerVs(s);
  if (per_vs && w.ha_mode == HaMode::kSharedPair && *per_vs < 2) {
    v.under_sized = true;
    v.findings.push_back(Warning(
        "min_scaleout_per_vs", rules::kHaModeSettings,
        absl::StrCat("min_scaleout_per_vs = ", *per_vs, " under ", mode,
                     ": each virtual service on fewer than 2 SEs"),
        absl::StrCat(mode,
                     " (active/active) places every virtual service on at least 2 SEs. Set it "
                     "to 2 or more, or set ha_mode = HA_MODE_SHARED.")));
  }
  if (per_vs && w.ha_mode == HaMode::kLegacyActiveStandby && *per_vs > 1) {
    v.findings.push_back(Warning(
        "min_scaleout_per_vs", rules::kHaModeSettings,
        absl::StrCat("min_scaleout_per_vs = ", *per_vs, " under ", mode, ": one SE is active"),
        absl::StrCat(mode,
                     " places a virtual service on its one active SE and does not scale out. Set "
                     "it to 1, or set ha_mode = HA_MODE_SHARED to scale out.")));
  }
  CheckVsSlots(w, s, v);
}

void CheckDispatchers(const Workload& w, const Settings& s, const Validation& v,
                      std::vector<Finding>& out) {
  const Platform p = w.platform;
  const std::vector<int> accepted = AcceptedDispatcherCores(p, v.vcpus);
  const DispatcherPlan plan = PlanDispatchers(p, v.vcpus, false);
  const std::string where = absl::StrCat(PlatformName(p), " at ", FormatVcpus(v.vcpus));
  if (s.num_dispatcher_cores && IsAllowedCoreCount(*s.num_dispatcher_cores)) {
    if (*s.num_dispatcher_cores > 0 && *s.num_dispatcher_cores >= v.vcpus) {
      out.push_back(
          Error("num_dispatcher_cores", rules::kDispatchersFewer,
                absl::StrCat("num_dispatcher_cores (", *s.num_dispatcher_cores,
                             ") must be fewer than vcpus_per_se (", v.vcpus, ")"),
                absl::StrCat("An SE of ", FormatVcpus(v.vcpus), " with ", *s.num_dispatcher_cores,
                             " dispatcher cores has no proxy core. Set num_dispatcher_cores = ",
                             plan.cores, " (", plan.reason, ").")));
    } else if (std::find(accepted.begin(), accepted.end(), *s.num_dispatcher_cores) ==
               accepted.end()) {
      out.push_back(
          Warning("num_dispatcher_cores", plan.rule,
                  absl::StrCat("num_dispatcher_cores = ", *s.num_dispatcher_cores,
                               " is unlike the measured configuration (", plan.cores, ")"),
                  absl::StrCat("num_dispatcher_cores = ", *s.num_dispatcher_cores, " on ", where,
                               "; the seeds' figures come from ", absl::StrJoin(accepted, " or "),
                               " (", BasisName(plan.basis), ": ", plan.reason,
                               "). Set num_dispatcher_cores = ", plan.cores, ".")));
    }
  }
  if (s.dedicated_dispatcher_core && *s.dedicated_dispatcher_core != (plan.cores > 0)) {
    out.push_back(Warning(
        "dedicated_dispatcher_core", plan.rule,
        absl::StrCat(
            "dedicated_dispatcher_core = ", *s.dedicated_dispatcher_core ? "true" : "false",
            " is unlike the measured configuration"),
        absl::StrCat(
            where, " the seeds' figures come from ",
            plan.cores > 0 ? "dedicated dispatchers" : "no dedicated dispatcher", " (", plan.reason,
            "). Set dedicated_dispatcher_core = ", plan.cores > 0 ? "true" : "false", ".")));
  }
  if (s.hybrid_rss_mode && !*s.hybrid_rss_mode && p == Platform::kNsxt && v.vcpus == 2) {
    out.push_back(Warning("hybrid_rss_mode", rules::kHybridRss,
                          "hybrid_rss_mode = false is unlike the measured 2-vCPU nsxt SE",
                          "Seed 001 measured the 2-vCPU nsxt SE with Hybrid RSS enabled "
                          "(note 9). Set hybrid_rss_mode = true."));
  }
}

// A target above max_cpu_usage (rule target-within-max-cpu-usage): the group scales out first.
void CheckTargetWithinMaxCpuUsage(const Workload& w, const Settings& s, std::vector<Finding>& out) {
  if (!s.max_cpu_usage || w.demand.Empty() || w.target_utilization_pct <= *s.max_cpu_usage) return;
  out.push_back(Warning(
      "workload.target_utilization", rules::kTargetWithinMaxCpuUsage,
      absl::StrCat("The group scales out at ", *s.max_cpu_usage,
                   "% CPU (max_cpu_usage), before the planned ", w.target_utilization_pct, "%"),
      absl::StrCat("max_cpu_usage = ", *s.max_cpu_usage,
                   ": Avi rebalances and adds SEs when an SE passes it, so the planned SEs never "
                   "run at the target utilization of ",
                   w.target_utilization_pct,
                   "%. Set target_utilization at most max_cpu_usage, or leave it unset to follow "
                   "max_cpu_usage.")));
}

// The recommendation for the workload into v, or the error that it cannot be sized.
void RecommendInto(const Workload& w, Validation& v) {
  absl::StatusOr<Recommendation> rec = Recommend(w);
  if (rec.ok()) {
    v.recommendation = *std::move(rec);
  } else {
    v.findings.push_back(Error("workload", rules::kInputRange, "The workload cannot be sized",
                               std::string(rec.status().message())));
  }
}

// The effective shape into v: what the settings give, the rest from the recommendation (or the
// table memory and the least active count), and its capacity. False when the settings make no
// shape (their range errors are reported already) or its capacity cannot be computed.
bool SetEffectiveShape(const Workload& w, const Settings& s, Validation& v) {
  const Recommendation* rec = v.recommendation ? &*v.recommendation : nullptr;
  v.vcpus = s.vcpus_per_se.value_or(rec ? rec->vcpus_per_se.value : 1);
  const bool shape_ok = v.vcpus >= kMinVcpus && v.vcpus <= kMaxVcpus &&
                        (!s.memory_per_se ||
                         (*s.memory_per_se >= kMinMemoryMb && *s.memory_per_se <= kMaxMemoryMb)) &&
                        (!s.se_count || (*s.se_count >= 1 && *s.se_count <= kMaxSeCount));
  if (!shape_ok) return false;
  if (s.memory_per_se) {
    v.memory_mb = *s.memory_per_se;
  } else if (!s.vcpus_per_se && rec) {
    v.memory_mb = rec->memory_per_se.value;
  } else {
    v.memory_mb = static_cast<int64_t>(TableMemoryMb(w.platform, v.vcpus).value);
  }
  const int least = std::min(LeastActiveSes(w, GivenScaleoutPerVs(s)), kMaxSeCount);
  v.se_count =
      s.se_count.value_or(!s.vcpus_per_se && rec ? std::max(rec->se_count.value, least) : least);
  absl::StatusOr<SeCapacity> capacity = CapacityOf(w.platform, v.vcpus, v.memory_mb);
  if (!capacity.ok()) return false;
  v.capacity = *std::move(capacity);
  return true;
}

// Hand-set platform settings against the seeds and the Controller: memory under the Controller's
// minimum, disk below the seed rule, reservations off, one queue per vNIC, the dispatchers.
void CheckPlatformSettings(const Workload& w, const Settings& s, Validation& v) {
  if (s.memory_per_se && *s.memory_per_se < kControllerMinMemoryMb) {
    v.findings.push_back(Warning(
        "memory_per_se", rules::kMemoryMin2048,
        absl::StrCat("memory_per_se = ", *s.memory_per_se, " MB is under ", kControllerMinMemoryMb,
                     " MB"),
        absl::StrCat("Controllers from 30.1 on accept memory_per_se ", kControllerMinMemoryMb, "-",
                     kMaxMemoryMb, " MB and reject ", *s.memory_per_se, " MB. Set memory_per_se = ",
                     static_cast<int64_t>(v.capacity->table_memory_mb.value),
                     " (the table memory for ", FormatVcpus(v.vcpus), ").")));
  }
  if (s.disk_per_se && *s.disk_per_se >= 1 && *s.disk_per_se < MinimumDiskGb(v.memory_mb)) {
    const int64_t minimum = MinimumDiskGb(v.memory_mb);
    v.findings.push_back(Warning(
        "disk_per_se", rules::kDisk,
        absl::StrCat("disk_per_se = ", *s.disk_per_se, " GB is below the seed rule (", minimum,
                     " GB)"),
        absl::StrCat(
            "Seed 000 recommends at least max(15, 2 x RAM + 5) GB; with ", v.memory_mb,
            " MB that is max(15, 2 x ", (v.memory_mb + kMbPerGb - 1) / kMbPerGb,
            " + 5) = ", minimum, " GB. Set disk_per_se = ",
            static_cast<int64_t>(RecommendedDiskGb(w.platform, v.vcpus, v.memory_mb).value), ".")));
  }
  if (s.cpu_reserve && !*s.cpu_reserve) {
    v.findings.push_back(Warning("cpu_reserve", rules::kReserve,
                                 "cpu_reserve = false: vCPUs are not reserved",
                                 "Seed 000: \"vCPU reservation is highly recommended\"; the "
                                 "measured figures assume the SE gets its cores. Set "
                                 "cpu_reserve = true."));
  }
  if (s.mem_reserve && !*s.mem_reserve) {
    v.findings.push_back(Warning("mem_reserve", rules::kReserve,
                                 "mem_reserve = false: memory is not reserved",
                                 "Seed 000: memory is reserved within the hypervisor on NSX-T "
                                 "clouds, and Avi reserves it by default. Set mem_reserve = "
                                 "true."));
  }
  if (s.max_queues_per_vnic && *s.max_queues_per_vnic == 1 && v.vcpus >= 4) {
    // Note 11 is in the NSX-T seed; seed 000 says nothing about queues, so on vcenter the advice
    // is borrowed (cross-profile), and the finding says so.
    const bool nsxt = w.platform == Platform::kNsxt;
    const int recommended = nsxt && v.vcpus >= 6 ? 2 : 0;
    v.findings.push_back(Warning(
        "max_queues_per_vnic", rules::kQueuesNotOne,
        absl::StrCat("max_queues_per_vnic = 1 at ", FormatVcpus(v.vcpus)),
        absl::StrCat(nsxt ? "Seed 001 (note 11)"
                          : "Seed 001 (note 11; an NSX-T note, cross-profile on vcenter: seed 000 "
                            "says nothing about queues)",
                     ": maximum queues per vNIC needs to be 0 (auto); the default 1 limits a ",
                     v.vcpus, "-vCPU SE to one queue. Set max_queues_per_vnic = ", recommended,
                     recommended == 2 ? " (as measured for the 6-vCPU nsxt SE)." : " (auto).")));
  }
  CheckDispatchers(w, s, v, v.findings);
}

// Whether the effective shape carries the workload: each metric judged alone, the CPU budget of
// the CPU-bound metrics, and in active/active the loss of one SE.
void CheckAgainstWorkload(const Workload& w, const Settings& s, Validation& v) {
  v.loads = LoadsOn(w, *v.capacity, v.se_count);
  v.cpu = CpuLoadOf(v.loads, w.target_utilization_pct);
  const bool budget_of_many = v.cpu.parts.size() >= 2;
  for (const MetricLoad& load : v.loads) {
    if (load.carried || (budget_of_many && SharesCpuBudget(load.metric))) continue;
    v.under_sized = true;
    v.findings.push_back(UnderDelivery(w, s, v, load));
  }
  if (budget_of_many && !v.cpu.carried) {
    std::vector<Basis> bases;
    for (const MetricLoad& load : v.loads) {
      if (SharesCpuBudget(load.metric)) bases.push_back(load.per_se.basis);
    }
    v.under_sized = true;
    v.findings.push_back(CpuUnderDelivery(w, s, v, WeakestBasis(bases)));
  }
  if (w.ha_mode == HaMode::kSharedPair && v.se_count >= 2 && LoadsCarried(v.loads, v.cpu) &&
      !SurvivesOneSeLoss(w, v.vcpus, v.memory_mb, v.se_count)) {
    v.under_sized = true;
    v.findings.push_back(FailoverOverload(w, s, v));
  }
}

// A hand-set shape (vcpus_per_se or se_count) against the ESXi RPS limit, max_scaleout_per_vs and
// the vCPUs the workload needs (over-provisioning).
void CheckGivenShape(const Workload& w, const Settings& s, Validation& v) {
  const Recommendation* rec = v.recommendation ? &*v.recommendation : nullptr;
  const bool shape_given = s.vcpus_per_se || s.se_count;
  if (shape_given) {
    if (std::optional<Finding> f = EsxiRpsPerSeWarning(
            w, v.vcpus, v.se_count, s.vcpus_per_se ? "vcpus_per_se" : "se_count")) {
      v.findings.push_back(*std::move(f));
    }
  }
  if (s.se_count) {
    if (std::optional<Finding> f = ScaleoutPerVsWarning(w, v.vcpus, *s.se_count, "se_count")) {
      v.findings.push_back(*std::move(f));
    }
  }
  if (shape_given && rec && !w.demand.Empty()) {
    const int64_t given = static_cast<int64_t>(v.vcpus) * v.se_count;
    const int64_t needed = static_cast<int64_t>(rec->vcpus_per_se.value) * rec->se_count.value;
    if (given >= 2 * needed) {
      v.findings.push_back(Warning(
          s.vcpus_per_se ? "vcpus_per_se" : "se_count", rules::kOverProvisioning,
          absl::StrCat(FormatVcpus(given), " is at least twice the ", needed,
                       " the workload needs"),
          absl::StrCat(FormatShape(v.se_count, v.vcpus), " = ", FormatVcpus(given),
                       " in total; the workload needs ",
                       FormatShape(rec->se_count.value, rec->vcpus_per_se.value), " = ", needed,
                       " at ", w.target_utilization_pct, "% utilization",
                       rec->binding
                           ? absl::StrCat(" (binding metric ", InfoOf(*rec->binding).label, ")")
                           : "",
                       ". Licences are per core: set vcpus_per_se = ", rec->vcpus_per_se.value,
                       rec->se_count.value > 1
                           ? absl::StrCat(" and run ", FormatSeCount(rec->se_count.value))
                           : "",
                       ".")));
    }
  }
}

}  // namespace

bool Settings::Empty() const {
  return !vcpus_per_se && !memory_per_se && !disk_per_se && !cpu_reserve && !mem_reserve &&
         !dedicated_dispatcher_core && !num_dispatcher_cores && !max_queues_per_vnic &&
         !hybrid_rss_mode && !se_count && !max_se && !min_scaleout_per_vs && !max_cpu_usage;
}

bool Validation::HasErrors() const {
  for (const Finding& f : findings) {
    if (f.severity == Severity::kError) return true;
  }
  return false;
}

Validation Validate(const Workload& w, const Settings& s) {
  Validation v;
  v.findings = CheckWorkload(w);
  const bool workload_ok = v.findings.empty();
  CheckSettingRanges(s, v.findings);
  if (workload_ok) RecommendInto(w, v);
  CheckTargetWithinMaxCpuUsage(w, s, v.findings);
  if (!SetEffectiveShape(w, s, v)) return v;
  CheckPlatformSettings(w, s, v);
  CheckAgainstWorkload(w, s, v);
  if (workload_ok) CheckHaMode(w, s, v);
  CheckGivenShape(w, s, v);
  return v;
}

}  // namespace nsxalb::sizing
