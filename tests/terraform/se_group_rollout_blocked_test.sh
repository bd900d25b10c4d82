#!/usr/bin/env bash
# Scenario: rolls the Controller cannot run, refused in the plan (issue 44), with the real
# terraform. Two groups on nsxt-cloud without a workload block, their SEs of 2 vCPUs and 4,096 MB
# at 20% CPU (the emulator's se_stats.avg_cpu_usage), both asked for vcpus_per_se = 4 (8,192 MB)
# with rollout { strategy = "rolling" }:
#   - legacy: ha_mode HA_MODE_LEGACY_ACTIVE_STANDBY (the only mode of the Essentials and Basic
#     editions), 2 SEs and 2 virtual services. The vendor does not support migration there and an
#     SE cannot be disabled per SE (the emulator refuses it): the plan warns "Rollout refused by
#     the ha-mode guard" with the documented path (switchover, a maintenance SE group); apply
#     exits 0 with no SE write (counted); the next plan exits 0 and warns again.
#   - web: HA_MODE_SHARED, 3 SEs with 2 virtual services each at max_vs_per_se 2 and max_se 6 (so
#     each leaving SE's virtual services go to a new SE of 4 vCPUs: 20% x 2 / 4 = 10.0%), while
#     the Controller runs a system upgrade (POST /_emulator/upgrade, UPGRADE_FSM_IN_PROGRESS:
#     placement is blocked until it ends): the plan warns "Rollout refused by the upgrade guard";
#     apply exits 0 with no SE write; the next plan exits 0. The same for web's own SE upgrade
#     (UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS), in the plan only. Once the upgrade is over, the plan
#     shows the roll again ("Apply will roll 3 SEs", an update); apply replaces web's 3 SEs with no
#     virtual service unplaced (the emulator allows DELETE of a hosting SE, --delete-hosting-se)
#     and leaves legacy's SEs alone; the next plan exits 0 (legacy still warns).
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# write_groups LEGACY_VCPUS WEB_VCPUS [ROLLOUT]: main.tf with both groups, memory at 2,048 MB a
# vCPU, and the rollout block's lines in each.
write_groups() {
  local rollout=""
  [ -z "${3:-}" ] || rollout=$'\n  rollout {\n    '"$3"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "legacy" {
  name          = "legacy"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  ha_mode       = "HA_MODE_LEGACY_ACTIVE_STANDBY"
  vcpus_per_se  = $1
  memory_per_se = $(($1 * 2048))
  max_se        = 2$rollout
}

resource "nsxalb_se_group" "web" {
  name          = "web"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  vcpus_per_se  = $2
  memory_per_se = $(($2 * 2048))
  max_se        = 6
  max_vs_per_se = 2$rollout
}
EOF
}
ROLLING='strategy = "rolling"'

# refusal_of ADDRESS: the rollout diagnostic of resource ADDRESS in the last plan -json.
refusal_of() {
  jq -c --arg a "$1" 'select(.type == "diagnostic" and .diagnostic.address == $a
    and (.diagnostic.summary | test("^(Rollout refused|Apply will roll)"))) | .diagnostic' "$TF_STDOUT"
}

step "legacy (2 SEs, active/standby) and web (3 SEs, 6 virtual services), 2 vCPUs at 20% CPU"
write_groups 2 2
tf init
tf apply -auto-approve
legacy=$(group_uuid legacy)
web=$(group_uuid web)
run_ses "$legacy" legacy 2 2
run_ses "$web" web 3 6
load_cpu "$legacy" 20 20
load_cpu "$web" 20 20 20
tf_plan_exits 0

step "legacy to 4 vCPUs, rolling: refused in the plan by the ha-mode guard, naming switchover"
write_groups 4 2 "$ROLLING"
plan_json
refusal=$(refusal_of nsxalb_se_group.legacy)
echo "$refusal" | jq -r .detail
[ "$(jq -r '[.summary, .severity] | join(" / ")' <<<"$refusal")" = "Rollout refused by the ha-mode guard / warning" ] ||
  fail "legacy: $refusal"
