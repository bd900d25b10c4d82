#!/usr/bin/env bash
# Scenario: ha_mode is a typed attribute with Avi's three values; a change of it plans an in-place
# update (the Controller changes a group's HA mode in place), and the emulator accepts each value
# and refuses any other, as the Controller's field catalog says.
source "$(dirname "$0")/lib.sh" "$@"

write_config() {
  tf_write main.tf <<EOF
provider "nsxalb" {}

resource "nsxalb_se_group" "pair" {
  name     = "pair"
  platform = "vcenter"
  ha_mode  = "$1"

  workload {
    l7_rps = 20000
  }
}
EOF
}

step "HA_MODE_SHARED (Avi's default) is created and read back"
write_config HA_MODE_SHARED
tf init
tf apply -auto-approve
uuid=$(cd "$TF_WORK" && terraform show -json | jq -r '.values.root_module.resources[0].values.id')
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.ha_mode' '"HA_MODE_SHARED"' -

previous=HA_MODE_SHARED
for mode in HA_MODE_SHARED_PAIR HA_MODE_LEGACY_ACTIVE_STANDBY HA_MODE_SHARED; do
  step "$previous -> $mode: an in-place update, applied and read back"
  write_config "$mode"
  tf plan -out=tfplan
  assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."
  assert_contains "$TF_OUT" "~ ha_mode"
  assert_contains "$TF_OUT" "\"$previous\" -> \"$mode\""
  assert_not_contains "$TF_OUT" "must be replaced"
  tf apply -auto-approve tfplan
  emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.ha_mode' "\"$mode\"" -
  tf plan -detailed-exitcode
  assert_contains "$TF_OUT" "No changes."
  previous=$mode
done

step "a value outside Avi's enum is refused by the Controller, and the group keeps its mode"
write_config HA_MODE_NONE
tf_fails apply -auto-approve
assert_says "$TF_OUT" "HA_MODE_NONE"
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.ha_mode' '"HA_MODE_SHARED"' -
assert_nothing_lost
pass
