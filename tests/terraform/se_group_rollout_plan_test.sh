#!/usr/bin/env bash
# Scenario: issue 44's headline story, the roll decided in the plan on the load the SEs carry now,
# with the real terraform and no observed_load block.
# checkout on nsxt-cloud is sized for 120,000 L7 RPS + 6,000 ECC SSL TPS with 6 virtual services
# and max_vs_per_se = 3: 2 active SEs (6 virtual services at 3 a SE need 2), of 4 vCPUs and
# 8,192 MB (2 SEs of 2 vCPUs would run 120,000 / (2 x 94,000) + 6,000 / (2 x 6,000) = 113.8% CPU;
# of 4 vCPUs 39.2% + 36.6% = 75.8%, within the 80% target), max_se 3, min_scaleout_per_vs 1.
# The Controller runs 2 SEs at that shape and places the 6 virtual services packed: checkout-vs-1
# to -3 on checkout-se-1, -4 to -6 on checkout-se-2. max_vs_per_se = 3 leaves no spare slot, which
# is why the roll makes the Controller create replacements: a disabled SE's 3 virtual services find
# no room on the other and go to a new SE at the group's new settings (packed onto it, while it
# boots). The emulator holds the SEs' current CPU (se_stats.avg_cpu_usage, 12 five-minute samples
# of the last hour): highest 74% on checkout-se-1 and 70% on checkout-se-2, about what the sizing
# predicts for the old workload.
# The workload rises to 300,000 L7 RPS: 2 SEs of 6 vCPUs would run 73.2% + 26.1% = 99.3%, 3 of 4
# 65.4% + 24.4% = 89.7%, 3 of 5 (interpolated 179,000 RPS and 9,850 TPS) 55.9% + 20.3% = 76.2%: the
# plan takes vcpus_per_se 5, memory_per_se 10,240, max_se 4. With rollout { strategy = "rolling" }
# the plan decides the roll (docs/sizing.md, "The roll decided in the plan"):
#   step 1: checkout-se-1 out; checkout-vs-1, -2, -3 -> new SE 1 (5 vCPUs), which takes
#           checkout-se-1's 74% x 4 vCPUs = 296 vCPU-percent: 296 / 5 = 59.2%;
#   step 2: checkout-se-2 out; checkout-vs-4, -5, -6 -> new SE 2: 70 x 4 / 5 = 56.0% (new SE 1
#           keeps its 59.2%);
# so "Apply will roll 2 SEs", the capacity guard passing with the predicted peak 59.2% CPU on new
# SE 1 at step 1 (target 80%), and every guard named with its verdict. (The declared workload on the
# SE left with one out, the 0.3.0 guard, would be 300,000 / 153,000 + 6,000 / 8,200 = 269.2%:
# refused, issue 44 item 1.) Apply replaces both SEs, one at a time, with DELETE of a hosting SE
# allowed by the emulator (--delete-hosting-se) and no virtual service ever unplaced; the next
# plan is clean and silent (exit 0, no warning).
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# write_config L7_RPS [ROLLOUT]: checkout with that workload, and the rollout block's lines.
write_config() {
  local rollout=""
  [ -z "${2:-}" ] || rollout=$'\n  rollout {\n    '"$2"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "checkout" {
  name          = "checkout"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  max_vs_per_se = 3

  workload {
    l7_rps           = $1
    ssl_tps_ecc      = 6000
    virtual_services = 6
  }$rollout
}
EOF
}

step "checkout for 120,000 L7 RPS + 6,000 ECC TPS: 2 SEs of 4 vCPUs, 6 virtual services"
write_config 120000
tf init
tf apply -auto-approve
assert_json '[.vcpus_per_se, .memory_per_se, .max_se, .min_scaleout_per_vs]' '[4,8192,3,1]' \
  <(group_attr checkout .)
uuid=$(group_uuid checkout)
run_ses "$uuid" checkout 2 6
vs_layout "$uuid"
[ "$(vs_layout "$uuid")" = $'checkout-se-1: checkout-vs-1 checkout-vs-2 checkout-vs-3\ncheckout-se-2: checkout-vs-4 checkout-vs-5 checkout-vs-6' ] ||
  fail "the virtual services are not 3 a SE: $(vs_layout "$uuid")"
load_cpu "$uuid" 74 70
tf apply -refresh-only -auto-approve
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"

