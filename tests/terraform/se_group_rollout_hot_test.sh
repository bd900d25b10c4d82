#!/usr/bin/env bash
# Scenario: a roll that would overload an SE is refused in the plan (issue 44), with the real
# terraform. The group web on nsxt-cloud, without a workload block: vcpus_per_se 4, memory_per_se
# 8,192, max_se 3. The Controller runs 3 SEs of that shape with 2 virtual services each (placed
# while max_vs_per_se was 2; then max_vs_per_se = 10, so each SE has room for the others'), and
# each SE's CPU is at 85% and its memory at 70% (the emulator's se_stats.avg_cpu_usage and
# se_stats.avg_mem_usage, highest of the last hour). The team asks for vcpus_per_se = 6
# (memory_per_se 12,288) with rollout { strategy = "rolling" }:
#   - the group is at max_se (3 SEs, max_se 3), so the Controller may create no replacement:
#     disabled, web-se-1's virtual services move to the fullest SE with room, the oldest of the
#     tie: web-se-2, which would then carry its own 85% and web-se-1's 85% x 4 / 4 = 170.0% CPU,
#     over the 80% target (and 70 + 70 = 140.0% memory: CPU binds, so the refusal names CPU).
#     The plan warns "Rollout refused by the capacity guard" at the line of
#     strategy with those figures and advice that applies (raise max_se (3); max_vs_per_se = 2),
#     and the placement guard refuses too (no replacement). Under sizing_policy = "enforce" the
#     same plan fails there. Apply (warn) exits 0, writes the group (vcpus_per_se 6) and no SE
#     (counted); the next plan exits 0 and warns again; under enforce too (the plan does not
#     change the group: the enforce gate's waiver).
#   - memory binds, not CPU (issue 44, rule roll-memory-scales-with-memory): the same room for
#     replacements (max_se = 6, max_vs_per_se = 2) but memory_per_se = 6,144: web-se-1's 2
#     virtual services go to new SE 1 of 6 vCPUs and 6,144 MB, CPU 85 x 4 / 6 = 56.7%, memory
#     70% of 8,192 MB = 5,734.4 MB on 6,144 MB = 93.3%, over the 80% target: the plan refuses
#     naming memory and memory_per_se (plan only).
#   - throughput binds, not CPU nor memory (rule roll-throughput-keeps-its-bits): a workload
#     declaring l7_ssl_gbps (nsxt: 11 Gbps at 4 vCPUs, 13 Gbps at 6) and each SE moving 11.7 Gbps
#     (se_if.avg_bandwidth); with room for replacements of 6 vCPUs and 12,288 MB, web-se-1's
#     bits move to new SE 1: 11.7 / 13 = 90.0% throughput (CPU 56.7%, memory 46.7%), over the
#     80% target: the plan refuses naming throughput in Gbps and percent (plan only). Without
#     the workload the same bits are not judged, and the load line says why.
#   - the same hot SEs with room for replacements: max_se = 6 and max_vs_per_se = 2 (no spare
#     slot): each leaving SE's 2 virtual services go to a new SE of 6 vCPUs, which takes 85 x 4 =
#     340 vCPU-percent: 340 / 6 = 56.7%, and memory 70 x 8,192 / 12,288 = 46.7%; the SEs that
#     stay take nothing. "Apply will roll 3 SEs", predicted peak 56.7% CPU on new SE 1 at step 1
#     (memory 46.7%); apply replaces the 3, the emulator (with
#     --delete-hosting-se) shows no virtual service unplaced; the next plan is clean and silent.
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# write_web VCPUS MEMORY MAX_SE MAX_VS [ROLLOUT] [WORKLOAD]: main.tf with web at those settings,
# the provider's sizing_policy from var.policy, the rollout block's lines and the workload
# block's lines (no block when empty).
write_web() {
  local rollout="" workload=""
  [ -z "${5:-}" ] || rollout=$'\n  rollout {\n    '"$5"$'\n  }'
  [ -z "${6:-}" ] || workload=$'\n  workload {\n    '"$6"$'\n  }'
  tf_write main.tf <<EOF
variable "policy" {
  type    = string
  default = "warn"
}

provider "nsxalb" {
  sizing_policy = var.policy
}

resource "nsxalb_se_group" "web" {
  name          = "web"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  vcpus_per_se  = $1
  memory_per_se = $2
  max_se        = $3
  max_vs_per_se = $4$rollout$workload
}
EOF
}
ROLLING='strategy = "rolling"'

