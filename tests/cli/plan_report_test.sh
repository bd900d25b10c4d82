#!/usr/bin/env bash
# `plan-report` on a plan that real Terraform (1.11.4) wrote for examples/quickstart
# (testdata/quickstart_plan.json): the Markdown names each SE group's workload, planned and
# recommended shape, utilization, basis and findings; --svg-dir writes a chart per group that the
# report links, with the forecast panel of the group whose nsxalb_se_group_usage the plan read;
# bad input gives exit codes 1 and 2 with a message that says what to do.
# Usage: plan_report_test.sh PROVIDER_BINARY TESTDATA_DIR
set -uo pipefail
provider=$1 testdata=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*"; }
has() { if grep -qF -- "$2" "$1"; then ok; else bad "$(basename "$1") lacks: $2"; fi; }

cd "$tmp" || exit 1
mkdir charts
if "$provider" plan-report "$testdata/quickstart_plan.json" --svg-dir charts >review.md 2>err.txt; then
  ok
else
  bad "plan-report exited non-zero: $(cat err.txt)"
fi
has review.md "## NSX ALB sizing review"
has review.md "Plan: 2 SE groups to create, 0 to update, 0 to replace, 0 to destroy."
has review.md "**1 of 2 sized SE groups does not carry its workload at the target utilization.**"
has review.md '| `nsxalb_se_group.tls` | create | 8,000 ECC SSL TPS at 80% target | 1 SE of 2 vCPUs, 2 GB memory, 20 GB disk | 1 SE of 5 vCPUs, 5 GB memory, 35 GB disk | ECC SSL TPS 137.9% (over target) | measured | 4 SUs | 1 warning |'
has review.md '| `nsxalb_se_group.web` | create | 8,000 ECC SSL TPS, 150,000 L7 RPS at 80% target | 2 SEs of 6 vCPUs, 12 GB memory, 29 GB disk | as planned | CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8% | measured | 18 SUs | none |'
# The CPU budget as one row of the group's table, and the chart's stacked bar of its parts.
has review.md '| **CPU budget per SE** (one-cpu-budget-per-se) | | | | CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8% | |'
has review.md "| ECC SSL TPS | 8,000 | 10,000 | 5,800 | 137.9% **over target** | measured |"
has review.md "- warning [vcpus_per_se] demand-within-capacity: ECC SSL TPS under-delivered: 5,800 of 10,000 needed."
has review.md "- Recommended: 1 SE of 5 vCPUs, 5 GB memory, 35 GB disk; max_se 2 (smallest-single-se, interpolated)."
has review.md "![ECC SSL TPS capacity of one SE by vCPUs](charts/nsxalb_se_group.tls.svg)"
for chart in nsxalb_se_group.tls nsxalb_se_group.web; do
  if xmllint --noout "charts/$chart.svg" 2>/dev/null; then ok; else bad "charts/$chart.svg"; fi
done
parts=$(xmllint --xpath "count(//*[local-name()='rect' and @class='cpu-budget'])" charts/nsxalb_se_group.web.svg)
[ "$parts" = 2 ] && ok || bad "the web chart has $parts CPU-budget parts, expected 2"
has charts/nsxalb_se_group.web.svg 'data-metric="l7_rps" data-pct="36.6%"'

# The plan with a usage data source read for "web" (testdata/usage_forecast.json as its values):
# web's chart draws the report's daily peaks, trend and caption; tls's has no forecast panel.
count() { xmllint --xpath "count(//*[local-name()='$2' and @class='$3'])" "$1"; }
usage=$testdata/usage_forecast.json
jq --slurpfile usage "$usage" '.prior_state = {format_version: "1.0", values: {root_module: {resources: [
      {address: "data.nsxalb_se_group_usage.web", mode: "data", type: "nsxalb_se_group_usage",
       name: "web", values: ($usage[0] + {name: "web"})}]}}}' \
  "$testdata/quickstart_plan.json" >observed_plan.json
mkdir observed_charts
if "$provider" plan-report observed_plan.json --svg-dir observed_charts >observed.md 2>err.txt; then
  ok
else
  bad "plan-report of the plan with usage exited non-zero: $(cat err.txt)"
fi
has observed.md '### Observed load: `data.nsxalb_se_group_usage.web`'
web=observed_charts/nsxalb_se_group.web.svg
peaks=$(jq '.forecast.daily_peaks | length' "$usage")
[ "$(count "$web" circle daily-peak)" = "$peaks" ] && ok || bad "web's chart has $(count "$web" circle daily-peak) daily peaks, expected $peaks"
[ "$(count "$web" line trend)" = 1 ] && ok || bad "web's chart has no trend"
has "$web" "$(jq -r '.forecast | "reaches \(.target_pct)% in \(.days_to_target) days (\(.reaches_on))"' "$usage")"
[ "$(count observed_charts/nsxalb_se_group.tls.svg circle daily-peak)" = 0 ] && ok || bad "tls's chart has daily peaks"
# A forecast the chart cannot read is left out with a note, never a failed report.
jq '.prior_state.values.root_module.resources[0].values.forecast.daily_peaks[1].value = "high"' \
  observed_plan.json >bad_forecast_plan.json
if "$provider" plan-report bad_forecast_plan.json --svg-dir observed_charts >/dev/null 2>err.txt; then ok; else bad "a bad forecast failed the report"; fi
has err.txt "forecast.daily_peaks[1].value: a number is needed, not string"
[ "$(count "$web" circle daily-peak)" = 0 ] && ok || bad "web's chart drew an unreadable forecast"

# The same plan from stdin, without charts.
"$provider" plan-report - <"$testdata/quickstart_plan.json" >stdin.md
if diff <(grep -v -e '^!\[' -e '^$' review.md) <(grep -v -e '^$' stdin.md) >/dev/null; then ok; else bad "stdin differs"; fi

# Errors.
echo '{"format_version":"1.0","values":{}}' >state.json
"$provider" plan-report state.json >/dev/null 2>err.txt
[ $? -eq 1 ] && ok || bad "a state is not exit 1"
has err.txt "is a state, not a plan"
echo 'not json' >junk.json
"$provider" plan-report junk.json >/dev/null 2>err.txt
[ $? -eq 1 ] && ok || bad "junk is not exit 1"
has err.txt "terraform show -json tfplan > plan.json"
# A member of the wrong JSON type: exit 1 with a message, never a crash.
echo '{"format_version":"1.0","planned_values":{},"resource_changes":[1,{"type":"nsxalb_se_group","mode":"managed","module_address":5,"change":{"after":{"platform":"nsxt"}}}]}' >odd.json
"$provider" plan-report odd.json >/dev/null 2>err.txt
[ $? -eq 1 ] && ok || bad "a malformed plan is not exit 1"
has err.txt "is not a plan as terraform show -json writes it"
"$provider" plan-report >/dev/null 2>err.txt
[ $? -eq 2 ] && ok || bad "no argument is not exit 2"

echo "plan-report: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
