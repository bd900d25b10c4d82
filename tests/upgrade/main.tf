# The configuration every release's upgrade fixture is recorded with (scripts/record-upgrade-fixture)
# and replayed against (tests/terraform/upgrade_fixtures_test.sh, tests/integration/
# upgrade_fixtures_test.cc): the quick start's two groups, a group with extra_fields, and a group
# sized by hand without a workload. Each fixture keeps its own copy, as it was recorded.

# The quick start: an HTTPS mix on NSX-T, sized by the model.
resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud"

  workload {
    l7_rps      = 150000
    ssl_tps_ecc = 8000
  }
}

# The quick start: a hand-set vcpus_per_se that cannot carry its workload (a warning).
resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = 2

  workload {
    ssl_tps_ecc = 8000
  }
}

# A sized group with fields the resource does not type.
resource "nsxalb_se_group" "extra" {
  name     = "extra"
  platform = "vcenter"

  workload {
    l7_rps = 40000
  }

  extra_fields = jsonencode({
    se_deprovision_delay = 5
  })
}

# A group sized by hand, without a workload: no sizing.
resource "nsxalb_se_group" "manual" {
  name                = "manual"
  description         = "sized by hand"
  vcpus_per_se        = 4
  memory_per_se       = 8192
  max_se              = 4
  min_scaleout_per_vs = 2
}
