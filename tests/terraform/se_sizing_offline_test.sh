#!/usr/bin/env bash
# Scenario 9: nsxalb_se_sizing with no Controller configured, read through an output and through
# `terraform console`; nothing reaches the Controller. A resource in the same configuration fails
# with an error that says what to set.
source "$(dirname "$0")/lib.sh" "$@"
unset NSXALB_CONTROLLER NSXALB_USERNAME NSXALB_PASSWORD NSXALB_CA_FILE

tf_write main.tf <<'EOF'
provider "nsxalb" {}

data "nsxalb_se_sizing" "web" {
  platform = "nsxt"

  workload {
    l7_rps = 150000
  }
}

output "vcpus" {
  value = data.nsxalb_se_sizing.web.vcpus_per_se
}

output "summary" {
  value = data.nsxalb_se_sizing.web.summary
}
EOF
tf init
step "apply with no Controller: the outputs hold the recommendation"
tf apply -auto-approve
tf output -json
assert_json '.vcpus.value' 6
assert_json '.summary.value | test("150,000 L7 RPS")' true

step "terraform console"
_tf_run_console() { (cd "$TF_WORK" && echo "$1" | terraform console) >"$TF_TMP/console.out" 2>&1; }
_tf_run_console 'data.nsxalb_se_sizing.web.se_count' || { cat "$TF_TMP/console.out"; fail "console failed"; }
grep -qx '1' "$TF_TMP/console.out" || { cat "$TF_TMP/console.out"; fail "console: se_count is not 1"; }
emu_counters | assert_json '.total' 0 -

step "a resource without a Controller: the error names what to set"
tf_write group.tf <<'EOF'
resource "nsxalb_se_group" "g" {
  name     = "g"
  platform = "nsxt"
}
EOF
tf_fails plan
assert_contains "$TF_OUT" "No Controller configured"
assert_contains "$TF_OUT" "NSXALB_CONTROLLER"
assert_contains "$TF_OUT" "AVI_CONTROLLER"
emu_counters | assert_json '.total' 0 -
pass
