#!/usr/bin/env bash
# Scenario: rolling the running SEs to the group's new shape (issues 41 and 44), with the real
# terraform. The checkout group on nsxt-cloud (write access: the emulated Controller creates the
# replacements) is sized for 7,500 ECC SSL TPS: 3 active SEs (6 virtual services at
# max_vs_per_se 2, se_group_rollout_lib.sh) of 2 vCPUs and 4,096 MB (1 vCPU would run
# 7,500 / (3 x 2,950) = 84.7%, over the 80% target), max_se 4. The emulator runs 3 SEs at that
# shape and places the 6 virtual services on them, 2 a SE, and holds each SE's CPU now at 40%
# (se_stats.avg_cpu_usage, the highest 5-minute sample of the last hour). The team then gives the
# SEs headroom: vcpus_per_se = 3 (the sizing follows with 6,144 MB). Every roll here runs with
# the emulator's fault delete_hosting_se (--delete-hosting-se): a DELETE of an SE that still hosts
# a virtual service succeeds and drops it, so a roll that deleted too early would show unplaced
# instants.
#   - rollout { strategy = "rolling" }: the plan is an update whose service_engines and
#     last_rollout are known after apply and warns "Apply will roll 3 SEs" at the line of
#     strategy (rules rollout-planned, roll-decided-in-plan): "rollout: checkout-se-1, -2 and -3
#     will be replaced ...", and each step as the Controller places: no SE has a spare slot, so
#     the leaving SE's 2 virtual services go to a new SE of 3 vCPUs, which takes the leaving SE's
#     40% x 2 vCPUs = 80 vCPU-percent: 80 / 3 = 26.7% CPU, the predicted peak (target 80%).
#     Apply ends with 3 of 3 SEs at the new shape, the emulator's timeline shows no virtual
#     service ever unplaced and never more than 1 SE out, the provider's log at INFO has the
#     decision and each step ("checkout-se-2: disabled, 2 virtual services migrating"),
#     last_rollout says complete with 3 done; the next plan has no changes and no warning.
#   - a reboot-only change (num_dispatcher_cores 0 -> 1): the 3 SEs rebooted one at a time, none
#     left disabled or reboot-pending; the next plan has no changes and says nothing of the SEs.
#     (The new SEs have no samples yet: the capacity guard falls back to the declared workload,
#     7,500 ECC TPS on the 2 SEs left, and says so.)
#   - the default strategy (no rollout block) while the SEs lag (vcpus_per_se back to the
#     sizing's 2): apply writes the group only, no SE write at all (counted), and the plan has
#     no changes; with the block back the plan decides the roll again although no setting
#     changes: refused by the placement guard while an SE the reboot-only roll emptied is there
#     (the leaving SE's virtual services would move onto it, and no replacement would come; apply
#     writes no SE and the next plan exits 0), a roll (an update) once the Controller
#     deprovisions it.
# The Controller requests of each roll (emulator counters), measured on a 2-core machine with
# 200 ms boots and migrations; the writes are asserted, the reads grow with
# the poll count (Observe: GET the SE, its runtime and its inventory), so they are only bounded
# (at most 40 SE reads an SE, against a poll that would spin):
#   shape roll of 3 SEs:       PUT /api/serviceengine/{uuid} 3 (a disable each), DELETE 3;
#                              GET /api/serviceengine/{uuid} 12, .../runtime 24,
#                              /api/serviceengine-inventory/{uuid} 24, the group's listing
#                              GET /api/serviceengine 7; GET /api/licensing/ledger/details 2;
#                              80 or 81 requests in all
#   reboot-only roll of 3 SEs: PUT 6 (disable and enable each), POST .../reboot 3, DELETE 0;
#                              GET /api/serviceengine/{uuid} 24, .../runtime 21, inventory 21,
#                              listing 4; no ledger read; 84 requests in all
# (docs/design/se-group-resource.md, "Rolling the SEs: Controller requests").
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=se_group_rollout_lib.sh
source "$(dirname "$0")/se_group_rollout_lib.sh"

