#!/usr/bin/env bash
# Taking over an SE group from vmware/avi (Terraform 1.8 and later): a group created by
# avi_serviceenginegroup, sized with provider::nsxalb::recommend, is moved to nsxalb_se_group by
# a `moved` block. For both release lines of the Avi provider (20.1.x: native numbers and bools;
# current: every scalar a string), the plan shows "has moved to" and nothing to add, change or
# destroy; apply sends no POST, PUT or DELETE; the uuid is kept; the group's three non-default
# fields that nsxalb_se_group does not type are recorded in extra_fields (known state only: the
# configuration leaves extra_fields unset, so nothing is written); the next plan is clean. A move
# from a source nsxalb_se_group does not take is an error naming what it takes. The vmware/avi
# provider is a test-only stand-in (tests/terraform/avi_standin) installed in the mirror.
# shellcheck disable=SC2034 # read by avi_lib.sh; kept before lib.sh unsets NSXALB_*
AVI_STANDIN=${NSXALB_AVI_STANDIN_BINARY:-}
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=avi_lib.sh
source "$(dirname "$0")/avi_lib.sh"
avi_setup
# Three fields nsxalb_se_group does not type, each away from the Controller's default.
# shellcheck disable=SC2034 # read by avi_create_group (avi_lib.sh)
AVI_GROUP_EXTRA_HCL='  se_deprovision_delay         = 30
  connection_memory_percentage = 70
  algo                         = "PLACEMENT_ALGO_DISTRIBUTED"'
captured='"{\"algo\":\"PLACEMENT_ALGO_DISTRIBUTED\",\"connection_memory_percentage\":70,\"se_deprovision_delay\":30}"'

for line in 20.1 current; do
  export AVI_STANDIN_RELEASE_LINE=$line
  name=web-$line
  step "[$line] avi_serviceenginegroup created with the size recommend gives"
  avi_create_group "$name"
  uuid=$AVI_UUID
  state_vcpus=$(jq -c '.resources[] | select(.type == "avi_serviceenginegroup") | .instances[0].attributes.vcpus_per_se' \
    "$TF_WORK/terraform.tfstate")
  if [ "$line" = current ]; then want='"6"'; else want=6; fi
  [ "$state_vcpus" = "$want" ] || fail "[$line] the avi state holds vcpus_per_se $state_vcpus, expected $want"

  step "[$line] moved to nsxalb_se_group: the plan shows the move and nothing else"
  tf_write main.tf <<EOF_TF
resource "nsxalb_se_group" "web" {
  name          = "$name"
  cloud         = "nsxt-cloud"
  vcpus_per_se  = 6
  memory_per_se = 12288
  max_se        = 2
}

moved {
  from = avi_serviceenginegroup.web
  to   = nsxalb_se_group.web
}
EOF_TF
  emu_reset_counters
  tf plan -out=move.plan
  assert_contains "$TF_OUT" "# avi_serviceenginegroup.web has moved to nsxalb_se_group.web"
  assert_contains "$TF_OUT" "Plan: 0 to add, 0 to change, 0 to destroy."
  cp "$TF_OUT" "$TF_TMP/move-plan-$line.out"

  step "[$line] apply: no POST, PUT or DELETE; the uuid is kept"
  tf apply move.plan
  assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 0 changed, 0 destroyed."
  emu_counters | assert_json '[.requests | to_entries[] | select(.key | test("^(POST|PUT|DELETE) /api/")) | .value] | add // 0' 0 -
  tf show -json
  moved='.values.root_module.resources[] | select(.address == "nsxalb_se_group.web") | .values'
  assert_json "$moved.id" "\"$uuid\""
  assert_json "$moved.cloud" '"nsxt-cloud"'
  assert_json "$moved.platform" '"nsxt"'
  assert_json "$moved.vcpus_per_se" 6
  assert_json "$moved.extra_fields" "$captured"
  emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.name' "\"$name\"" -

  step "[$line] the next plan is clean; the other fields are as the avi provider set them"
  tf plan -detailed-exitcode
  assert_contains "$TF_OUT" "No changes."
  emu_api GET "/api/serviceenginegroup/$uuid" |
    assert_json '[.se_deprovision_delay, .connection_memory_percentage, .algo]' \
      '[30,70,"PLACEMENT_ALGO_DISTRIBUTED"]' -
  tf state rm nsxalb_se_group.web
done

step "a move from a source nsxalb_se_group does not take names what it takes"
tf_write main.tf <<'EOF_TF'
resource "terraform_data" "not_a_group" {
  input = "x"
}
EOF_TF
tf apply -auto-approve
tf_write main.tf <<'EOF_TF'
resource "nsxalb_se_group" "other" {
  name = "other"
}

moved {
  from = terraform_data.not_a_group
  to   = nsxalb_se_group.other
}
EOF_TF
tf_fails plan
assert_contains "$TF_OUT" "Unsupported move source"
assert_contains "$TF_OUT" "nsxalb_se_group takes over avi_serviceenginegroup of"
assert_contains "$TF_OUT" "this move comes from terraform_data of"
pass
