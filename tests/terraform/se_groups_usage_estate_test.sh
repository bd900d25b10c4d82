#!/usr/bin/env bash
# Scenario: the whole estate at once (issue 35), with the real terraform. 30 SE groups named est-*
# in two clouds (15 on Default-Cloud, vcenter; 15 on nsxt-cloud), 14 days of hourly analytics:
#   - est-fleet (vcenter): 110 SEs, so that the estate's SEs (174) need two metrics POSTs of at
#     most 128 metric_requests each (one per SE and one for the batch's SE CPU);
#   - 6 hot groups (an SE at 92% CPU, above the 80% target): at risk, 0 SUs reclaimable;
#   - 8 idle groups (3 SEs of 8 vCPUs at 5% CPU carrying 300 RPS): reclaimable Service Units;
#   - est-growing: its daily CPU peak rises by 1 point a day: a forecast within 30 days, at risk;
#   - est-empty: no SEs; the others steady (2 SEs at 40%).
# Each group's series is its own: the j-th group of a kind is offset by j (hot: peak 92 - j/2,
# idle: 5 + j/2 % CPU and 300 + 20j RPS, steady: a bump to 48 + j), so a figure routed to another
# group of the same kind is seen: every group's CPU peak and request rate equal its own series'.
# nsxalb_se_groups_usage returns the 30 groups (15 with cloud = "nsxt-cloud") whose figures equal
# nsxalb_se_group_usage's for the same groups, with at most 6 requests after the login (one
# listing each of the clouds, groups and SEs, at the Controller's largest page of 200, and 2
# POSTs: 5), and totals that are the sums of the groups. With a 403 on the first metrics POST, the
# groups of that batch have no
# figures (analytics unavailable) and the others keep theirs. A bad name_regex and an unknown
# cloud are errors at their attribute. With tenant = "*" (the All Tenants view) a group of a
# second tenant is listed beside the admin tenant's, each naming its tenant.
source "$(dirname "$0")/lib.sh" "$@"

emu_post_file() {  # emu_post_file PATH FILE: a control request with the JSON in FILE.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary "@$2" \
    "$EMU_URL$1" || fail "POST $1 failed"
}

step "30 groups in two clouds, their SEs, and 14 days of their hourly analytics"
# name cloud vcpus_per_se ses kind, in creation order (the Controller lists them in that order,
# and the estate reader batches them in listing order).
groups=(
  "est-fleet Default-Cloud 2 110 steady"
  "est-hot-1 Default-Cloud 2 2 hot" "est-hot-2 Default-Cloud 2 2 hot" "est-hot-3 Default-Cloud 2 2 hot"
  "est-idle-1 Default-Cloud 8 3 idle" "est-idle-2 Default-Cloud 8 3 idle"
  "est-idle-3 Default-Cloud 8 3 idle" "est-idle-4 Default-Cloud 8 3 idle"
  "est-growing Default-Cloud 4 2 growing" "est-empty Default-Cloud 2 0 none"
  "est-steady-1 Default-Cloud 2 2 steady" "est-steady-2 Default-Cloud 2 2 steady"
  "est-steady-3 Default-Cloud 2 2 steady" "est-steady-4 Default-Cloud 2 2 steady"
  "est-steady-5 Default-Cloud 2 2 steady"
  "est-nsxt-hot-1 nsxt-cloud 2 2 hot" "est-nsxt-hot-2 nsxt-cloud 2 2 hot"
  "est-nsxt-hot-3 nsxt-cloud 2 2 hot"
  "est-nsxt-idle-1 nsxt-cloud 8 3 idle" "est-nsxt-idle-2 nsxt-cloud 8 3 idle"
  "est-nsxt-idle-3 nsxt-cloud 8 3 idle" "est-nsxt-idle-4 nsxt-cloud 8 3 idle"
)
for i in 1 2 3 4 5 6 7 8; do groups+=("est-nsxt-steady-$i nsxt-cloud 2 2 steady"); done
[ "${#groups[@]}" = 30 ] || fail "the scenario lists ${#groups[@]} groups, not 30"
echo '{}' >"$TF_TMP/ses.json"
for g in "${groups[@]}"; do
  read -r name cloud vcpus count kind <<<"$g"
  uuid=$(emu_api POST /api/serviceenginegroup \
    "{\"name\":\"$name\",\"cloud_ref\":\"$cloud\",\"vcpus_per_se\":$vcpus}" | jq -r .uuid)
  uuids='[]'
  if [ "$count" -gt 0 ]; then
    uuids=$(_emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
      -d "{\"se_group_uuid\":\"$uuid\",\"count\":$count}" "$EMU_URL/_emulator/serviceengines" |
      jq -c .uuids) || fail "creating the SEs of $name failed"
  fi
  jq --arg n "$name" --arg k "$kind" --argjson u "$uuids" '.[$n] = {kind: $k, ses: $u}' \
    "$TF_TMP/ses.json" >"$TF_TMP/ses.next" && mv "$TF_TMP/ses.next" "$TF_TMP/ses.json"
