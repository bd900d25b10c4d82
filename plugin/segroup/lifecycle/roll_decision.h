// The roll's decision: what a roll of an SE group's lagging SEs will do, computed once, before
// any SE is touched, from the group's placement settings, its running SEs with the virtual
// services each hosts and the load each carries now, the licence pool, the cloud and the
// Controller's upgrade state. Every front end shows this one decision: the plan (at the rollout
// line), apply (which computes it again on fresh reads before the first SE write and stops when
// it changed), `controller rollout --dry-run` and Ansible's check mode.
//
// The roll is simulated step by step (a step is one batch of max_unavailable SEs, in RollOrder):
// the leaving SEs are disabled one after the other, and each of their virtual services is placed
// again as the Controller places it (avi-se-lifecycle.md section 6; docs/design/roll-decision.md
// states every rule and what is UNCONFIRMED):
//   - it keeps its place on SEs that stay; it needs min_scaleout_per_vs SEs that stay;
//   - packed (PLACEMENT_ALGO_PACKED, the default): the enabled SE with the most virtual services
//     that still has room (fewer than max_vs_per_se) and does not host it, the oldest on a tie;
//   - distributed: a new SE while the group has fewer than max_se SEs, else the enabled SE with
//     the fewest virtual services that has room;
//   - no SE with room: a new SE at the group's current settings, while the group (every SE it
//     has, the leaving ones included) has fewer than max_se and the cloud creates SEs; else the
//     virtual service finds no place and the Controller reports MIGRATE_SE_FAILED.
// Load: each measured metric of an SE (its CPU and its memory, each a percentage of that SE; its
// throughput, a percentage of the model's throughput capacity of an SE of its vCPUs, when the
// declared workload states throughput) is shared evenly by the virtual services it hosts (rule
// roll-load-shared-evenly); a share that moves keeps its vCPU-seconds, its megabytes and its
// bits per second, so on an SE of other size its CPU is scaled by the ratio of the vCPUs (rule
// roll-load-scales-with-vcpus), its memory by the ratio of the memory (rule
// roll-memory-scales-with-memory) and its throughput by the ratio of the throughput capacities
// (rule roll-throughput-keeps-its-bits). The capacity guard refuses when any judged metric of an
// SE that gains load goes over the target. Pure; no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLL_DECISION_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLL_DECISION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/rollout.h"

