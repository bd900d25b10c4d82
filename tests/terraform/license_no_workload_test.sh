#!/usr/bin/env bash
# The licence check of a group without a workload (issue 44): it still adds up to max_se x
# vcpus_per_se Service Units (rule service-units-per-se per SE), less what its running SEs
# consume. The emulator licenses 64 ENTERPRISE units (56 consumed by 7 SEs of 8 vCPUs, 4 in
# escrow) and 2 ESSENTIALS units. A new group of 3 SEs of 4 vCPUs on Default-Cloud (the cloud's
# ENTERPRISE tier) warns license-units-short at its size line with the arithmetic, and fails under
# sizing_policy = "enforce"; a group of 1 SE is created, runs an SE, and its growth to max_se 2 is
# checked against its running SE's units; a license_tier in extra_fields draws on ESSENTIALS.
EMU_ARGS=(--license ENTERPRISE=64 --license ESSENTIALS=2)
source "$(dirname "$0")/lib.sh" "$@"

# ledger_tier TIER: the tier's usage in the ledger, as the API serves it.
ledger_tier() {
  emu_api GET /api/licensing/ledger/details |
    jq -c --arg t "$1" '.results[0].tier_usages[] | select(.tier == $t) | .usage'
}

step "the estate: 7 SEs of 8 vCPUs consume 56 of the 64 ENTERPRISE units, 4 more in escrow"
base=$(emu_api POST /api/serviceenginegroup '{"name": "base", "vcpus_per_se": 8}' | jq -r .uuid)
emu_control POST serviceengines "{\"se_group_uuid\": \"$base\", \"count\": 7}" >/dev/null
emu_control POST license '{"reservations": [{"tier": "ENTERPRISE", "service_cores": 4}]}' >/dev/null
[ "$(ledger_tier ENTERPRISE)" = '{"available":64,"consumed":56,"escrow":4,"remaining":4}' ] ||
  fail "the ledger: $(ledger_tier ENTERPRISE)"

# write_config MAX_SE [EXTRA]: the group "plain" on Default-Cloud (no workload, no platform) of
# MAX_SE SEs of 4 vCPUs, under var.policy; EXTRA is more HCL after it.
write_config() {
  tf_write main.tf <<HCL
variable "policy" {
  type    = string
  default = "warn"
}

provider "nsxalb" {
  sizing_policy = var.policy
}

resource "nsxalb_se_group" "plain" {
  name         = "plain"
  max_se       = $1
  vcpus_per_se = 4
}
${2:-}
HCL
}

# assert_short SEVERITY RESOURCE LINE_TEXT TEXT: one license-units-short diagnostic of SEVERITY in
# $TF_OUT, at the line of main.tf that holds LINE_TEXT in nsxalb_se_group.RESOURCE, saying TEXT.
assert_short() {
  local block line
  block=$(awk -v head="$1: The " '
    index($0, head) == 1 && /licence tier has fewer Service Units left/ { on = 1; print; next }
    on && /^(Error|Warning|Plan|Changes|Terraform|Outputs|No changes)/ { exit }
    on { print }' "$TF_OUT")
  [ -n "$block" ] || { cat "$TF_OUT" >&2; fail "no $1 license-units-short diagnostic"; }
  printf '%s\n' "$block" >"$TF_TMP/diagnostic"
  line=$(grep -nF "$3" "$TF_WORK/main.tf" | head -n1 | cut -d: -f1)
  assert_contains "$TF_TMP/diagnostic" "on main.tf line $line, in resource \"nsxalb_se_group\" \"$2\":"
  assert_contains "$TF_TMP/diagnostic" "$line:   $3"
  assert_says "$TF_TMP/diagnostic" "$4"
  assert_says "$TF_TMP/diagnostic" "(rule license-units-short)"
}

write_config 3
tf init

step "warn: a new group of 3 SEs of 4 vCPUs adds 12 SUs, 4 remain: a warning at vcpus_per_se"
tf_plan_exits 2
assert_short Warning plain "vcpus_per_se = 4" \
  "this group adds 12 SUs at its planned scale (max_se 3 x 4 vCPUs = 12 SUs); the ENTERPRISE tier has 4 left (64 licensed, 56 consumed, 4 in escrow)"
assert_contains "$TF_OUT" "Plan: 1 to add"

step "enforce: the same plan fails at the size line; nothing is created"
tf_fails plan -var policy=enforce
assert_short Error plain "vcpus_per_se = 4" \
  "this group adds 12 SUs at its planned scale (max_se 3 x 4 vCPUs = 12 SUs); the ENTERPRISE tier has 4 left"
assert_says "$TF_OUT" 'sizing_policy = "enforce" makes a plan that adds more Service Units than its tier has left an error'
assert_groups 1 # base alone

step "1 SE of 4 vCPUs fits: a clean plan, and apply creates the group"
write_config 1
tf plan
assert_not_says "$TF_OUT" "license-units-short"
tf apply -auto-approve
assert_groups 2

step "the group runs its SE (4 units): nothing left; an unchanged group plans no check"
plain=$(emu_groups | awk '$1 == "plain" { print $2 }')
emu_control POST serviceengines "{\"se_group_uuid\": \"$plain\", \"count\": 1}" >/dev/null
[ "$(ledger_tier ENTERPRISE)" = '{"available":64,"consumed":60,"escrow":4,"remaining":0}' ] ||
  fail "the ledger with plain's SE: $(ledger_tier ENTERPRISE)"
emu_reset_counters
tf_plan_exits 0
assert_not_says "$TF_OUT" "license-units-short"
[ "$(emu_count "GET /api/licensing/ledger/details")" = 0 ] ||
  fail "a plan that leaves the group as it is read the ledger"

step "max_se 1 -> 2: 8 planned, 4 running, 4 added, 0 left: a warning at vcpus_per_se; enforce fails"
write_config 2
tf_plan_exits 2
assert_short Warning plain "vcpus_per_se = 4" \
  "this group adds 4 SUs at its planned scale (max_se 2 x 4 vCPUs = 8 SUs, less 4 its running SEs consume); the ENTERPRISE tier has 0 left (64 licensed, 60 consumed, 4 in escrow)"
tf_fails plan -var policy=enforce
assert_short Error plain "vcpus_per_se = 4" "this group adds 4 SUs at its planned scale"

step "a license_tier in extra_fields: 2 SEs of 2 vCPUs draw on ESSENTIALS, which has 2 left"
write_config 1 '
resource "nsxalb_se_group" "ess" {
  name         = "ess"
  max_se       = 2
  vcpus_per_se = 2
  extra_fields = jsonencode({ license_tier = "ESSENTIALS" })
}'
tf_plan_exits 2
assert_short Warning ess "vcpus_per_se = 2" \
  "this group adds 4 SUs at its planned scale (max_se 2 x 2 vCPUs = 4 SUs); the ESSENTIALS tier has 2 left (2 licensed, 0 consumed, 0 in escrow)"
[ "$(grep -c "licence tier has fewer Service Units left" "$TF_OUT")" = 1 ] ||
  fail "plain, unchanged, was checked too"

# base is the emulator's, not Terraform's: once it is gone, the state and the emulator agree.
emu_api DELETE "/api/serviceenginegroup/$base" >/dev/null
assert_nothing_lost
pass
