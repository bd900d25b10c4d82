#!/usr/bin/env bash
# Scenario: Ctrl-C in the middle of a roll (issues 41 and 44), with the real terraform. The
# checkout group of se_group_rollout_test.sh (3 SEs of 2 vCPUs, 6 virtual services, 2 a SE) rolls
# to vcpus_per_se = 3 under rollout { strategy = "rolling" } with slow SEs, and the emulator's
# fault delete_hosting_se on (a DELETE of an SE still hosting a virtual service would drop it, so
# a roll that deleted the interrupted SE would show unplaced instants): the emulator takes 2 s to
# boot an SE and 2 s to migrate a disabled one, so each SE's replacement takes some 2 to 4 s (the
# poll doubles from 250 ms), long enough to interrupt it. Once checkout-se-1 is gone and
# checkout-se-2 is disabled (the emulator's timeline shows its migration started), one SIGINT to
# terraform's process group (Ctrl-C: Terraform asks the provider to stop, StopProvider, and waits
# for it):
#   - apply exits non-zero; its error says the roll stopped and names the SEs done
#     (checkout-se-1) and to do (checkout-se-2, checkout-se-3); checkout-se-2 is enabled again;
#   - no SE has enable_state SE_STATE_DISABLED and the timeline never shows a virtual service
#     without an SE;
#   - state kept the roll's progress (last_rollout "stopped", replacements_kept 1: the replacement
#     the Controller had already made for checkout-se-2 stays), so the next plan is an update that
#     decides the roll of the SEs still to do: "Apply will roll 2 SEs", checkout-se-2's virtual
#     services going to the replacement the Controller had already created for it (checkout-se-5,
#     at 3 vCPUs: a spare the placement guard counts from last_rollout.replacements_kept), and
#     checkout-se-3's to a new SE; a second apply (fast SEs again) finishes the roll, and the
#     plan after it is clean.
EMU_ARGS=(--se-boot-ms 2000 --se-migration-ms 2000 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# The workload and the shape change, as in se_group_rollout_test.sh (2 vCPUs -> 3).
WORKLOAD='ssl_tps_ecc = 7500'
RESHAPE='vcpus_per_se = 3'
ROLLING='strategy = "rolling"'

# migrations_started: how many migrations the timeline shows started since its reset.
migrations_started() {
  emu_control GET timeline | jq '[.events[] | select(.kind == "MIGRATE_SE_STARTED")] | length'
}

step "checkout with 3 running SEs and 6 virtual services"
start_checkout nsxt-cloud "$WORKLOAD"

step "apply vcpus_per_se = 3 with rollout rolling, in the background"
write_checkout nsxt-cloud "$WORKLOAD" "$RESHAPE" "$ROLLING"
emu_control POST timeline/reset >/dev/null
tf_start apply -auto-approve
# The second SE's migration started: checkout-se-1 is replaced, checkout-se-2 disabled.
for _ in $(seq 1 600); do
  [ "$(migrations_started)" -ge 2 ] && break
  kill -0 "$TF_BG" 2>/dev/null || break
  sleep 0.1
done
[ "$(migrations_started)" -ge 2 ] || {
  tf_wait || true
  cat "$TF_OUT" >&2
  fail "the roll never got to the second SE"
}
checkout_ses
grep -q "^checkout-se-2 .* SE_STATE_DISABLED$" <<<"$(checkout_ses)" ||
  fail "checkout-se-2 is not disabled when the roll is interrupted: $(checkout_ses)"

step "Ctrl-C: the roll stops after its current step and gives checkout-se-2 back"
tf_interrupt
rc=0
tf_wait || rc=$?
cat "$TF_OUT"
[ "$rc" -ne 0 ] || fail "an interrupted roll exited 0"
assert_says "$TF_OUT" "Error: SE rollout stopped"
assert_says "$TF_OUT" "checkout-se-2 was enabled again"
assert_says "$TF_OUT" "Done: checkout-se-1."
assert_says "$TF_OUT" "To do: checkout-se-2, checkout-se-3."
assert_no_se_disabled
assert_timeline_clean
assert_json '.last_rollout | [.result, .done, .to_do]' \
  '["stopped",["checkout-se-1"],["checkout-se-2","checkout-se-3"]]' <(state_attr .)
# The replacement the Controller had already made for checkout-se-2 (checkout-se-5, at the new
# shape) stays, and state counts it for the next roll.
assert_json '.last_rollout.replacements_kept' 1 <(state_attr .)
[ "$(checkout_ses | awk '$2 == 3' | wc -l)" = 2 ] ||
  fail "want checkout-se-1's replacement and checkout-se-2's at 3 vCPUs: $(checkout_ses)"

step "the next plan is an update that names the SEs still to do"
emu_control POST timing '{"boot_ms": 200, "migration_ms": 200}' >/dev/null
tf plan -out=tfplan
assert_says "$TF_OUT" "Warning: Apply will roll 2 SEs"
assert_says "$TF_OUT" "rollout: checkout-se-2 and -3 will be replaced"
assert_says "$TF_OUT" "step 1: checkout-se-2 out; checkout-vs-3, checkout-vs-4 -> checkout-se-5"
assert_says "$TF_OUT" "step 2: checkout-se-3 out; checkout-vs-5, checkout-vs-6 -> new SE 1"
tf show -json tfplan
assert_json '.resource_changes[0].change.actions' '["update"]'

step "a second apply finishes the roll; the next plan is clean"
emu_control POST timeline/reset >/dev/null
tf apply -auto-approve tfplan
assert_json '.last_rollout | [.result, .done, .to_do]' \
  '["complete",["checkout-se-2","checkout-se-3"],[]]' <(state_attr .)
vcpus=$(state_attr .vcpus_per_se)
memory=$(state_attr .memory_per_se)
ses=$(checkout_ses)
echo "$ses"
awk -v v="$vcpus" -v m="$memory" '$2 != v || $3 != m { bad = 1 } END { exit bad }' <<<"$ses" ||
  fail "an SE is not at $vcpus vCPUs and $memory MB: $ses"
grep -q "^checkout-se-[123] " <<<"$ses" && fail "an old SE is still there: $ses"
assert_no_se_disabled
assert_timeline_clean
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"

pass