namespace nsxalb::segroup::lifecycle {

// The group's settings that decide where a leaving SE's virtual services go.
struct PlacementSettings {
  bool distributed = false;  // algo PLACEMENT_ALGO_DISTRIBUTED; packed otherwise (the default)
  int max_vs_per_se = 10;
  int min_scaleout_per_vs = 1;
  int max_se = 10;
  std::string ha_mode = "HA_MODE_SHARED";
  int buffer_se = 1;
  int vs_scalein_timeout_s = 30;
};

// The placement settings of a group body (by Avi field name), the catalog's defaults for the
// fields it does not set.
PlacementSettings PlacementSettingsOf(const nlohmann::json& group_body);

// The measured metrics the roll predicts per SE per step, each a percentage of the SE that
// carries it: CPU (se_stats.avg_cpu_usage, of its vCPUs), memory (se_stats.avg_mem_usage, of its
// memory; open connections bind on it) and throughput (se_if.avg_bandwidth, of the model's
// throughput capacity of an SE of its vCPUs; judged only when the workload states throughput).
enum class LoadMetric { kCpu = 0, kMemory, kThroughput };
inline constexpr int kLoadMetricCount = 3;

// How the plan names a metric: "CPU", "memory", "throughput".
const char* LoadMetricName(LoadMetric metric);

// How the decision's JSON names a metric: "cpu", "memory", "throughput".
const char* LoadMetricKey(LoadMetric metric);

// The model's throughput capacity of one SE for the roll's guard.
struct ThroughputCapacity {
  double bits_per_second = 0;                     // 0: throughput is not judged
  sizing::Metric kind = sizing::Metric::kL4Gbps;  // the declared kind that gives it
};

// The throughput capacity of an SE of `vcpus` (clamped to 1-64; 0, unknown, counts as 1) on
// `declared`'s platform: the least, over the throughput kinds the workload declares
// (declared.throughput_kinds), of sizing::MetricCapacity (rule roll-throughput-keeps-its-bits:
// the Controller's bits per second do not say their kind, and the least capacity never
// understates a figure). bits_per_second 0 when the workload declares no throughput.
ThroughputCapacity ThroughputCapacityOf(const CapacityFigures& declared, int vcpus);

// The load the group's SEs carry now, as read from the Controller (or not).
struct CurrentLoad {
  // SE uuid -> its CPU now (percent of that SE), for the SEs with samples.
  std::map<std::string, double> cpu_pct;
  // SE uuid -> its memory now (percent of that SE's memory), for the SEs with samples; empty
  // when none has any: the guard then judges CPU only and says so (memory_missing_reason).
  std::map<std::string, double> mem_pct;
  // Where the figures come from, for the plan: "the Controller's se_stats.avg_cpu_usage and
  // se_stats.avg_mem_usage of each SE, the highest sample of the last 1 hour (300 s samples)".
  std::string source;
  // Why there are none, when cpu_pct is empty ("the Controller has no samples for these SEs").
  std::string missing_reason;
  // Why memory is not judged, when mem_pct is empty and cpu_pct is not.
  std::string memory_missing_reason;
  // SE uuid -> its bandwidth now (bits per second: se_if.avg_bandwidth, every series the
  // Controller gives for that SE summed per timestamp), for the SEs with samples.
  std::map<std::string, double> bandwidth_bps;
  // Why there is no bandwidth, when bandwidth_bps is empty and cpu_pct is not.
  std::string bandwidth_missing_reason;
};

// Everything the decision is computed from.
struct RollInput {
  GroupSes ses;  // the running SEs against the settings (MatchSettings)
  // SE uuid -> the names of the virtual services it hosts now; an SE absent here hosts none.
  std::map<std::string, std::vector<std::string>> virtual_services;
  bool placement_known = true;  // false: where the virtual services sit could not be read
  CurrentLoad load;
  // The declared workload's figures (CapacityWithSesOut), the fallback when the Controller has
  // no samples; known = false without a workload. Its throughput_kinds decide whether the
  // measured throughput is judged.
  CapacityFigures declared;
  PlacementSettings placement;
  TargetShape target;
  // The utilization an SE must stay within (max_cpu_usage, else 80), for its CPU, its memory and
  // its throughput alike (rules roll-memory-scales-with-memory, roll-throughput-keeps-its-bits).
  double target_pct = 80;
  int ha_minimum_ses = 1;
  LicenseFigures license;
  CloudFigures cloud;
  // Set while the Controller runs an upgrade: what it upgrades ("a system upgrade", "the SE
  // group's SE upgrade"). Unset: none, or unknown_upgrade says why it could not be read.
  std::optional<std::string> upgrade_in_progress;
  std::string unknown_upgrade;
  int max_unavailable = 1;
  int spare_replacements = 0;  // RolloutOptions::spare_replacements
};

// One virtual service's move in a step.
struct VsMove {
  std::string vs;
  std::string from;  // the leaving SE
  std::string to;    // the SE that takes it: a running SE's name, or "new SE 1" (a replacement)
  bool to_new_se = false;
};

// One SE's predicted load after a step.
struct SeLoadAfter {
  std::string name;
  int vcpus = 0;
  int64_t memory_mb = 0;  // the memory its memory figure is a percentage of
  double cpu_pct = 0;
  std::optional<double> mem_pct;  // unset when memory is not judged (no samples)
  // Throughput, when judged: its bits per second, its capacity (ThroughputCapacityOf at its
  // vCPUs) and the percentage; unset when throughput is not judged.
  std::optional<double> tput_pct;
  double bandwidth_bps = 0;
  ThroughputCapacity throughput_capacity;
  bool gained = false;  // the step moved load onto it
  bool is_new = false;  // a replacement the Controller creates in the roll

