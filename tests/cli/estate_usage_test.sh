#!/usr/bin/env bash
# `controller usage --all` end to end against the Controller emulator, as a user types it: three
# SE groups in two clouds with 2 SEs each and 7 days of metrics (one group's SE above its 80%
# target, one group without metrics), beside the seed's Default-Group in each cloud.
#   - --csv parses with Python's csv module: one row per group, the at-risk and observed flags,
#     the Service Units, and a name with a comma and quotes survives the quoting;
#   - the small estate is read in one POST /api/analytics/metrics/collection (the emulator's
#     counters), with --min-ses and --cloud filtering;
#   - --json's totals are the sums of its groups' figures, and the text's total line says them,
#     followed by the licence pool line (the ledger's figures);
#   - stdout carries no progress line; on a terminal (a pty) stderr shows "reading metrics: 1/1
#     requests";
#   - estate-report turns the --json into Markdown and an SVG with one bar pair per group;
#   - --all-tenants: a second tenant's group (made through the control endpoint) is listed beside
#     the admin tenant's, with the tenant as a column, its own figures, in one listing GET each
#     and one metrics POST per tenant; a user who is not a superuser gets the Controller's 403 as
#     a clear error and no estate.
# Usage: estate_usage_test.sh PROVIDER_BINARY EMULATOR_BINARY
set -euo pipefail
provider=$1
emulator=$2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib/terraform-mirror.sh
source "$source_dir/scripts/lib/terraform-mirror.sh"

tmp=$(mktemp -d)
EMU_PID=""
cleanup() {
  local rc=$?
  tfm_stop_emulator
  if [ "$rc" -ne 0 ] && [ -s "$tmp/emulator.log" ]; then tail -n 20 "$tmp/emulator.log" >&2; fi
  rm -rf "$tmp"
  return "$rc"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "--- $*"; }

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -E '^NSXALB_' || true)
tfm_start_emulator "$emulator" "$tmp" || fail "the emulator did not start"
export NSXALB_CONTROLLER=$EMU_URL NSXALB_USERNAME=admin NSXALB_PASSWORD=admin
export NSXALB_CA_FILE=$EMU_CA_FILE

emu() {  # emu METHOD PATH [JSON]: a control request (a POST's body {} by default); prints the body.
  local body=()
  [ "$1" = GET ] || body=(-H 'Content-Type: application/json' -d "${3:-{\}}")
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" --fail-with-body -X "$1" "${body[@]}" \
    "$EMU_URL/_emulator/$2" || fail "$1 /_emulator/$2 failed"
}

# group NAME CLOUD [TENANT]: creates the group with the provider's own apply-se-group; prints its
# uuid.
group() {
  jq -n --arg n "$1" --arg c "$2" --arg t "${3:-admin}" \
    '{name: $n, cloud: $c, tenant: $t, settings: {vcpus_per_se: 2, memory_per_se: 4096, max_se: 4}}' |
    "$provider" controller apply-se-group | jq -er '.se_group.uuid' ||
    fail "creating SE group $1 failed"
}

# load GROUP_UUID CPU_PEAK [RPS]: 2 SEs in the group, and 7 days of 5-minute points ending now:
# each SE's CPU (its peak CPU_PEAK once) and, with RPS, each SE's share of a virtual service's
# L7 requests.
load() {
  local ses
  ses=$(emu POST serviceengines "{\"se_group_uuid\":\"$1\",\"count\":2}")
  [ $# -ge 2 ] || return 0
  python3 - "$ses" "$2" "${3:-0}" >"$tmp/series.json" <<'EOF'
import json, sys
ses = json.loads(sys.argv[1])["uuids"]
peak, rps = float(sys.argv[2]), float(sys.argv[3])
n = 2016
series = []
for i, se in enumerate(ses):
    cpu = [peak * 0.5 + (k % 4) for k in range(n)]
    cpu[1000 + i] = peak
    series.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 300,
                   "values": cpu})
    if rps > 0:
        series.append({"entity_uuid": "virtualservice-" + se, "serviceengine_uuid": se,
                       "metric_id": "l7_client.avg_complete_responses", "step": 300,
                       "values": [rps] * n})
print(json.dumps({"series": series}))
EOF
  emu POST metrics "$(cat "$tmp/series.json")" >/dev/null
}

