#!/usr/bin/env bash
# Scenario 2: sizing_policy = "enforce" (provider or resource) turns an under-sized group into an
# error at the line of the hand-set attribute, so `terraform plan` fails and nothing is created.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF'
provider "nsxalb" {
  sizing_policy = "enforce"
}

resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = 2

  workload {
    ssl_tps_ecc = 8000
  }
}
EOF
line=$(grep -n 'vcpus_per_se = 2' "$TF_WORK/main.tf" | cut -d: -f1)
tf init

step "provider-level enforce: plan fails with the error at the line"
tf_fails plan
assert_contains "$TF_OUT" "Error: "
assert_contains "$TF_OUT" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"
assert_contains "$TF_OUT" "demand-within-capacity"
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"] // 0' 0 -

step "resource-level enforce: validate itself fails (the policy is written on the resource)"
sed -i 's/^  sizing_policy = "enforce"$//' "$TF_WORK/main.tf"
sed -i 's/^  vcpus_per_se = 2$/  vcpus_per_se = 2\n  sizing_policy = "enforce"/' "$TF_WORK/main.tf"
tf_fails validate
assert_contains "$TF_OUT" "Error: "
assert_contains "$TF_OUT" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"

step "warn (the default): the same group plans, with a warning"
sed -i 's/^  sizing_policy = "enforce"$/  sizing_policy = "warn"/' "$TF_WORK/main.tf"
tf plan
assert_contains "$TF_OUT" "Warning: "
assert_contains "$TF_OUT" "Plan: 1 to add"
pass