# The workload, the SEs' shape before, and the shape change (worked in the header).
WORKLOAD='ssl_tps_ecc = 7500'
VCPUS_BEFORE=2
VCPUS_AFTER=3
RESHAPE="vcpus_per_se = $VCPUS_AFTER"
ROLLING='strategy = "rolling"'

# print_se_requests TITLE: the roll's SE requests, one line each, for the log and the docs; and
# at most 40 SE reads an SE of the 3 (a poll that spins fails).
print_se_requests() {
  local reads
  echo "Controller requests of the $1 (SE requests; total $(emu_counters | jq .total)):"
  se_requests | sed 's/^/  /'
  echo "  GET /api/licensing/ledger/details $(emu_count "GET /api/licensing/ledger/details")"
  reads=$(se_requests | awk '$1 == "GET" { n += $3 } END { print n + 0 }')
  [ "$reads" -le 120 ] || fail "the $1 read the SEs $reads times, more than 40 an SE"
}

step "checkout for 7,500 ECC TPS: 3 SEs of $VCPUS_BEFORE vCPUs, 6 virtual services"
start_checkout nsxt-cloud "$WORKLOAD"
[ "$(state_attr .vcpus_per_se)" = "$VCPUS_BEFORE" ] ||
  fail "vcpus_per_se is $(state_attr .vcpus_per_se), not $VCPUS_BEFORE"
memory_before=$(state_attr .memory_per_se)
[ "$(checkout_ses | awk -v v="$VCPUS_BEFORE" -v m="$memory_before" '$2 == v && $3 == m' | wc -l)" = 3 ] ||
  fail "not 3 SEs at $VCPUS_BEFORE vCPUs and $memory_before MB: $(checkout_ses)"
load_cpu "$CHECKOUT_UUID" 40 40 40
tf_plan_exits 0
assert_not_contains "$TF_OUT" "Warning:"
assert_json '.last_rollout' null <(state_attr .)

step "vcpus_per_se = $VCPUS_AFTER, rollout rolling: the plan is an update and warns Apply will roll 3 SEs"
write_checkout nsxt-cloud "$WORKLOAD" "$RESHAPE" "$ROLLING"
tf plan -out=tfplan
plan=$TF_OUT
tf show -json tfplan
assert_json '.resource_changes[0].change.actions' '["update"]'
assert_json '.resource_changes[0].change.after.vcpus_per_se' "$VCPUS_AFTER"
assert_json '.resource_changes[0].change.after_unknown.service_engines' true
assert_json '.resource_changes[0].change.after_unknown.last_rollout' true
memory_after=$(jq '.resource_changes[0].change.after.memory_per_se' "$TF_STDOUT")
[ "$memory_after" -gt "$memory_before" ] || fail "memory_per_se does not grow: $memory_after"
assert_says "$plan" "Warning: Apply will roll 3 SEs"
assert_says "$plan" "on main.tf line $(grep -n strategy "$TF_WORK/main.tf" | cut -d: -f1), in resource"
assert_says "$plan" "rollout: checkout-se-1, -2 and -3 will be replaced ($VCPUS_BEFORE vCPUs -> $VCPUS_AFTER, $memory_before MB -> $memory_after), one at a time"
assert_says "$plan" "step 1: checkout-se-1 out; checkout-vs-1, checkout-vs-2 -> new SE 1; the Controller creates new SE 1 at $VCPUS_AFTER vCPUs; predicted CPU: new SE 1 ($VCPUS_AFTER vCPUs) 26.7%"
assert_says "$plan" "guard capacity: passes: predicted peak 26.7% CPU on new SE 1 at step 1, target 80%"
assert_says "$plan" "rollout-planned"
assert_says "$plan" "service_engines"
assert_says "$plan" "(known after apply)"

step "apply: 3 of 3 SEs replaced at $VCPUS_AFTER vCPUs, one at a time, no virtual service unplaced"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
# The provider's log at INFO (TRACE when the harness traces) shows each step.
TF_LOG_PROVIDER=${TF_LOG_PROVIDER:-INFO} tf apply -auto-approve tfplan
grep -rqF "rollout decision: guard capacity: passes: predicted peak 26.7% CPU" "$TF_OUT_DIR" ||
  fail "no INFO line for the decision in the provider's log"
