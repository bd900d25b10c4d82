#!/usr/bin/env bash
# Scenario: the roll's guards and failures (issues 41 and 44), with the real terraform. Each case
# starts from a fresh emulator (200 ms boots and migrations, and the fault delete_hosting_se on:
# a DELETE of an SE that still hosts a virtual service succeeds and drops it) and the checkout
# group of se_group_rollout_lib.sh sized for 7,500 ECC SSL TPS: 3 active SEs of 2 vCPUs and
# 4,096 MB (1 vCPU would run 7,500 / (3 x 2,950) = 84.7%, over the 80% target), 3 running, 6
# virtual services (2 a SE) unless said, under rollout { strategy = "rolling" }. The emulator holds
# no samples of the SEs' CPU unless said, so the capacity guard judges the declared workload on the
# SEs left with 1 out, and the plan says so: 7,500 / (2 x 6,000) = 62.5% CPU, within the target,
# unless the load rises. A refusal is decided in the plan: a warning at the line of strategy naming
# the guard and its figures; apply then writes the group's settings only, exits 0, writes no SE
# (counted: no POST, PUT, PATCH or DELETE under /api/serviceengine), and the next plan exits 0
# while the cause stays. A failure during the roll stops it with its message, exits non-zero, and
# leaves no SE disabled; in every case no virtual service is ever without an SE (the timeline):
#   (a) licence: the ENTERPRISE tier keeps 1 Service Unit left; a replacement at 3 vCPUs needs 3
#       (rule service-units-per-se: one a vCPU): "Rollout refused by the license guard", naming 3
#       needed, 1 left and 2 to add. With the licence back, the plan shows the roll again.
#   (b) capacity without samples (the declared-workload fallback): the load becomes 300,000 L7
#       RPS (the sizing takes 4 vCPUs); with 1 of the 3 running SEs out, the 2 left at their real
#       2 vCPUs (94,000 RPS each on nsxt) would run 300,000 / (2 x 94,000) = 159.6% CPU, over the
#       80% target: refused, the plan saying the Controller has no samples of the SEs' load.
#   (f) the rise of (b) with observed_load and samples (the SEs measured at 20,000 L7 RPS and 25%
#       CPU each, a day at 5 minutes): the guard judges what the SEs carry now in observed_load's
#       window: each leaving SE's 2 virtual services go to a new SE of 4 vCPUs (no spare slot at
#       max_vs_per_se 2), which takes 25% x 2 = 50 vCPU-percent: 12.5% CPU; the roll goes on
#       and all 3 SEs end at 4 vCPUs.
#   (c) a no-access cloud (CLOUD_NONE, added through the emulator; 3 virtual services so that the
#       SEs have room for each other's): a reboot-only change (num_dispatcher_cores) still rolls,
#       each SE rebooted in place; a shape change is refused in the plan by the cloud guard,
#       saying what to do by hand.
#   (d) a failed migration (fault migrate_fail_next) on a reboot-only roll: it stops at
#       checkout-se-1 naming MIGRATE_SE_FAILED, enables it again (its disable and that enable are
#       the only SE writes) and never goes on to checkout-se-2.
#   (e) a replacement that never comes up (fault se_never_up_next) with timeout = "3s": it stops
#       at checkout-se-1 with the timeout's message ("SE rollout stopped", as a Ctrl-C) and
#       enables it again; nothing is deleted.
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# The workload (2 vCPUs), and the shape change of (a), (c) and (e).
WORKLOAD='ssl_tps_ecc = 7500'
VCPUS_AFTER=3
RESHAPE="vcpus_per_se = $VCPUS_AFTER"
ROLLING='strategy = "rolling"'

# fresh_checkout CLOUD [VSS]: a new emulator and a new state with checkout's 3 SEs and VSS virtual
# services (default 6) for WORKLOAD, in CLOUD (created as a no-access cloud first
# unless it is nsxt-cloud); counters and timeline start from there.
fresh_checkout() {
  emu_restart
  [ "$1" = nsxt-cloud ] || emu_control POST clouds "{\"name\": \"$1\"}" >/dev/null
  start_checkout "$1" "$WORKLOAD" "" "${2:-6}"
  emu_control POST timeline/reset >/dev/null
  emu_reset_counters
}

# apply_fails SUMMARY: `terraform apply` must fail with the error summary SUMMARY; prints its
# output.
apply_fails() {
  tf_fails apply -auto-approve
  cat "$TF_OUT"
  assert_says "$TF_OUT" "Error: $1"
}