step "web: 3 SEs of 4 vCPUs at 85% CPU and 70% memory, 2 virtual services each, max_se 3, max_vs_per_se 10"
write_web 4 8192 3 2
tf init
tf apply -auto-approve
uuid=$(group_uuid web)
run_ses "$uuid" web 3 6
write_web 4 8192 3 10
tf apply -auto-approve
vs_layout "$uuid"
[ "$(vs_layout "$uuid" | awk '{ print NF - 1 }' | tr '\n' ' ')" = "2 2 2 " ] ||
  fail "the virtual services are not 2 a SE: $(vs_layout "$uuid")"
load_cpu "$uuid" 85 85 85
load_mem "$uuid" 70 70 70
tf_plan_exits 0

step "vcpus_per_se = 6, rolling: the plan warns that the capacity guard would refuse"
write_web 6 12288 3 10 "$ROLLING"
strategy_line=$(grep -n 'strategy = "rolling"' "$TF_WORK/main.tf" | cut -d: -f1)
plan_json
refusal=$(diagnostic "Rollout refused by the capacity guard")
detail=$(jq -r .detail <<<"$refusal")
echo "$detail"
[ "$(jq -r .severity <<<"$refusal")" = warning ] || fail "not a warning: $refusal"
[ "$(jq -r .range.start.line <<<"$refusal")" = "$strategy_line" ] || fail "not at strategy: $refusal"
printf '%s\n' "$detail" >"$TF_OUT_DIR/refusal.txt"
for text in \
  "guard capacity: REFUSES: at step 1 (web-se-1 out) web-se-2 would take web-vs-1 from web-se-1, web-vs-2 from web-se-1 and run at 170.0% CPU, over the 80% target" \
  "raise max_se (3) so the Controller can create replacements" \
  "set max_vs_per_se = 2 so the leaving SEs' virtual services go to new SEs" \
  "guard placement: REFUSES:" \
  "The placement guard refuses too" \
  "raise max_se to 4" \
  "Apply writes the group's settings only and touches no SE"; do
  assert_says "$TF_OUT_DIR/refusal.txt" "$text"
done
assert_not_says "$TF_OUT_DIR/refusal.txt" "Lower max_unavailable"
tf show -json tfplan
assert_json '.resource_changes[0].change.actions' '["update"]'
assert_json '.resource_changes[0].change.after.vcpus_per_se' 6

step "under sizing_policy = \"enforce\" the same plan fails at the rollout line"
tf_fails plan -var policy=enforce
cat "$TF_OUT"
assert_says "$TF_OUT" "Error: Rollout refused by the capacity guard"
assert_says "$TF_OUT" "on main.tf line $strategy_line, in resource \"nsxalb_se_group\" \"web\":"
assert_says "$TF_OUT" "$strategy_line: strategy = \"rolling\""
assert_says "$TF_OUT" "sizing_policy = \"enforce\" makes a refused roll an error"

