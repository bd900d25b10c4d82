#!/usr/bin/env bash
# The estate's observed load at its bound (issue 35): N SE groups of 2 SEs (default 200), 7 days of
# 5-minute points (2,016 a series, 8 series an SE), read by `controller usage --all --json` from the
# emulator. Measures:
#   - loading the estate into the emulator (the groups through the API; the SEs and series through
#     its control endpoints), wall time;
#   - the Controller requests of the read after its login, by kind (the emulator's counters);
#   - the reading process's peak RSS above the idle process's (`--version` under the same
#     rusage_exec), and its CPU time (user + system: the listings, the TLS, the streaming decode
#     and the analysis of every group), and wall time;
#   - that the totals equal the sum of the groups.
# Budgets (issue 35): at most 11 requests after login (issue 35's 10, and since issue 40 the one
# GET of the licence ledger), at most 64 MB of RSS above idle, at most 2 s
# of CPU; each is printed as met or missed, and the script fails when one is missed under
# NSXALB_BENCH_STRICT=1 (the smoke test's setting).
#
#   estate_usage.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON
#   NSXALB_BENCH_USAGE_GROUPS (default 200), NSXALB_BENCH_USAGE_POINTS (default 2016)
#   NSXALB_BENCH_READER_PREFIX: a command put before the reading process, for a profile, e.g.
#     "perf record -o /tmp/estate.perf" (the figures are then the profiler's)
set -euo pipefail
groups=${NSXALB_BENCH_USAGE_GROUPS:-200}
points=${NSXALB_BENCH_USAGE_POINTS:-2016}
strict=${NSXALB_BENCH_STRICT:-}
reader_prefix=${NSXALB_BENCH_READER_PREFIX:-}
provider=${1:?usage: estate_usage.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
emulator=${2:?usage: estate_usage.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
rusage_exec=${3:?usage: estate_usage.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
out_json=${4:?usage: estate_usage.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
out_json=$(cd "$(dirname "$out_json")" && pwd)/$(basename "$out_json")
rusage_exec=$(cd "$(dirname "$rusage_exec")" && pwd)/$(basename "$rusage_exec")

# shellcheck source=../../tests/terraform/lib.sh
source "$(dirname "$0")/../../tests/terraform/lib.sh" "$provider" "$emulator"
export NSXALB_CA_FILE=$EMU_CA_FILE NSXALB_USERNAME=$EMU_USERNAME NSXALB_PASSWORD=$EMU_PASSWORD

emu_post() {  # emu_post PATH JSON_FILE: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary "@$2" \
    "$EMU_URL$1" || fail "POST $1 failed"
}
now_ms() { date +%s%3N; }

step "loading $groups groups of 2 SEs, $points points a series"
load_start=$(now_ms)
declare -A cloud_refs
for cloud in Default-Cloud nsxt-cloud; do
  cloud_refs[$cloud]=$(emu_api GET "/api/cloud?name=$cloud" | jq -r '.results[0].url')
done
for ((i = 0; i < groups; i++)); do
  cloud=Default-Cloud
  [ $((i % 2)) -eq 0 ] || cloud=nsxt-cloud
  cloud_ref=${cloud_refs[$cloud]}
  emu_api POST /api/serviceenginegroup \
    "{\"name\":\"estate-$i\",\"cloud_ref\":\"$cloud_ref\",\"vcpus_per_se\":4,\"memory_per_se\":8192}" |
    jq -r .uuid >>"$TF_TMP/groups"
done
groups_done=$(now_ms)
: >"$TF_TMP/ses"
while read -r group; do
  printf '{"se_group_uuid":"%s","count":2}' "$group" >"$TF_TMP/se_req.json"
  emu_post /_emulator/serviceengines "$TF_TMP/se_req.json" | jq -r '.uuids[]' >>"$TF_TMP/ses"
done <"$TF_TMP/groups"
ses_done=$(now_ms)
# The series, 50 SEs a request: the 8 an SE has (the reader asks for the 6 it reads).
python3 - "$TF_TMP/ses" "$points" "$TF_TMP/metrics" <<'EOF'
import json, sys
ses = [l.strip() for l in open(sys.argv[1]) if l.strip()]
n = int(sys.argv[2])
vs = ["l7_client.avg_complete_responses", "l7_client.avg_ssl_handshakes_new",
      "l4_client.avg_new_established_conns", "l4_client.max_open_conns", "l4_client.avg_bandwidth"]
se_stats = ["se_stats.avg_cpu_usage", "se_stats.avg_mem_usage", "se_if.avg_bandwidth"]
for part in range(0, len(ses), 50):
    out = []
    for k, se in enumerate(ses[part:part + 50]):
        load = 5 + (part + k) % 60  # idle to hot across the estate
        for m in se_stats:
            out.append({"entity_uuid": se, "metric_id": m, "step": 300,
                        "values": [float(load + (i % 12)) for i in range(n)]})
        for m in vs:
            out.append({"entity_uuid": "virtualservice-bench", "serviceengine_uuid": se,
                        "metric_id": m, "step": 300,
                        "values": [float(100 * load + (i % 50)) for i in range(n)]})
    with open("%s.%04d.json" % (sys.argv[3], part), "w") as f:
        json.dump({"series": out}, f)
EOF
gen_done=$(now_ms)
for f in "$TF_TMP"/metrics.*.json; do emu_post /_emulator/metrics "$f" >/dev/null; done
load_done=$(now_ms)

step "the idle process"
"$rusage_exec" --log "$TF_TMP/idle.rusage" -- "$TF_PROVIDER_BINARY" --version >/dev/null

step "controller usage --all --json"
emu_reset_counters
# The emulator also has a Default-Group in each cloud: the name filter keeps the estate's own.
# shellcheck disable=SC2086 # the prefix is words
"$rusage_exec" --log "$TF_TMP/read.rusage" -- $reader_prefix "$TF_PROVIDER_BINARY" controller usage --all \
  --name '^estate-' --window 7d --json >"$TF_TMP/estate.json" || fail "controller usage --all failed"
emu_counters >"$TF_TMP/counters.json"

read_groups=$(jq '.groups | length' "$TF_TMP/estate.json")
[ "$read_groups" -eq "$groups" ] || fail "read $read_groups groups, not $groups"
sums_match=$(jq '[.groups[].usage.service_units.now // 0] | add == (input.totals.service_units_now)' \
  "$TF_TMP/estate.json" "$TF_TMP/estate.json")

jq -n --slurpfile idle "$TF_TMP/idle.rusage" --slurpfile read "$TF_TMP/read.rusage" \
  --slurpfile counters "$TF_TMP/counters.json" \
  --argjson groups "$groups" --argjson points "$points" \
  --argjson load_ms "$((load_done - load_start - (gen_done - ses_done)))" \
  --argjson groups_ms "$((groups_done - load_start))" \
  --argjson ses_ms "$((ses_done - groups_done))" --argjson metrics_ms "$((load_done - gen_done))" \
  --argjson sums_match "$sums_match" '
  ($counters[0].requests | with_entries(select(.key != "POST /login"))) as $after_login
  | {groups: $groups, ses: ($groups * 2), points_per_series: $points,
     load: {total_s: ($load_ms / 1000), groups_api_s: ($groups_ms / 1000),
            ses_control_s: ($ses_ms / 1000), metrics_control_s: ($metrics_ms / 1000)},
     requests_after_login: ($after_login | add), requests: $after_login,
     idle_rss_mb: ($idle[0].maxrss_kb / 1024), peak_rss_mb: ($read[0].maxrss_kb / 1024),
     rss_above_idle_mb: (($read[0].maxrss_kb - $idle[0].maxrss_kb) / 1024),
     cpu_s: (($read[0].utime_us + $read[0].stime_us) / 1e6), wall_s: ($read[0].wall_us / 1e6),
     totals_equal_the_sum: $sums_match}
  | .budgets = {requests_after_login: (.requests_after_login <= 11),
                rss_above_idle_mb: (.rss_above_idle_mb <= 64), cpu_s: (.cpu_s <= 2)}' >"$out_json"
cat "$out_json"
if [ "$strict" = 1 ]; then
  jq -e '.budgets | all' "$out_json" >/dev/null || fail "a budget was missed"
  jq -e '.totals_equal_the_sum' "$out_json" >/dev/null || fail "the totals are not the sum"
fi
pass
