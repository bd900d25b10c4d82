#!/usr/bin/env bash
# Reliability, partial failure: the Controller committed a create (201 with a Location header)
# but its answer was unusable, and reading the group back by the Location failed too. Apply
# returns the created group's id together with the error, so Terraform records the group as
# tainted instead of forgetting it: `terraform state list` holds it and `terraform show` marks it
# tainted. The next apply replaces it (untaint would keep it); no group is ever orphaned.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "partial"
  vcpus_per_se = 2
}
EOF2
tf init

step "the create commits, its answer is malformed and the read-back fails: apply fails"
emu_faults '{"bad_body_next":1,"bad_body":"malformed_json","match":"POST /api/serviceenginegroup"}'
emu_faults '{"fail_next":1,"fail_status":500,"match":"GET /api/serviceenginegroup/{uuid}"}'
tf_fails apply -auto-approve
assert_says "$TF_OUT" "Error: Cannot create SE group"
assert_says "$TF_OUT" "the Controller created the group (id serviceenginegroup-"
assert_says "$TF_OUT" "Terraform records it as tainted"
assert_says "$TF_OUT" "POST /api/serviceenginegroup: HTTP 201: the response is not JSON"
assert_says "$TF_OUT" "GET /api/serviceenginegroup/serviceenginegroup-"
assert_says "$TF_OUT" "HTTP 500"
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
uuid=$(emu_groups | awk '$1 == "partial" { print $2 }')
[ -n "$uuid" ] || fail "the create did not commit"

step "the state holds the created group, tainted"
tf state list
assert_contains "$TF_STDOUT" "nsxalb_se_group.g"
tf show
assert_contains "$TF_STDOUT" "# nsxalb_se_group.g: (tainted)"
assert_contains "$TF_STDOUT" "\"$uuid\""
tf show -json
assert_json '.values.root_module.resources[0].tainted' true
assert_json '.values.root_module.resources[0].values.id' "\"$uuid\""
assert_groups 1
assert_nothing_lost

step "the next apply replaces the tainted group: still exactly one, untainted"
tf plan
assert_contains "$TF_OUT" "is tainted, so must be replaced"
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added, 0 changed, 1 destroyed."
tf show -json
assert_json '.values.root_module.resources[0].tainted // false' false
assert_groups 1
assert_nothing_lost
pass