step "three groups in two clouds, 2 SEs each; metrics for two of them"
quiet=$(group 'quiet, "old" web' nsxt-cloud)
hot=$(group hot-api nsxt-cloud)
dark=$(group dark Default-Cloud)
load "$quiet" 14 2000
load "$hot" 93 9000
load "$dark"
emu POST counters/reset >/dev/null

step "usage --all --csv: one row per group, parsed by Python's csv module"
"$provider" controller usage --all --csv >"$tmp/estate.csv" 2>"$tmp/csv.err" ||
  fail "usage --all --csv failed: $(cat "$tmp/csv.err")"
[ ! -s "$tmp/csv.err" ] || fail "usage --all --csv wrote to stderr: $(cat "$tmp/csv.err")"
python3 - "$tmp/estate.csv" <<'EOF' || fail "the CSV is not as expected: $(cat "$tmp/estate.csv")"
import csv, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
by_name = {r["name"]: r for r in rows}
assert len(rows) == 5, len(rows)
assert [r["name"] for r in rows].count("Default-Group") == 2, rows
quiet, hot, dark = by_name['quiet, "old" web'], by_name["hot-api"], by_name["dark"]
assert quiet["cloud"] == "nsxt-cloud" and dark["cloud"] == "Default-Cloud", rows
assert quiet["platform"] == "nsxt" and dark["platform"] == "vcenter", rows
for r in (quiet, hot, dark):
    assert r["se_count"] == "2", r
    assert float(r["su_now"]) == 4, r  # 2 SEs of 2 vCPUs
    assert r["ses_behind_settings"] == "0", r  # made at the group's settings
assert hot["at_risk"] == "true" and float(hot["cpu_peak_pct"]) == 93, hot
assert quiet["at_risk"] == "false" and float(quiet["cpu_peak_pct"]) == 14, quiet
assert quiet["observed"] == "true" and hot["observed"] == "true", rows
assert dark["observed"] == "false" and dark["note"] != "" and dark["su_reclaimable"] == "", dark
assert quiet["su_recommended"] != "" and quiet["su_reclaimable"] != "", quiet
# The reader's order: most reclaimable first, unknown last.
known = [float(r["su_reclaimable"]) for r in rows if r["su_reclaimable"] != ""]
assert known == sorted(known, reverse=True), rows
assert all(r["su_reclaimable"] == "" for r in rows[len(known):]), rows
print("ok: %d rows" % len(rows))
EOF

step "a small estate is one metrics POST"
emu GET counters >"$tmp/counters.json"
posts=$(jq '.requests["POST /api/analytics/metrics/collection"] // 0' "$tmp/counters.json")
[ "$posts" = 1 ] || fail "$posts metrics POSTs for 5 groups: $(cat "$tmp/counters.json")"
# And one GET of each listing and of the licence ledger: never a request per group or per SE.
gets=$(jq -c '[.requests | to_entries[] | select(.key | startswith("GET ")) | .key + "=" + (.value | tostring)]' \
  "$tmp/counters.json")
[ "$gets" = '["GET /api/cloud=1","GET /api/licensing/ledger/details=1","GET /api/serviceengine=1","GET /api/serviceenginegroup=1"]' ] ||
  fail "the listings were not one GET each: $gets"

step "--json: the totals are the sums of the groups' figures; --min-ses and --cloud filter"
"$provider" controller usage --all --json >"$tmp/estate.json" || fail "usage --all --json failed"
python3 - "$tmp/estate.json" <<'EOF' || fail "the totals are not the groups' sums"
import json, sys
estate = json.load(open(sys.argv[1]))
groups, totals = estate["groups"], estate["totals"]
def total(key):
    return sum(g["usage"]["service_units"][key] or 0 for g in groups)
