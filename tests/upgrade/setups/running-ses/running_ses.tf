# The running-ses setup's groups (scripts/record-upgrade-fixture ... running-ses; setup.sh puts
# them in the state this describes): each runs SEs with virtual services placed on them. The
# Controller gave them their SEs at 2 vCPUs and 2,048 MB; the settings below came after.

# SEs behind the settings, with no rollout block (the default strategy, "none"): its 3 SEs keep
# 2 vCPUs while the group says 4 (new-ses-only; every plan warns ses-behind-settings).
resource "nsxalb_se_group" "lagging" {
  name          = "lagging"
  cloud         = "nsxt-cloud"
  vcpus_per_se  = 4
  memory_per_se = 2048
  max_se        = 4
  max_vs_per_se = 2
}

# The same with rollout { strategy = "none" } written out: its 2 SEs keep 2,048 MB while the
# group says 4,096.
resource "nsxalb_se_group" "held" {
  name          = "held"
  cloud         = "nsxt-cloud"
  vcpus_per_se  = 2
  memory_per_se = 4096
  max_se        = 4
  max_vs_per_se = 2

  rollout {
    strategy = "none"
  }
}

# rollout { strategy = "rolling" }: the apply that raised vcpus_per_se from 2 to 4 replaced its 2
# SEs one at a time (last_rollout "complete"), so its SEs match the settings.
resource "nsxalb_se_group" "rolled" {
  name          = "rolled"
  cloud         = "nsxt-cloud"
  vcpus_per_se  = 4
  memory_per_se = 2048
  max_se        = 4
  max_vs_per_se = 2

  rollout {
    strategy = "rolling"
  }
}
