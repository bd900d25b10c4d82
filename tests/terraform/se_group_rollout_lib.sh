# shellcheck shell=bash
# The checkout group of the SE-roll scenarios (issue 41, se_group_rollout*_test.sh), sourced after
# lib.sh: its configuration, its SEs and virtual services on the emulator, and what the scenarios
# read back. Not a scenario itself (CMake takes only *_test.sh).
#
# The group: max_vs_per_se = 2 and workload.virtual_services = 6, so the sizing plans 3 active SEs
# and max_se 4 (3 + buffer_se 1), and the 6 virtual services the emulator places fill 3 SEs, 2
# each. Disabling one SE then leaves its 2 virtual services no room on the others: the emulated
# Controller creates a 4th SE, at the group's current settings, and moves them there (make before
# break; max_se 4 allows it). That is the replacement the roll waits for before it deletes the
# old SE, and the room a rebooted SE's virtual services move to meanwhile.

CHECKOUT_UUID=""

# write_checkout CLOUD WORKLOAD [SETTINGS] [ROLLOUT]: main.tf with the checkout group in CLOUD,
# the workload block's lines WORKLOAD (virtual_services = 6 is always there), further settings
# lines SETTINGS and the rollout block's lines ROLLOUT (no rollout block when empty).
write_checkout() {
  local rollout=""
  [ -z "${4:-}" ] || rollout=$'\n  rollout {\n    '"$4"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "checkout" {
  name          = "checkout"
  cloud         = "$1"
  platform      = "nsxt"
  max_vs_per_se = 2
  ${3:-}

  workload {
    virtual_services = 6
    $2
  }$rollout
}
EOF
}

# start_checkout CLOUD WORKLOAD [SETTINGS] [VSS]: from an empty state, creates the group (strategy
# "none") and has the Controller run 3 SEs at its settings with VSS virtual services (default 6:
# 2 a SE, packed); state's service_engines then says 3 running, 3 matching. Sets CHECKOUT_UUID.
start_checkout() {
  local vss=${4:-6}
  write_checkout "$1" "$2" "${3:-}"
  [ -d "$TF_WORK/.terraform" ] || tf init
  rm -f "$TF_WORK"/terraform.tfstate "$TF_WORK"/terraform.tfstate.backup
  tf apply -auto-approve
  CHECKOUT_UUID=$(state_attr .id | tr -d '"')
  [ "$(state_attr .max_se)" -ge 4 ] || fail "max_se is $(state_attr .max_se): no room for a replacement"
  emu_control POST serviceengines "{\"se_group_uuid\":\"$CHECKOUT_UUID\",\"count\":3}" >/dev/null
  emu_control POST virtualservices "{\"se_group\":\"checkout\",\"count\":$vss}" >/dev/null
  emu_control GET virtualservices | jq -e --arg g "$CHECKOUT_UUID" --argjson n "$vss" \
    '[.results[] | select(.se_group_uuid == $g)] | length == $n and all(.se_uuids | length == 1)' \
    >/dev/null || fail "the $vss virtual services are not each on one SE: $(emu_control GET virtualservices)"
  tf apply -refresh-only -auto-approve
  assert_json '.service_engines | [.running, .matching]' '[3,3]' <(state_attr .)
}

# state_attr JQ: JQ of checkout's attributes in terraform.tfstate, compact.
state_attr() {
  jq -c ".resources[] | select(.name == \"checkout\") | .instances[0].attributes | $1" \
    "$TF_WORK/terraform.tfstate"
}

# checkout_ses: the group's SEs on the emulator (its stored objects, which a reading does not
# count), one "NAME VCPUS MEMORY_MB ENABLE_STATE" line each, by name.
checkout_ses() {
  emu_get /_emulator/state | jq -r --arg g "$CHECKOUT_UUID" '.serviceengine[]?
    | select(.se_group_ref == $g)
    | "\(.name) \(.resources.num_vcpus) \(.resources.memory) \(.enable_state // "SE_STATE_ENABLED")"' |
    sort
}

# assert_no_se_disabled: no SE of the group has enable_state SE_STATE_DISABLED (or any other
# state than SE_STATE_ENABLED).
assert_no_se_disabled() {
  local ses
  ses=$(checkout_ses)
  if awk '$4 != "SE_STATE_ENABLED" { bad = 1 } END { exit !bad }' <<<"$ses"; then
    fail "an SE is left disabled: $ses"
  fi
}

# checkout_runtime: the group's SEs with their runtime through the API (counted: read it after
# the counters), one JSON object a line: name, enable_state, vcpus, memory, oper, pending.
checkout_runtime() {
  emu_api GET "/api/serviceengine?refers_to=serviceenginegroup:$CHECKOUT_UUID&join_subresources=runtime&page_size=200" |
    jq -c '.results[] | {name, enable_state, vcpus: .resources.num_vcpus,
      memory: .resources.memory, oper: .runtime.oper_status.state,
      pending: .runtime.se_grp_reboot_pending}'
}

# assert_timeline_clean: since the last timeline reset no virtual service was ever without an SE
# (unplaced_instants empty) and at most 1 SE was out of service at once.
assert_timeline_clean() {
  local summary
  summary=$(emu_control GET timeline | jq -c .summary)
  jq -e '(.unplaced_instants | length) == 0' <<<"$summary" >/dev/null ||
    fail "a virtual service was left without an SE: $summary"
  jq -e '.max_ses_out <= 1' <<<"$summary" >/dev/null || fail "more than 1 SE out at once: $summary"
  echo "timeline: unplaced_instants 0, max_ses_out $(jq .max_ses_out <<<"$summary")"
}

# se_requests: the requests on /api/serviceengine and /api/serviceengine-inventory and below
# since the counters' reset, one "METHOD PATH COUNT" line each (the SE group's own requests are
# not among them).
se_requests() {
  emu_counters | jq -r '.requests | to_entries[]
    | select(.key | test("^[A-Z]+ /api/serviceengine(-inventory)?(/|$)")) | "\(.key) \(.value)"' | sort
}

# se_writes: how many of those could change an SE (POST, PUT, PATCH, DELETE).
se_writes() {
  emu_counters | jq '[.requests | to_entries[]
    | select(.key | test("^(POST|PUT|PATCH|DELETE) /api/serviceengine(/|$)")) | .value] | add // 0'
}