grep -rqF "checkout-se-2: disabled, 2 virtual services migrating" "$TF_OUT_DIR" ||
  fail "no INFO line for checkout-se-2's disable in the provider's log"
grep -rqF "checkout-se-2: deleted" "$TF_OUT_DIR" || fail "no INFO line for checkout-se-2's delete"
print_se_requests "shape roll"
[ "$(emu_count "PUT /api/serviceengine/{uuid}")" = 3 ] ||
  fail "want 3 PUTs (a disable each), got $(emu_count "PUT /api/serviceengine/{uuid}")"
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 3 ] || fail "want 3 DELETEs"
[ "$(emu_count "POST /api/serviceengine/{uuid}/reboot")" = 0 ] || fail "a shape roll rebooted an SE"
ses=$(checkout_ses)
echo "$ses"
[ "$(awk -v v="$VCPUS_AFTER" -v m="$memory_after" '$2 == v && $3 == m' <<<"$ses" | wc -l)" = 3 ] ||
  fail "want 3 SEs at $VCPUS_AFTER vCPUs and $memory_after MB: $ses"
[ "$(wc -l <<<"$ses")" = 3 ] || fail "want exactly 3 SEs: $ses"
assert_no_se_disabled
assert_timeline_clean
assert_json '.last_rollout | [.result, .done, .to_do]' \
  '["complete",["checkout-se-1","checkout-se-2","checkout-se-3"],[]]' <(state_attr .)
assert_json '.service_engines | [.running, .matching, (.lagging | length)]' '[3,3,0]' <(state_attr .)

step "the next plan has no changes and says nothing"
tf_plan_exits 0
assert_says "$TF_OUT" "No changes."
assert_not_contains "$TF_OUT" "Warning:"

step "a reboot-only change (num_dispatcher_cores = 1): the plan says the SEs will be rebooted"
write_checkout nsxt-cloud "$WORKLOAD" "$RESHAPE
  num_dispatcher_cores = 1" "$ROLLING"
tf plan -out=tfplan
plan=$TF_OUT
assert_says "$plan" "Warning: Apply will roll 3 SEs"
assert_says "$plan" "rollout: checkout-se-4, -5 and -6 will be rebooted (num_dispatcher_cores), one at a time"
assert_says "$plan" "the Controller has no samples of the SEs' load"
assert_says "$plan" "rollout-planned"
tf show -json tfplan
assert_json '.resource_changes[0].change.actions' '["update"]'

step "apply: each SE disabled, rebooted and enabled again, one at a time"
emu_control POST timeline/reset >/dev/null
emu_reset_counters
tf apply -auto-approve tfplan
print_se_requests "reboot-only roll"
[ "$(emu_count "PUT /api/serviceengine/{uuid}")" = 6 ] ||
  fail "want 6 PUTs (disable and enable each), got $(emu_count "PUT /api/serviceengine/{uuid}")"
[ "$(emu_count "POST /api/serviceengine/{uuid}/reboot")" = 3 ] || fail "want 3 reboots"
[ "$(emu_count "DELETE /api/serviceengine/{uuid}")" = 0 ] || fail "a reboot-only roll deleted an SE"
assert_timeline_clean
# Each SE that was there before went down for its reboot (OPER_DOWN in the timeline).
rebooted=$(emu_control GET timeline | jq -c '[.events[] | select(.kind == "se_state" and .oper == "OPER_DOWN") | .se] | unique | length')
[ "$rebooted" = 3 ] || fail "want 3 SEs rebooted, the timeline shows $rebooted"
assert_no_se_disabled
runtime=$(checkout_runtime)
echo "$runtime"
jq -s -e 'length >= 3 and all(.enable_state == "SE_STATE_ENABLED" and .oper == "OPER_UP" and (.pending | not))' \
  <<<"$runtime" >/dev/null || fail "an SE is not up, enabled and without a reboot pending: $runtime"