# refused_in_plan GUARD TEXT...: the plan (an update of the group's settings, exit 2) warns
# "Rollout refused by the GUARD guard" and says each TEXT; `terraform apply` then exits 0 and
# writes no SE (counted), no SE is left disabled, no virtual service was unplaced, and the next
# plan exits 0 and warns again. (last_rollout keeps what it was: the caller checks it.)
refused_in_plan() {
  local guard=$1
  shift
  tf_plan_exits 2
  assert_says "$TF_OUT" "Warning: Rollout refused by the $guard guard"
  assert_says "$TF_OUT" "on main.tf line $(grep -n strategy "$TF_WORK/main.tf" | cut -d: -f1), in resource"
  for text in "$@"; do assert_says "$TF_OUT" "$text"; done
  assert_says "$TF_OUT" "Apply writes the group's settings only and touches no SE"
  emu_reset_counters
  tf apply -auto-approve
  assert_says "$TF_OUT" "Warning: Rollout refused by the $guard guard"
  [ "$(se_writes)" = 0 ] || fail "a refused roll wrote to an SE: $(se_requests)"
  [ "$(emu_count "PUT /api/serviceenginegroup/{uuid}")" = 1 ] || fail "the group was not written once"
  assert_no_se_disabled
  assert_timeline_clean
  tf_plan_exits 0
  assert_says "$TF_OUT" "Warning: Rollout refused by the $guard guard"
}

# assert_state_rollout RESULT DONE TO_DO: state's last_rollout result, done and to_do (JSON).
assert_state_rollout() {
  assert_json '.last_rollout | [.result, .done, .to_do]' "[\"$1\",$2,$3]" <(state_attr .)
}

all3='["checkout-se-1","checkout-se-2","checkout-se-3"]'

step "(a) too few licence units: refused in the plan, naming the units"
fresh_checkout nsxt-cloud
usage=$(emu_api GET /api/licensing/ledger/details |
  jq -c '.results[0].tier_usages[] | select(.tier == "ENTERPRISE") | .usage')
emu_control POST license "{\"licensed\": {\"ENTERPRISE\": $(jq '.consumed + .escrow + 1' <<<"$usage")}}" >/dev/null
write_checkout nsxt-cloud "$WORKLOAD" "$RESHAPE" "$ROLLING"
refused_in_plan license "guard license: REFUSES: 1 replacement at a time needs $VCPUS_AFTER SUs; the ENTERPRISE tier has 1 left" \
  "Free or add 2 SUs"
assert_json '.last_rollout' null <(state_attr .)
step "(a) the licence back: the plan shows the roll again"
emu_control POST license '{"licensed": {}}' >/dev/null
tf_plan_exits 2
assert_says "$TF_OUT" "Warning: Apply will roll 3 SEs"
assert_says "$TF_OUT" "rollout: checkout-se-1, -2 and -3 will be replaced"

step "(b) no samples: the declared workload on the 2 SEs left decides, and the plan says so"
fresh_checkout nsxt-cloud
write_checkout nsxt-cloud 'l7_rps = 300000' "" "$ROLLING"
refused_in_plan capacity "the Controller has no samples of the SEs' load" \
  "so with 1 of 3 running SEs out, the 2 left (at their real shape) would run the declared workload 300,000 L7 RPS at 159.6% CPU" \
  "target 80%"
assert_json '.last_rollout' null <(state_attr .)

step "(f) with observed_load the guard judges what the SEs carry now: the same rise rolls"
# The SEs measured a day at 20,000 L7 RPS and 25% CPU each: each leaving SE's share goes to a new
# SE of 4 vCPUs at 12.5%, under the target, so the roll to the new shape goes on.
fresh_checkout nsxt-cloud
mapfile -t se_uuids < <(emu_get /_emulator/state |
  jq -r --arg g "$CHECKOUT_UUID" '.serviceengine[] | select(.se_group_ref == $g) | .uuid')
series=$(python3 - "${se_uuids[@]}" <<'PY'
import json, sys
out = []
for se in sys.argv[1:]:
    out.append({"entity_uuid": "virtualservice-web", "serviceengine_uuid": se,
                "metric_id": "l7_client.avg_complete_responses", "step": 300,
                "values": [20000.0] * 288})
    out.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 300,
                "values": [25.0] * 288})
