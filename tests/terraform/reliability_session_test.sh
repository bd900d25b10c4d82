#!/usr/bin/env bash
# Reliability: the Controller session expires in the middle of an apply, a refresh and a destroy
# (HTTP 419, the Controller's "session expired"). The provider logs in again once and repeats
# the request, which the Controller had refused unprocessed, so nothing is lost or duplicated.
source "$(dirname "$0")/lib.sh" "$@"

# sequence KEY: the last three of the requests that are a login or KEY, in arrival order, each
# with the faults that fired on it: "POST /login", "KEY (expire)".
sequence() {
  emu_counters | jq -c --arg key "$1" '[.log[] | select(.request == "POST /login" or
    .request == $key) | .request + (if .faults then " (" + .faults + ")" else "" end)] | .[-3:]'
}

tf_write main.tf <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "session"
  vcpus_per_se = 2
}
EOF2
tf init

step "the session expires just before the create: 419, log in again, one group"
emu_faults '{"expire_next":1,"match":"POST /api/serviceenginegroup"}'
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
sequence "POST /api/serviceenginegroup" | assert_json . \
  '["POST /api/serviceenginegroup (expire)","POST /login","POST /api/serviceenginegroup"]' -
assert_groups 1
assert_nothing_lost

step "the session expires before the refresh read: plan shows no changes"
emu_reset_counters
emu_faults '{"expire_next":1,"match":"GET /api/serviceenginegroup/{uuid}"}'
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
sequence "GET /api/serviceenginegroup/{uuid}" | assert_json . \
  '["GET /api/serviceenginegroup/{uuid} (expire)","POST /login","GET /api/serviceenginegroup/{uuid}"]' -
assert_nothing_lost

step "the session expires before the update and before the delete"
sed -i 's/vcpus_per_se = 2/vcpus_per_se = 4/' "$TF_WORK/main.tf"
emu_faults '{"expire_next":1,"match":"PUT /api/serviceenginegroup/{uuid}"}'
tf apply -auto-approve
assert_contains "$TF_OUT" "1 changed"
sequence "PUT /api/serviceenginegroup/{uuid}" | assert_json . \
  '["PUT /api/serviceenginegroup/{uuid} (expire)","POST /login","PUT /api/serviceenginegroup/{uuid}"]' -
emu_api GET "/api/serviceenginegroup?name=session" | assert_json '.results[0].vcpus_per_se' 4 -
emu_reset_counters
emu_faults '{"expire_next":1,"match":"DELETE /api/serviceenginegroup/{uuid}"}'
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete! Resources: 1 destroyed."
sequence "DELETE /api/serviceenginegroup/{uuid}" | assert_json . \
  '["DELETE /api/serviceenginegroup/{uuid} (expire)","POST /login","DELETE /api/serviceenginegroup/{uuid}"]' -
assert_groups 0
assert_nothing_lost
pass
