#!/usr/bin/env bash
# Reliability: the Controller answers 503 (an upgrade, a restarting web server), then recovers.
# Apply, plan and destroy ride it out through the client's retries. A 503 that a gateway answers
# after the Controller committed a create is looked up by name before any retry, so the group is
# adopted, not created twice. After every step the emulator and the state hold the same groups.
source "$(dirname "$0")/lib.sh" "$@"

write_config() {
  tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "a" {
  name         = "unavailable-a"
  vcpus_per_se = 2
}

resource "nsxalb_se_group" "b" {
  name         = "unavailable-b"
  vcpus_per_se = 2
}
EOF2
}
write_config
tf init

step "503 for the next 3 requests of an apply: the apply succeeds, one object per resource"
emu_faults '{"fail_next":3,"fail_status":503}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 2 added"
emu_counters | assert_json '[.log[] | select(.faults == "fail")] | length' 3 -
emu_counters |
  assert_json '[.log[] | select(.request == "POST /api/serviceenginegroup" and .faults == null)] |
    length' 2 -
assert_groups 2
assert_nothing_lost

step "a gateway answers 503 after the Controller committed the create: adopted, not duplicated"
cat >>"$TF_WORK/main.tf" <<'EOF2'

resource "nsxalb_se_group" "c" {
  name         = "unavailable-c"
  vcpus_per_se = 2
}
EOF2
emu_reset_counters
emu_faults '{"fail_next":1,"fail_status":503,"fail_after_commit":true,"match":"POST /api/serviceenginegroup"}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
# One POST (committed, answered 503), then the look-up by name found it: no second POST.
emu_counters |
  assert_json '[.log[] | select(.request == "POST /api/serviceenginegroup") | .faults]' \
    '["fail_after_commit"]' -
emu_counters | assert_json '.requests["GET /api/serviceenginegroup"] >= 1' true -
assert_groups 3
assert_nothing_lost

step "503 on two refresh reads: plan still sees no changes"
emu_faults '{"fail_next":2,"fail_status":503,"match":"GET /api/serviceenginegroup/{uuid}"}'
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
assert_nothing_lost

step "503 on the deletes: destroy succeeds and leaves nothing"
emu_faults '{"fail_next":2,"fail_status":503,"match":"DELETE /api/serviceenginegroup/{uuid}"}'
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete! Resources: 3 destroyed."
assert_groups 0
assert_nothing_lost
pass
