#!/usr/bin/env bash
# Scenario: the running SEs in every plan and in state (issue 39), with the real terraform.
# The checkout story: a group on nsxt-cloud sized for 120,000 L7 RPS + 6,000 ECC SSL TPS (2 active
# SEs of 4 vCPUs and 8,192 MB, max_se 3), whose 3 SEs the Controller runs (created through the
# emulator's control endpoint at the group's settings). The workload rises to 300,000 L7 RPS: the
# plan resizes to 3 SEs of 5 vCPUs and 10,240 MB (max_se 4) and warns
# ses-behind-settings at the workload's line (the sizing plans both fields), naming the 3 SEs
# and the utilization at their real shape, worked by hand in docs/sizing.md ("Running SEs behind
# the settings"): 300,000 / (3 x 153,000) + 6,000 / (3 x 8,200) = 89.7% CPU, over the 80%
# target. Under sizing_policy = "enforce" the same plan warns (never an error). After apply,
# `plan -detailed-exitcode` exits 0 and still warns; state's service_engines says 0 of 3 match.
# Every plan sends one SE listing for the tenant. Replaced through the emulator, the SEs match:
# the plan is clean and silent. A change of num_dispatcher_cores says the SEs need a reboot; a
# change of max_se says nothing. A destroy under enforce passes while SEs lag.
source "$(dirname "$0")/lib.sh" "$@"

emu_post() {  # emu_post PATH JSON: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" "$EMU_URL$1" ||
    fail "POST $1 failed"
}
emu_delete_se() {  # emu_delete_se UUID: the SE is gone at once (control endpoint).
  _emu_curl --fail-with-body -X DELETE "$EMU_URL/_emulator/serviceengines/$1" >/dev/null ||
    fail "DELETE /_emulator/serviceengines/$1 failed"
}
# The checkout group's SEs on the emulator, as "uuid vcpus memory" lines.
checkout_ses() {
  emu_get /_emulator/state | jq -r --arg g "$group" \
    '.serviceengine[]? | select(.se_group_ref == $g) | "\(.uuid) \(.resources.num_vcpus) \(.resources.memory)"'
}
state_attr() {  # state_attr JQ: of checkout's attributes in terraform.tfstate
  jq -c ".resources[] | select(.name == \"checkout\") | .instances[0].attributes | $1" \
    "$TF_WORK/terraform.tfstate"
}

write_config() {  # write_config L7_RPS [EXTRA_SETTINGS]
  tf_write main.tf <<EOF
variable "policy" {
  type    = string
  default = "warn"
}

provider "nsxalb" {
  sizing_policy = var.policy
}

resource "nsxalb_se_group" "checkout" {
  name                = "checkout"
  cloud               = "nsxt-cloud"
  ${2:-}

  workload {
    l7_rps      = $1
    ssl_tps_ecc = 6000
  }
}
EOF
}

write_config 120000
tf init

step "create checkout for 120,000 RPS + 6,000 ECC TPS: 3 SEs of 4 vCPUs and 8,192 MB"
tf apply -auto-approve
[ "$(state_attr .vcpus_per_se)" = 4 ] || fail "vcpus_per_se is $(state_attr .vcpus_per_se), not 4"
[ "$(state_attr .memory_per_se)" = 8192 ] || fail "memory_per_se is not 8192"
assert_json '.service_engines' '{"lagging":[],"matching":0,"reboot_fields":[],"running":0}' \
  <(state_attr .)
group=$(state_attr .id | tr -d '"')

step "the Controller runs 3 SEs at the group's settings: the plan is clean and silent"
emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":3}" >/dev/null
[ "$(checkout_ses | awk '$2 == 4 && $3 == 8192' | wc -l)" = 3 ] || fail "not 3 SEs of 4/8192"
tf apply -refresh-only -auto-approve
assert_json '.service_engines.running' 3 <(state_attr .)
assert_json '.service_engines.matching' 3 <(state_attr .)
tf_plan_exits 0
assert_not_says "$TF_OUT" "ses-behind-settings"
assert_not_contains "$TF_OUT" "Warning:"

step "the workload rises to 300,000 RPS: the plan resizes and warns at the workload's line"
write_config 300000
emu_reset_counters
tf plan -out=tfplan
plan=$TF_OUT
emu_counters | assert_json '.requests["GET /api/serviceengine"]' 1 -
tf show -json tfplan
assert_json '.resource_changes[0].change.after.vcpus_per_se' 5
assert_json '.resource_changes[0].change.after.memory_per_se' 10240
assert_says "$plan" "Warning: 3 of checkout's 3 running SEs lag its settings"
assert_says "$plan" "vcpus_per_se 4 -> 5, memory_per_se 8,192 -> 10,240 and disk_per_se 21 -> 25
  reach new SEs only: checkout's 3 running SEs (checkout-se-1, checkout-se-2 and checkout-se-3)
  keep 4 vCPUs, 8,192 MB and 21 GB of disk until they are replaced."
