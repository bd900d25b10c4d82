#!/usr/bin/env bash
# The licence pool (issue 40): the emulator licensed for 64 ENTERPRISE Service Units with 56
# consumed by 7 running SEs of 8 vCPUs and 4 more in escrow. A new group planned at 12 SUs
# (4 vCPUs x max_se 3) warns license-units-short at its size line, with the ledger's figures;
# under sizing_policy = "enforce" the plan fails there; with 80 licensed it plans clean. The
# nsxalb_license_usage data source carries the pool into a check block; `controller usage --all`
# prints the pool line per tier (and --csv and --json carry it), equal to the ledger's figures;
# and the emulator refuses an SE beyond the licence with the Controller's message.
EMU_ARGS=(--license ENTERPRISE=64)
source "$(dirname "$0")/lib.sh" "$@"

# emu_control METHOD PATH [JSON]: a request to the emulator's control endpoint; prints the body
# and the status on the last line.
emu_control() {
  local body=()
  [ "$1" = GET ] || body=(-H 'Content-Type: application/json' --data-binary "${3:-{\}}")
  _emu_curl -w '\n%{http_code}' -X "$1" "${body[@]}" "$EMU_URL/_emulator/$2"
}

# ledger_tier TIER: the tier's usage in the ledger, as the API serves it.
ledger_tier() {
  emu_api GET /api/licensing/ledger/details |
    jq -c --arg t "$1" '.results[0].tier_usages[] | select(.tier == $t) | .usage'
}

step "the estate: 7 SEs of 8 vCPUs consume 56 of the 64 ENTERPRISE units"
base=$(emu_api POST /api/serviceenginegroup '{"name": "base", "vcpus_per_se": 8}' | jq -r .uuid)
out=$(emu_control POST serviceengines "{\"se_group_uuid\": \"$base\", \"count\": 7}")
[ "$(tail -n1 <<<"$out")" = 200 ] || fail "loading 7 SEs: $out"
[ "$(ledger_tier ENTERPRISE)" = '{"available":64,"consumed":56,"escrow":0,"remaining":8}' ] ||
  fail "the ledger after 7 SEs: $(ledger_tier ENTERPRISE)"
# Another actor's SE being created holds 4 units in escrow.
emu_control POST license '{"reservations": [{"tier": "ENTERPRISE", "service_cores": 4}]}' >/dev/null
[ "$(ledger_tier ENTERPRISE)" = '{"available":64,"consumed":56,"escrow":4,"remaining":4}' ] ||
  fail "the ledger with 4 in escrow: $(ledger_tier ENTERPRISE)"

# write_config POLICY: a new group of 3 SEs of 4 vCPUs (12 SUs), the licence data source and a
# check block on it.
write_config() {
  tf_write main.tf <<HCL
provider "nsxalb" {
  sizing_policy = "$1"
}

resource "nsxalb_se_group" "web" {
  name         = "web"
  platform     = "vcenter"
  vcpus_per_se = 4
  max_se       = 3

  workload {
    l7_rps = 1000
  }
}

data "nsxalb_license_usage" "pool" {}

locals {
  enterprise = one([for t in data.nsxalb_license_usage.pool.tiers : t if t.tier == "ENTERPRISE"])
}

check "enterprise_covers_web" {
  assert {
    condition     = local.enterprise.remaining >= 12
    error_message = "ENTERPRISE has \${local.enterprise.remaining} units left; web needs 12."
  }
}

output "pool" {
  value = data.nsxalb_license_usage.pool
}
HCL
  line=$(grep -n 'vcpus_per_se = 4' "$TF_WORK/main.tf" | cut -d: -f1)
}

