# Check hand-set settings against a workload, as nsxalb_se_group's plan would, and stop the plan
# when they do not carry it.
locals {
  web_check = provider::nsxalb::check("nsxt", { vcpus_per_se = 2, max_se = 3 }, { l7_rps = 150000 })
}

check "web_se_group_sizing" {
  assert {
    condition     = local.web_check.ok
    error_message = join("\n", local.web_check.findings)
  }
}
