#!/usr/bin/env bash
# Scenario: the plan's prediction of where each leaving SE's virtual services go equals what the
# Controller does (issue 44 item 4), for three placement set-ups, with the real terraform. Three
# groups on nsxt-cloud without a workload block, SEs of 2 vCPUs and 4,096 MB at 30% CPU (the
# emulator's se_stats.avg_cpu_usage), all asked for vcpus_per_se = 4 (8,192 MB) with
# rollout { strategy = "rolling" } in one apply. The emulator places exactly as docs/emulator.md
# says (packed: the fullest SE with room, the oldest on a tie; distributed: a new SE while the
# group is under max_se, else the emptiest), and so does the plan's simulation (docs/sizing.md):
# The emulator numbers the virtual services across the groups in the order they are placed:
# packed-vs-1 to -6, scaleout-vs-7 to -10, spread-vs-11 to -16.
#   - packed: 3 SEs, 2 virtual services each, max_vs_per_se 2 (no spare slot), max_se 4. Each
#     step: the leaving SE's 2 go to a new SE (packed onto it while it boots), the old one is
#     deleted before the next step frees its max_se place:
#       step 1 packed-vs-1, -2 -> new SE 1; step 2 -3, -4 -> new SE 2; step 3 -5, -6 -> new SE 3.
#   - scaleout: 2 SEs, 4 virtual services each on both (min_scaleout_per_vs 2), max_se 4. A leaving
#     SE's virtual services keep their place on the other and need a second SE that stays:
#       step 1 scaleout-vs-7..10 -> new SE 1; step 2 (new SE 1 hosts them all) -> new SE 2.
#   - spread: algo PLACEMENT_ALGO_DISTRIBUTED (extra_fields), 3 SEs, 6 virtual services placed
#     while max_se was 3 (so 2 a SE, the emptiest first: spread-vs-11 and -14 on spread-se-1, -12
#     and -15 on spread-se-2, -13 and -16 on spread-se-3), then max_se 5 with the resize. A new SE for each displaced
#     virtual service while the group (the leaving SE counted) has fewer than 5 SEs, else the
#     emptiest, the oldest on a tie:
#       step 1 (3 SEs): spread-vs-11 -> new SE 1, then (4 SEs, under 5) spread-vs-14 -> new SE 2;
#       step 2 (4 SEs): spread-vs-12 -> new SE 3, then (5 SEs) spread-vs-15 -> new SE 1 (1
#       virtual service, the oldest of new SE 1, 2, 3);
#       step 3 (4 SEs): spread-vs-13 -> new SE 4, then spread-vs-16 -> new SE 2 (new SE 1 has 2).
# The group settings are applied first with strategy "none" (the SEs then lag), so that
# `controller rollout GROUP --dry-run` reads the same group as the plan: its step lines are the
# plan's. The rolling apply then runs all three rolls (the emulator allows DELETE of a hosting SE,
# --delete-hosting-se): for each group the predicted destinations, "new SE K" being the K-th SE
# the emulator created for that group, equal the emulator timeline's placements (vs_placed or
# vs_pending) between one MIGRATE_SE_STARTED and the next, and no virtual service is ever
# unplaced.
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# write_groups VCPUS SPREAD_MAX_SE [ROLLOUT]: main.tf with the three groups at VCPUS (2,048 MB a
# vCPU), spread's max_se, and the rollout block's lines in each.
write_groups() {
  local rollout=""
  [ -z "${3:-}" ] || rollout=$'\n  rollout {\n    '"$3"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "packed" {
  name          = "packed"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  vcpus_per_se  = $1
  memory_per_se = $(($1 * 2048))
  max_se        = 4
  max_vs_per_se = 2$rollout
}

resource "nsxalb_se_group" "scaleout" {
  name                = "scaleout"
  cloud               = "nsxt-cloud"
  platform            = "nsxt"
  vcpus_per_se        = $1
  memory_per_se       = $(($1 * 2048))
  max_se              = 4
  min_scaleout_per_vs = 2$rollout
}

resource "nsxalb_se_group" "spread" {
  name          = "spread"
  cloud         = "nsxt-cloud"
  platform      = "nsxt"
  vcpus_per_se  = $1
  memory_per_se = $(($1 * 2048))
  max_se        = $2
  extra_fields  = jsonencode({ algo = "PLACEMENT_ALGO_DISTRIBUTED" })$rollout
}
EOF
}
NAMES=(packed scaleout spread)

step "three groups of 2 vCPUs at 30% CPU: packed, min_scaleout_per_vs 2, distributed"
write_groups 2 3
tf init
tf apply -auto-approve
declare -A uuid
for g in "${NAMES[@]}"; do uuid[$g]=$(group_uuid "$g"); done
run_ses "${uuid[packed]}" packed 3 6
run_ses "${uuid[scaleout]}" scaleout 2 4
run_ses "${uuid[spread]}" spread 3 6
for g in "${NAMES[@]}"; do
  echo "$g:"
  vs_layout "${uuid[$g]}" | sed 's/^/  /'