step "300,000 L7 RPS, rolling: the plan says Apply will roll 2 SEs, on the measured load"
write_config 300000 'strategy = "rolling"'
plan_json
roll=$(diagnostic "Apply will roll 2 SEs")
detail=$(jq -r .detail <<<"$roll")
echo "$detail"
[ "$(jq -r .severity <<<"$roll")" = warning ] || fail "the decision is not a warning: $roll"
[ "$(jq -r '.range.start.line' <<<"$roll")" = "$(grep -n 'strategy = "rolling"' "$TF_WORK/main.tf" | cut -d: -f1)" ] ||
  fail "the decision is not at the line of strategy: $roll"
printf '%s\n' "$detail" >"$TF_OUT_DIR/decision.txt"
for line in \
  "rollout: checkout-se-1 and -2 will be replaced (4 vCPUs -> 5, 8192 MB -> 10240), one at a time" \
  "step 1: checkout-se-1 out; checkout-vs-1, checkout-vs-2, checkout-vs-3 -> new SE 1; the Controller creates new SE 1 at 5 vCPUs; predicted CPU: new SE 1 (5 vCPUs) 59.2%" \
  "step 2: checkout-se-2 out; checkout-vs-4, checkout-vs-5, checkout-vs-6 -> new SE 2; the Controller creates new SE 2 at 5 vCPUs; predicted CPU: new SE 1 (5 vCPUs) 59.2%, new SE 2 (5 vCPUs) 56.0%" \
  "load: what the SEs carry now, the Controller's se_stats.avg_cpu_usage and se_stats.avg_mem_usage of each SE, the highest sample of the last 1 hour (300 s samples)" \
  "guard upgrade: passes: no upgrade running" \
  "guard ha-mode: passes: HA_MODE_SHARED: 2 running, 1 out at a time, 1 left; minimum 1" \
  "guard cloud: passes: cloud \"nsxt-cloud\" creates replacement SEs" \
  "guard license: passes: 1 replacement at a time needs 5 SUs" \
  "guard capacity: passes: predicted peak 59.2% CPU on new SE 1 at step 1, target 80%" \
  "guard placement: passes: packed placement, max_vs_per_se 3, min_scaleout_per_vs 1, max_se 4: every virtual service has a place; 2 new SEs at 5 vCPUs" \
  "note: connections on each SE that leaves get vs_scalein_timeout (30 s)"; do
  assert_contains "$TF_OUT_DIR/decision.txt" "$line"
done
assert_not_contains "$TF_OUT_DIR/decision.txt" "declared workload"
assert_not_contains "$TF_OUT_DIR/decision.txt" "REFUSES"
tf show -json tfplan
assert_json '.resource_changes[0].change.actions' '["update"]'
assert_json '.resource_changes[0].change.after.vcpus_per_se' 5
assert_json '.resource_changes[0].change.after_unknown.service_engines' true

step "apply: both SEs replaced at 5 vCPUs, one at a time, no virtual service unplaced"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
remember_se_names
tf apply -auto-approve tfplan
group_ses "$uuid"
[ "$(group_ses "$uuid" | awk '$2 == 5 && $3 == 10240 && $4 == "SE_STATE_ENABLED"' | wc -l)" = 2 ] ||
  fail "want 2 SEs of 5 vCPUs and 10,240 MB: $(group_ses "$uuid")"
[ "$(group_ses "$uuid" | wc -l)" = 2 ] || fail "want exactly 2 SEs: $(group_ses "$uuid")"
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 2 ] || fail "want 2 DELETEs: $(se_requests)"
[ "$(emu_count "PUT /api/serviceengine/{uuid}")" = 2 ] || fail "want 2 PUTs (a disable each): $(se_requests)"
assert_timeline_clean_of "$uuid"
# Where the virtual services went is what the plan said.
predicted=$(predicted_moves "$detail")
observed=$(observed_moves "$uuid")
[ "$predicted" = "$observed" ] || fail "the plan predicted
$predicted
the emulator placed
$observed"
assert_json '.last_rollout | [.result, .done]' '["complete",["checkout-se-1","checkout-se-2"]]' \
  <(group_attr checkout .)
assert_json '.service_engines | [.running, .matching]' '[2,2]' <(group_attr checkout .)

step "the next plan is clean and silent"
tf_plan_exits 0
assert_says "$TF_OUT" "No changes."
assert_not_contains "$TF_OUT" "Warning:"

pass
