#!/usr/bin/env bash
# Scenario: right-sizing from observed load (issue 22). A group planned for 100,000 L7 RPS on nsxt
# with 2 SEs; the emulator's analytics say SE 1 peaked at 120,000 RPS and SE 2 at 110,000 at
# another time, their sum at 200,000, and SE 1's CPU at 91% (with a gap). The data source reports
# the peak of the sum (not 230,000), the CPU and the SE count; the resource's plan with
# observed_load warns at the workload line; without observed_load the plan reads no analytics;
# `controller usage` prints the same figures.
source "$(dirname "$0")/lib.sh" "$@"

emu_post() {  # emu_post PATH JSON: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" "$EMU_URL$1" ||
    fail "POST $1 failed"
}

tf_write main.tf <<'EOF'
provider "nsxalb" {}

resource "nsxalb_se_group" "web" {
  name                = "web"
  cloud               = "nsxt-cloud"
  min_scaleout_per_vs = 2

  workload {
    l7_rps = 100000
  }
}
EOF
tf init
step "create the group: 2 SEs for 100,000 L7 RPS"
tf apply -auto-approve
group=$(jq -r '.resources[] | select(.type == "nsxalb_se_group") | .instances[0].attributes.id' \
  "$TF_WORK/terraform.tfstate")
[ -n "$group" ] && [ "$group" != null ] || fail "no group id in the state"

step "the Controller places 2 SEs and measures them for a day"
ses=$(emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":2}")
se1=$(jq -r '.uuids[0]' <<<"$ses")
se2=$(jq -r '.uuids[1]' <<<"$ses")
series=$(python3 - "$se1" "$se2" <<'EOF'
import json, sys
se1, se2 = sys.argv[1:3]
n = 288  # 24 hours of 5-minute points
rps1 = [50000.0] * n
rps2 = [40000.0] * n
rps1[100], rps2[100] = 120000.0, 80000.0   # the group's peak: 200,000
rps1[200], rps2[200] = 60000.0, 110000.0   # SE 2's own peak: 170,000 in all
cpu1 = [40.0] * n
cpu1[100] = 91.0
cpu1[50] = None                             # a gap
cpu2 = [35.0] * n
cpu2[200] = 70.0
def vs(se, values):
    return {"entity_uuid": "virtualservice-web", "serviceengine_uuid": se,
            "metric_id": "l7_client.avg_complete_responses", "step": 300, "values": values}
def cpu(se, values):
    return {"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 300,
            "values": values}
print(json.dumps({"series": [vs(se1, rps1), vs(se2, rps2), cpu(se1, cpu1), cpu(se2, cpu2)]}))
EOF
)
emu_post /_emulator/metrics "$series" >/dev/null

step "without observed_load the plan reads no analytics (only the tenant's one SE listing)"
emu_reset_counters
tf plan
assert_contains "$TF_OUT" "No changes."
emu_counters | assert_json '.requests["GET /api/serviceengine"] // 0' 1 -
emu_counters | assert_json '.requests["POST /api/analytics/metrics/collection"] // 0' 0 -

step "the data source: the peak of the sum, the highest SE CPU, the SE count"
tf_write usage.tf <<'EOF'
data "nsxalb_se_group_usage" "web" {
  name   = "web"
  cloud  = "nsxt-cloud"
  window = "24h"
}

output "usage" {
  value = data.nsxalb_se_group_usage.web
}
EOF
tf apply -auto-approve
tf output -json
assert_json '.usage.value.observed.l7_rps' 200000
assert_json '.usage.value.observed.cpu_pct' 91
assert_json '.usage.value.se_count' 2
assert_json '.usage.value.basis' '"observed"'
assert_json '.usage.value.step_seconds' 300
assert_json '[.usage.value.service_engines[].cpu_peak_pct] | sort' '[70,91]'
assert_json '.usage.value.recommendation.se_count >= 2' true

step "plan-report shows the declared against the observed load"
tf plan -out=tfplan
tf show -json tfplan
cp "$TF_STDOUT" "$TF_TMP/plan.json"
"$TF_PROVIDER_BINARY" plan-report "$TF_TMP/plan.json" >"$TF_TMP/report.md" ||
  fail "plan-report failed"
