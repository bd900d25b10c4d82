#!/usr/bin/env bash
# Reliability: a Controller that accepts the connection and never answers. With timeout_seconds
# set, plan and apply fail with an error naming the request and the timeout, within one
# timeout_seconds (however many requests the operation makes) and never hang; the unanswered
# create was never processed, so nothing exists that the state does not know.
source "$(dirname "$0")/lib.sh" "$@"

timeout_seconds=6
export NSXALB_TIMEOUT_SECONDS=$timeout_seconds
tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "hang"
  vcpus_per_se = 2
}
EOF2
tf init

# timed_failure ARGS...: runs `tf_fails ARGS` and checks it took less than two timeout_seconds
# (one for the operation, one for Terraform's own start and a busy machine).
timed_failure() {
  local start elapsed
  start=$(date +%s%N)
  tf_fails "$@"
  elapsed=$((($(date +%s%N) - start) / 1000000))
  echo "terraform $1 failed after $elapsed ms"
  [ "$elapsed" -lt $((2 * timeout_seconds * 1000)) ] ||
    fail "terraform $1 took $elapsed ms with timeout_seconds = $timeout_seconds"
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
