#!/usr/bin/env bash
# Reliability: bad answers from the Controller (or a proxy in front of it). Malformed JSON, an
# HTML page, a truncated body and a body over the client's 64 MiB cap fail a read with an error
# that names the request and its HTTP status, and never crash the provider. Answers to a create
# that the Controller committed are not taken as "nothing happened": the group is read back or
# found by name, so it is never lost nor created twice.
source "$(dirname "$0")/lib.sh" "$@"

# group NAME: a resource block named NAME for a group called NAME.
group() {
  cat >>"$TF_WORK/main.tf" <<EOF2

resource "nsxalb_se_group" "$1" {
  name         = "$1"
  vcpus_per_se = 2
}
EOF2
}
# no_crash: the last terraform command did not lose its provider.
no_crash() {
  assert_not_says "$TF_OUT" "crash"
  assert_not_says "$TF_OUT" "Plugin did not respond"
  assert_not_says "$TF_OUT" "plugin exited"
}
tf_write main.tf <<<'provider "nsxalb" {}'
group reads
tf init
tf apply -auto-approve
uuid=$(tf_state_groups | awk '{ print $2 }')
read_path="GET /api/serviceenginegroup/$uuid"

step "malformed JSON answers the refresh read: plan fails naming the request and HTTP 200"
emu_faults '{"bad_body_next":1,"bad_body":"malformed_json","match":"GET /api/serviceenginegroup/{uuid}"}'
tf_fails plan
no_crash
assert_says "$TF_OUT" "Error: Cannot read SE group"
assert_says "$TF_OUT" "$read_path: HTTP 200: the response is not JSON"
assert_nothing_lost

step "an HTML page (a proxy's sign-in page, HTTP 200) answers the refresh read"
emu_faults '{"bad_body_next":1,"bad_body":"html","match":"GET /api/serviceenginegroup/{uuid}"}'
tf_fails plan
no_crash
assert_says "$TF_OUT" "$read_path: HTTP 200: the response is not JSON"
assert_nothing_lost

step "a truncated answer to the refresh read: retried, plan shows no changes"
emu_faults '{"bad_body_next":1,"bad_body":"truncated","match":"GET /api/serviceenginegroup/{uuid}"}'
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
assert_nothing_lost

step "an answer over the size cap to the refresh read: plan fails naming the request and the cap"
emu_faults '{"bad_body_next":1,"bad_body":"oversize","match":"GET /api/serviceenginegroup/{uuid}"}'
tf_fails plan
no_crash
assert_says "$TF_OUT" "Error: Cannot read SE group"
assert_says "$TF_OUT" "GET $EMU_URL/api/serviceenginegroup/$uuid"
assert_says "$TF_OUT" "64 MiB"
assert_nothing_lost

step "an nginx error page (HTTP 500) answers the create: it fails naming the request and status"
group html-error
emu_faults '{"fail_next":1,"fail_status":500,"fail_body":"html","match":"POST /api/serviceenginegroup"}'
tf_fails apply -auto-approve
no_crash
assert_says "$TF_OUT" "Error: Cannot create SE group"
assert_says "$TF_OUT" "POST /api/serviceenginegroup: HTTP 500: <html>"
assert_says "$TF_OUT" "500 Internal Server Error"
assert_nothing_lost
tf apply -auto-approve
assert_nothing_lost

for kind in malformed_json html truncated oversize; do
  step "a committed create answered with a body that is $kind: the group is recorded once"
  name=created-${kind//_/-}
  group "$name"
  emu_reset_counters
  emu_faults "{\"bad_body_next\":1,\"bad_body\":\"$kind\",\"match\":\"POST /api/serviceenginegroup\"}"
  tf apply -auto-approve
  assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
  emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
  tf_state_groups | grep -q "^$name serviceenginegroup-" || fail "$name is not in the state"
  assert_nothing_lost
done
assert_groups 6
tf plan -detailed-exitcode
pass