step "apply (warn): exits 0, writes the group and no SE"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
tf apply -auto-approve
assert_no_se_write "a refused roll"
[ "$(emu_count "PUT /api/serviceenginegroup/{uuid}")" = 1 ] || fail "the group was not written once"
[ "$(group_ses "$uuid" | awk '$2 == 4 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 3 ] ||
  fail "the SEs changed: $(group_ses "$uuid")"
assert_json '.vcpus_per_se' 6 <(group_attr web .)
assert_timeline_clean_of "$uuid"

step "the next plan exits 0 and warns again; under enforce too (it does not change the group)"
emu_reset_counters
tf_plan_exits 0
assert_says "$TF_OUT" "No changes."
assert_says "$TF_OUT" "Warning: Rollout refused by the capacity guard"
tf_plan_exits 0 -var policy=enforce
assert_says "$TF_OUT" "Warning: Rollout refused by the capacity guard"
assert_not_contains "$TF_OUT" "Error:"
assert_no_se_write "a plan"

step "memory_per_se 6,144: the replacements' memory, not their CPU, is what refuses the roll"
write_web 6 6144 6 2 "$ROLLING"
plan_json
refusal=$(diagnostic "Rollout refused by the capacity guard")
detail=$(jq -r .detail <<<"$refusal")
echo "$detail"
printf '%s\n' "$detail" >"$TF_OUT_DIR/memory-refusal.txt"
for text in \
  "step 1: web-se-1 out; web-vs-1, web-vs-2 -> new SE 1; the Controller creates new SE 1 at 6 vCPUs; predicted CPU: new SE 1 (6 vCPUs) 56.7%; predicted memory: new SE 1 (6,144 MB) 93.3%" \
  "load: what the SEs carry now, the Controller's se_stats.avg_cpu_usage and se_stats.avg_mem_usage of each SE, the highest sample of the last 1 hour (300 s samples)" \
  "guard capacity: REFUSES: at step 1 (web-se-1 out) new SE 1 would take web-vs-1 from web-se-1, web-vs-2 from web-se-1 and run at 93.3% memory (of its 6,144 MB), over the 80% target" \
  "raise memory_per_se (6,144 MB)" \
  "guard placement: passes"; do
  assert_contains "$TF_OUT_DIR/memory-refusal.txt" "$text"
done
assert_not_contains "$TF_OUT_DIR/memory-refusal.txt" "% CPU, over the"

step "a workload of L7 SSL throughput: the replacement's throughput, not its CPU or memory, refuses the roll"
load_se_metric se_if.avg_bandwidth "$uuid" 11.7e9 11.7e9 11.7e9
write_web 6 12288 6 2 "$ROLLING" 'l7_ssl_gbps = 10'
plan_json
refusal=$(diagnostic "Rollout refused by the capacity guard")
detail=$(jq -r .detail <<<"$refusal")
echo "$detail"
printf '%s\n' "$detail" >"$TF_OUT_DIR/throughput-refusal.txt"
for text in \
  "predicted CPU: new SE 1 (6 vCPUs) 56.7%; predicted memory: new SE 1 (12,288 MB) 46.7%; predicted throughput: new SE 1 11.70 Gbps of 13.00 Gbps, 90.0%" \
  "(rule roll-throughput-keeps-its-bits)" \
  "guard capacity: REFUSES: at step 1 (web-se-1 out) new SE 1 would take web-vs-1 from web-se-1, web-vs-2 from web-se-1 and run at 90.0% throughput (11.70 Gbps of its 13 Gbps L7 SSL throughput at 6 vCPUs), over the 80% target" \
  "roll in a quieter hour" \
  "guard placement: passes"; do
  assert_contains "$TF_OUT_DIR/throughput-refusal.txt" "$text"
done

step "room for replacements (max_se 6, max_vs_per_se 2): the same hot SEs roll"
write_web 6 12288 6 2 "$ROLLING"
plan_json
roll=$(diagnostic "Apply will roll 3 SEs")
detail=$(jq -r .detail <<<"$roll")
echo "$detail"
printf '%s\n' "$detail" >"$TF_OUT_DIR/roll.txt"
for text in \
  "step 1: web-se-1 out; web-vs-1, web-vs-2 -> new SE 1; the Controller creates new SE 1 at 6 vCPUs; predicted CPU: new SE 1 (6 vCPUs) 56.7%" \
  "throughput not judged: the workload states no throughput" \
  "guard capacity: passes: predicted peak 56.7% CPU on new SE 1 at step 1, target 80%; memory peak 46.7% on new SE 1 at step 1" \
  "guard placement: passes"; do
  assert_contains "$TF_OUT_DIR/roll.txt" "$text"
done
emu_control POST timeline/reset >/dev/null
emu_reset_counters
remember_se_names
tf apply -auto-approve tfplan
group_ses "$uuid"
[ "$(group_ses "$uuid" | awk '$2 == 6 && $3 == 12288 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 3 ] ||
  fail "want 3 SEs of 6 vCPUs: $(group_ses "$uuid")"
[ "$(group_ses "$uuid" | wc -l)" = 3 ] || fail "want exactly 3 SEs: $(group_ses "$uuid")"
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 3 ] || fail "want 3 DELETEs: $(se_requests)"
assert_timeline_clean_of "$uuid"
[ "$(predicted_moves "$detail")" = "$(observed_moves "$uuid")" ] ||
  fail "the plan predicted $(predicted_moves "$detail"), the emulator placed $(observed_moves "$uuid")"
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"

pass