done
python3 - "$TF_TMP/ses.json" "$TF_TMP/expected.json" >"$TF_TMP/series.json" <<'EOF'
import json, sys, time
groups = json.load(open(sys.argv[1]))
now = int(time.time())
last = now - now % 3600
n = 14 * 24 + 1  # 14 days of hourly points, the last one at the current hour
first_day = (now - 14 * 86400) // 86400 + 1  # the first complete UTC day of a 14-day window
out = []
expected = {}  # name -> the group's own CPU peak and L7 RPS peak (summed over its SEs)
seen = {}  # kind -> groups of that kind so far: j, the group's offset
for name, g in groups.items():
    kind = g["kind"]
    j = seen.get(kind, 0)
    seen[kind] = j + 1
    rps_sum = None
    cpu_peak = None
    for i, se in enumerate(g["ses"]):
        if kind == "hot":
            cpu, rps = [45.0] * n, [4000.0 + 100 * j] * n
            cpu[150 + i] = 92.0 - 0.5 * j  # mid-window: above the 80% target
        elif kind == "idle":
            cpu, rps = [5.0 + 0.5 * j] * n, [300.0 + 20 * j] * n
        elif kind == "growing":
            cpu, rps = [], [2000.0] * n
            for k in range(n):
                t = last - (n - 1 - k) * 3600
                d = t // 86400 - first_day
                peak = 55.0 + max(d, 0)  # 1 point a day: 67% on the 13th complete day
                cpu.append(peak if t % 86400 == 14 * 3600 else peak - 10)
        else:
            cpu, rps = [40.0] * n, [2000.0 + 50 * j] * n
            cpu[100] = 48.0 + j
        rps[200 + i] *= 1.5
        cpu_peak = max(cpu) if cpu_peak is None else max(cpu_peak, max(cpu))
        rps_sum = rps if rps_sum is None else [a + b for a, b in zip(rps_sum, rps)]
        out.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 3600,
                    "values": cpu})
        out.append({"entity_uuid": "virtualservice-" + name, "serviceengine_uuid": se,
                    "metric_id": "l7_client.avg_complete_responses", "step": 3600,
                    "values": rps})
    if g["ses"]:
        expected[name] = {"cpu_pct": cpu_peak, "l7_rps": max(rps_sum)}
json.dump(expected, open(sys.argv[2], "w"))
print(json.dumps({"series": out}))
EOF
emu_post_file /_emulator/metrics "$TF_TMP/series.json" >/dev/null
ses_total=$(jq '[.[] | .ses | length] | add' "$TF_TMP/ses.json")
[ "$ses_total" = 174 ] || fail "the scenario made $ses_total SEs, not 174"

tf_write main.tf <<'EOF'
provider "nsxalb" {}

data "nsxalb_se_groups_usage" "estate" {
  name_regex = "^est-"
  window     = "14d"
}

output "estate" {
  value = data.nsxalb_se_groups_usage.estate
}
EOF
tf init

step "the estate: 30 groups, at most 6 requests after the login"
emu_reset_counters
tf apply -auto-approve
emu_counters >"$TF_TMP/counters.json"
tf output -json
cp "$TF_STDOUT" "$TF_TMP/estate.json"
assert_json '.estate.value.groups | length' 30 "$TF_TMP/estate.json"
assert_json '.estate.value.metrics_requests' 2 "$TF_TMP/estate.json"
jq '.requests' "$TF_TMP/counters.json"
# The session's own login and logout aside, every request is one of the estate reader's.
assert_json '[.requests | to_entries[] | select(.key | startswith("POST /log") | not) | .value]
  | add | . <= 6' true "$TF_TMP/counters.json"
