# An SE group sized from the workload it must carry. Sizing attributes left unset (vcpus_per_se,
# memory_per_se, disk_per_se, dispatchers, queues, ...) are planned to the model's recommendation
# and shown as known values in `terraform plan`; `sizing.summary` says why.
resource "nsxalb_se_group" "web" {
  name  = "web-se-group"
  cloud = "nsxt-cloud" # platform "nsxt" is derived from the cloud's type

  workload {
    l7_rps      = 150000
    ssl_tps_ecc = 8000
  }

  # Once the group runs, compare the plan with what its SEs really carried over the last 7 days
  # (the Controller's analytics): the plan warns at the workload line when they carried more.
  observed_load {
    window = "7d"
  }

  # A resize reaches running SEs only when they are replaced: apply replaces them one at a time,
  # after checking that the SEs left carry the workload and that the licence covers a replacement.
  rollout {
    strategy = "rolling"
  }
}

# A hand-sized group checked against its workload: 2 vCPUs cannot carry 8,000 ECC TPS on vCenter,
# so `terraform plan` warns at the vcpus_per_se line (or fails, with sizing_policy = "enforce").
resource "nsxalb_se_group" "tls_edge" {
  name          = "tls-edge"
  platform      = "vcenter"
  vcpus_per_se  = 2
  sizing_policy = "warn"

  workload {
    ssl_tps_ecc = 8000
  }

  # Fields this resource does not type: checked against the Controller's field catalog.
  extra_fields = jsonencode({
    se_deprovision_delay = 5
  })
}

output "web_sizing" {
  value = nsxalb_se_group.web.sizing.summary
}
