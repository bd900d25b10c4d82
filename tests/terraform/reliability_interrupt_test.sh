#!/usr/bin/env bash
# Reliability: Ctrl-C (SIGINT to terraform's process group) during a slow create. Terraform
# sends Stop; the provider cancels the in-flight POST and answers at once, and terraform exits
# with the create failed and nothing in state.
#  * The Controller had not processed the request when its client went away, so it has nothing
#    either: state and Controller agree, and the next apply creates the group once.
#  * The Controller had committed the create and was slow to answer: the group exists, and the
#    interrupted apply said it may. The next apply does not create a second one: the name
#    conflict gives the import command, and after the import plan shows no changes.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "interrupted"
  vcpus_per_se = 2
}
EOF2
tf init

# interrupt_slow_create: apply, Ctrl-C once the create is waiting in the emulator's latency,
# and check that terraform stops promptly with the create cancelled.
interrupt_slow_create() {
  local rc=0 start elapsed
  emu_reset_counters
  tf_start apply -auto-approve
  for _ in $(seq 1 400); do
    [ -n "$(emu_log "POST /api/serviceenginegroup")" ] && break
    sleep 0.05
  done
  [ -n "$(emu_log "POST /api/serviceenginegroup")" ] || fail "the create never reached the emulator"
  sleep 0.5  # the POST is in flight
  start=$(date +%s%N)
  tf_interrupt
  tf_wait || rc=$?
  elapsed=$((($(date +%s%N) - start) / 1000000))
  echo "terraform exited with $rc, $elapsed ms after SIGINT"
  [ "$rc" -ne 0 ] || fail "the interrupted apply succeeded"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then fail "the interrupted apply had to be killed"; fi
  assert_contains "$TF_OUT" "Interrupt received"
  assert_contains "$TF_OUT" "Gracefully shutting down"
  assert_says "$TF_OUT" "Error: Cannot create SE group"
  assert_says "$TF_OUT" "controller: POST /api/serviceenginegroup: cancelled"
  assert_says "$TF_OUT" 'import it: terraform import <address> "Default-Cloud/interrupted"'
  # Well before the emulator's 60 s latency would have ended, with room for a machine busy with
  # other scenarios (a sanitizer build's terraform stopped 0.4 s after SIGINT, 4 scenarios at a
  # time on 2 cores, 2026-12-07).
  [ "$elapsed" -lt 30000 ] || fail "terraform took $elapsed ms to stop after SIGINT"
  emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
}

step "Ctrl-C while the Controller has not yet taken the create"
emu_faults '{"latency_ms":60000,"match":"POST /api/serviceenginegroup"}'
interrupt_slow_create
# The emulator saw its client go away during the latency and dropped the request.
for _ in $(seq 1 100); do
  grep -q "request dropped unprocessed" "$TF_TMP/emulator.log" && break
  sleep 0.05
done
assert_contains "$TF_TMP/emulator.log" "request dropped unprocessed"
assert_groups 0
assert_nothing_lost

step "the next apply converges: one group"
emu_faults '{"latency_ms":0}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
tf plan -detailed-exitcode
assert_groups 1
assert_nothing_lost

step "Ctrl-C while the Controller has committed the create and is slow to answer"
tf destroy -auto-approve
emu_faults '{"latency_ms":60000,"latency_after_commit":true,"match":"POST /api/serviceenginegroup"}'
interrupt_slow_create
emu_faults '{"latency_ms":0,"latency_after_commit":false}'
# The group exists; the state does not know it, as the interrupted apply warned.
assert_groups 1
[ -z "$(tf_state_groups)" ] || fail "the state has a group after the interrupted create"

step "the next apply creates no second group; the import it asks for makes plan converge"
tf_fails apply -auto-approve
assert_says "$TF_OUT" "already exists"
assert_says "$TF_OUT" 'terraform import <address> "Default-Cloud/interrupted"'
assert_groups 1
tf import nsxalb_se_group.g Default-Cloud/interrupted
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
assert_groups 1
assert_nothing_lost
pass
