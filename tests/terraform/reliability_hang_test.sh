#!/usr/bin/env bash
# Reliability: a Controller that accepts the connection and never answers. With timeout_seconds
# set, plan and apply fail with an error naming the request and the timeout, within one
# timeout_seconds (however many requests the operation makes) and never hang; the unanswered
# create was never processed, so nothing exists that the state does not know.
# The bounds are measured against a healthy plan timed first, in the same scenario: on a machine
# busy with other scenarios (and with a sanitizer build) Terraform's own start takes seconds, and
# the bounds take it into account instead of asking to run alone.
source "$(dirname "$0")/lib.sh" "$@"

timeout_seconds=15
export NSXALB_TIMEOUT_SECONDS=$timeout_seconds
tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "hang"
  vcpus_per_se = 2
}
EOF2
tf init

# elapsed_ms START: the milliseconds since START (a `date +%s%N`).
elapsed_ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

step "a healthy plan, timed: Terraform's own cost on this machine now (the baseline)"
start=$(date +%s%N)
tf plan
baseline_ms=$(elapsed_ms "$start")
echo "a healthy plan took $baseline_ms ms"

# timed_failure ARGS...: runs `tf_fails ARGS` and checks it took less than one timeout_seconds
# plus three baselines plus 2 s: what the failing command does besides waiting (about one
# baseline; an apply, which starts the provider once more, up to two), and room for a busier
# moment. A timeout per request instead of per operation would wait two timeout_seconds or more,
# which the bound catches as long as the baseline is under 4.3 s. Measured 2026-12-07: the
# optimized build alone, a baseline of 0.34 s and failures after 15.3 s (plan) and 15.7 s
# (apply); the sanitizer build 4 scenarios at a time on 2 cores, 2.1 s, 17.3 s and 17.6 s.
timed_failure() {
  local start elapsed bound
  start=$(date +%s%N)
  tf_fails "$@"
  elapsed=$(elapsed_ms "$start")
  bound=$((timeout_seconds * 1000 + 3 * baseline_ms + 2000))
  echo "terraform $1 failed after $elapsed ms (bound $bound ms)"
  [ "$elapsed" -lt "$bound" ] ||
    fail "terraform $1 took $elapsed ms with timeout_seconds = $timeout_seconds (bound $bound ms)"
}

step "no answer to anything: plan fails within timeout_seconds"
emu_faults '{"hang_next":1000}'
timed_failure plan
assert_says "$TF_OUT" "Error: Cannot read the cloud"
assert_says "$TF_OUT" "timed out"
assert_says "$TF_OUT" "timeout_seconds"

step "no answer to the create nor to the look-up after it: apply fails within timeout_seconds"
emu_faults '{"hang_next":0}'
tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "hang"
  platform     = "vcenter"
  vcpus_per_se = 2
}
EOF2
emu_reset_counters
emu_faults '{"hang_next":1000,"match":"* /api/serviceenginegroup*"}'
timed_failure apply -auto-approve
assert_says "$TF_OUT" "Error: Cannot create SE group"
assert_says "$TF_OUT" "POST"
assert_says "$TF_OUT" "timed out"
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
# The create never got an answer, and was never processed: nothing is lost.
assert_groups 0
assert_nothing_lost

step "the Controller answers again: the next apply creates the group once"
emu_faults '{"hang_next":0}'
tf apply -auto-approve
assert_groups 1
assert_nothing_lost
pass