assert totals["groups"] == len(groups) == 5, totals
assert totals["service_units_now"] == total("now"), totals
assert totals["service_units_recommended"] == total("recommended"), totals
assert totals["service_units_reclaimable"] == total("reclaimable"), totals
assert totals["groups_at_risk"] == sum(g["at_risk"] for g in groups) == 1, totals
assert totals["groups_without_observed_load"] == sum(not g["observed"] for g in groups) == 3
assert estate["metrics_requests"] == 1, estate["metrics_requests"]
# Every SE was made at its group's settings: none behind them.
assert totals["ses_behind_settings"] == sum(g["usage"]["ses_behind_settings"] for g in groups) == 0
assert all(se["matches"] for g in groups for se in g["usage"]["service_engines"]), groups
print("ok: totals", totals)
EOF
"$provider" controller usage --all --min-ses 1 --cloud nsxt-cloud --csv >"$tmp/filtered.csv"
python3 - "$tmp/filtered.csv" <<'EOF' || fail "--min-ses 1 --cloud nsxt-cloud kept: $(cat "$tmp/filtered.csv")"
import csv, sys
names = sorted(r["name"] for r in csv.DictReader(open(sys.argv[1], newline="")))
assert names == ['hot-api', 'quiet, "old" web'], names
EOF

step "the text: a table and the total line"
"$provider" controller usage --all >"$tmp/estate.txt" 2>"$tmp/text.err" || fail "usage --all failed"
[ ! -s "$tmp/text.err" ] || fail "usage --all wrote to stderr: $(cat "$tmp/text.err")"
head -n 1 "$tmp/estate.txt" | grep -q '^SE group .*SUs now.*at risk  note$' ||
  fail "no table header: $(head -n 1 "$tmp/estate.txt")"
want=$(jq -r '.totals | "\(.groups) groups, \(.service_units_now) SUs now, \(.service_units_recommended) recommended, \(.service_units_reclaimable) reclaimable; \(.groups_at_risk) at risk; \(.groups_without_observed_load) without observed load; \(if .ses_behind_settings == 1 then "1 SE" else "\(.ses_behind_settings) SEs" end) behind settings"' \
  "$tmp/estate.json")
grep '^Total: ' "$tmp/estate.txt" | grep -qxF "Total: $want" ||
  fail "the total line is '$(grep '^Total: ' "$tmp/estate.txt")', not 'Total: $want'"
# Then the licence pool, a line per tier, as the ledger says (the default licence, and the 6 SEs
# of 2 vCPUs).
# The remaining units after reclaim are the remaining plus the groups' reclaimable units.
after=$(jq -r '99988 + .totals.service_units_reclaimable | tostring | if length > 3 then .[:-3] + "," + .[-3:] else . end' \
  "$tmp/estate.json")
jq -e --argjson after "${after//,/}" '.license_pool[0] | .tier == "ENTERPRISE" and .licensed == 100000
  and .consumed == 12 and .escrow == 0 and .remaining == 99988
  and .remaining_after_reclaim == $after' "$tmp/estate.json" >/dev/null ||
  fail "the pool in --json is not the ledger's: $(jq -c '.license_pool' "$tmp/estate.json")"
tail -n 1 "$tmp/estate.txt" | grep -qxF "Licence pool ENTERPRISE: 100,000 licensed, 12 consumed, 0 in escrow, 99,988 remaining; $after remaining after the reclaimable units come back" ||
  fail "the last line is not the pool line: $(tail -n 1 "$tmp/estate.txt")"
grep -q '^hot-api .* yes$' "$tmp/estate.txt" || fail "hot-api is not at risk: $(cat "$tmp/estate.txt")"

