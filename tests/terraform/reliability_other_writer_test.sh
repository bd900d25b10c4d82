#!/usr/bin/env bash
# Issue 23: another writer (the UI, the vmware.alb collection, another pipeline) changes the group
# between the provider's GET and its PUT. The Controller, and the emulator, answer the PUT 412
# (its _last_modified is older than the stored one); the provider reads the group again, lays
# the planned change over the fresh object and writes again, at most 3 times
# (controller::kUpdateAttempts, docs/emulator.md "other_writer_next"). The other writer's field
# that this configuration does not manage survives; a field it manages gets the planned value.
source "$(dirname "$0")/lib.sh" "$@"

# write_config VCPUS: a group without a workload, vcpus_per_se hand-set.
write_config() {
  tf_write main.tf <<HCL
resource "nsxalb_se_group" "race" {
  name         = "race"
  platform     = "vcenter"
  vcpus_per_se = $1
}
HCL
}

# field NAME: the group's NAME on the emulator.
field() { emu_get /_emulator/state | jq -c --arg f "$1" '.serviceenginegroup[] | select(.name == "race") | .[$f]'; }

write_config 2
tf init
tf apply -auto-approve
assert_groups 1

step "an apply racing another writer of an unmanaged field: both changes are kept"
write_config 3
emu_reset_counters
# -refresh=false: the update's GET is the first GET of the group in this run.
emu_faults '{"other_writer_next":1,"other_writer_field":"connection_memory_percentage","other_writer_value":70}'
tf apply -auto-approve -refresh=false
assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."
[ "$(field vcpus_per_se)" = 3 ] || fail "vcpus_per_se is $(field vcpus_per_se), not the planned 3"
[ "$(field connection_memory_percentage)" = 70 ] ||
  fail "the other writer's connection_memory_percentage was lost: $(field connection_memory_percentage)"
# GET, PUT (412), GET, PUT.
emu_counters | assert_json '.requests["GET /api/serviceenginegroup/{uuid}"]' 2 -
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"]' 2 -
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "an apply racing another writer of a managed field: the planned value wins"
write_config 4
emu_faults '{"other_writer_next":1,"other_writer_field":"vcpus_per_se","other_writer_value":5}'
tf apply -auto-approve -refresh=false
[ "$(field vcpus_per_se)" = 4 ] || fail "vcpus_per_se is $(field vcpus_per_se), not the planned 4"
[ "$(field connection_memory_percentage)" = 70 ] || fail "connection_memory_percentage was lost"

step "a 412 that keeps coming back ends in a clear error after 3 attempts"
write_config 5
emu_reset_counters
emu_faults '{"other_writer_next":100,"other_writer_field":"se_deprovision_delay","other_writer_value":31}'
tf_fails apply -auto-approve -refresh=false
assert_says "$TF_OUT" "Error: Cannot update SE group"
assert_says "$TF_OUT" "another writer kept changing the group"
assert_says "$TF_OUT" 'SE group "race" was changed by another writer between each of 3 reads'
assert_says "$TF_OUT" "412 Precondition Failed"
emu_counters | assert_json '.requests["GET /api/serviceenginegroup/{uuid}"]' 3 -
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"]' 3 -
[ "$(field vcpus_per_se)" = 4 ] || fail "the failed update wrote vcpus_per_se = $(field vcpus_per_se)"
emu_faults '{"other_writer_next":0}'
tf plan
grep -Eq "~ vcpus_per_se +=  *4 -> 5" "$TF_OUT" || fail "the next plan does not show vcpus_per_se 4 -> 5"
tf apply -auto-approve
[ "$(field vcpus_per_se)" = 5 ] || fail "vcpus_per_se is $(field vcpus_per_se) after the retry"
[ "$(field se_deprovision_delay)" = 31 ] || fail "the other writer's se_deprovision_delay was lost"
assert_nothing_lost
pass
