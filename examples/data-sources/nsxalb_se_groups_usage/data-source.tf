# Every SE group of the NSX-T cloud with at least one SE, over the last 14 days: the groups at
# risk, and the Service Units the estate could give back.
data "nsxalb_se_groups_usage" "nsxt" {
  cloud         = "nsxt-cloud"
  min_se_count  = 1
  window        = "14d"
  forecast_days = 30
}

locals {
  groups = data.nsxalb_se_groups_usage.nsxt.groups
}

output "groups_at_risk" {
  value = [for g in local.groups : g.name if g.at_risk]
}

output "reclaimable_service_units" {
  value = data.nsxalb_se_groups_usage.nsxt.totals.service_units_reclaimable
}

# The groups come most reclaimable first.
output "most_reclaimable" {
  value = {
    for g in slice(local.groups, 0, min(5, length(local.groups))) :
    g.name => g.usage.service_units.reclaimable
  }
}