  // Its figure of `metric` (0 for memory or throughput when not judged).
  double Pct(LoadMetric metric) const;
};

// The highest predicted figure of one metric on an SE the roll moves load onto.
struct MetricPeak {
  LoadMetric metric = LoadMetric::kCpu;
  double pct = 0;
  std::string se;
  int step = 0;  // 0: no SE takes load
};

// One step of the roll as predicted.
struct RollStep {
  int number = 0;                    // 1, 2, ...
  std::vector<std::string> leaving;  // the SEs this step takes out
  std::vector<VsMove> moves;
  std::vector<std::string> created;   // the new SEs this step makes the Controller create
  std::vector<std::string> unplaced;  // virtual services that find no place
  std::vector<SeLoadAfter> loads;     // the SEs that stay, after the step
};

// One guard's verdict.
struct GuardVerdict {
  std::string guard;  // "upgrade", "ha-mode", "capacity", "placement", "cloud", "license"
  bool passed = true;
  std::string figures;  // the line the plan shows
};

// What apply will do.
enum class RollVerdict { kNothing, kRoll, kRefused };

// The decision.
struct RollDecision {
  RollVerdict verdict = RollVerdict::kNothing;
  std::vector<LaggingSe> order;  // the SEs to roll, in RollOrder
  std::vector<RollStep> steps;
  std::vector<GuardVerdict> guards;
  // When refused: the guard that refuses, and its message (figures and what to change).
  std::string refused_by;
  std::string refusal;
  // The busiest SE the roll moves load onto, at the worst step, by its binding metric (the
  // highest figure of any judged metric, CPU on a tie); peak_step 0 when none.
  double peak_pct = 0;
  std::string peak_se;
  int peak_step = 0;
  LoadMetric peak_metric = LoadMetric::kCpu;
  // The peak of each judged metric (CPU first; memory when the SEs have memory samples;
  // throughput when the workload states throughput and the SEs have bandwidth samples).
  std::vector<MetricPeak> peaks;
  std::string load_basis;          // "measured" (the Controller's samples), "declared", or "none"
  std::vector<std::string> notes;  // e.g. vs_scalein_timeout cutting long-lived connections
};

// Computes the decision (see the file comment). Pure and deterministic.
RollDecision DecideRoll(const RollInput& input);

// "Apply will roll 2 SEs", "Rollout refused by the capacity guard", "" for kNothing.
std::string DecisionSummary(const RollDecision& decision);

// The decision in lines, for the plan's detail, the dry run and Ansible: what the roll does
// (DescribeRollout), each step's moves and predicted loads, each guard's verdict and figures, the
// notes, and for a refusal its message.
std::vector<std::string> DescribeDecision(const RollDecision& decision, const RollInput& input);

// What apply compares with the plan's: the verdict, the guard that refuses, and each SE to roll
// with what happens to it ("roll:checkout-se-1=replace,checkout-se-2=replace"). Figures are left
// out: a load that moved a little between plan and apply is not a change of decision.
std::string DecisionFingerprint(const RollDecision& decision);

// The decision as JSON, for the CLI's and Ansible's output: {verdict, summary, refused_by,
// refusal, peak_pct, peak_se, peak_step, peak_metric ("cpu", "memory", "throughput"; "" without a
// peak), peaks: [{metric, pct, se, step}], load_basis, ses: [{name, action}], steps: [{number,
// leaving, moves: [{vs, from, to, to_new_se}], created, unplaced, loads: [{name, vcpus,
// memory_mb, cpu_pct, mem_pct (null when memory is not judged), throughput_gbps,
// throughput_capacity_gbps, throughput_pct (the three null when throughput is not judged),
// gained, is_new}]}], guards: [{guard, passed, figures}], notes, fingerprint}.
nlohmann::json DecisionJson(const RollDecision& decision);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLL_DECISION_H_
