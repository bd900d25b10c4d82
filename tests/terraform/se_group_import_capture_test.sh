#!/usr/bin/env bash
# Imports that capture the group (docs/migrating-from-avi.md): a group made outside Terraform with
# three non-default fields that nsxalb_se_group does not type is adopted with an import {} block
# and -generate-config-out. The generated configuration has them in extra_fields, the import
# writes nothing, and the next plan is clean. Removing a key from extra_fields plans returning
# that field to its default, and says so; apply does it and keeps the other two. Imported into a
# configuration without extra_fields, the same fields are only known state: the plan writes
# nothing, and a later change to a typed attribute keeps another writer's change to one of them.
source "$(dirname "$0")/lib.sh" "$@"

step "a group made outside Terraform with three non-default untyped fields"
emu_api POST /api/serviceenginegroup '{"name":"adopted","vcpus_per_se":4,"memory_per_se":8192,
  "se_deprovision_delay":30,"connection_memory_percentage":70,"algo":"PLACEMENT_ALGO_DISTRIBUTED"}' \
  >"$TF_TMP/created.json"
uuid=$(jq -r .uuid "$TF_TMP/created.json")
writes='[.requests | to_entries[] | select(.key | test("^(POST|PUT|PATCH|DELETE) /api/")) | .value] | add // 0'

step "import {} and -generate-config-out: extra_fields holds the three fields"
tf_write main.tf <<EOF_TF
provider "nsxalb" {}

import {
  to = nsxalb_se_group.adopted
  id = "$uuid"
}
EOF_TF
tf init
tf plan -generate-config-out=generated.tf
cat "$TF_WORK/generated.tf"
assert_contains "$TF_WORK/generated.tf" 'extra_fields = jsonencode({'
assert_contains "$TF_WORK/generated.tf" 'algo                         = "PLACEMENT_ALGO_DISTRIBUTED"'
assert_contains "$TF_WORK/generated.tf" 'connection_memory_percentage = 70'
assert_contains "$TF_WORK/generated.tf" 'se_deprovision_delay         = 30'

step "apply imports with no write; the next plan is clean"
emu_reset_counters
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed."
emu_counters | assert_json "$writes" 0 -
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
tf show -json
group='.values.root_module.resources[] | select(.address == "nsxalb_se_group.adopted") | .values'
assert_json "$group.extra_fields | fromjson" \
  '{"algo":"PLACEMENT_ALGO_DISTRIBUTED","connection_memory_percentage":70,"se_deprovision_delay":30}'

step "a key removed from extra_fields: the plan says it returns to its default"
grep -q '^ *se_deprovision_delay *= 30$' "$TF_WORK/generated.tf" ||
  fail "generated.tf does not have se_deprovision_delay on a line of its own"
sed -i '/^ *se_deprovision_delay *= 30$/d' "$TF_WORK/generated.tf"
tf plan
assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."
assert_says "$TF_OUT" "Warning: Fields return to the Controller's defaults"
assert_says "$TF_OUT" "extra_fields no longer sets se_deprovision_delay (30 now; default 120)"
assert_contains "$TF_OUT" "generated.tf"
emu_reset_counters
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"] // 0' 1 -
emu_api GET "/api/serviceenginegroup/$uuid" |
  assert_json '[.se_deprovision_delay, .connection_memory_percentage, .algo, .vcpus_per_se]' \
    '[120,70,"PLACEMENT_ALGO_DISTRIBUTED",4]' -
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "imported into a configuration without extra_fields: known state only, nothing written"
tf state rm nsxalb_se_group.adopted
rm "$TF_WORK/generated.tf"
tf_write main.tf <<EOF_TF
provider "nsxalb" {}

import {
  to = nsxalb_se_group.adopted
  id = "$uuid"
}

resource "nsxalb_se_group" "adopted" {
  name          = "adopted"
  vcpus_per_se  = 4
  memory_per_se = 8192
}
EOF_TF
tf plan
assert_contains "$TF_OUT" "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy."
# The import shows the captured fields as the object's attributes, not as a change.
grep -qE '^ +extra_fields += jsonencode\($' "$TF_OUT" || fail "the import plan does not show extra_fields"
assert_not_contains "$TF_OUT" "~ extra_fields"
assert_not_contains "$TF_OUT" "+ extra_fields"
emu_reset_counters
tf apply -auto-approve
emu_counters | assert_json "$writes" 0 -
tf state show nsxalb_se_group.adopted
assert_contains "$TF_OUT" 'connection_memory_percentage'
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "another writer changes a captured field; a typed change keeps it"
emu_api PATCH "/api/serviceenginegroup/$uuid" '{"replace":{"algo":"PLACEMENT_ALGO_PACKED"}}' >/dev/null
sed -i 's/vcpus_per_se  = 4/vcpus_per_se  = 6/' "$TF_WORK/main.tf"
tf plan
assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."
assert_not_contains "$TF_OUT" "~ extra_fields"
tf apply -auto-approve
emu_api GET "/api/serviceenginegroup/$uuid" |
  assert_json '[.vcpus_per_se, .algo, .connection_memory_percentage]' '[6,"PLACEMENT_ALGO_PACKED",70]' -
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
pass
