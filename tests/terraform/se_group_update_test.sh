#!/usr/bin/env bash
# Scenarios 3 and 4: a workload change re-plans the sizing as an in-place update that keeps a field
# set out of band; drift in a managed field (vcpus_per_se changed on the Controller) shows in the
# next plan as "8 -> 6" and apply puts it back.
source "$(dirname "$0")/lib.sh" "$@"

write_config() {
  tf_write main.tf <<EOF
provider "nsxalb" {}

resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud"

  workload {
    l7_rps = $1
  }
}
EOF
}
write_config 40000
tf init
tf apply -auto-approve
uuid=$(cd "$TF_WORK" && terraform show -json | jq -r '.values.root_module.resources[0].values.id')
before=$(emu_api GET "/api/serviceenginegroup/$uuid" | jq .vcpus_per_se)

step "a field set out of band (not managed by the resource)"
emu_api GET "/api/serviceenginegroup/$uuid" | jq -c '.se_deprovision_delay = 7' >"$TF_TMP/oob.json"
emu_api PUT "/api/serviceenginegroup/$uuid" "$(cat "$TF_TMP/oob.json")" >/dev/null
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "a larger workload: an in-place update of the sizing"
write_config 150000
tf plan -out=tfplan
assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."
assert_contains "$TF_OUT" "~ vcpus_per_se"
emu_reset_counters
tf apply -auto-approve tfplan
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"]' 1 -
emu_api GET "/api/serviceenginegroup/$uuid" >"$TF_TMP/after.json"
assert_json '.vcpus_per_se' 6 "$TF_TMP/after.json"
assert_json '.se_deprovision_delay' 7 "$TF_TMP/after.json"
[ "$before" != 6 ] || fail "the smaller workload should have planned fewer than 6 vCPUs"

step "drift: vcpus_per_se set to 8 on the Controller shows as 8 -> 6"
emu_api GET "/api/serviceenginegroup/$uuid" | jq -c '.vcpus_per_se = 8' >"$TF_TMP/drift.json"
emu_api PUT "/api/serviceenginegroup/$uuid" "$(cat "$TF_TMP/drift.json")" >/dev/null
tf_fails plan -detailed-exitcode
assert_contains "$TF_OUT" "~ vcpus_per_se              = 8 -> 6"
tf apply -auto-approve
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.vcpus_per_se' 6 -
tf plan -detailed-exitcode
pass