step "on a terminal, stderr shows the progress; stdout never does"
python3 - "$provider" "$tmp/tty.out" <<'EOF' || fail "the progress on a terminal"
import os, pty, subprocess, sys
master, slave = pty.openpty()
with open(sys.argv[2], "wb") as out:
    rc = subprocess.call([sys.argv[1], "controller", "usage", "--all", "--csv"], stdout=out,
                         stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
seen = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
assert rc == 0, rc
assert b"reading metrics: 1/1 requests" in seen, seen
stdout = open(sys.argv[2], "rb").read()
assert b"reading" not in stdout and stdout.startswith(b"name,uuid,"), stdout[:200]
print("ok: stderr on a pty:", seen.replace(b"\x1b[K", b"").split(b"\r")[-2:])
EOF

step "estate-report: Markdown and one bar pair per group"
"$provider" estate-report "$tmp/estate.json" --svg "$tmp/estate.svg" >"$tmp/estate.md" ||
  fail "estate-report failed"
grep -qF "Total: $want." "$tmp/estate.md" || fail "estate-report lacks the total line"
grep -qF -- '- `hot-api` (nsxt-cloud): CPU peak 93.0% above the 80% target' "$tmp/estate.md" ||
  fail "estate-report does not say why hot-api is at risk: $(cat "$tmp/estate.md")"
python3 - "$tmp/estate.svg" <<'EOF' || fail "the chart"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
by_class = {}
for e in root.iter():
    by_class.setdefault(e.get("class"), []).append(e.tag)
assert by_class.get("su-now") == [ns + "rect"] * 5, by_class
assert by_class.get("su-recommended") == [ns + "rect"] * 5, by_class
assert len(by_class.get("at-risk", [])) == 1, by_class
assert not any(e.tag == ns + "script" for e in root.iter())
EOF

step "--all-tenants: a second tenant's group beside the admin tenant's, the tenant a column"
emu POST tenants '{"name":"team-b"}' >/dev/null
team_b=$(group b-web nsxt-cloud team-b)
load "$team_b" 57 3000
"$provider" controller usage --all --csv >"$tmp/admin-only.csv" || fail "usage --all failed"
grep -q '^b-web,' "$tmp/admin-only.csv" && fail "the admin tenant's estate lists team-b's group"
emu POST counters/reset >/dev/null
"$provider" controller usage --all --all-tenants --csv >"$tmp/all.csv" 2>"$tmp/all.err" ||
  fail "usage --all --all-tenants failed: $(cat "$tmp/all.err")"
python3 - "$tmp/all.csv" <<'EOF' || fail "the All Tenants CSV: $(cat "$tmp/all.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert list(rows[0].keys())[:3] == ["name", "uuid", "tenant"], list(rows[0].keys())
by = {(r["tenant"], r["name"]): r for r in rows}
assert len(rows) == 6, [(r["tenant"], r["name"]) for r in rows]
assert ("team-b", "b-web") in by and ("admin", "hot-api") in by, sorted(by)
b, hot = by[("team-b", "b-web")], by[("admin", "hot-api")]
assert float(b["cpu_peak_pct"]) == 57 and b["observed"] == "true", b
assert float(hot["cpu_peak_pct"]) == 93, hot
print("ok: tenants", sorted({r["tenant"] for r in rows}))
EOF
emu GET counters >"$tmp/counters.json"
jq -e '.requests["POST /api/analytics/metrics/collection"] == 2 and .requests["GET /api/serviceenginegroup"] == 1 and .requests["GET /api/serviceengine"] == 1 and .requests["GET /api/tenant"] == 1' \
  "$tmp/counters.json" >/dev/null ||
  fail "All Tenants is not one listing each and a metrics POST per tenant: $(jq -c .requests "$tmp/counters.json")"
"$provider" controller usage --all --all-tenants >"$tmp/all.txt" || fail "the All Tenants table"
head -n 1 "$tmp/all.txt" | grep -q '^SE group  *tenant  *cloud ' || fail "no tenant column: $(head -n 1 "$tmp/all.txt")"
grep -q '^b-web  *team-b  *nsxt-cloud ' "$tmp/all.txt" || fail "b-web's row: $(cat "$tmp/all.txt")"
"$provider" controller usage --all --all-tenants --json | jq -e '[.groups[] | select(.name == "b-web") | .tenant] == ["team-b"]' >/dev/null ||
  fail "the JSON does not carry b-web's tenant"

step "--all-tenants as a user who is not a superuser: the Controller's 403, not an empty estate"
emu POST users '{"username":"viewer","password":"viewer-pw","superuser":false}' >/dev/null
if NSXALB_USERNAME=viewer NSXALB_PASSWORD=viewer-pw "$provider" controller usage --all --all-tenants \
  --csv >"$tmp/denied.csv" 2>"$tmp/denied.err"; then
  fail "a non-superuser read All Tenants: $(cat "$tmp/denied.csv")"
fi
[ ! -s "$tmp/denied.csv" ] || fail "a refused read printed an estate: $(cat "$tmp/denied.csv")"
grep -q 'All Tenants view' "$tmp/denied.err" && grep -q 'superuser' "$tmp/denied.err" &&
  grep -q '403' "$tmp/denied.err" || fail "the refusal does not say why: $(cat "$tmp/denied.err")"
NSXALB_USERNAME=viewer NSXALB_PASSWORD=viewer-pw "$provider" controller usage --all --csv \
  >/dev/null || fail "the same user cannot read one tenant"

echo "PASS: controller usage --all end to end"
