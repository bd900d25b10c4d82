#!/usr/bin/env bash
# Taking over an SE group from vmware/avi and declaring its workload in the same step: the
# `moved` block's target adds a workload block, so the plan shows the move and an in-place update
# to the recommended settings the group lacks (no add, no destroy); apply makes that one PUT and no
# POST or DELETE; the uuid is kept and the next plan is clean.
# shellcheck disable=SC2034 # read by avi_lib.sh; kept before lib.sh unsets NSXALB_*
AVI_STANDIN=${NSXALB_AVI_STANDIN_BINARY:-}
source "$(dirname "$0")/lib.sh" "$@"
# shellcheck source=avi_lib.sh
source "$(dirname "$0")/avi_lib.sh"
avi_setup
export AVI_STANDIN_RELEASE_LINE=current

step "avi_serviceenginegroup created with the vCPUs and memory recommend gives"
avi_create_group web
uuid=$AVI_UUID
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '.max_queues_per_vnic' 1 -

step "moved with a workload: the move and one in-place update to the recommended settings"
tf_write main.tf <<'EOF_TF'
resource "nsxalb_se_group" "web" {
  name     = "web"
  cloud    = "nsxt-cloud"
  platform = "nsxt"

  workload {
    l7_rps = 150000
  }
}

moved {
  from = avi_serviceenginegroup.web
  to   = nsxalb_se_group.web
}
EOF_TF
emu_reset_counters
tf plan -out=move.plan
assert_contains "$TF_OUT" "# nsxalb_se_group.web will be updated in-place"
assert_contains "$TF_OUT" "# (moved from avi_serviceenginegroup.web)"
assert_contains "$TF_OUT" "+ dedicated_dispatcher_core = true"
assert_contains "$TF_OUT" "~ max_queues_per_vnic       = 1 -> 2"
assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."

step "apply: one PUT, no POST and no DELETE; the uuid is kept"
tf apply move.plan
assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"]' 1 -
emu_counters | assert_json '[.requests | to_entries[] | select(.key | test("^(POST|DELETE) /api/")) | .value] | add // 0' 0 -
tf show -json
moved='.values.root_module.resources[] | select(.address == "nsxalb_se_group.web") | .values'
assert_json "$moved.id" "\"$uuid\""
assert_json "$moved.sizing.summary" '"1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)"'
emu_api GET "/api/serviceenginegroup/$uuid" | assert_json '[.max_queues_per_vnic, .dedicated_dispatcher_core]' '[2,true]' -

step "the next plan is clean"
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
pass
