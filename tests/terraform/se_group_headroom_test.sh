#!/usr/bin/env bash
# Scenario: what a group costs and how long it lasts (issue 34), with the real terraform.
#  1. The quick start's sizing shows service_units (max_se x vcpus_per_se) and plan-report
#     totals them.
#  2. A group declared for 400,000 L7 RPS on nsxt whose 2 SEs carried at most 20,000 RPS at 12%
#     CPU over 7 days: the plan with observed_load {} warns observed-capacity-unused with the SUs
#     now, recommended and reclaimable; sizing_policy = "enforce" still plans; the data source
#     has service_units {now, recommended, reclaimable}.
#  3. 14 days of hourly points whose daily CPU peak (over the 24-hour periods that end at the last
#     point) rises by 1 point a day from 40% (53% in the last period), target 80%, read over a
#     15-day window: forecast.days_to_target is 27 and the plan warns forecast-reaches-target at
#     the workload line; a 3-day window gives no forecast, with the reason.
#  4. The default window (issue 40): 7 days of 5-minute points whose daily peak rises 1.5 points a
#     day from 40%: the data source and `controller usage` forecast 20 days (docs/sizing.md, "A
#     forecast at the default window"); the same 7 days flat give none, with the reason.
source "$(dirname "$0")/lib.sh" "$@"

emu_post() {  # emu_post PATH JSON: a control request; prints the body.
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$2" "$EMU_URL$1" ||
    fail "POST $1 failed"
}

tf_write main.tf <<'EOF'
provider "nsxalb" {}

resource "nsxalb_se_group" "big" {
  name                = "big"
  cloud               = "nsxt-cloud"
  vcpus_per_se        = 6
  min_scaleout_per_vs = 3

  workload {
    l7_rps = 400000
  }
}
EOF
tf init

step "the plan shows service_units = max_se x vcpus_per_se, and plan-report totals them"
tf plan -out=tfplan
tf show -json tfplan
cp "$TF_STDOUT" "$TF_TMP/plan.json"
units=$(jq '.planned_values.root_module.resources[0].values.sizing.service_units' "$TF_TMP/plan.json")
max_se=$(jq '.planned_values.root_module.resources[0].values.max_se' "$TF_TMP/plan.json")
vcpus=$(jq '.planned_values.root_module.resources[0].values.vcpus_per_se' "$TF_TMP/plan.json")
[ "$units" = "$((max_se * vcpus))" ] ||
  fail "sizing.service_units is $units, not max_se ($max_se) x vcpus_per_se ($vcpus)"
"$TF_PROVIDER_BINARY" plan-report "$TF_TMP/plan.json" >"$TF_TMP/report.md" ||
  fail "plan-report failed"
assert_contains "$TF_TMP/report.md" "Service Units: this plan adds $units SUs and removes 0 SUs"
assert_contains "$TF_TMP/report.md" "| $units SUs |"

step "create it; the Controller places 2 SEs of 6 vCPUs that carry 20,000 RPS at 12% for 7 days"
tf apply -auto-approve
group=$(jq -r '.resources[] | select(.type == "nsxalb_se_group") | .instances[0].attributes.id' \
  "$TF_WORK/terraform.tfstate")
ses=$(emu_post /_emulator/serviceengines "{\"se_group_uuid\":\"$group\",\"count\":2}")
se1=$(jq -r '.uuids[0]' <<<"$ses")
se2=$(jq -r '.uuids[1]' <<<"$ses")
series=$(python3 - "$se1" "$se2" <<'EOF'
import json, sys
n = 2016  # 7 days of 5-minute points
out = []
for i, se in enumerate(sys.argv[1:3]):
    rps = [6000.0 + 1000 * (k % 5) for k in range(n)]
    rps[500 + i] = 10000.0  # each SE's peak: the group's sum stays at or under 20,000
    cpu = [8.0 + (k % 4) for k in range(n)]
    cpu[500 + i] = 12.0
    out.append({"entity_uuid": "virtualservice-big", "serviceengine_uuid": se,
                "metric_id": "l7_client.avg_complete_responses", "step": 300, "values": rps})
    out.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 300,
                "values": cpu})
print(json.dumps({"series": out}))
EOF
)
emu_post /_emulator/metrics "$series" >/dev/null

step "the data source: service_units now, recommended and reclaimable"
tf_write usage.tf <<'EOF'
data "nsxalb_se_group_usage" "big" {
  name  = "big"
  cloud = "nsxt-cloud"
}

output "usage" {
  value = data.nsxalb_se_group_usage.big
}
EOF
tf apply -auto-approve
tf output -json
cp "$TF_STDOUT" "$TF_TMP/usage.json"
assert_json '.usage.value.service_units.now' 12 "$TF_TMP/usage.json"
recommended=$(jq '.usage.value.service_units.recommended' "$TF_TMP/usage.json")
rec_max_se=$(jq '.usage.value.recommendation.max_se' "$TF_TMP/usage.json")
rec_vcpus=$(jq '.usage.value.recommendation.vcpus_per_se' "$TF_TMP/usage.json")
[ "$recommended" = "$((rec_max_se * rec_vcpus))" ] ||
  fail "recommended SUs $recommended are not max_se x vcpus of the recommendation"
