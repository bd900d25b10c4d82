# The licence pool per tier and each SE group's Service Units, with a check that warns in every
# plan when the ENTERPRISE tier runs low.
data "nsxalb_license_usage" "pool" {}

locals {
  enterprise = one([for t in data.nsxalb_license_usage.pool.tiers : t if t.tier == "ENTERPRISE"])
}

check "enterprise_units_left" {
  assert {
    condition     = local.enterprise == null || local.enterprise.remaining >= 16
    error_message = "Fewer than 16 ENTERPRISE Service Units remain: ${try(local.enterprise.remaining, 0)} of ${try(local.enterprise.licensed, 0)} licensed."
  }
}

output "units_by_group" {
  value = { for g in data.nsxalb_license_usage.pool.se_groups : g.name => g.service_units_consumed }
}
