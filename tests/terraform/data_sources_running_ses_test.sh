#!/usr/bin/env bash
# Scenario: the running SEs in the data sources (issue 39), with the real terraform. A group `lag`
# on nsxt-cloud set to 4 vCPUs and 8,192 MB runs 3 SEs (made through the emulator's control
# endpoint): 2 at the group's settings and 1 at 2 vCPUs (the endpoint's vcpus override), the
# shape of an SE created before a resize. nsxalb_se_group, nsxalb_se_group_usage and
# nsxalb_se_groups_usage list the same 3 SEs with their shape and states, the 2-vCPU SE
# `matches = false` with why new-ses-only on vcpus_per_se, the others matching, and
# ses_behind_settings 1 (the estate's total too). The requests stay within the existing bounds:
# one SE listing each (the usage reader's, the estate reader's and the provider's shared one),
# none per SE. Then the group's settings change to 2 vCPUs: the 2 SEs of 4 vCPUs lag instead.
source "$(dirname "$0")/lib.sh" "$@"

step "the group lag (4 vCPUs, 8,192 MB) and 3 SEs, one of 2 vCPUs"
group=$(emu_api POST /api/serviceenginegroup \
  '{"name":"lag","cloud_ref":"nsxt-cloud","vcpus_per_se":4,"memory_per_se":8192}' | jq -r .uuid)
[ -n "$group" ] && [ "$group" != null ] || fail "creating the group lag failed"
make_ses() {  # make_ses JSON_BODY_EXTRA: POST /_emulator/serviceengines for the group
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
    -d "{\"se_group_uuid\":\"$group\"$1}" "$EMU_URL/_emulator/serviceengines" >/dev/null ||
    fail "creating SEs in lag failed"
}
make_ses ',"count":2'
make_ses ',"count":1,"vcpus":2'

tf_write main.tf <<'EOF'
data "nsxalb_se_group" "lag" {
  name  = "lag"
  cloud = "nsxt-cloud"
}

data "nsxalb_se_group_usage" "lag" {
  name   = "lag"
  cloud  = "nsxt-cloud"
  window = "24h"
}

data "nsxalb_se_groups_usage" "lag" {
  name_regex = "^lag$"
  window     = "24h"
}

output "group" {
  value = {
    ses    = data.nsxalb_se_group.lag.service_engines
    behind = data.nsxalb_se_group.lag.ses_behind_settings
  }
}

output "usage" {
  value = {
    ses    = data.nsxalb_se_group_usage.lag.service_engines
    behind = data.nsxalb_se_group_usage.lag.ses_behind_settings
  }
}

output "estate" {
  value = {
    ses    = data.nsxalb_se_groups_usage.lag.groups[0].usage.service_engines
    behind = data.nsxalb_se_groups_usage.lag.groups[0].usage.ses_behind_settings
    total  = data.nsxalb_se_groups_usage.lag.totals.ses_behind_settings
  }
}
EOF
tf init
emu_reset_counters
tf apply -auto-approve
emu_counters >"$TF_TMP/counters.json"
tf output -json
cp "$TF_STDOUT" "$TF_TMP/outputs.json"

step "nsxalb_se_group: each SE's shape, states and match"
assert_json '.group.value.ses | length' 3 "$TF_TMP/outputs.json"
assert_json '.group.value.ses | map(.name)' '["lag-se-1","lag-se-2","lag-se-3"]' \
  "$TF_TMP/outputs.json"
assert_json '.group.value.ses | map([.vcpus, .memory_mb, .enable_state, .matches, .why, .fields])' \
  '[[4,8192,"SE_STATE_ENABLED",true,null,[]],[4,8192,"SE_STATE_ENABLED",true,null,[]],[2,8192,"SE_STATE_ENABLED",false,"new-ses-only",["vcpus_per_se"]]]' \
  "$TF_TMP/outputs.json"
assert_json '.group.value.ses | map(.disk_gb > 0) | all' true "$TF_TMP/outputs.json"
assert_json '.group.value.behind' 1 "$TF_TMP/outputs.json"

step "nsxalb_se_group_usage and nsxalb_se_groups_usage: the same SEs, the same match"
strip='map({name, vcpus, memory_mb, disk_gb, enable_state, oper_state, matches, why, fields})'
for ds in usage estate; do
  [ "$(jq -c ".$ds.value.ses | sort_by(.name) | $strip" "$TF_TMP/outputs.json")" = \
    "$(jq -c ".group.value.ses | $strip" "$TF_TMP/outputs.json")" ] ||
    fail "$ds's service_engines differ from nsxalb_se_group's"
  assert_json ".$ds.value.behind" 1 "$TF_TMP/outputs.json"
done
assert_json '.estate.value.total' 1 "$TF_TMP/outputs.json"

step "one SE listing each, none per SE"
assert_json '[.requests | to_entries[] | select(.key | test("^GET /api/serviceengine/")) | .value] | add // 0' \
  0 "$TF_TMP/counters.json"
assert_json '.requests["GET /api/serviceengine"] // 0 | . >= 1 and . <= 3' true "$TF_TMP/counters.json"

step "the group resized to 2 vCPUs: the two 4-vCPU SEs lag instead"
emu_api PUT "/api/serviceenginegroup/$group" \
  "$(emu_api GET "/api/serviceenginegroup/$group" | jq -c '.vcpus_per_se = 2')" >/dev/null
tf apply -auto-approve
tf output -json
assert_json '.group.value.ses | map(.matches)' '[false,false,true]'
assert_json '.group.value.behind' 2
assert_json '.estate.value.total' 2
pass