assert_json '.usage.value.service_units.reclaimable' "$((12 - recommended))" "$TF_TMP/usage.json"
assert_json '.usage.value.forecast.days_to_target' null "$TF_TMP/usage.json"
assert_json '.usage.value.forecast.reason | type' '"string"' "$TF_TMP/usage.json"
rm "$TF_WORK/usage.tf"
tf apply -auto-approve

step "observed_load {}: the plan warns observed-capacity-unused, and once applied plans no change"
sed -i 's/^  min_scaleout_per_vs = 3$/  min_scaleout_per_vs = 3\n\n  observed_load {}/' \
  "$TF_WORK/main.tf"
tf apply -auto-approve
assert_contains "$TF_OUT" "observed-capacity-unused"
emu_reset_counters
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "observed-capacity-unused"
assert_contains "$TF_OUT" "2 SEs of 6 vCPUs (12 SUs) carried an observed peak that"
assert_contains "$TF_OUT" "$((12 - recommended)) SUs reclaimable"
assert_contains "$TF_OUT" "The declared workload plans"
grep -B20 "(rule observed-capacity-unused)" "$TF_OUT" | grep -qF "vcpus_per_se        = 6" ||
  fail "observed-capacity-unused is not at the hand-set vcpus_per_se"
assert_contains "$TF_OUT" "No changes."
emu_counters | assert_json '.requests["POST /api/analytics/metrics/collection"]' 1 -

step "enforce still plans: an over-sized group is waste, not a risk"
sed -i 's/^  cloud               = "nsxt-cloud"$/  cloud               = "nsxt-cloud"\n  sizing_policy       = "enforce"/' \
  "$TF_WORK/main.tf"
sed -i 's/^    l7_rps = 400000$/    l7_rps = 390000/' "$TF_WORK/main.tf"
tf plan
assert_contains "$TF_OUT" "observed-capacity-unused"
assert_not_contains "$TF_OUT" "Error:"
sed -i 's/^    l7_rps = 390000$/    l7_rps = 400000/' "$TF_WORK/main.tf"
sed -i '/sizing_policy       = "enforce"/d' "$TF_WORK/main.tf"

step "a growing series: 14 days of hourly CPU whose daily peak rises 1 point a day"
series=$(python3 - "$se1" "$se2" <<'EOF'
import json, sys
# The emulator puts the last value at the current hour. 14 x 24 values, the 24-hour period k
# (0 the oldest) of them peaking at 40 + k, its other hours 10 lower.
out = []
cpu = []
for i in range(14 * 24):
    k = i // 24
    cpu.append(40.0 + k if i % 24 == 14 else 30.0 + k)
for se in sys.argv[1:3]:
    out.append({"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage", "step": 3600,
                "values": cpu})
print(json.dumps({"series": out}))
EOF
)
emu_post /_emulator/metrics "$series" >/dev/null
sed -i 's/^  observed_load {}$/  observed_load {\n    window = "15d"\n  }/' "$TF_WORK/main.tf"
tf plan
assert_contains "$TF_OUT" "forecast-reaches-target"
assert_contains "$TF_OUT" "reaches 80% in 27 days"
grep -B20 "(rule forecast-reaches-target)" "$TF_OUT" | grep -qF "l7_rps = 400000" ||
  fail "forecast-reaches-target is not at the workload line"
step "the README's excerpt of this plan (dates, percentages of the day aside)"
normalise() { sed -E -e 's/\([A-Z][a-z]{2} [0-9]{1,2}\)/(DATE)/g' -e 's/ at [0-9.]+%: / at PCT: /g'; }
normalise <"$TF_OUT" >"$TF_TMP/plan.normalised"
sed -n '/<!-- headroom-excerpt:begin -->/,/<!-- headroom-excerpt:end -->/p' "$SOURCE_DIR/README.md" |
  grep -v -e '^<!--' -e '^```' | normalise >"$TF_TMP/excerpt"
[ -s "$TF_TMP/excerpt" ] || fail "README.md has no headroom excerpt"
while IFS= read -r line; do
  [ -z "$line" ] || assert_contains "$TF_TMP/plan.normalised" "$line"
done <"$TF_TMP/excerpt"

step "forecast_days = 20: no forecast warning"
sed -i 's/^    window = "15d"$/    window        = "15d"\n    forecast_days = 20/' "$TF_WORK/main.tf"
tf plan
assert_not_contains "$TF_OUT" "forecast-reaches-target"