jq -r .detail <<<"$refusal" >"$TF_OUT_DIR/legacy.txt"
for text in "HA_MODE_LEGACY_ACTIVE_STANDBY" "does not support migration" \
  "POST /api/serviceengine/<uuid>/switchover" "maintenance SE group" \
  "Apply writes the group's settings only and touches no SE"; do
  assert_says "$TF_OUT_DIR/legacy.txt" "$text"
done
[ -z "$(refusal_of nsxalb_se_group.web)" ] || fail "web, which lags nothing, has a decision"
emu_reset_counters
tf apply -auto-approve
assert_no_se_write "a refused roll"
[ "$(group_ses "$legacy" | awk '$2 == 2' | wc -l)" = 2 ] || fail "legacy's SEs changed: $(group_ses "$legacy")"
tf_plan_exits 0
assert_says "$TF_OUT" "Warning: Rollout refused by the ha-mode guard"

step "a system upgrade runs; web to 4 vCPUs, rolling: refused in the plan by the upgrade guard"
emu_control POST upgrade '{"system": "UPGRADE_FSM_IN_PROGRESS"}' >/dev/null
write_groups 4 4 "$ROLLING"
plan_json
refusal=$(refusal_of nsxalb_se_group.web)
echo "$refusal" | jq -r .detail
[ "$(jq -r '[.summary, .severity] | join(" / ")' <<<"$refusal")" = "Rollout refused by the upgrade guard / warning" ] ||
  fail "web: $refusal"
jq -r .detail <<<"$refusal" >"$TF_OUT_DIR/upgrade.txt"
assert_says "$TF_OUT_DIR/upgrade.txt" "a system upgrade"
assert_says "$TF_OUT_DIR/upgrade.txt" "UPGRADE_FSM_IN_PROGRESS"
emu_reset_counters
tf apply -auto-approve
assert_no_se_write "a refused roll"
[ "$(group_ses "$web" | awk '$2 == 2' | wc -l)" = 3 ] || fail "web's SEs changed: $(group_ses "$web")"
tf_plan_exits 0
assert_says "$TF_OUT" "Warning: Rollout refused by the upgrade guard"

step "web's own SE upgrade: refused by the upgrade guard too"
emu_control POST upgrade '{"reset": true, "se_groups": {"web": "UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS"}}' >/dev/null
plan_json
refusal=$(refusal_of nsxalb_se_group.web)
[ "$(jq -r .summary <<<"$refusal")" = "Rollout refused by the upgrade guard" ] || fail "web: $refusal"
jq -r .detail <<<"$refusal" | tee "$TF_OUT_DIR/se-upgrade.txt"
assert_says "$TF_OUT_DIR/se-upgrade.txt" "UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS"

step "the upgrade over: the plan shows web's roll again, and apply runs it"
emu_control POST upgrade '{"reset": true}' >/dev/null
tf_plan_exits 2
assert_says "$TF_OUT" "Warning: Apply will roll 3 SEs"
assert_says "$TF_OUT" "Warning: Rollout refused by the ha-mode guard"
plan_json
detail=$(refusal_of nsxalb_se_group.web | jq -r .detail)
emu_control POST timeline/reset >/dev/null
emu_reset_counters
remember_se_names
tf apply -auto-approve tfplan
group_ses "$web"
[ "$(group_ses "$web" | awk '$2 == 4 && $3 == 8192 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 3 ] ||
  fail "want web's 3 SEs at 4 vCPUs: $(group_ses "$web")"
[ "$(group_ses "$web" | wc -l)" = 3 ] || fail "want exactly 3 SEs in web: $(group_ses "$web")"
[ "$(group_ses "$legacy" | awk '$2 == 2 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 2 ] ||
  fail "legacy's SEs changed: $(group_ses "$legacy")"
assert_timeline_clean_of "$web"
[ "$(predicted_moves "$detail")" = "$(observed_moves "$web")" ] ||
  fail "the plan predicted $(predicted_moves "$detail"), the emulator placed $(observed_moves "$web")"
tf_plan_exits 0
assert_says "$TF_OUT" "Warning: Rollout refused by the ha-mode guard"
assert_not_says "$TF_OUT" "Apply will roll"

pass