assert_contains "$TF_TMP/report.md" "### Observed load: \`data.nsxalb_se_group_usage.web\`"
assert_contains "$TF_TMP/report.md" "| L7 RPS | 100,000 | 200,000 |"
assert_contains "$TF_TMP/report.md" "| CPU (highest SE) | target 80.0% | 91.0% |"
assert_contains "$TF_TMP/report.md" "Calibration (calibrate-cpu-to-observed)"
rm "$TF_WORK/usage.tf"

step "the resource's plan with observed_load warns at the workload line"
sed -i 's/^  min_scaleout_per_vs = 2$/  min_scaleout_per_vs = 2\n\n  observed_load {\n    window = "24h"\n  }/' \
  "$TF_WORK/main.tf"
emu_reset_counters
tf plan
assert_contains "$TF_OUT" "declared 100,000 L7 RPS; observed peak 200,000"
assert_contains "$TF_OUT" "peaked at 91% CPU"
grep -A3 "peaked at 91% CPU" "$TF_OUT" | grep -qF "on main.tf line 13" ||
  fail "the CPU warning is not at the workload line"
assert_contains "$TF_OUT" "80% target"
assert_contains "$TF_OUT" "13:     l7_rps = 100000"
assert_contains "$TF_OUT" "observed-peak-above-declared"
# The SEs come from the tenant's one listing the refresh made (service_engines): no listing of
# the group's own.
emu_counters | assert_json '.requests["GET /api/serviceengine"]' 1 -
emu_counters | assert_json '.requests["POST /api/analytics/metrics/collection"]' 1 -
step "the README's excerpt of this plan (times aside)"
normalise_times() { sed -E 's/[A-Z][a-z]{2} [0-9]{1,2} [0-9]{2}:[0-9]{2} UTC/TIME/g'; }
normalise_times <"$TF_OUT" >"$TF_TMP/plan.normalised"
sed -n '/<!-- observed-load-excerpt:begin -->/,/<!-- observed-load-excerpt:end -->/p' \
  "$SOURCE_DIR/README.md" | grep -v -e '^<!--' -e '^```' | normalise_times >"$TF_TMP/excerpt"
[ -s "$TF_TMP/excerpt" ] || fail "README.md has no observed-load excerpt"
while IFS= read -r line; do
  [ -z "$line" ] || assert_contains "$TF_TMP/plan.normalised" "$line"
done <"$TF_TMP/excerpt"

step "enforce: an unchanged group still plans (the gate is for changes)"
sed -i 's/^  cloud               = "nsxt-cloud"$/  cloud               = "nsxt-cloud"\n  sizing_policy       = "enforce"/' \
  "$TF_WORK/main.tf"
tf plan
assert_contains "$TF_OUT" "observed-peak-above-declared"

step "enforce: a change to the group fails on the observed load"
sed -i 's/^    l7_rps = 100000$/    l7_rps = 110000/' "$TF_WORK/main.tf"
tf_fails plan
assert_contains "$TF_OUT" "Error:"
assert_contains "$TF_OUT" "observed peak 200,000"
sed -i 's/^    l7_rps = 110000$/    l7_rps = 100000/' "$TF_WORK/main.tf"
sed -i '/sizing_policy       = "enforce"/d' "$TF_WORK/main.tf"

step "controller usage prints the same figures"
"$TF_PROVIDER_BINARY" controller usage web --cloud nsxt-cloud --window 24h --json \
  >"$TF_TMP/usage.json" || fail "controller usage failed"
assert_json '.observed.l7_rps' 200000 "$TF_TMP/usage.json"
assert_json '.observed.cpu_pct' 91 "$TF_TMP/usage.json"
assert_json '.se_count' 2 "$TF_TMP/usage.json"
"$TF_PROVIDER_BINARY" controller usage web --cloud nsxt-cloud --window 24h \
  >"$TF_TMP/usage.txt" || fail "controller usage (text) failed"
assert_contains "$TF_TMP/usage.txt" "200,000"
assert_contains "$TF_TMP/usage.txt" "91.0%"

step "analytics unavailable is a warning, never a failed plan"
emu_faults '{"fail_next":1,"fail_status":403,"match":"POST /api/analytics/metrics/collection"}'
tf plan
assert_contains "$TF_OUT" "usage-analytics-unavailable"
assert_not_contains "$TF_OUT" "observed-peak-above-declared"

step "destroy"
tf destroy -auto-approve
assert_nothing_lost
pass
