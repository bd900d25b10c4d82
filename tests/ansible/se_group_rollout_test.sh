#!/usr/bin/env bash
# nsxalb.alb.se_group's rollout option, with the real ansible-playbook against the emulator's SE
# lifecycle (short boot and migration times, and the fault delete_hosting_se on: a DELETE of an SE
# that still hosts a virtual service succeeds and drops it, so a roll that deleted too early would
# show unplaced instants): a group `checkout` of 4 vCPUs and 8,192 MB with 3 SEs and 6 virtual
# services, 2 a SE (max_vs_per_se 2, so each migration makes the Controller create a
# replacement), each SE at 40% CPU (the emulator's se_stats.avg_cpu_usage), resized to 5 vCPUs and
# 10,240 MB with rollout.strategy rolling:
#   - check mode: the task reports the change and the 3 SEs the roll would take, and nothing is
#     written (the emulator's write requests counted);
#   - check mode once the group is written (strategy none first, so the SEs lag): rollout.lines
#     hold the decision the plan shows, "Apply will roll 3 SEs" with each step (the leaving SE's
#     2 virtual services onto a new SE of 5 vCPUs, 40% x 4 / 5 = 32.0% CPU) and each guard;
#   - the run: the group is written, then the 3 SEs are replaced one at a time; every SE ends at
#     5 vCPUs and 10,240 MB, the emulator's timeline shows no virtual service ever without an SE
#     and never more than 1 SE out, and the task's service_engines and warnings are read again
#     (no ses-behind-settings);
#   - the same play again: nothing to roll, no change;
#   - strategy none: a resize to 6 vCPUs writes the group only, and warns ses-behind-settings;
#   - a workload the SEs left cannot carry (--workload to the command; the new SEs have no samples
#     yet, so the capacity guard judges the declared workload): check mode's rollout.lines hold
#     the refusal the plan would show, "Rollout refused by the capacity guard"; the run fails
#     with the capacity guard's message, and no SE was written.
EMU_ARGS=(--se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se)
source "$(dirname "$0")/lib.sh" "$@"

cat >"$AN_TMP/checkout.yml" <<'YAML'
- name: The checkout SE group
  hosts: localhost
  gather_facts: false
  tasks:
    - name: checkout on nsxt-cloud
      nsxalb.alb.se_group:
        name: checkout
        cloud: nsxt-cloud
        vcpus_per_se: "{{ vcpus }}"
        memory_per_se: "{{ memory }}"
        max_se: 6
        max_vs_per_se: 2
        rollout:
          strategy: "{{ roll_strategy | default('none') }}"
          max_unavailable: 1
          timeout: 60s
        workload: "{{ workload | default(omit) }}"
      register: checkout
      ignore_errors: "{{ keep_failure | default(false) }}"
    - name: Keep what it returned
      ansible.builtin.copy:
        content: "{{ checkout | to_json }}"
        dest: "{{ out }}"
        mode: "0600"
      changed_when: false
      check_mode: false
YAML

# run NAME VCPUS MEMORY [ARGS...]: the play; the task's result into $AN_TMP/NAME.json.
run() { an_checkout_play "$@"; }
result() { jq -cS "$2" "$AN_TMP/$1.json"; }

emu_post() {
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" \
    "$EMU_URL/_emulator/$1" || fail "POST /_emulator/$1 failed"
}
# ses: the group's SEs as the emulator holds them: [vcpus, memory_mb, enable_state] each.
ses() {
  _emu_curl --fail-with-body "$EMU_URL/_emulator/state" |
    jq -cS --arg g "$uuid" '[.serviceengine // [] | .[] | select(.se_group_ref | endswith($g))
      | [.resources.num_vcpus, .resources.memory, .enable_state]]'
}
# se_writes: the requests that change an SE (PUT, PATCH, DELETE, reboot) counted so far.
se_writes() {
  emu_counters | jq '[.requests | to_entries[] | select(.key | test(
    "^(PUT|PATCH|DELETE) /api/serviceengine/|^POST /api/serviceengine/.*/reboot")) | .value] | add // 0'
}

step "checkout at 4 vCPUs and 8,192 MB, 3 SEs and 6 virtual services"
run create 4 8192 || fail "the create play failed"
assert_recap create 'changed=1 .*failed=0'
assert_eq "strategy none: no rollout" 'null' "$(result create '.rollout')"
uuid=$(emu_group checkout | jq -r .uuid)
emu_post serviceengines "{\"se_group_uuid\": \"$uuid\", \"count\": 3}" >/dev/null
emu_post virtualservices '{"se_group": "checkout", "count": 6}' >/dev/null
assert_eq "3 SEs at 4 vCPUs" '[[4,8192,"SE_STATE_ENABLED"],[4,8192,"SE_STATE_ENABLED"],[4,8192,"SE_STATE_ENABLED"]]' "$(ses)"
# Each SE's CPU now: 12 five-minute samples of the last hour, the highest 40%.
emu_post metrics "$(_emu_curl --fail-with-body "$EMU_URL/_emulator/state" | jq -c --arg g "$uuid" '
  {series: [.serviceengine[] | select(.se_group_ref | endswith($g))
    | {entity_uuid: .uuid, metric_id: "se_stats.avg_cpu_usage", step: 300,
       values: [range(12) | if . == 5 then 40 else 30 end]}]}')" >/dev/null

