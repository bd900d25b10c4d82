#!/usr/bin/env bash
# nsxalb.alb.se_group_info with usage.all (issue 35), with the real ansible-playbook against the
# emulator: three groups named est-* on nsxt-cloud (est-hot: 2 SEs, one at 91% CPU; est-idle: 3
# SEs of 8 vCPUs at 4% CPU carrying little; est-empty: no SEs) beside the Default-Groups. The
# module returns the estate (the nsxalb_se_groups_usage data source's list): the 3 groups kept by
# name_regex, est-hot at risk, est-idle with reclaimable Service Units, est-empty without observed
# load, totals that are the sums, with one SE listing and one analytics request. A bad name_regex
# fails the task naming it. With usage.all_tenants, a group of a second tenant (made through the
# emulator's control endpoint) is listed beside them, naming its tenant.
source "$(dirname "$0")/lib.sh" "$@"

emu_post() {  # emu_post PATH JSON: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" "$EMU_URL$1" ||
    fail "POST $1 failed"
}

step "create est-hot, est-idle and est-empty"
for spec in est-hot:2 est-idle:8 est-empty:2; do
  play "create-${spec%%:*}" se_group.yml -e "group_name=${spec%%:*}" -e "group_vcpus=${spec##*:}" ||
    fail "the create play of ${spec%%:*} failed"
done

step "their SEs and a day of their metrics"
hot=$(emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$(emu_group est-hot | jq -r .uuid)\",\"count\":2}")
idle=$(emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$(emu_group est-idle | jq -r .uuid)\",\"count\":3}")
series=$(python3 - "$(jq -c .uuids <<<"$hot")" "$(jq -c .uuids <<<"$idle")" <<'EOF2'
import json, sys
hot, idle = json.loads(sys.argv[1]), json.loads(sys.argv[2])
n = 288
out = []
for i, se in enumerate(hot + idle):
    is_hot = se in hot
    cpu = [50.0 if is_hot else 4.0] * n
    if is_hot and i == 0:
        cpu[100] = 91.0
    rps = [20000.0 if is_hot else 300.0] * n
    out.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 300,
                "values": cpu})
    out.append({"entity_uuid": "virtualservice-" + ("hot" if is_hot else "idle"),
                "serviceengine_uuid": se, "metric_id": "l7_client.avg_complete_responses",
                "step": 300, "values": rps})
print(json.dumps({"series": out}))
EOF2
)
emu_post /_emulator/metrics "$series" >/dev/null
_emu_curl --fail-with-body -X POST -d '' "$EMU_URL/_emulator/counters/reset" >/dev/null ||
  fail "resetting the counters failed"

step "se_group_info with usage.all"
play estate se_group_usage_all.yml -e 'name_regex=^est-' -e usage_window=24h ||
  fail "the estate play failed"
assert_recap estate 'ok=4 changed=0 .*failed=0'
assert_out estate "groups=3"
assert_out estate "groups_at_risk=1"
assert_out estate "groups_without_observed_load=1"
assert_out estate "metrics_requests=1"
assert_out estate "group est-hot cloud=nsxt-cloud at_risk=True cpu_pct=91"
assert_out estate "group est-empty cloud=nsxt-cloud at_risk=False cpu_pct= reclaimable="
grep -qE "group est-idle cloud=nsxt-cloud at_risk=False cpu_pct=4(\.0)? reclaimable=[1-9]" \
  "$AN_TMP/estate.out" || fail "est-idle has no reclaimable Service Units"
# Most reclaimable first.
[ "$(grep -oE 'group est-[a-z]+' "$AN_TMP/estate.out" | head -1)" = "group est-idle" ] ||
  fail "est-idle is not listed first"
# The licence pool: the default licence, consumed by exactly the SUs the estate's SEs run (they
# are every SE on the emulator).
now=$(grep -oE 'service_units_now=[0-9.]+' "$AN_TMP/estate.out" | head -1 | cut -d= -f2)
grep -qE "pool ENTERPRISE licensed=100000(\.0)? consumed=${now}(\.0)? escrow=0(\.0)? " \
  "$AN_TMP/estate.out" || fail "no pool line consuming ${now} SUs: $(grep pool "$AN_TMP/estate.out")"
assert_eq "licence ledger reads" 1 \
  "$(emu_counters | jq '.requests["GET /api/licensing/ledger/details"] // 0')"
assert_eq "SE listings" 1 "$(emu_counters | jq '.requests["GET /api/serviceengine"] // 0')"
assert_eq "analytics requests" 1 \
  "$(emu_counters | jq '.requests["POST /api/analytics/metrics/collection"] // 0')"

step "min_se_count = 3 keeps est-idle"
play estate-min se_group_usage_all.yml -e 'name_regex=^est-' -e min_se_count=3 ||
  fail "the estate play with min_se_count failed"
assert_out estate-min "groups=1"
assert_out estate-min "group est-idle"

step "usage.all_tenants: a second tenant's group beside the admin tenant's, each naming its tenant"
emu_post /_emulator/tenants '{"name":"team-b"}' >/dev/null
NSXALB_TENANT=team-b play create-b se_group.yml -e group_name=est-b -e group_vcpus=2 ||
  fail "the create play of est-b in team-b failed"
play estate-one se_group_usage_all.yml -e 'name_regex=^est-' -e usage_window=24h ||
  fail "the estate play of one tenant failed"
assert_out estate-one "groups=3"
play estate-all se_group_usage_all.yml -e 'name_regex=^est-' -e usage_window=24h \
  -e all_tenants=true || fail "the All Tenants estate play failed"
assert_out estate-all "groups=4"
grep -qE "group est-b cloud=nsxt-cloud .* tenant=team-b" "$AN_TMP/estate-all.out" ||
  fail "est-b is not listed with its tenant"
# The admin tenant's name shows masked: it equals the test's password, a no_log value.
grep -qE "group est-hot cloud=nsxt-cloud at_risk=True cpu_pct=91(\.0)? .* tenant=[^t]" \
  "$AN_TMP/estate-all.out" || fail "est-hot is not listed with its own figures and tenant"

step "a bad name_regex fails the task, naming it"
if play estate-bad se_group_usage_all.yml -e 'name_regex=est-('; then
  fail "the play with a bad name_regex succeeded"
fi
assert_out estate-bad "name_regex"
pass