# assert_license_diagnostic SEVERITY: one diagnostic "SEVERITY: The ENTERPRISE licence tier has
# fewer Service Units left than this plan adds" at main.tf line $line of nsxalb_se_group.web, with
# the ledger's figures and the rule.
assert_license_diagnostic() {
  local block
  block=$(awk -v head="$1: The ENTERPRISE licence tier has fewer Service Units left" '
    index($0, head) == 1 { on = 1; print; next }
    on && /^(Error|Warning|Plan|Changes|Terraform|Outputs)/ { exit }
    on { print }' "$TF_OUT")
  [ -n "$block" ] || { cat "$TF_OUT" >&2; fail "no $1 license-units-short diagnostic"; }
  printf '%s\n' "$block" >"$TF_TMP/diagnostic"
  assert_contains "$TF_TMP/diagnostic" "on main.tf line $line, in resource \"nsxalb_se_group\" \"web\":"
  assert_contains "$TF_TMP/diagnostic" "$line:   vcpus_per_se = 4"
  assert_says "$TF_TMP/diagnostic" "this group adds 12 SUs at its planned scale; the ENTERPRISE tier has 4 left (64 licensed, 56 consumed, 4 in escrow)"
  assert_says "$TF_TMP/diagnostic" "(rule license-units-short)"
}

write_config warn
tf init

step "warn: the plan adds 12 SUs, 4 remain: a warning at the size line, and the check block warns"
emu_reset_counters
tf plan -out=tfplan
assert_license_diagnostic Warning
assert_says "$TF_OUT" 'ENTERPRISE has 4 units left; web needs 12.'
assert_contains "$TF_OUT" "Plan: 1 to add"
# One ledger read for the resource and the data source of the one provider process.
emu_counters | assert_json '.requests["GET /api/licensing/ledger/details"]' 1 -

step "plan-report totals the plan's units per tier against what remains"
tf show -json tfplan
cp "$TF_STDOUT" "$TF_TMP/plan.json"
"$TF_PROVIDER_BINARY" plan-report "$TF_TMP/plan.json" >"$TF_TMP/report.md" ||
  fail "plan-report failed"
assert_says "$TF_TMP/report.md" "ENTERPRISE: the plan adds 12 SUs; 4 remain (64 licensed, 56 consumed, 4 in escrow): 8 SUs short"

step "enforce: the plan fails at the size line; nothing is created"
write_config enforce
tf_fails plan
assert_license_diagnostic Error
assert_says "$TF_OUT" 'sizing_policy = "enforce" makes a plan that adds more Service Units than its tier has left an error'
assert_groups 1  # base alone

step "80 licensed: the same plan is clean, and the apply creates the group"
emu_control POST license '{"licensed": {"ENTERPRISE": 80}}' >/dev/null
tf plan
assert_not_says "$TF_OUT" "license-units-short"
assert_not_says "$TF_OUT" "fewer Service Units left"
assert_not_says "$TF_OUT" "web needs 12"
tf apply -auto-approve
assert_groups 2
# The data source was read before web existed; the next run reads it again, and changes nothing.
tf apply -auto-approve
assert_contains "$TF_OUT" "0 added, 0 changed, 0 destroyed"
tf output -json pool
assert_json '[.tiers[] | select(.tier == "ENTERPRISE")][0]' \
  '{"consumed":56,"escrow":4,"licensed":80,"remaining":20,"tier":"ENTERPRISE"}'
assert_json '[.se_groups[] | select(.name == "base")][0].service_units_consumed' 56
assert_json '[.se_groups[] | select(.name == "base")][0].se_count' 7
assert_json '[.se_groups[] | select(.name == "web")][0].tier' '"ENTERPRISE"'

step "the emulator refuses an SE beyond the licence with the Controller's message"
web=$(emu_groups | awk '$1 == "web" { print $2 }')
out=$(emu_control POST serviceengines "{\"se_group_uuid\": \"$web\", \"count\": 3}")
[ "$(tail -n1 <<<"$out")" = 200 ] || fail "3 SEs of 4 vCPUs within 20 units: $out"
# 8 left; 2 more SEs of 8 vCPUs need 16: the first fits, the second is refused.
out=$(emu_control POST serviceengines "{\"se_group_uuid\": \"$base\", \"count\": 2}")
[ "$(tail -n1 <<<"$out")" = 400 ] || fail "an SE beyond the licence was not refused: $out"
grep -qF 'Insufficient licensable resources available to create Service Engine' <<<"$out" ||
  fail "the refusal does not carry the Controller's message: $out"
# The SE before the refusal stays: the group is under-sized, as on a Controller.
[ "$(head -n -1 <<<"$out" | jq '.uuids | length')" = 1 ] || fail "not 1 SE created before the refusal: $out"
[ "$(ledger_tier ENTERPRISE)" = '{"available":80,"consumed":76,"escrow":4,"remaining":0}' ] ||
  fail "the ledger after the refusal: $(ledger_tier ENTERPRISE)"

step "controller usage --all: the pool line per tier, in the text, the CSV and the JSON"
"$TF_PROVIDER_BINARY" controller usage --all >"$TF_TMP/usage.txt" 2>"$TF_TMP/usage.err" ||
  fail "usage --all failed: $(cat "$TF_TMP/usage.err")"
assert_contains "$TF_TMP/usage.txt" "Licence pool ENTERPRISE: 80 licensed, 76 consumed, 4 in escrow, 0 remaining; 0 remaining after the reclaimable units come back"
"$TF_PROVIDER_BINARY" controller usage --all --json >"$TF_TMP/usage.json" ||
  fail "usage --all --json failed"
ledger=$(emu_api GET /api/licensing/ledger/details)
python3 - "$TF_TMP/usage.json" "$ledger" <<'PY' || fail "the estate's pool is not the ledger's"
import json, sys
estate = json.load(open(sys.argv[1]))
ledger = json.loads(sys.argv[2])["results"][0]
pool = {p["tier"]: p for p in estate["license_pool"]}
for t in ledger["tier_usages"]:
    p, u = pool[t["tier"]], t["usage"]
    assert (p["licensed"], p["consumed"], p["escrow"], p["remaining"]) == (
        u["available"], u["consumed"], u["escrow"], u["remaining"]), (p, u)
units = {i["uuid"]: i["service_cores"] for i in ledger["se_infos"]}
groups = {g["name"]: g for g in estate["groups"]}
assert groups["base"]["license_service_units_now"] == 64, groups["base"]
assert groups["web"]["license_service_units_now"] == 12, groups["web"]
assert groups["base"]["license_tier"] == "ENTERPRISE"
assert sum(units.values()) == 76, units
assert estate["license_error"] == ""
print("ok: pool", pool)
PY
"$TF_PROVIDER_BINARY" controller usage --all --csv >"$TF_TMP/usage.csv" || fail "usage --all --csv failed"
python3 - "$TF_TMP/usage.csv" <<'PY' || fail "the CSV does not carry the pool: $(cat "$TF_TMP/usage.csv")"
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
base = rows["base"]
assert base["license_tier"] == "ENTERPRISE", base
assert base["su_now_ledger"] == "64", base
assert (base["tier_licensed"], base["tier_consumed"], base["tier_escrow"],
        base["tier_remaining"]) == ("80", "76", "4", "0"), base
PY
step "an SE the Controller creates for a virtual service holds its units in escrow while it boots"
emu_control POST license '{"licensed": {"ENTERPRISE": 100}}' >/dev/null
# A boot that outlasts the scenario: the SE stays in escrow, whatever the machine's speed.
emu_control POST timing '{"boot_ms": 600000}' >/dev/null
booting=$(emu_api POST /api/serviceenginegroup '{"name": "booting", "vcpus_per_se": 2}' | jq -r .uuid)
out=$(emu_control POST virtualservices "{\"se_group\": \"$booting\", \"count\": 1}")
[ "$(tail -n1 <<<"$out")" = 200 ] || fail "a virtual service in booting: $out"
[ "$(ledger_tier ENTERPRISE)" = '{"available":100,"consumed":76,"escrow":6,"remaining":18}' ] ||
  fail "the booting SE's 2 units are not in escrow: $(ledger_tier ENTERPRISE)"
emu_api GET /api/licensing/ledger/details |
  assert_json '[.results[0].escrow_infos[] | select(.uuid | startswith("se-"))] | map(.service_cores)' '[2]' -

# base and booting are the emulator's, not Terraform's: once they are gone, the state and the
# emulator agree.
emu_api DELETE "/api/serviceenginegroup/$base" >/dev/null
vs=$(head -n -1 <<<"$out" | jq -r '.uuids[0]')
emu_control DELETE "virtualservices/$vs" >/dev/null
emu_api DELETE "/api/serviceenginegroup/$booting" >/dev/null
assert_nothing_lost
pass