step "check mode, rolling to 5 vCPUs: the change and the SEs to roll, nothing written"
writes_before=$(emu_writes)
run check 5 10240 -e roll_strategy=rolling --check || fail "the check-mode play failed"
assert_recap check 'changed=1 .*failed=0'
assert_eq "writes in check mode" "$writes_before" "$(emu_writes)"
assert_eq "the dry run" '[true,[],["checkout-se-1","checkout-se-2","checkout-se-3"]]' \
  "$(result check '[.rollout.dry_run, .rollout.done, .rollout.to_do]')"
assert_eq "the SEs untouched" '[[4,8192,"SE_STATE_ENABLED"],[4,8192,"SE_STATE_ENABLED"],[4,8192,"SE_STATE_ENABLED"]]' "$(ses)"

step "strategy none to 5 vCPUs, then check mode rolling: rollout.lines hold the plan's decision"
run lag 5 10240 || fail "the resize play with strategy none failed"
assert_out lag 'ses-behind-settings'
writes_before=$(emu_writes)
run decided 5 10240 -e roll_strategy=rolling --check || fail "the check-mode play failed"
assert_eq "writes in check mode" "$writes_before" "$(emu_writes)"
for line in "Apply will roll 3 SEs" \
  "  step 1: checkout-se-1 out; checkout-vs-1, checkout-vs-2 -> new SE 1; the Controller creates new SE 1 at 5 vCPUs; predicted CPU: new SE 1 (5 vCPUs) 32.0%" \
  "  guard capacity: passes: predicted peak 32.0% CPU on new SE 1 at step 1, target 80%"; do
  assert_eq "check mode says '$line'" true "$(result decided "[.rollout.lines[] | . == \"$line\"] | any")"
done
assert_eq "the dry run" '[true,[],["checkout-se-1","checkout-se-2","checkout-se-3"]]' \
  "$(result decided '[.rollout.dry_run, .rollout.done, .rollout.to_do]')"

step "rolling to 5 vCPUs and 10,240 MB: 3 of 3 SEs replaced, one at a time"
emu_post timeline/reset '{}' >/dev/null
run roll 5 10240 -e roll_strategy=rolling || fail "the rolling play failed"
assert_recap roll 'changed=1 .*failed=0'
assert_eq "the roll's decision" true "$(result roll '.rollout.lines | any(. == "Apply will roll 3 SEs")')"
assert_eq "every SE at the new shape" '[[5,10240,"SE_STATE_ENABLED"],[5,10240,"SE_STATE_ENABLED"],[5,10240,"SE_STATE_ENABLED"]]' "$(ses)"
assert_eq "done, to do" '[["checkout-se-1","checkout-se-2","checkout-se-3"],[]]' \
  "$(result roll '[.rollout.done, .rollout.to_do]')"
assert_eq "3 deleted" 3 "$(result roll '[.rollout.lines[] | select(endswith(": deleted"))] | length')"
assert_eq "service_engines read again" '[3,3]' \
  "$(result roll '[.service_engines.running, .service_engines.matching]')"
grep -q 'ses-behind-settings' "$AN_TMP/roll.out" && fail "roll: warned ses-behind-settings after the roll"
timeline=$(_emu_curl --fail-with-body "$EMU_URL/_emulator/timeline") || fail "timeline"
assert_eq "instants with a virtual service unplaced" 0 "$(jq '.summary.unplaced_instants | length' <<<"$timeline")"
jq -e '.summary.max_ses_out <= 1' <<<"$timeline" >/dev/null ||
  fail "more than 1 SE out at once: $(jq -c .summary <<<"$timeline")"

step "the same play again: nothing to roll, no change"
run again 5 10240 -e roll_strategy=rolling || fail "the second rolling play failed"
assert_recap again 'changed=0 .*failed=0'
assert_eq "nothing done" '[]' "$(result again '.rollout.done')"
assert_eq "the command's answer" 'true' "$(result again '.rollout.lines | any(. == "rollout: nothing to do")')"

step "strategy none: a resize to 6 vCPUs leaves the SEs behind, warns, and writes no SE"
se_writes_before=$(se_writes)
run none 6 10240 || fail "the resize play with strategy none failed"
assert_recap none 'changed=1 .*failed=0'
assert_eq "no rollout" 'null' "$(result none '.rollout')"
assert_out none 'ses-behind-settings'
assert_eq "SE writes" "$se_writes_before" "$(se_writes)"

step "a workload the 2 SEs left cannot carry: check mode shows the refusal"
run refused-check 6 10240 -e roll_strategy=rolling -e '{"workload": {"l7_rps": 400000}}' \
  -e keep_failure=true --check || fail "the check-mode play failed"
assert_eq "check mode's decision" true \
  "$(result refused-check '.rollout.lines | any(. == "Rollout refused by the capacity guard")')"
assert_eq "SE writes" "$se_writes_before" "$(se_writes)"

step "a workload the 2 SEs left cannot carry: the capacity guard refuses, no SE written"
if run refused 6 10240 -e roll_strategy=rolling -e '{"workload": {"l7_rps": 400000}}'; then
  fail "a roll the SEs left cannot carry was not refused"
fi
assert_recap refused 'failed=1'
assert_out refused 'rollout refused by the capacity guard'
assert_out refused 'the declared workload 400,000 L7 RPS'
assert_eq "SE writes" "$se_writes_before" "$(se_writes)"
assert_eq "the SEs untouched" '[[5,10240,"SE_STATE_ENABLED"],[5,10240,"SE_STATE_ENABLED"],[5,10240,"SE_STATE_ENABLED"]]' "$(ses)"
pass
