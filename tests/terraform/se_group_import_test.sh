#!/usr/bin/env bash
# Scenario 5: import by uuid, by name and by an import {} block, and -generate-config-out for a
# group made outside Terraform; after each, a configuration that matches the object plans no
# changes. An ambiguous name lists the clouds that hold it. A configuration that adds extra_fields
# the group already has plans one update, which records them without a PUT.
source "$(dirname "$0")/lib.sh" "$@"

step "a group made outside Terraform"
emu_api POST /api/serviceenginegroup \
  '{"name":"brownfield","vcpus_per_se":4,"memory_per_se":8192,"max_se":6,"description":"made by hand"}' \
  >"$TF_TMP/created.json"
uuid=$(jq -r .uuid "$TF_TMP/created.json")

matching_config() {
  tf_write main.tf <<'EOF'
provider "nsxalb" {}

resource "nsxalb_se_group" "bf" {
  name        = "brownfield"
  description = "made by hand"
}
EOF
}
matching_config
tf init

for id in "$uuid" brownfield Default-Cloud/brownfield; do
  step "terraform import by '$id', then plan: no changes"
  tf import nsxalb_se_group.bf "$id"
  assert_contains "$TF_OUT" "Import successful!"
  tf plan -detailed-exitcode
  assert_contains "$TF_OUT" "No changes."
  tf state show nsxalb_se_group.bf
  assert_contains "$TF_OUT" "vcpus_per_se"
  assert_contains "$TF_OUT" '"vcenter"'
  tf state rm nsxalb_se_group.bf
done

step "import, then a configuration with extra_fields the group already has: recorded with no PUT"
delay=$(emu_api GET "/api/serviceenginegroup/$uuid" | jq -r .se_deprovision_delay)
[ -n "$delay" ] && [ "$delay" != null ] || fail "the emulator's group has no se_deprovision_delay"
tf_write main.tf <<EOF
provider "nsxalb" {}

resource "nsxalb_se_group" "bf" {
  name         = "brownfield"
  description  = "made by hand"
  extra_fields = jsonencode({ se_deprovision_delay = $delay })
}
EOF
tf import nsxalb_se_group.bf "$uuid"
tf plan
# The state has no extra_fields yet (an import cannot know which keys are managed): Terraform
# shows the update that records them; applying it changes nothing on the Controller.
assert_contains "$TF_OUT" "0 to add, 1 to change, 0 to destroy."
emu_reset_counters
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"] // 0' 0 -
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
tf state rm nsxalb_se_group.bf
matching_config

step "an ambiguous name lists the clouds"
tf_fails import nsxalb_se_group.bf Default-Group
assert_contains "$TF_OUT" "Default-Cloud"
assert_contains "$TF_OUT" "nsxt-cloud"

step "an import {} block"
tf_write imports.tf <<EOF
import {
  to = nsxalb_se_group.bf
  id = "$uuid"
}
EOF
tf plan -out=tfplan
assert_contains "$TF_OUT" "1 to import, 0 to add, 0 to change, 0 to destroy."
tf apply tfplan
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
tf state rm nsxalb_se_group.bf
rm "$TF_WORK/main.tf"

step "-generate-config-out writes HCL that then plans with no changes"
tf_write main.tf <<'EOF'
provider "nsxalb" {}
EOF
tf plan -generate-config-out=generated.tf
assert_contains "$TF_WORK/generated.tf" 'resource "nsxalb_se_group" "bf"'
assert_contains "$TF_WORK/generated.tf" 'vcpus_per_se'
tf apply -auto-approve
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.vcpus_per_se' 4 -
pass
