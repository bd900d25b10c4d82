#!/usr/bin/env bash
# Scenarios 6 and 7: a cloud change plans a replacement (and platform follows the new cloud); a
# group deleted outside Terraform is forgotten by refresh, planned again, and destroy succeeds.
# Default-Group cannot be destroyed; deleting a group the Controller refuses shows its text.
source "$(dirname "$0")/lib.sh" "$@"

write_config() {
  tf_write main.tf <<EOF
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name  = "lifecycle"
  cloud = "$1"

  workload {
    ssl_tps_ecc = 4000
  }
}
EOF
}
write_config Default-Cloud
tf init
tf apply -auto-approve
tf show -json
assert_json '.values.root_module.resources[0].values.platform' '"vcenter"'

step "a cloud change plans a replacement"
write_config nsxt-cloud
tf plan -out=tfplan
assert_contains "$TF_OUT" "must be replaced"
assert_contains "$TF_OUT" "# forces replacement"
assert_contains "$TF_OUT" "Plan: 1 to add, 0 to change, 1 to destroy."
tf apply -auto-approve tfplan
tf show -json
assert_json '.values.root_module.resources[0].values.platform' '"nsxt"'
assert_json '.values.root_module.resources[0].values.cloud' '"nsxt-cloud"'
uuid=$(jq -r '.values.root_module.resources[0].values.id' "$TF_STDOUT")
emu_api GET "/api/serviceenginegroup?name=lifecycle" | assert_json '.count' 1 -

step "deleted out of band: refresh forgets it and plan creates it again"
emu_api DELETE "/api/serviceenginegroup/$uuid" >/dev/null
tf_fails plan -refresh-only -detailed-exitcode
assert_contains "$TF_OUT" "nsxalb_se_group.g has been deleted"
tf plan
assert_contains "$TF_OUT" "Plan: 1 to add, 0 to change, 0 to destroy."
tf apply -refresh-only -auto-approve
tf state list
[ ! -s "$TF_STDOUT" ] || fail "the deleted group is still in state: $(cat "$TF_STDOUT")"

step "destroy with nothing left on the Controller succeeds"
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete!"

step "destroy deletes with one DELETE and no waiting"
tf apply -auto-approve
emu_reset_counters
tf destroy -auto-approve
emu_counters | assert_json '.requests["DELETE /api/serviceenginegroup/{uuid}"]' 1 -
emu_api GET "/api/serviceenginegroup?name=lifecycle" | assert_json '.count' 0 -

step "Default-Group is refused"
rm "$TF_WORK/main.tf"
tf_write main.tf <<'EOF'
provider "nsxalb" {}

resource "nsxalb_se_group" "default" {
  name = "Default-Group"
}
EOF
tf import nsxalb_se_group.default Default-Cloud/Default-Group
tf_fails destroy -auto-approve
assert_contains "$TF_OUT" "Cannot delete Default-Group"
tf state rm nsxalb_se_group.default
pass