done
[ "$(vs_layout "${uuid[spread]}")" = $'spread-se-1: spread-vs-11 spread-vs-14\nspread-se-2: spread-vs-12 spread-vs-15\nspread-se-3: spread-vs-13 spread-vs-16' ] ||
  fail "spread's virtual services are not as the header says: $(vs_layout "${uuid[spread]}")"
[ "$(vs_layout "${uuid[scaleout]}" | awk '{ print NF - 1 }' | tr '\n' ' ')" = "4 4 " ] ||
  fail "scaleout's virtual services are not on both SEs: $(vs_layout "${uuid[scaleout]}")"
load_cpu "${uuid[packed]}" 30 30 30
load_cpu "${uuid[scaleout]}" 30 30
load_cpu "${uuid[spread]}" 30 30 30

step "the new settings, strategy none: the SEs lag, nothing rolls"
write_groups 4 5
emu_reset_counters
tf apply -auto-approve
assert_no_se_write "strategy none"

step "rolling: the plan decides each roll"
write_groups 4 5 'strategy = "rolling"'
plan_json
declare -A detail
for g in "${NAMES[@]}"; do
  detail[$g]=$(jq -r --arg a "nsxalb_se_group.$g" 'select(.type == "diagnostic"
    and .diagnostic.address == $a and (.diagnostic.summary | startswith("Apply will roll")))
    | .diagnostic.detail' "$TF_STDOUT")
  [ -n "${detail[$g]}" ] || fail "no roll decided for $g: $(jq -c 'select(.type == "diagnostic") | .diagnostic | [.address, .summary]' "$TF_STDOUT")"
  echo "$g:"
  printf '%s\n' "${detail[$g]}" | sed 's/^/  /'
done
# The header's predictions.
[ "$(predicted_moves "${detail[packed]}")" = "$(printf '%s\n' "1 packed-vs-1 new SE 1" \
  "1 packed-vs-2 new SE 1" "2 packed-vs-3 new SE 2" "2 packed-vs-4 new SE 2" \
  "3 packed-vs-5 new SE 3" "3 packed-vs-6 new SE 3")" ] ||
  fail "packed: $(predicted_moves "${detail[packed]}")"
[ "$(predicted_moves "${detail[scaleout]}")" = "$(for s in 1 2; do for v in 7 8 9 10; do
  echo "$s scaleout-vs-$v new SE $s"; done; done)" ] ||
  fail "scaleout: $(predicted_moves "${detail[scaleout]}")"
[ "$(predicted_moves "${detail[spread]}")" = "$(printf '%s\n' "1 spread-vs-11 new SE 1" \
  "1 spread-vs-14 new SE 2" "2 spread-vs-12 new SE 3" "2 spread-vs-15 new SE 1" \
  "3 spread-vs-13 new SE 4" "3 spread-vs-16 new SE 2")" ] ||
  fail "spread: $(predicted_moves "${detail[spread]}")"

step "controller rollout --dry-run prints the plan's steps"
for g in "${NAMES[@]}"; do
  "$TF_PROVIDER_BINARY" controller rollout "$g" --cloud nsxt-cloud --dry-run \
    >"$TF_OUT_DIR/dry-$g.out" 2>&1 || fail "$g: the dry run failed: $(cat "$TF_OUT_DIR/dry-$g.out")"
  grep -qx "Apply will roll [0-9]* SEs" "$TF_OUT_DIR/dry-$g.out" ||
    fail "$g: the dry run does not say it will roll: $(cat "$TF_OUT_DIR/dry-$g.out")"
  [ "$(sed -n 's/^  \(step [0-9]*: .*\)/\1/p' "$TF_OUT_DIR/dry-$g.out")" = "$(grep '^step [0-9]*: ' <<<"${detail[$g]}")" ] ||
    fail "$g: the dry run's steps are not the plan's: $(cat "$TF_OUT_DIR/dry-$g.out")"
done

step "apply: the three rolls, each virtual service where the plan said"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
remember_se_names
tf apply -auto-approve tfplan
for g in "${NAMES[@]}"; do
  echo "$g:"
  group_ses "${uuid[$g]}" | sed 's/^/  /'
  group_ses "${uuid[$g]}" | awk '$2 != 4 || $4 != "SE_STATE_ENABLED" { bad = 1 } END { exit bad }' ||
    fail "$g: an SE is not enabled at 4 vCPUs: $(group_ses "${uuid[$g]}")"
  assert_timeline_clean_of "${uuid[$g]}"
  predicted=$(predicted_moves "${detail[$g]}")
  observed=$(observed_moves "${uuid[$g]}")
  [ "$predicted" = "$observed" ] || fail "$g: the plan predicted
$predicted
the emulator placed
$observed"
  echo "  moves as predicted: $(wc -l <<<"$observed")"
done
[ "$(group_ses "${uuid[spread]}" | wc -l)" = 4 ] || fail "spread: want 4 new SEs"
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"

pass