# 3 listings, the licence ledger and 2 metrics POSTs.
assert_json '[.requests | to_entries[] | select(.key | startswith("POST /log") | not) | .value]
  | add' 6 "$TF_TMP/counters.json"
assert_json '.requests["GET /api/licensing/ledger/details"]' 1 "$TF_TMP/counters.json"
assert_json '.requests["POST /api/analytics/metrics/collection"]' 2 "$TF_TMP/counters.json"
assert_json '.requests["GET /api/serviceenginegroup"]' 1 "$TF_TMP/counters.json"
assert_json '.requests["GET /api/cloud"]' 1 "$TF_TMP/counters.json"
assert_json '.requests["GET /api/serviceengine"]' 1 "$TF_TMP/counters.json"

step "each kind of group as expected"
g() { jq -c --arg n "$1" ".estate.value.groups[] | select(.name == \$n) | $2" "$TF_TMP/estate.json"; }
for name in est-hot-1 est-hot-3 est-nsxt-hot-2 est-growing; do
  [ "$(g "$name" .at_risk)" = true ] || fail "$name is not at risk"
done
[ "$(g est-steady-1 .at_risk)" = false ] || fail "est-steady-1 is at risk"
[ "$(g est-hot-1 .usage.observed.cpu_pct)" = 92 ] || fail "est-hot-1's CPU is $(g est-hot-1 .usage.observed.cpu_pct)"
[ "$(g est-hot-1 .platform)" = '"vcenter"' ] || fail "est-hot-1 is not vcenter"
[ "$(g est-nsxt-hot-1 .platform)" = '"nsxt"' ] || fail "est-nsxt-hot-1 is not nsxt"
[ "$(g est-nsxt-hot-1 .cloud)" = '"nsxt-cloud"' ] || fail "est-nsxt-hot-1 is not in nsxt-cloud"
# A hot group's SE peaked at 92% CPU: at risk, nothing reclaimable, and why (rule
# observed-cpu-floor), though its request rate alone would give half its SUs back.
for name in est-hot-1 est-nsxt-hot-3; do
  [ "$(g "$name" .usage.service_units.reclaimable)" = 0 ] ||
    fail "$name reclaims $(g "$name" .usage.service_units.reclaimable) SUs"
  g "$name" .usage.service_units.reason | grep -qF "CPU, over the group's 80% target: a group at risk gives nothing back (rule observed-cpu-floor)" ||
    fail "$name: the reason is $(g "$name" .usage.service_units.reason)"
done
for name in est-idle-1 est-nsxt-idle-4; do
  reclaimable=$(g "$name" .usage.service_units.reclaimable)
  jq -e '. > 0' <<<"$reclaimable" >/dev/null || fail "$name reclaims $reclaimable SUs"
done
days=$(g est-growing .usage.forecast.days_to_target)
jq -e '. > 0 and . <= 30' <<<"$days" >/dev/null || fail "est-growing reaches its target in $days days"
[ "$(g est-empty .observed)" = false ] || fail "est-empty has observed figures"
[ "$(g est-empty .usage.se_count)" = 0 ] || fail "est-empty has SEs"
assert_json '[.estate.value.groups[] | select(.observed | not) | .name]' '["est-empty"]' \
  "$TF_TMP/estate.json"
# Most reclaimable Service Units first, unknown last.
assert_json '[.estate.value.groups[].usage.service_units.reclaimable // -1] | . == (sort | reverse)' \
  true "$TF_TMP/estate.json"

step "each group's figures are its own series': none routed to another group of its kind"
jq -n --slurpfile e "$TF_TMP/expected.json" --slurpfile s "$TF_TMP/estate.json" '
  [$s[0].estate.value.groups[] | select(.usage.se_count > 0)
   | {name, cpu: .usage.observed.cpu_pct, rps: .usage.observed.l7_rps} as $g
   | $e[0][$g.name] as $want
   | select((($g.cpu - $want.cpu_pct) | fabs) > 0.01 or (($g.rps - $want.l7_rps) | fabs) > 0.01)
   | {group: $g.name, got: $g, want: $want}]' >"$TF_TMP/misrouted.json"
[ "$(jq length "$TF_TMP/misrouted.json")" = 0 ] ||
  fail "groups whose figures are not their own series': $(cat "$TF_TMP/misrouted.json")"
