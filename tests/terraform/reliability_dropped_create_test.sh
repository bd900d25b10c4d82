#!/usr/bin/env bash
# Reliability: the connection drops after the Controller committed a create, so the provider
# never sees the answer. The same apply looks the group up by name and adopts it. When that
# look-up fails too, the apply fails saying the group may exist; the next apply does not create a
# second one: the Controller refuses the name and the error gives the `terraform import` command,
# after which plan shows no changes.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "dropped"
  vcpus_per_se = 2
  max_se       = 4
}
EOF2
tf init

step "the connection drops after the create: the same apply finds the group by name and adopts it"
emu_reset_counters
emu_faults '{"drop_after_create":1}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
emu_counters >"$TF_TMP/counters.json"
assert_json '.requests["POST /api/serviceenginegroup"]' 1 "$TF_TMP/counters.json"
# The look-up by name that only a create without an answer makes (a plain create reads nothing
# back from the collection): without the dropped connection this is 0 and the step fails.
assert_json '.requests["GET /api/serviceenginegroup"] // 0' 1 "$TF_TMP/counters.json"
assert_groups 1
assert_nothing_lost

step "the drop, and the look-up by name fails too: the apply fails and says the group may exist"
cat >>"$TF_WORK/main.tf" <<'EOF2'

resource "nsxalb_se_group" "h" {
  name         = "dropped-2"
  vcpus_per_se = 2
  max_se       = 4
}
EOF2
emu_reset_counters
emu_faults '{"drop_after_create":1}'
emu_faults '{"fail_next":1,"fail_status":500,"match":"GET /api/serviceenginegroup"}'
tf_fails apply -auto-approve
assert_contains "$TF_OUT" "Error: Cannot create SE group"
assert_says "$TF_OUT" "may have created the group all the same"
assert_says "$TF_OUT" 'terraform import <address> "Default-Cloud/dropped-2"'
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
# The group exists and the state does not know it yet: the next apply must not duplicate it.
emu_groups | grep -q '^dropped-2 ' || fail "the dropped create did not commit dropped-2"

step "the next apply creates no second group: the name conflict gives the import command"
tf_fails apply -auto-approve
assert_says "$TF_OUT" "already exists"
assert_says "$TF_OUT" 'terraform import <address> "Default-Cloud/dropped-2"'
assert_groups 2

step "import as told: the state then holds every group once and plan shows no changes"
tf import nsxalb_se_group.h Default-Cloud/dropped-2
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
assert_groups 2
assert_nothing_lost
pass
