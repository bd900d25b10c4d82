#!/usr/bin/env bash
# Scenario: the packed group of issue 44 item 3, refused in the plan by the placement guard, with
# the real terraform. web on nsxt-cloud, without a workload block: 3 SEs of 2 vCPUs and 4,096 MB
# with 2 virtual services each (placed while max_vs_per_se was 2), each SE at 30% CPU (the
# emulator's se_stats.avg_cpu_usage). The team asks for vcpus_per_se = 4 (8,192 MB) and
# max_vs_per_se = 10 with rollout { strategy = "rolling" }. The Controller places packed (the
# default): disabled, web-se-1's 2 virtual services go to the fullest enabled SE with room (2 of
# 10), the oldest of the tie, web-se-2, and no new SE is created. web-se-2 would then run 30% + 30%
# = 60% (within the target: the capacity guard passes), but deleting web-se-1 would leave the group
# smaller with nothing at the new shape: the plan warns "Rollout refused by the placement guard",
# naming the moves (web-vs-1 -> web-se-2, web-vs-2 -> web-se-2) and the settings that would make
# the Controller create a replacement (max_vs_per_se = 2, the most virtual services an SE hosts
# now, or algo = "PLACEMENT_ALGO_DISTRIBUTED"). Apply exits 0, writes the group and no SE
# (counted); the next plan exits 0. With max_vs_per_se = 2 (no spare slot) each step creates a new
# SE of 4 vCPUs, which takes 30% x 2 / 4 = 15.0%: "Apply will roll 3 SEs"; apply replaces the 3
# with no virtual service ever unplaced (the emulator allows DELETE of a hosting SE,
# --delete-hosting-se), the moves as the plan said; the next plan is clean and silent.
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# write_web VCPUS MEMORY MAX_VS [ROLLOUT]: main.tf with web at those settings and the rollout
# block's lines.
write_web() {
  local rollout=""
  [ -z "${4:-}" ] || rollout=$'\n  rollout {\n    '"$4"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "web" {
  name          = "web"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  vcpus_per_se  = $1
  memory_per_se = $2
  max_vs_per_se = $3$rollout
}
EOF
}
ROLLING='strategy = "rolling"'

step "web: 3 SEs of 2 vCPUs at 30% CPU with 2 virtual services each"
write_web 2 4096 2
tf init
tf apply -auto-approve
uuid=$(group_uuid web)
run_ses "$uuid" web 3 6
vs_layout "$uuid"
[ "$(vs_layout "$uuid" | awk '{ print NF - 1 }' | tr '\n' ' ')" = "2 2 2 " ] ||
  fail "the virtual services are not 2 a SE: $(vs_layout "$uuid")"
load_cpu "$uuid" 30 30 30
tf_plan_exits 0

step "vcpus_per_se = 4, max_vs_per_se = 10, rolling: refused in the plan by the placement guard"
write_web 4 8192 10 "$ROLLING"
plan_json
refusal=$(diagnostic "Rollout refused by the placement guard")
detail=$(jq -r .detail <<<"$refusal")
echo "$detail"
[ "$(jq -r .severity <<<"$refusal")" = warning ] || fail "not a warning: $refusal"
[ "$(jq -r .range.start.line <<<"$refusal")" = "$(grep -n 'strategy' "$TF_WORK/main.tf" | cut -d: -f1)" ] ||
  fail "not at strategy: $refusal"
printf '%s\n' "$detail" >"$TF_OUT_DIR/refusal.txt"
for text in \
  "step 1: web-se-1 out; web-vs-1, web-vs-2 -> web-se-2" \
  "guard capacity: passes" \
  "at step 1 the Controller would move the virtual services of web-se-1 to SEs already running (web-vs-1 -> web-se-2, web-vs-2 -> web-se-2) and create no new SE" \
  "set max_vs_per_se = 2 (the most virtual services an SE hosts now)" \
  "set algo = \"PLACEMENT_ALGO_DISTRIBUTED\"" \
  "Apply writes the group's settings only and touches no SE"; do
  assert_says "$TF_OUT_DIR/refusal.txt" "$text"
done
tf show -json tfplan
assert_json '.resource_changes[0].change.after | [.vcpus_per_se, .max_vs_per_se]' '[4,10]'

step "apply exits 0, writes the group and no SE; the next plan exits 0"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
tf apply -auto-approve
assert_no_se_write "a refused roll"
[ "$(emu_count "PUT /api/serviceenginegroup/{uuid}")" = 1 ] || fail "the group was not written once"
[ "$(group_ses "$uuid" | awk '$2 == 2' | wc -l)" = 3 ] || fail "the SEs changed: $(group_ses "$uuid")"
assert_timeline_clean_of "$uuid"
tf_plan_exits 0
assert_says "$TF_OUT" "Warning: Rollout refused by the placement guard"
assert_no_se_write "a plan"

step "max_vs_per_se = 2, as the plan advised: Apply will roll 3 SEs, each onto a new SE"
write_web 4 8192 2 "$ROLLING"
plan_json
roll=$(diagnostic "Apply will roll 3 SEs")
detail=$(jq -r .detail <<<"$roll")
echo "$detail"
printf '%s\n' "$detail" >"$TF_OUT_DIR/roll.txt"
for text in \
  "step 1: web-se-1 out; web-vs-1, web-vs-2 -> new SE 1; the Controller creates new SE 1 at 4 vCPUs; predicted CPU: new SE 1 (4 vCPUs) 15.0%" \
  "step 3: web-se-3 out; web-vs-5, web-vs-6 -> new SE 3" \
  "guard capacity: passes: predicted peak 15.0% CPU on new SE 1 at step 1, target 80%" \
  "guard placement: passes: packed placement, max_vs_per_se 2, min_scaleout_per_vs 1, max_se 10: every virtual service has a place; 3 new SEs at 4 vCPUs"; do
  assert_contains "$TF_OUT_DIR/roll.txt" "$text"
done
emu_control POST timeline/reset >/dev/null
emu_reset_counters
remember_se_names
tf apply -auto-approve tfplan
group_ses "$uuid"
[ "$(group_ses "$uuid" | awk '$2 == 4 && $3 == 8192 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 3 ] ||
  fail "want 3 SEs of 4 vCPUs: $(group_ses "$uuid")"
[ "$(group_ses "$uuid" | wc -l)" = 3 ] || fail "want exactly 3 SEs: $(group_ses "$uuid")"
assert_timeline_clean_of "$uuid"
[ "$(predicted_moves "$detail")" = "$(observed_moves "$uuid")" ] ||
  fail "the plan predicted $(predicted_moves "$detail"), the emulator placed $(observed_moves "$uuid")"
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"

pass
