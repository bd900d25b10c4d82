// One line of documentation per rule; README.md ("How sizing works") has the long form.
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing::rules {

const std::vector<RuleDoc>& AllRules() {
  static const std::vector<RuleDoc> kRules = {
      {kInterpolate, "derived: seeds measure 1, 2, 4 and 6 vCPUs; 000 'CPU scales very linearly'",
       "At 3 and 5 vCPUs a figure is the midpoint of its measured neighbours."},
      {kExtrapolateCpu, "derived: 000 'CPU scales very linearly as more cores are added'",
       "Above 6 vCPUs SSL TPS, RPS and CPS grow by half the 4-to-6-vCPU difference per vCPU."},
      {kHoldThroughput, "000 'the hypervisor is likely going to be the bottleneck' (PPS); 001 NIC",
       "Above 6 vCPUs throughput stays at the 6-vCPU figure."},
      {kTableMemory, "derived: the tables' memory per size",
       "Memory for a size is the table's; interpolated at 3 and 5, extrapolated at the 4-to-6 "
       "rate above 6 vCPUs (at most 256 GB)."},
      {kOpenConnsMemory,
       "000 'Doubling the memory will double the ability ... concurrent "
       "connections'; table note 8",
       "Open connections scale linearly with memory, relative to the table memory of the size."},
      {kOpenConnsDensity, "derived: no open-connection figure above 6 vCPUs",
       "Above 6 vCPUs open connections per GB stay at the 6-vCPU density."},
      {kCrossProfile, "001 publishes no open connections",
       "nsxt uses vcenter's open-connection figure for the same vCPUs, scaled by nsxt memory."},
      {kTargetUtilization, "Avi max_cpu_usage default 80 (SE group scales out there)",
       "Capacity counts only up to the target utilization: needed = demand / utilization."},
      {kSmallestSingleSe, "issue 3",
       "The smallest single SE, up to max_vcpus_per_se, that carries every demanded metric."},
      {kFewestSes, "issue 3 and derived",
       "If no single SE does, the fewest SEs of max_vcpus_per_se, then the fewest vCPUs per SE "
       "with which that many SEs still carry the demand."},
      {kMemoryForConns, "000 'Doubling the memory will double ...'",
       "Memory is raised in whole GB until open connections are carried."},
      {kMemoryAtMostTwice,
       "000 'Doubling the memory will double the ability ... concurrent connections': the seed "
       "claims a doubling, no more; 1C/2G and 2C/2G differ at the same memory",
       "A recommendation raises memory to at most twice the table memory of the size; beyond "
       "that it takes a larger size (up to max_vcpus_per_se), then more SEs."},
      {kDisk, "000 '10 GB, ((2 * RAM) + 5 GB) or 15 GB, whichever is greater'",
       "disk_per_se at least max(15, 2 x RAM in GB + 5)."},
      {kDiskTested, "000 table row 'SE Disk'",
       "On vcenter, not below the tested disk of the size (interpolated at 3 and 5 vCPUs, 40 GB "
       "above 6)."},
      {kReserve, "000 'vCPU reservation is highly recommended'; memory reserved on NSX-T",
       "cpu_reserve and mem_reserve true."},
      {kDispatchersMeasured, "000 note 10; 001 note 10",
       "1-2 vCPUs no dedicated dispatcher; 4 vCPUs one; 6 vCPUs two."},
      {kDispatchersL4,
       "000 note 9 'L4 Throughput on SEs with 4 core or more tested with 2 "
       "dispatcher cores'",
       "On vcenter at 4 or more vCPUs, at least two dispatchers when L4 throughput binds."},
      {kDispatchersRatio, "derived from the measured 1 of 4 and 2 of 6",
       "Elsewhere: none below 4 vCPUs, else vCPUs / 3 rounded down, snapped down to "
       "0, 1, 2, 4, 8 or 16."},
      {kQueuesAuto, "001 note 11 'Maximum queues per vNIC needs to be set to zero'",
       "max_queues_per_vnic = 0 (auto)."},
      {kQueuesNsxt, "001 note 11 'set to two for 6 Core/ 12 GB RAM'",
       "max_queues_per_vnic = 2 for nsxt at 6 or more vCPUs."},
      {kHybridRss, "001 note 9 '2Core SE has Hybrid RSS enabled'",
       "hybrid_rss_mode = true for nsxt at 2 vCPUs."},
      {kMaxSe, "Avi buffer_se (N+M HA)", "max_se = active SEs + buffer_se."},
      {kRps160k,
       "000 'Maximum RPS on the Service Engine virtual machine running on ESXi will be "
       "approximately 160k'",
       "Warn when a vcenter plan puts more than 160,000 L7 RPS on one SE."},
      {kScaleoutLimit, "Avi max_scaleout_per_vs default 4",
       "Warn when one virtual service would need more SEs than max_scaleout_per_vs."},
      {kUnderDelivery, "the seed tables",
       "Warn when the SEs deliver less than demand / target utilization of a metric."},
      {kOverProvisioning, "derived: licences are per core",
       "Warn when the settings give at least twice the vCPUs the workload needs."},
      {kMemoryMin2048, "Avi memory_per_se range 2048-262144 from 30.1",
       "Warn when memory_per_se is under 2048 MB."},
      {kQueuesNotOne, "001 note 11 'The default value of this setting is one'",
       "Warn when max_queues_per_vnic = 1 at 4 or more vCPUs."},
      {kRangeVcpus, "000 'a minimum of 1 vCPU core ... up to a maximum of 64 vCPU cores'",
       "vcpus_per_se must be 1-64."},
      {kRangeMemory, "000 '1 GB RAM up to a maximum of ... 256 GB RAM'",
       "memory_per_se must be 1024-262144 MB."},
      {kAllowedValues, "Avi num_dispatcher_cores and max_queues_per_vnic",
       "num_dispatcher_cores and max_queues_per_vnic must be 0, 1, 2, 4, 8 or 16."},
      {kDispatchersFewer, "derived: an SE needs a proxy core",
       "num_dispatcher_cores must be fewer than vcpus_per_se."},
      {kInputRange, "Avi field ranges",
       "Workload inputs: demand >= 0; target utilization 40-90 (max_cpu_usage); "
       "max_vcpus_per_se 1-64; buffer_se 0-1000; max_scaleout_per_vs 1-64; se_count 1-1000; "
       "disk_per_se >= 1."},
  };
  return kRules;
}

}  // namespace nsxalb::sizing::rules