print(json.dumps({"series": out}))
PY
)
emu_control POST metrics "$series" >/dev/null
write_checkout nsxt-cloud 'l7_rps = 300000' $'observed_load {\n    window = "24h"\n  }' "$ROLLING"
tf plan
assert_says "$TF_OUT" "Warning: Apply will roll 3 SEs"
assert_says "$TF_OUT" "load: what the SEs carry now"
assert_says "$TF_OUT" "guard capacity: passes: predicted peak 12.5% CPU on new SE 1 at step 1, target 80%"
assert_not_says "$TF_OUT" "no samples of the SEs' load"
# The provider's log at INFO (TRACE, in files, when the harness traces) has the guard's figures.
TF_LOG_PROVIDER=${TF_LOG_PROVIDER:-INFO} tf apply -auto-approve
grep -rqF "rollout decision: guard capacity: passes: predicted peak 12.5% CPU" \
  "$TF_OUT_DIR" || fail "no INFO line with the capacity guard's figures"
[ "$(checkout_ses | awk '$2 == 4' | wc -l)" = 3 ] || fail "not 3 SEs of 4 vCPUs: $(checkout_ses)"
assert_no_se_disabled
assert_timeline_clean
assert_state_rollout complete "$all3" '[]'

step "(c) a no-access cloud: a reboot-only change still rolls"
fresh_checkout manual-cloud 3
write_checkout manual-cloud "$WORKLOAD" "num_dispatcher_cores = 1" "$ROLLING"
tf apply -auto-approve
[ "$(emu_count "POST /api/serviceengine/{uuid}/reboot")" = 3 ] || fail "want 3 reboots: $(se_requests)"
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 0 ] || fail "deleted an SE in a no-access cloud"
[ "$(checkout_ses | wc -l)" = 3 ] || fail "want the same 3 SEs: $(checkout_ses)"
assert_no_se_disabled
assert_timeline_clean
assert_state_rollout complete "$all3" '[]'

step "(c) a no-access cloud: a shape change is refused in the plan, saying what to do by hand"
write_checkout manual-cloud "$WORKLOAD" "num_dispatcher_cores = 1
  $RESHAPE" "$ROLLING"
refused_in_plan cloud "\"manual-cloud\" is a no-access cloud" \
  "By hand, for each of checkout-se-1, checkout-se-2, checkout-se-3"
assert_state_rollout complete "$all3" '[]'

step "(d) a failed migration stops the roll at checkout-se-1 and gives it back"
fresh_checkout nsxt-cloud
emu_faults '{"migrate_fail_next": 1}'
write_checkout nsxt-cloud "$WORKLOAD" "num_dispatcher_cores = 1" "$ROLLING"
apply_fails "SE rollout failed"
assert_says "$TF_OUT" "rollout stopped at checkout-se-1"
assert_says "$TF_OUT" "MIGRATE_SE_FAILED"
assert_says "$TF_OUT" "checkout-se-1 was enabled again"
assert_says "$TF_OUT" "Done: none. To do: checkout-se-1, checkout-se-2, checkout-se-3."
[ "$(emu_count "PUT /api/serviceengine/{uuid}")" = 2 ] ||
  fail "want 2 PUTs (the disable, the enable again): $(se_requests)"
[ "$(emu_count "POST /api/serviceengine/{uuid}/reboot")" = 0 ] || fail "rebooted after a failed migration"
migrations=$(emu_control GET timeline | jq '[.events[] | select(.kind == "MIGRATE_SE_STARTED")] | length')
[ "$migrations" = 1 ] || fail "the roll went on after the failed migration ($migrations started)"
assert_no_se_disabled
assert_timeline_clean
assert_state_rollout failed '[]' "$all3"

step "(e) a replacement that never comes up: the per-SE timeout stops the roll"
fresh_checkout nsxt-cloud
emu_faults '{"se_never_up_next": 1}'
write_checkout nsxt-cloud "$WORKLOAD" "$RESHAPE" "$ROLLING
    timeout  = \"3s\""
apply_fails "SE rollout stopped"
assert_says "$TF_OUT" "rollout stopped at checkout-se-1"
assert_says "$TF_OUT" "the per-SE timeout (3s) ran out"
assert_says "$TF_OUT" "checkout-se-1 was enabled again"
assert_says "$TF_OUT" "To do: checkout-se-1, checkout-se-2, checkout-se-3."
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 0 ] || fail "deleted an SE without its replacement up"
[ "$(emu_count "PUT /api/serviceengine/{uuid}")" = 2 ] ||
  fail "want 2 PUTs (the disable, the enable again): $(se_requests)"
assert_no_se_disabled
assert_timeline_clean
assert_state_rollout stopped '[]' "$all3"

pass
