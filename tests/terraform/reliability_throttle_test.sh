#!/usr/bin/env bash
# Reliability: the Controller throttles (429 with Retry-After). The provider waits as long as it
# is told, measured from the emulator's request log; a storm longer than the retries fails
# cleanly with nothing created; a Retry-After beyond timeout_seconds fails at once instead of
# sleeping past the budget.
source "$(dirname "$0")/lib.sh" "$@"

# group NAME: a resource block named NAME for a group called NAME.
group() {
  cat >>"$TF_WORK/main.tf" <<EOF2

resource "nsxalb_se_group" "$1" {
  name         = "$1"
  vcpus_per_se = 2
}
EOF2
}
tf_write main.tf <<<'provider "nsxalb" {}'
group throttled
tf init
creates='[.log[] | select(.request == "POST /api/serviceenginegroup")]'

step "three 429s with Retry-After: 1 on the create: each retry waits at least 1 s"
emu_faults '{"throttle_next":3,"retry_after_seconds":1,"match":"POST /api/serviceenginegroup"}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
emu_counters | assert_json "$creates | map(.faults)" '["throttle","throttle","throttle",null]' -
gaps=$(emu_counters | jq -c "$creates | map(.at_us) | [range(1; length) as \$i | .[\$i] - .[\$i - 1]]")
echo "gaps between the create attempts (us): $gaps"
echo "$gaps" | assert_json 'all(. >= 1000000)' true -
# Not stretched either: the client's own backoff would be shorter, a runaway wait longer.
echo "$gaps" | assert_json 'all(. < 3000000)' true -
assert_groups 1
assert_nothing_lost

step "a 429 storm longer than the retries: the create fails, nothing is created"
group storm
emu_reset_counters
emu_faults '{"throttle_next":20,"retry_after_seconds":0,"match":"POST /api/serviceenginegroup"}'
tf_fails apply -auto-approve
assert_says "$TF_OUT" "HTTP 429"
assert_says "$TF_OUT" "gave up after 6 attempts"
# A 429 means the Controller did nothing: no talk of a group that may exist.
assert_not_says "$TF_OUT" "may have created"
emu_counters | assert_json "$creates | length" 6 -
assert_groups 1
assert_nothing_lost
emu_faults '{"throttle_next":0}'
tf apply -auto-approve
assert_groups 2
assert_nothing_lost

step "Retry-After beyond timeout_seconds: the apply fails at once, it does not sleep"
group patient
emu_faults '{"throttle_next":1,"retry_after_seconds":120,"match":"POST /api/serviceenginegroup"}'
export NSXALB_TIMEOUT_SECONDS=30
start=$(date +%s)
tf_fails apply -auto-approve
elapsed=$(($(date +%s) - start))
unset NSXALB_TIMEOUT_SECONDS
echo "apply failed after ${elapsed} s"
[ "$elapsed" -lt 30 ] || fail "the apply took ${elapsed} s: it waited instead of failing at once"
assert_says "$TF_OUT" "HTTP 429"
assert_says "$TF_OUT" "no time left to retry within total_timeout 30s"
assert_groups 2
assert_nothing_lost
pass
