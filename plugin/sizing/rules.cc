// One line of documentation per rule; docs/sizing.md has the long form.
#include "plugin/sizing/rules.h"

#include "absl/strings/str_cat.h"
#include "plugin/common/limits.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::sizing::rules {

const std::vector<RuleDoc>& AllRules() {
  static const std::vector<RuleDoc> kRules = {
      {kInterpolate,
       "derived: seeds measure 1, 2, 4 and 6 vCPUs; 000 'CPU scales very linearly'",
       "At 3 and 5 vCPUs a figure is the midpoint of its measured neighbours.",
       {"vcpus_per_se"}},
      {kExtrapolateCpu,
       "derived: 000 'CPU scales very linearly as more cores are added'",
       "Above 6 vCPUs SSL TPS, RPS and CPS grow by half the 4-to-6-vCPU difference per vCPU.",
       {"vcpus_per_se", "workload.max_vcpus_per_se"}},
      {kHoldThroughput,
       "000 'the hypervisor is likely going to be the bottleneck' (PPS); 001 NIC",
       "Above 6 vCPUs throughput stays at the 6-vCPU figure.",
       {"vcpus_per_se", "workload.l4_gbps", "workload.l7_gbps", "workload.l7_ssl_gbps"}},
      {kTableMemory,
       "derived: the tables' memory per size",
       absl::StrCat("Memory for a size is the table's; interpolated at 3 and 5, extrapolated at "
                    "the 4-to-6 rate above 6 vCPUs (at most ",
                    kMaxMemoryMb / kMbPerGb, " GB)."),
       {"memory_per_se"}},
      {kOpenConnsMemory,
       "000 'Doubling the memory will double the ability ... concurrent "
       "connections'; table note 8",
       "Open connections scale linearly with memory, relative to the table memory of the size.",
       {"memory_per_se", "workload.l4_open_conns"}},
      {kOpenConnsDensity,
       "derived: no open-connection figure above 6 vCPUs",
       "Above 6 vCPUs open connections per GB stay at the 6-vCPU density.",
       {"memory_per_se", "workload.l4_open_conns"}},
      {kCrossProfile,
       "001 publishes no open connections",
       "nsxt uses vcenter's open-connection figure for the same vCPUs, scaled by nsxt memory.",
       {"workload.l4_open_conns"}},
      {kTargetUtilization,
       "Avi max_cpu_usage default 80 (SE group scales out there)",
       "Capacity counts only up to the target utilization: needed = demand / utilization.",
       {"workload.target_utilization"}},
      {kCpuBudget,
       "000 'CPU scales very linearly as more cores are added. CPU is a primary factor in SSL "
       "handshakes (TPS), throughput, compression, and WAF inspection'; Avi's SSL sizing adds "
       "TPS cores and throughput cores",
       "The CPU-bound metrics (ECC and RSA SSL TPS, L7 RPS, L4 CPS, L7 SSL throughput) share one "
       "budget per SE: the sum of demand per SE over capacity must be within the target. L4 and "
       "L7 throughput and open connections are judged each alone.",
       {"vcpus_per_se", "se_count", "workload.target_utilization"}},
      {kSmallestSingleSe,
       "derived: licences are per core, so the fewest vCPUs that carry the workload",
       "The smallest single SE, up to max_vcpus_per_se, that carries every demanded metric.",
       {"vcpus_per_se", "workload.max_vcpus_per_se"}},
      {kSmallestAtLeastCount,
       "derived: the HA mode or the virtual-service slots ask for more than one active SE",
       "The smallest SE, up to max_vcpus_per_se, with which the least active count carries the "
       "workload.",
       {"vcpus_per_se", "se_count"}},
      {kFewestSes,
       "derived: one SE where one suffices, then per-core licences",
       "If no single SE does, the fewest SEs of max_vcpus_per_se, then the fewest vCPUs per SE "
       "with which that many SEs still carry the demand.",
       {"vcpus_per_se", "se_count", "workload.max_vcpus_per_se"}},
      {kVsSlots,
       "Avi max_vs_per_se (default 10): virtual services placed per SE",
       "Active SEs are at least enough for workload.virtual_services, each placed on "
       "min_scaleout_per_vs SEs, at max_vs_per_se per SE.",
       {"max_se", "max_vs_per_se", "workload.virtual_services"}},
      {kMinScaleout,
       "derived: Avi min_scaleout_per_vs places each virtual service on that many SEs",
       "One virtual service: on every active SE. Several: ceil(active / virtual services), at "
       "least 2 in active/active; 1 in legacy active/standby.",
       {"min_scaleout_per_vs"}},
      {kMemoryForConns,
       "000 'Doubling the memory will double ...'",
       "Memory is raised in whole GB until open connections are carried.",
       {"memory_per_se", "workload.l4_open_conns"}},
      {kMemoryAtMostTwice,
       "000 'Doubling the memory will double the ability ... concurrent connections': the seed "
       "claims a doubling, no more; 1C/2G and 2C/2G differ at the same memory",
       "A recommendation raises memory to at most twice the table memory of the size; beyond "
       "that it takes a larger size (up to max_vcpus_per_se), then more SEs.",
       {"memory_per_se"}},
      {kDisk,
       "000 '10 GB, ((2 * RAM) + 5 GB) or 15 GB, whichever is greater'",
       "disk_per_se at least max(15, 2 x RAM in GB + 5).",
       {"disk_per_se"}},
      {kDiskTested,
       "000 table row 'SE Disk'",
       "On vcenter, not below the tested disk of the size (interpolated at 3 and 5 vCPUs, 40 GB "
       "above 6).",
       {"disk_per_se"}},
      {kReserve,
       "000 'vCPU reservation is highly recommended'; memory reserved on NSX-T",
       "cpu_reserve and mem_reserve true.",
       {"cpu_reserve", "mem_reserve"}},
      {kDispatchersMeasured,
       "000 note 10; 001 note 10",
       "1-2 vCPUs no dedicated dispatcher; 4 vCPUs one; 6 vCPUs two.",
       {"dedicated_dispatcher_core", "num_dispatcher_cores"}},
      {kDispatchersL4,
       "000 note 9 'L4 Throughput on SEs with 4 core or more tested with 2 "
       "dispatcher cores'",
       "On vcenter at 4 or more vCPUs, at least two dispatchers when L4 throughput binds.",
       {"num_dispatcher_cores", "workload.l4_gbps"}},
      {kDispatchersRatio,
       "derived from the measured 1 of 4 and 2 of 6",
       absl::StrCat("Elsewhere: none below 4 vCPUs, else vCPUs / 3 rounded down, snapped down to ",
                    AllowedCoreCountsText(" or "), "."),
       {"dedicated_dispatcher_core", "num_dispatcher_cores"}},
      {kQueuesAuto,
       "001 note 11 'Maximum queues per vNIC needs to be set to zero' (NSX-T; cross-profile on "
       "vcenter: seed 000 says nothing about queues)",
       "max_queues_per_vnic = 0 (auto).",
       {"max_queues_per_vnic"}},
      {kQueuesNsxt,
       "001 note 11 'set to two for 6 Core/ 12 GB RAM'",
       "max_queues_per_vnic = 2 for nsxt at 6 or more vCPUs.",
       {"max_queues_per_vnic"}},
      {kHybridRss,
       "001 note 9 '2Core SE has Hybrid RSS enabled'",
       "hybrid_rss_mode = true for nsxt at 2 vCPUs.",
       {"hybrid_rss_mode"}},
      {kMaxSe,
       "Avi buffer_se (N+M HA)",
       "max_se = active SEs + buffer_se.",
       {"max_se", "buffer_se"}},
      {kActiveActive,
       "Avi HA_MODE_SHARED_PAIR: every virtual service on at least two SEs, no buffer",
       "At least 2 active SEs, max_se = the active SEs, and with one SE lost the rest carry the "
       "workload within 100% of their capacity.",
       {"max_se", "se_count", "ha_mode"}},
      {kLegacyOneActive,
       "Avi HA_MODE_LEGACY_ACTIVE_STANDBY: one active SE and one standby, no scale-out",
       "One active SE, max_se = 2; a workload one SE of max_vcpus_per_se cannot carry is "
       "reported, with what another mode would need.",
       {"max_se", "vcpus_per_se", "ha_mode"}},
      // The licence rules: what the planned group costs (sizing.service_units), and the one shape
      // limit of per-app mode.
      {kServiceUnitsPerSe,
       "VMware NSX ALB 22.1 Administration Guide: 'By default, an eight-core SE will consume eight "
       "Service Units licenses', with max_num_se_dps = 4 'only four', 'Hyper-threaded cores are "
       "not accounted for licensing' (GUID-6805AC82); per-app SE mode counts each vCPU at 25% "
       "(GUID-F8735A29)",
       absl::StrCat("One SU per data-path process: an SE's vCPUs, or max_num_se_dps when it is "
                    "set and smaller; times ",
                    kPerAppServiceUnitsPerVcpu, " when per_app is true."),
       {"max_num_se_dps", "per_app"}},
      {kServiceUnitsAtPlannedScale,
       "derived: every running SE consumes its SUs (VMware NSX ALB 22.1 Administration Guide, "
       "GUID-82244519: licences are consumed by SEs); the SEs are the planned max_se",
       "SUs of the group = SUs per SE x the SEs the plan sets max_se to (active + buffer_se in "
       "N+M, the active SEs in active/active, 2 in legacy active/standby).",
       {"max_se"}},
      {kPerAppTwoVsPerSe,
       "VMware NSX ALB 22.1 Administration Guide, per-app SE mode (GUID-F8735A29): each SE is "
       "limited to 2 virtual services; Avi per_app",
       absl::StrCat("With per_app = true, max_vs_per_se is at most ", kPerAppMaxVsPerSe,
                    " (an error above it) and is planned ", kPerAppMaxVsPerSe, " when unset."),
       {"max_vs_per_se", "per_app"}},
      {kRps160k,
       "000 'Maximum RPS on the Service Engine virtual machine running on ESXi will be "
       "approximately 160k'",
       absl::StrCat("Warn when a vcenter plan puts more than ", FormatInt(kEsxiMaxRpsPerSe),
                    " L7 RPS on one SE."),
       {"vcpus_per_se", "workload.l7_rps"}},
      {kScaleoutLimit,
       "Avi max_scaleout_per_vs default 4",
       "Warn when one virtual service would need more SEs than max_scaleout_per_vs.",
       {"max_scaleout_per_vs"}},
      {kUnderDelivery,
       "the seed tables",
       "Warn when the SEs deliver less than demand / target utilization of a metric judged "
       "alone, or when the CPU budget is over the target (the finding names the sum and each "
       "part).",
       {"vcpus_per_se", "memory_per_se", "se_count"}},
      {kOverProvisioning,
       "derived: licences are per core",
       "Warn when the settings give at least twice the vCPUs the workload needs.",
       {"vcpus_per_se"}},
      {kMemoryMin2048,
       "Avi memory_per_se range 2048-262144 from 30.1",
       absl::StrCat("Warn when memory_per_se is under ", kControllerMinMemoryMb, " MB."),
       {"memory_per_se"}},
      {kQueuesNotOne,
       "001 note 11 'The default value of this setting is one' (NSX-T; cross-profile on vcenter, "
       "and the finding says so)",
       "Warn when max_queues_per_vnic = 1 at 4 or more vCPUs.",
       {"max_queues_per_vnic"}},
      {kHaModeSettings,
       "Avi ha_mode semantics",
       "Warn when a setting contradicts the HA mode: fewer than 2 SEs per virtual service in "
       "active/active; more than one active SE, or max_se other than 2, in legacy "
       "active/standby.",
       {"ha_mode", "se_count", "max_se"}},
      {kTargetWithinMaxCpuUsage,
       "Avi max_cpu_usage: the CPU at which the SE group rebalances and scales out (40-90, "
       "default 80)",
       "The target utilization follows max_cpu_usage when the workload sets none; a target above "
       "max_cpu_usage warns, since the group scales out before the SEs reach the planned load.",
       {"max_cpu_usage", "workload.target_utilization"}},
      // The observed-load rules decide no attribute of the resource or the sizing data source:
      // they are listed in docs/sizing.md ("Observed load"), and their findings name the
      // workload key they concern.
      {kUsageStep,
       "Avi analytics steps 300, 3600, 86400 (alb-sdk docs/metrics_query.html)",
       absl::StrCat("The usage step is 300 s for windows up to 7 days and 3600 s beyond, so a "
                    "series holds at most ",
                    FormatInt(limits::kMaxUsagePointsPerSeries),
                    " points; the request asks for window / step of them."),
       {}},
      {kUsagePointsCapped,
       "plugin/common/limits.h kMaxUsagePointsPerSeries",
       absl::StrCat("A series with more than ", FormatInt(limits::kMaxUsagePointsPerSeries),
                    " valid points keeps its most recent ones, and the report says so."),
       {}},
      {kUsageGroupSum,
       "derived: Avi has no SE-group metrics entity",
       "The group's load at a timestamp is the sum of its SEs' points at that timestamp; its "
       "peak is the peak of that sum, not the sum of the per-SE peaks.",
       {}},
      {kUsageCpuHighestSe,
       "derived: se_stats.avg_cpu_usage is per SE, and Avi scales out on one SE's CPU",
       "The observed CPU is the highest CPU of any one SE, not a sum or a mean.",
       {}},
      {kUsageStatistic,
       "derived: nearest-rank percentile",
       "max is the largest point; p99 and p95 the point at rank ceil(p / 100 x n) of the n "
       "points sorted ascending. Its time is the earliest point with that value.",
       {}},
      {kHandshakeSplit,
       "Avi l7_client.avg_ssl_handshakes_new does not split ECC and RSA",
       "Observed handshakes are split in the declared workload's ECC:RSA proportion; without "
       "declared handshakes all are RSA (the costlier, so the conservative side). Calibration and "
       "recommendation use the same split.",
       {}},
      {kThroughputKind,
       "Avi l4_client.avg_bandwidth is client-facing virtual-service throughput of any kind",
       "Observed throughput is taken as the declared throughput kind (l7_ssl_gbps, then l7_gbps, "
       "then l4_gbps); undeclared, as l7_ssl_gbps when handshakes are seen, else l4_gbps.",
       {}},
      {kCalibrate,
       "derived: one-cpu-budget-per-se against se_stats.avg_cpu_usage",
       "At each timestamp where an SE's CPU and its virtual-service rates are both known, the "
       "ratio of the observed CPU to the model's CPU for those rates on one SE of its real size; "
       "the median over the samples the model puts at 20% or more.",
       {}},
      {kCalibrationRaises,
       "derived: the tables were measured on other hardware",
       "A calibration ratio above 1 multiplies the observed CPU-bound demand (SSL TPS, L7 RPS, "
       "L4 CPS, L7 SSL throughput) before the recommendation; a ratio below 1 is reported and "
       "never used to shrink a group.",
       {}},
      {kUsageNoSes, "derived", "A group with no SEs has no observed load.", {}},
      {kAnalyticsUnavailable,
       "derived: a plan must not fail because analytics are off or denied",
       "A metrics call that fails (403, 404, 5xx, no connection) is a warning; the plan goes on "
       "without the observed load.",
       {}},
      {kFewerSamples,
       "derived",
       "Warn when the window holds fewer samples than window / step: a peak may be missing.",
       {}},
      {kBadPoints,
       "derived: outside input is checked",
       "Points that are null, not a number, negative, NaN, absurd (CPU over 100%), duplicated or "
       "outside the window are dropped, with a warning naming the first JSON path.",
       {}},
      {kObservedAboveDeclared,
       "the Controller's analytics",
       "Warn (an under-sizing) when an observed peak is above the declared workload.",
       {}},
      {kObservedCpuAboveTarget,
       "Avi max_cpu_usage: the CPU at which the group rebalances and scales out",
       "Warn (an under-sizing) when an SE's observed CPU exceeded the group's target.",
       {}},
      {kCalibrationUnderSized,
       "derived: calibrate-cpu-to-observed",
       "Warn (an under-sizing) when the declared CPU-bound demand times a calibration ratio "
       "above 1 is not carried by the planned SEs.",
       {}},
      {kServiceUnitsNow,
       "derived: service-units-per-se; every running SE consumes its SUs",
       "The SUs a group consumes now: the sum over its SEs, as the Controller lists them, of "
       "service-units-per-se at each SE's real vCPUs with the group's max_num_se_dps and per_app.",
       {}},
      {kReclaimNeedsHalfTheSamples,
       "derived: a peak among missing samples is not seen",
       "No SUs are called reclaimable from a window holding fewer than half the samples it "
       "should (usage-fewer-samples-than-window); the reason is given instead.",
       {}},
      {kObservedCapacityUnused,
       "derived: service-units-now against the observed load's recommendation",
       "Warn when the recommendation from the observed load needs at least 25% and at least 2 "
       "SUs fewer than the group consumes now. Never an error: an over-sized group is waste, not "
       "a risk. The recommendation keeps the HA mode's minimum (buffer SE, pair, standby).",
       {"vcpus_per_se", "max_se", "min_scaleout_per_vs", "workload"}},
      {kObservedCpuFloor,
       "derived: the SEs' own CPU (se_stats.avg_cpu_usage)",
       "A recommendation from observed load never carries less CPU than the group used: the "
       "vCPUs its SEs used at their peak (per timestamp, the sum of CPU% x vCPUs) must fit the "
       "recommended active SEs at or below the target, calibrated or not; else the CPU-bound "
       "demand is raised and sized again. Nothing is reclaimable from a group at risk, or whose "
       "recommendation still misses the floor; the reason says so.",
       {}},
      {kForecastDailyPeaks,
       "derived",
       "The forecast reads the peak of each complete 24-hour period ending at the last sample "
       "(period k is (last - (k+1) x 24h, last - k x 24h]; complete when the window covers it, "
       "all but at most its first hour, and it holds a sample) in the window (7 days or more) "
       "of the binding measure: the highest SE's CPU, and each CPU-bound rate as a share of the "
       "capacity of the SEs the group runs. 7 days of data make 7 peaks.",
       {}},
      {kForecastNeedsSevenDays, "derived", "No forecast from fewer than 7 daily peaks.", {}},
      {kForecastLeastSquares,
       "derived",
       "A least-squares line through the daily peaks (x = the days since the first period "
       "ended, y = its peak).",
       {}},
      {kForecastFitRSquared,
       "derived",
       "No forecast when the line explains less than half of the variance of the daily peaks "
       "(R² below 0.5), nor when its slope is 0 or below.",
       {}},
      {kForecastDaysToTarget,
       "derived",
       "The whole days from the last sample until the line reaches the target (max_cpu_usage "
       "or the workload's target_utilization), rounded down; 0 when it is already there.",
       {}},
      {kForecastAtMost365Days, "derived", "No forecast beyond 365 days.", {}},
      {kForecastReachesTarget,
       "derived: forecast-days-to-target",
       "Warn at the workload when the forecast reaches the target within observed_load's "
       "forecast_days (default 30). Never an error: a forecast is not a measurement.",
       {"workload"}},
      {kEstateRequestsBounded,
       "derived",
       "An estate is read with one paged listing each of its clouds, SE groups and SEs, one GET of "
       "the licence ledger, and its metrics in collection requests of at most 128 "
       "metric_requests (a group is never split), never a request per group or per SE.",
       {}},
      {kEstateGroupAtRisk,
       "derived: forecast-days-to-target",
       "A group of an estate is at risk when one of its SEs ran above the group's target in the "
       "window, or its forecast reaches the target within forecast_days (default 30).",
       {}},
      {kEstateGroupNotAnalysed,
       "derived",
       "A group whose sizing profile or settings the analysis cannot read is listed with the "
       "reason and no figures; the other groups of the estate keep theirs.",
       {}},
      {kSesBehindSettings,
       "derived: the vendor's swagger (vcpus_per_se, memory_per_se: \"Changes to this setting do "
       "not affect existing SEs\"; 38 fields \"Requires SE Reboot\") and the SE group guide",
       "A change of a field whose class (docs/controller-fields.md) is new-ses-only or "
       "after-se-reboot does not reach the group's running SEs: an SE whose vCPUs, memory or disk "
       "differ from vcpus_per_se, memory_per_se or disk_per_se keeps its shape until it is "
       "replaced, and an SE keeps the old value of an after-se-reboot field until it reboots. "
       "Reported as a warning, under every sizing_policy, at each such field's line (at the "
       "workload's when the sizing plans the field), in the plan that makes the change and in "
       "every later plan while an SE lags; a group whose SEs all match says nothing.",
       {}},
      {kUtilizationAtRunningShape,
       "derived: the same model and rules as the plan",
       "The group's utilization at the running SEs' real shape: the declared workload on the "
       "plan's active SEs (at most as many as run) of the smallest lagging SE's vCPUs and memory "
       "(a virtual service is spread evenly, so the smallest SE binds), under the group's HA mode, "
       "as the plan judges its own shape.",
       {}},
      {kServiceUnitsOfRunningSes,
       "derived: service-units-per-se",
       "The Service Units the running SEs consume (each SE's own vCPUs) and what the same SEs "
       "consume once replaced at the planned vcpus_per_se; sizing.service_units stays the "
       "planned figure.",
       {}},
      {kRolloutPlanned,
       "derived: the SE group guide (a change may \"require existing SEs to first be disabled "
       "before the changes can take effect\")",
       "With rollout.strategy = \"rolling\", a plan of a group whose running SEs lag its "
       "settings is an update even when the settings are unchanged, and warns at "
       "rollout.strategy what apply will do: which SEs are replaced (new-ses-only) or rebooted "
       "(after-se-reboot), how many at a time, and the shape they go to. With \"none\" the plan "
       "stays as it was.",
       {}},
      {kRolloutCapacityWithSesOut,
       "derived: utilization-at-running-shape",
       "Before the roll touches an SE, the SEs left with rollout.max_unavailable of them out, at "
       "the smallest running SE's real shape, must carry the declared workload at or below the "
       "group's target (max_cpu_usage, else 80%) under its HA mode, and must be at least the HA "
       "mode's minimum; otherwise apply refuses with the figures before any SE write.",
       {}},
      {kRollDecidedInPlan,
       "derived: the plan is the contract",
       "The roll's decision (which SEs, in which order, replace or reboot, each guard's verdict, "
       "where each leaving SE's virtual services go, the predicted peak) is computed in the plan "
       "from the group, its running SEs, the load they carry now, the licence pool, the cloud and "
       "the Controller's upgrade state. A roll that would be refused is a warning at "
       "rollout.strategy (an error under sizing_policy = \"enforce\"), and apply then writes "
       "the group's settings only. Apply computes the decision again on fresh reads before the "
       "first SE write and stops, touching no SE, when it changed.",
       {}},
      {kRollPlacementAsController,
       "avi-se-lifecycle.md section 6 (ServiceEngineGroup.algo, max_vs_per_se, "
       "min_scaleout_per_vs, max_se)",
       "A leaving SE's virtual services are placed as the Controller places them: packed, on the "
       "enabled SE with the most virtual services that has room (max_vs_per_se); distributed, on "
       "a new SE while the group has fewer than max_se SEs, else the least loaded; with no room, "
       "on a new SE at the group's current settings while the group (the leaving SEs included) "
       "has fewer than max_se and the cloud creates SEs; else nowhere (MIGRATE_SE_FAILED). A "
       "replacement roll is refused when a step would create no replacement, or leave a virtual "
       "service without a place.",
       {}},
      {kRollLoadSharedEvenly,
       "assumption (UNCONFIRMED: the Controller reports CPU and memory per SE, not per virtual "
       "service)",
       "An SE's measured CPU and memory (and its throughput, when judged) are each shared evenly "
       "by the virtual services it hosts; each SE's figure is the peak of its samples over the "
       "window, so adding peaks of different SEs is conservative. An SE without samples of a "
       "metric counts as the busiest SE with samples of it; when no SE of the group has memory "
       "samples, the guard judges CPU only and says so.",
       {}},
      {kRollLoadScalesWithVcpus,
       "assumption (UNCONFIRMED; the tables scale close to linearly per vCPU)",
       "A virtual service's share keeps its vCPU-seconds when it moves: on an SE of other size "
       "its percentage is scaled by the ratio of the vCPUs. A roll is refused when a step would "
       "put an SE it moves load onto over the target (max_cpu_usage, else 80%); an SE already "
       "over the target that takes nothing does not refuse it.",
       {}},
      {kRollMemoryScalesWithMemory,
       "000 'Doubling the memory will double the ability ... concurrent connections' (open "
       "connections scale with memory); the share of se_stats.avg_mem_usage that moves is "
       "UNCONFIRMED",
       "A virtual service's share of an SE's memory (se_stats.avg_mem_usage, percent of the SE's "
       "memory) keeps its megabytes when it moves: on an SE of other memory its percentage is "
       "scaled by the ratio of the SEs' memory, not their vCPUs. The whole of the SE's figure is "
       "taken to move with its virtual services, though part of it is the SE's own (the safer "
       "prediction), and memory is held to the same target as CPU (max_cpu_usage, else 80%; the "
       "group has no memory threshold). A roll is refused when a step would put the memory of an "
       "SE it moves load onto over the target; the refusal names memory. An SE whose memory the "
       "Controller does not give weighs as the smallest memory known.",
       {}},
      {kRollThroughputKeepsItsBits,
       "000 note 4 'Throughput measurements are virtual service throughput, calculated by "
       "aggregating the client-facing traffic only. Total throughput on the Service Engine is "
       "approximately double.'; Avi se_if.avg_bandwidth is BITS_PER_SECOND per interface (its sum "
       "over an SE's interfaces is UNCONFIRMED)",
       "Throughput is judged only when the workload declares l4_gbps, l7_gbps or l7_ssl_gbps. An "
       "SE's throughput capacity is the least, over the declared kinds, of the model's capacity of "
       "an SE of its vCPUs on the group's platform (the Controller's bits per second do not say "
       "their kind). Its measured throughput is se_if.avg_bandwidth, every series the Controller "
       "gives for the SE summed per timestamp: every interface, client- and server-facing, so up "
       "to about double the client-facing traffic the capacity measures (the safer side: a "
       "figure may be overstated, never understated). A virtual service's share keeps its bits "
       "per second when it moves: on an SE of other vCPUs its percentage is scaled by the ratio "
       "of the capacities. It is held to the same target as CPU (max_cpu_usage, else 80%); a roll "
       "is refused when a step would put the throughput of an SE it moves load onto over it, and "
       "the refusal names throughput in Gbps and percent.",
       {}},
      {kLicenseUnitsShort,
       "derived: service-units-at-planned-scale, the Controller's licence ledger",
       "Warn (an error under sizing_policy = \"enforce\" in a plan that creates or changes the "
       "group) when the Service Units a plan adds (the planned service_units, or without a "
       "workload max_se x service-units-per-se at vcpus_per_se, the Controller's 10 and 1 when "
       "unset; minus what the group's running SEs consume, per the ledger) exceed the remaining "
       "units of the group's tier: the Controller would refuse the SEs beyond it.",
       {"vcpus_per_se", "max_se", "workload"}},
      {kLicenseTierOfGroup,
       "swagger ServiceEngineGroup.license_tier",
       "A group draws on its license_tier, else its cloud's license_tier, else ENTERPRISE.",
       {}},
      {kLicenseUnitsFromLedger,
       "swagger LicenseLedgerDetails.se_infos",
       "A group's SUs now are the sum of its SEs' service_cores in the ledger; the derivation from "
       "vCPUs (service-units-now) is shown beside it, with a note where they differ.",
       {}},
      {kLicenseRemainingAfterReclaim,
       "derived: observed-capacity-unused",
       "A tier's remaining units after reclaim are its remaining units plus the reclaimable units "
       "of the groups that draw on it.",
       {}},
      {kRangeVcpus,
       "000 'a minimum of 1 vCPU core ... up to a maximum of 64 vCPU cores'",
       absl::StrCat("vcpus_per_se must be ", VcpuRangeText(), "."),
       {"vcpus_per_se"}},
      {kRangeMemory,
       "000 '1 GB RAM up to a maximum of ... 256 GB RAM'",
       absl::StrCat("memory_per_se must be ", MemoryRangeText(), " MB."),
       {"memory_per_se"}},
      {kAllowedValues,
       "Avi num_dispatcher_cores and max_queues_per_vnic",
       absl::StrCat("num_dispatcher_cores and max_queues_per_vnic must be ",
                    AllowedCoreCountsText(" or "), "."),
       {"num_dispatcher_cores", "max_queues_per_vnic"}},
      {kDispatchersFewer,
       "derived: an SE needs a proxy core",
       "num_dispatcher_cores must be fewer than vcpus_per_se.",
       {"num_dispatcher_cores"}},
      {kInputRange,
       "Avi field ranges",
       absl::StrCat("Workload inputs: demand >= 0; target utilization ", kMinTargetUtilizationPct,
                    "-", kMaxTargetUtilizationPct, " (max_cpu_usage); max_vcpus_per_se ",
                    VcpuRangeText(), "; buffer_se 0-", kMaxSeCount, "; max_scaleout_per_vs 1-",
                    kMaxScaleoutPerVs, "; se_count 1-", kMaxSeCount,
                    "; disk_per_se >= 1; "
                    "max_vs_per_se 1-",
                    kMaxVsPerSe, "; max_cpu_usage ", kMinTargetUtilizationPct, "-",
                    kMaxTargetUtilizationPct, "; virtual_services 1-",
                    FormatInt(kMaxVirtualServices), "."),
       {"workload.target_utilization", "workload.max_vcpus_per_se", "buffer_se",
        "max_scaleout_per_vs", "se_count", "disk_per_se", "max_vs_per_se", "max_cpu_usage",
        "workload.virtual_services"}},
  };
  return kRules;
}

bool IsUnderSizing(const std::string& rule) {
  return rule == kUnderDelivery || rule == kActiveActive || rule == kLegacyOneActive ||
         rule == kVsSlots || rule == kObservedAboveDeclared || rule == kObservedCpuAboveTarget ||
         rule == kCalibrationUnderSized;
}

}  // namespace nsxalb::sizing::rules