assert_json '[.estate.value.groups[] | select(.usage.se_count > 0)] | length' 29 "$TF_TMP/estate.json"
# The offsets make the figures of a kind distinct, so the check above can tell groups apart.
assert_json '[.estate.value.groups[] | select(.name | test("hot")) | .usage.observed.cpu_pct]
  | (unique | length) == length' true "$TF_TMP/estate.json"
assert_json '[.estate.value.groups[] | select(.name | test("idle|steady|fleet"))
  | .usage.observed.l7_rps] | (unique | length) == length' true "$TF_TMP/estate.json"

step "the totals are the sums of the groups"
assert_json '.estate.value | .totals == {
    groups: (.groups | length),
    groups_at_risk: ([.groups[] | select(.at_risk)] | length),
    groups_without_observed_load: ([.groups[] | select(.observed | not)] | length),
    service_units_now: ([.groups[].usage.service_units.now // 0] | add),
    service_units_recommended: ([.groups[].usage.service_units.recommended // 0] | add),
    service_units_reclaimable: ([.groups[].usage.service_units.reclaimable // 0] | add),
    ses_behind_settings: ([.groups[].usage.ses_behind_settings // 0] | add)}' true \
  "$TF_TMP/estate.json"
assert_json '.estate.value.totals.groups_at_risk' 7 "$TF_TMP/estate.json"

step "the figures equal nsxalb_se_group_usage's for the same groups"
tf_write usage.tf <<'EOF'
data "nsxalb_se_group_usage" "one" {
  for_each = toset(["est-hot-1", "est-nsxt-idle-2", "est-growing"])
  name     = each.key
  window   = "14d"
}

output "one" {
  value = data.nsxalb_se_group_usage.one
}
EOF
tf apply -auto-approve
tf output -json
cp "$TF_STDOUT" "$TF_TMP/both.json"
for name in est-hot-1 est-nsxt-idle-2 est-growing; do
  same=$(jq --arg n "$name" '(.estate.value.groups[] | select(.name == $n)) as $e
    | .one.value[$n] as $o
    | ($e.id == $o.id) and ($e.platform == $o.platform)
      and ($e.usage | to_entries | all(.value == $o[.key]))' "$TF_TMP/both.json")
  if [ "$same" != true ]; then
    jq --arg n "$name" '(.estate.value.groups[] | select(.name == $n)) as $e | .one.value[$n] as $o
      | [$e.usage | to_entries[] | select(.value != $o[.key]) | {key, estate: .value, one: $o[.key]}]' \
      "$TF_TMP/both.json" >&2
    fail "$name: the estate's usage differs from nsxalb_se_group_usage's (above)"
  fi
  for figure in .service_units .observed.cpu_pct .forecast.days_to_target; do
    a=$(jq -c --arg n "$name" "(.estate.value.groups[] | select(.name == \$n)).usage$figure" "$TF_TMP/both.json")
    b=$(jq -c --arg n "$name" ".one.value[\$n]$figure" "$TF_TMP/both.json")
    [ "$a" = "$b" ] || fail "$name$figure: $a in the estate, $b for the group"
  done
done
rm "$TF_WORK/usage.tf"

step "filters: the nsxt cloud's 15 groups, the groups with 3 SEs or more"
sed -i 's|^  window     = "14d"$|  window     = "14d"\n  cloud      = "nsxt-cloud"|' "$TF_WORK/main.tf"
tf apply -auto-approve
tf output -json
assert_json '.estate.value.groups | length' 15
assert_json '[.estate.value.groups[].cloud] | unique' '["nsxt-cloud"]'
assert_json '.estate.value.metrics_requests' 1
sed -i 's|^  cloud      = "nsxt-cloud"$|  min_se_count = 3|' "$TF_WORK/main.tf"
tf apply -auto-approve
tf output -json
assert_json '.estate.value.groups | length' 9
assert_json '.estate.value.totals.groups' 9

step "a bad name_regex and an unknown cloud are errors at their attribute"
sed -i 's|^  min_se_count = 3$|  cloud      = "no-such-cloud"|' "$TF_WORK/main.tf"
tf_fails plan
assert_says "$TF_OUT" 'Error: Cloud not found'
assert_says "$TF_OUT" 'cloud = "no-such-cloud"'
sed -i -e '/^  cloud      = "no-such-cloud"$/d' -e 's|^  name_regex = "^est-"$|  name_regex = "est-("|' \
  "$TF_WORK/main.tf"
tf_fails plan
assert_says "$TF_OUT" 'Error: Invalid name_regex'
assert_says "$TF_OUT" 'name_regex = "est-("'
sed -i 's|^  name_regex = "est-("$|  name_regex = "^est-"|' "$TF_WORK/main.tf"

step "a 403 on the first metrics POST: its batch's groups have no figures, the others keep theirs"
emu_faults '{"fail_next":1,"fail_status":403,"match":"POST /api/analytics/metrics/collection"}'
tf apply -auto-approve
assert_says "$TF_OUT" "SE groups usage: 7 of 30 groups have no observed figures"
tf output -json
cp "$TF_STDOUT" "$TF_TMP/faulted.json"
# The first batch: est-fleet (110 SEs) and the groups after it in listing order while the batch
# holds at most 127 SEs: est-hot-1..3 (6) and est-idle-1..3 (9), 125 SEs; est-idle-4 would make 128.
first='["est-fleet","est-hot-1","est-hot-2","est-hot-3","est-idle-1","est-idle-2","est-idle-3"]'
assert_json '[.estate.value.groups[] | select(.observed | not) | .name] | sort' \
  "$(jq -c '. + ["est-empty"] | sort' <<<"$first")" "$TF_TMP/faulted.json"
for name in $(jq -r '.[]' <<<"$first"); do
  jq -e --arg n "$name" '.estate.value.groups[] | select(.name == $n)
    | .usage.findings | any(contains("usage-analytics-unavailable"))' "$TF_TMP/faulted.json" \
    >/dev/null || fail "$name does not say the analytics are unavailable"
done
kept=$(jq -n --argjson first "$first" --slurpfile a "$TF_TMP/estate.json" \
  --slurpfile b "$TF_TMP/faulted.json" '
  [$a[0].estate.value.groups[] | select(.name as $n | $first | index($n) | not)
   | {name, su: .usage.service_units, cpu: .usage.observed.cpu_pct}] as $before
  | [$b[0].estate.value.groups[] | select(.name as $n | $first | index($n) | not)
   | {name, su: .usage.service_units, cpu: .usage.observed.cpu_pct}] as $after
  | ($before | sort_by(.name)) == ($after | sort_by(.name)) and ($before | length) == 23')
[ "$kept" = true ] || fail "the groups of the second batch lost or changed their figures"
assert_json '.estate.value.metrics_requests' 2 "$TF_TMP/faulted.json"

step "tenant = \"*\": a second tenant's group beside the admin tenant's, each naming its tenant"
_emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d '{"name":"team-b"}' \
  "$EMU_URL/_emulator/tenants" >/dev/null || fail "creating tenant team-b failed"
b_uuid=$(emu_api POST /api/serviceenginegroup \
  '{"name":"est-b-1","cloud_ref":"nsxt-cloud","tenant_ref":"team-b","vcpus_per_se":2}' | jq -r .uuid)
b_ses=$(_emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
  -d "{\"se_group_uuid\":\"$b_uuid\",\"count\":1}" "$EMU_URL/_emulator/serviceengines" |
  jq -r '.uuids[0]') || fail "creating est-b-1's SE failed"
jq -n --arg se "$b_ses" '{series: [{entity_uuid: $se, metric_id: "se_stats.avg_cpu_usage",
  step: 3600, values: [range(0; 337) | 30 + (. % 7)]}]}' >"$TF_TMP/b-series.json"
emu_post_file /_emulator/metrics "$TF_TMP/b-series.json" >/dev/null
tf apply -auto-approve
tf output -json
assert_json '[.estate.value.groups[].name] | index("est-b-1")' null
sed -i 's|^  window     = "14d"$|  window     = "14d"\n  tenant     = "*"|' "$TF_WORK/main.tf"
tf apply -auto-approve
tf output -json
cp "$TF_STDOUT" "$TF_TMP/all-tenants.json"
assert_json '.estate.value.groups | length' 31 "$TF_TMP/all-tenants.json"
assert_json '[.estate.value.groups[] | select(.name == "est-b-1") | .tenant]' '["team-b"]' \
  "$TF_TMP/all-tenants.json"
assert_json '[.estate.value.groups[] | select(.name != "est-b-1") | .tenant] | unique' '["admin"]' \
  "$TF_TMP/all-tenants.json"
assert_json '.estate.value.groups[] | select(.name == "est-b-1") | .usage.observed.cpu_pct' 36 \
  "$TF_TMP/all-tenants.json"

step "destroy"
tf destroy -auto-approve
pass