assert_says "$plan" "3 SEs of 4 vCPUs would run 300,000 L7 RPS + 6,000 ECC SSL TPS at 89.7% CPU,
  over the 80% target"
assert_says "$plan" "The Controller may still add 1 SE up to max_se 4"
assert_says "$plan" "The running SEs consume 12 SUs, and 15 SUs once replaced"
assert_says "$plan" "sizing.service_units stays the planned 20 SUs"
assert_says "$plan" "(rule ses-behind-settings)"
# Without a rollout block, the finding names the one that has apply do the runbook.
assert_says "$plan" 'Or set rollout { strategy = "rolling" } and apply does this for you'
assert_says "$plan" "l7_rps      = 300000"
[ "$(grep -c "lag its settings" "$plan")" = 1 ] || fail "one warning expected: both at the workload"

step "under sizing_policy = \"enforce\" the same plan warns and passes"
tf_plan_exits 2 -var policy=enforce
assert_says "$TF_OUT" "Warning: 3 of checkout's 3 running SEs lag its settings"
assert_not_says "$TF_OUT" "Error:"

step "apply; the next plan has no changes (exit 0) and still warns; state says 0 of 3 match"
tf apply -auto-approve tfplan
assert_json '.service_engines.running' 3 <(state_attr .)
assert_json '.service_engines.matching' 0 <(state_attr .)
assert_json '[.service_engines.lagging[] | .why] | unique' '["new-ses-only"]' <(state_attr .)
assert_json '.service_engines.lagging[0]' \
  '{"fields":["vcpus_per_se","memory_per_se","disk_per_se"],"memory_mb":8192,"name":"checkout-se-1","vcpus":4,"why":"new-ses-only"}' \
  <(state_attr .)
emu_reset_counters
tf_plan_exits 0
emu_counters | assert_json '.requests["GET /api/serviceengine"]' 1 -
assert_says "$TF_OUT" "No changes."
assert_says "$TF_OUT" "vcpus_per_se 5, memory_per_se 10,240 and disk_per_se 25 reach new SEs only:
  checkout's 3 running SEs"
assert_says "$TF_OUT" "at 89.7% CPU, over the 80% target"
tf_plan_exits 0 -var policy=enforce
assert_says "$TF_OUT" "Warning: 3 of checkout's 3 running SEs lag its settings"

step "the SEs are replaced at the new settings: the plan is clean and silent"
for uuid in $(checkout_ses | awk '{print $1}'); do emu_delete_se "$uuid"; done
emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":3}" >/dev/null
[ "$(checkout_ses | awk '$2 == 5 && $3 == 10240' | wc -l)" = 3 ] || fail "not 3 SEs of 5/10240"
tf_plan_exits 0
assert_not_says "$TF_OUT" "ses-behind-settings"
assert_not_contains "$TF_OUT" "Warning:"
tf apply -refresh-only -auto-approve
assert_json '.service_engines.matching' 3 <(state_attr .)

step "a change of num_dispatcher_cores says the SEs need a reboot"
dispatchers=$(state_attr .num_dispatcher_cores)
write_config 300000 "num_dispatcher_cores = $((dispatchers == 2 ? 1 : 2))"
tf_plan_exits 2
assert_says "$TF_OUT" "num_dispatcher_cores $dispatchers -> $((dispatchers == 2 ? 1 : 2)) takes
  effect on running SEs only after an SE reboot"
assert_says "$TF_OUT" "need a reboot before they run with it"
assert_says "$TF_OUT" "num_dispatcher_cores = $((dispatchers == 2 ? 1 : 2))"

step "a change of max_se says nothing"
write_config 300000 "max_se = 6"
tf_plan_exits 2
assert_says "$TF_OUT" "~ max_se"
assert_not_says "$TF_OUT" "ses-behind-settings"

step "a destroy under enforce passes while the SEs lag"
write_config 300000
for uuid in $(checkout_ses | awk '{print $1}'); do emu_delete_se "$uuid"; done
emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":3,\"vcpus\":4}" >/dev/null
tf destroy -auto-approve -var policy=enforce
assert_groups 0  # emu_groups leaves out the Default-Groups

pass