step "controller usage: the forecast and the Service Units"
"$TF_PROVIDER_BINARY" controller usage big --cloud nsxt-cloud --window 15d --json \
  >"$TF_TMP/forecast.json" || fail "controller usage failed"
assert_json '.forecast.days_to_target' 27 "$TF_TMP/forecast.json"
assert_json '.forecast.measure' '"cpu_pct"' "$TF_TMP/forecast.json"
assert_json '.forecast.daily_peaks | length' 14 "$TF_TMP/forecast.json"
assert_json '.service_units.now' 12 "$TF_TMP/forecast.json"
"$TF_PROVIDER_BINARY" controller usage big --cloud nsxt-cloud --window 3d \
  >"$TF_TMP/short.txt" || fail "controller usage (3d) failed"
assert_contains "$TF_TMP/short.txt" "Forecast: none (the window (3 days) is shorter than 7 days"

step "the default window: 7 days of 5-minute CPU whose daily peak rises 1.5 points a day from 40%"
# cpu_series FIRST PER_DAY: 2,016 5-minute values (the emulator puts the last at the current
# 5-minute step), the 24-hour period k (0 the oldest, of those ending at the last value) peaking
# at FIRST + PER_DAY x k, its other points 10 lower.
cpu_series() {
  python3 - "$se1" "$se2" "$1" "$2" <<'EOF'
import json, sys
se1, se2, first, per_day = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
n = 7 * 288
cpu = []
for i in range(n):
    behind = n - 1 - i          # 5-minute steps before the last value
    k = 6 - behind // 288       # the period, 0 the oldest
    peak = first + per_day * k
    cpu.append(peak if behind % 288 == 150 else peak - 10)
print(json.dumps({"series": [{"entity_uuid": se, "metric_id": "se_stats.avg_cpu_usage",
                              "step": 300, "values": cpu} for se in (se1, se2)]}))
EOF
}
emu_post /_emulator/metrics "$(cpu_series 40 1.5)" >/dev/null
tf_write usage.tf <<'EOF'
data "nsxalb_se_group_usage" "big" {
  name  = "big"
  cloud = "nsxt-cloud"
}

output "usage" {
  value = data.nsxalb_se_group_usage.big
}
EOF
tf apply -auto-approve
tf output -json
cp "$TF_STDOUT" "$TF_TMP/default.json"
# 7 peaks 40, 41.5, ..., 49 at x = 0..6: slope 1.5, R² 1; (80 - 49) / 1.5 = 20.7, 20 days.
assert_json '.usage.value.window' '"7d"' "$TF_TMP/default.json"
assert_json '.usage.value.forecast.days_to_target' 20 "$TF_TMP/default.json"
assert_json '.usage.value.forecast.measure' '"cpu_pct"' "$TF_TMP/default.json"
assert_json '[.usage.value.forecast.daily_peaks[].value]' '[40,41.5,43,44.5,46,47.5,49]' \
  "$TF_TMP/default.json"
assert_json '.usage.value.forecast.slope_per_day' 1.5 "$TF_TMP/default.json"
assert_json '.usage.value.forecast.r_squared' 1 "$TF_TMP/default.json"
"$TF_PROVIDER_BINARY" controller usage big --cloud nsxt-cloud --json >"$TF_TMP/default-cli.json" ||
  fail "controller usage failed"
assert_json '.forecast.days_to_target' 20 "$TF_TMP/default-cli.json"
assert_json '.forecast.daily_peaks | length' 7 "$TF_TMP/default-cli.json"
"$TF_PROVIDER_BINARY" controller usage big --cloud nsxt-cloud >"$TF_TMP/default-cli.txt" ||
  fail "controller usage failed"
assert_contains "$TF_TMP/default-cli.txt" "80% in 20 days"
assert_contains "$TF_TMP/default-cli.txt" "over 7 daily peaks"

step "the same 7 days flat at 40%: no forecast, and the reason"
emu_post /_emulator/metrics "$(cpu_series 40 0)" >/dev/null
tf apply -auto-approve
tf output -json
cp "$TF_STDOUT" "$TF_TMP/flat.json"
assert_json '.usage.value.forecast.days_to_target' null "$TF_TMP/flat.json"
assert_json '.usage.value.forecast.daily_peaks | length' 7 "$TF_TMP/flat.json"
assert_json '.usage.value.forecast.reason' '"the daily peaks do not grow (slope 0.00 a day)"' \
  "$TF_TMP/flat.json"
"$TF_PROVIDER_BINARY" controller usage big --cloud nsxt-cloud >"$TF_TMP/flat-cli.txt" ||
  fail "controller usage failed"
assert_contains "$TF_TMP/flat-cli.txt" "Forecast: none (the daily peaks do not grow (slope 0.00 a day))"
rm "$TF_WORK/usage.tf"

step "destroy"
tf destroy -auto-approve
assert_nothing_lost
pass
