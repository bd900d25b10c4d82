#!/usr/bin/env bash
# nsxalb.alb.se_group_info with usage, with the real ansible-playbook against the emulator: the
# group's 2 SEs peak at 120,000 and 110,000 RPS at different times, their sum at 200,000, one SE's
# CPU at 91%; the module returns the peak of the sum (not 230,000), the CPU and the SE count,
# with one SE listing and one analytics request; its Service Units now are its 2 SEs' vCPUs, and
# a day's window gives no forecast, saying why.
source "$(dirname "$0")/lib.sh" "$@"

emu_post() {  # emu_post PATH JSON: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" "$EMU_URL$1" ||
    fail "POST $1 failed"
}

step "create the web group"
play create se_group.yml || fail "the create play failed"
group=$(emu_group web | jq -r .uuid)

step "2 SEs and a day of their metrics"
ses=$(emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":2}")
series=$(python3 - "$(jq -r '.uuids[0]' <<<"$ses")" "$(jq -r '.uuids[1]' <<<"$ses")" <<'EOF'
import json, sys
se1, se2 = sys.argv[1:3]
n = 288
rps1, rps2 = [50000.0] * n, [40000.0] * n
rps1[100], rps2[100] = 120000.0, 80000.0
rps1[200], rps2[200] = 60000.0, 110000.0
cpu1 = [40.0] * n
cpu1[100], cpu1[50] = 91.0, None
def vs(se, v):
    return {"entity_uuid": "virtualservice-web", "serviceengine_uuid": se,
            "metric_id": "l7_client.avg_complete_responses", "step": 300, "values": v}
print(json.dumps({"series": [vs(se1, rps1), vs(se2, rps2),
                             {"entity_uuid": se1, "metric_id": "se_stats.avg_cpu_usage",
                              "step": 300, "values": cpu1}]}))
EOF
)
emu_post /_emulator/metrics "$series" >/dev/null
_emu_curl --fail-with-body -X POST -d '' "$EMU_URL/_emulator/counters/reset" >/dev/null ||
  fail "resetting the counters failed"

step "se_group_info with usage"
play usage se_group_usage.yml || fail "the usage play failed"
assert_recap usage 'ok=2 changed=0 .*failed=0'
assert_out usage "se_count=2"
assert_out usage "observed_l7_rps=200000"
assert_out usage "observed_cpu_pct=91"
vcpus=$(emu_group web | jq .vcpus_per_se)
assert_out usage "service_units_now=$((2 * vcpus))"
assert_out usage "forecast: the window (24 hours) is shorter than 7 days"
assert_eq "SE listings" 1 "$(emu_counters | jq '.requests["GET /api/serviceengine"] // 0')"
assert_eq "analytics requests" 1 \
  "$(emu_counters | jq '.requests["POST /api/analytics/metrics/collection"] // 0')"
pass