assert_json '.last_rollout | [.result, .done, .to_do]' \
  '["complete",["checkout-se-4","checkout-se-5","checkout-se-6"],[]]' <(state_attr .)
# The plan still warns that 1 dispatcher is unusual below 4 vCPUs (the sizing's rule
# dispatchers-one-per-three-vcpus, the price of a reboot-only field that every nsxt size has),
# but nothing about the SEs.
tf_plan_exits 0
assert_not_says "$TF_OUT" "lag its settings"
assert_not_says "$TF_OUT" "rollout"

step "the default strategy while the SEs lag: apply writes the group and no SE"
write_checkout nsxt-cloud "$WORKLOAD" "num_dispatcher_cores = 1"
emu_reset_counters
tf apply -auto-approve
se_requests
[ "$(se_writes)" = 0 ] || fail "strategy none wrote to an SE: $(se_requests)"
[ "$(emu_count "PUT /api/serviceenginegroup/{uuid}")" = 1 ] || fail "the group was not written once"
tf_plan_exits 0
assert_says "$TF_OUT" "No changes."
assert_says "$TF_OUT" "(rule ses-behind-settings)"
assert_says "$TF_OUT" 'Or set rollout { strategy = "rolling" } and apply does this for you'
assert_not_says "$TF_OUT" "rollout-planned"
[ "$(se_writes)" = 0 ] || fail "a plan wrote to an SE"

step "the rollout block back, no setting changed: the plan decides the roll again"
# The reboot-only roll left 4 SEs: the Controller created one for checkout-se-4's virtual
# services, and each rebooted SE came back empty for the next one's, so the last one,
# checkout-se-6, hosts none. Disabled, checkout-se-4's 2 virtual services would go to it (packed:
# the only SE with room) and the Controller would create no replacement at max_se 4: the
# placement guard refuses; apply writes no SE, and the next plan has no changes.
hosting=$(emu_control GET virtualservices | jq -c '[.results[].se_uuids[]]')
empty=$(emu_get /_emulator/state | jq -r --arg g "$CHECKOUT_UUID" --argjson hosting "$hosting" \
  '.serviceengine[] | select(.se_group_ref == $g and ([.uuid] | inside($hosting) | not))
   | "\(.name) \(.uuid)"')
[ "$(wc -l <<<"$empty")" = 1 ] || fail "want one SE hosting nothing: '$empty' ($(checkout_ses))"
write_checkout nsxt-cloud "$WORKLOAD" "num_dispatcher_cores = 1" "$ROLLING"
# An update all the same: the rollout block is new in the configuration.
tf_plan_exits 2
assert_says "$TF_OUT" "Warning: Rollout refused by the placement guard"
assert_says "$TF_OUT" "will be replaced ($VCPUS_AFTER vCPUs -> $VCPUS_BEFORE"
assert_says "$TF_OUT" "-> ${empty%% *}"
assert_says "$TF_OUT" "raise max_se to 5"
# The group rolls already: ses-behind-settings does not tell it to.
assert_says "$TF_OUT" "(rule ses-behind-settings)"
assert_not_says "$TF_OUT" "Or set rollout"
emu_reset_counters
tf apply -auto-approve
[ "$(se_writes)" = 0 ] || fail "a refused roll wrote to an SE: $(se_requests)"
tf_plan_exits 0
assert_says "$TF_OUT" "Warning: Rollout refused by the placement guard"

step "the idle SE deprovisioned: the plan is an update that rolls, no setting changed"
# What the Controller does after the group's se_deprovision_delay; here at once.
_emu_curl --fail-with-body -X DELETE "$EMU_URL/_emulator/serviceengines/${empty##* }" >/dev/null ||
  fail "deleting the idle SE failed"
tf_plan_exits 2
assert_says "$TF_OUT" "Warning: Apply will roll 3 SEs"
assert_says "$TF_OUT" "will be replaced ($VCPUS_AFTER vCPUs -> $VCPUS_BEFORE"
assert_says "$TF_OUT" "rollout-planned"

pass
