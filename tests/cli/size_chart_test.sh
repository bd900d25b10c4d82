#!/usr/bin/env bash
# `size --svg FILE`: the chart is well-formed XML (xmllint), has one dot per measured cell of the
# charted metric (both profiles, up to max_vcpus_per_se), one demand line, one recommended-size
# mark, extrapolated segments above 6 vCPUs, an observed-peak line with --observed-peak, and no
# external references. With --observed-usage (a `controller usage --json` report), the forecast
# panel: a dot per daily peak of the report, the trend only with a fitted line, the target, and
# the caption from the report's days_to_target or reason.
# Usage: size_chart_test.sh PROVIDER_BINARY TESTDATA_DIR
set -uo pipefail
provider=$1 testdata=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v xmllint >/dev/null || { echo "xmllint not installed (scripts/install-deps)"; exit 1; }
passed=0 failed=0
count() { xmllint --xpath "count(//*[local-name()='$2' and contains(concat(' ', @class, ' '), ' $3 ')])" "$1"; }
# attr SVG ELEMENT CLASS ATTRIBUTE: the attribute of the first element of that class.
attr() { xmllint --xpath "string((//*[local-name()='$2' and @class='$3'])[1]/@$4)" "$1"; }
caption() { xmllint --xpath "string(//*[local-name()='text' and @class='forecast-caption'])" "$1"; }
fail() { failed=$((failed + 1)); echo "FAILED $1: $2"; }

# check NAME EXPECTED_MEASURED EXPECTED_EXTRAPOLATED_MIN SIZE_ARGS...
check() {
  local name=$1 measured=$2 extrapolated=$3 svg=$tmp/$1.svg
  shift 3
  local errors=()
  "$provider" size "$@" --svg "$svg" >/dev/null || errors+=("size exited $?")
  xmllint --noout "$svg" 2>"$tmp/xmllint.err" || errors+=("not well-formed XML: $(cat "$tmp/xmllint.err")")
  [ "$(count "$svg" circle measured)" = "$measured" ] ||
    errors+=("$(count "$svg" circle measured) measured dots, expected $measured")
  [ "$(count "$svg" line demand)" = 1 ] || errors+=("$(count "$svg" line demand) demand lines")
  [ "$(count "$svg" circle recommended)" = 1 ] || errors+=("no recommended-size mark")
  local ex
  ex=$(count "$svg" line extrapolated)
  if [ "$extrapolated" = 0 ]; then
    [ "$ex" = 0 ] || errors+=("$ex extrapolated segments, expected none")
  else
    [ "$ex" -ge "$extrapolated" ] || errors+=("$ex extrapolated segments, expected $extrapolated+")
  fi
  if grep -qE '(href|src)=|<script|@import|url\(' "$svg"; then errors+=("external reference"); fi
  if [ ${#errors[@]} -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAILED %s: %s\n' "$name" "${errors[@]}"
  fi
}

# L7 RPS: both tables publish 1, 2, 4 and 6 vCPUs; up to 8 vCPUs the curves are extrapolated
# from 6 to 8 (two segments per profile).
check rps 8 4 --platform nsxt --l7-rps 150000 --ssl-tps-ecc 8000 --max-vcpus-per-se 8
# The CPU budget under the curve: one stacked part per CPU-bound metric and the target marked.
[ "$(count "$tmp/rps.svg" rect cpu-budget)" = 2 ] || { echo "FAILED rps: not 2 CPU-budget parts"; failed=$((failed + 1)); }
[ "$(count "$tmp/rps.svg" line cpu-target)" = 1 ] || { echo "FAILED rps: no CPU target mark"; failed=$((failed + 1)); }
grep -q 'CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8%' "$tmp/rps.svg" || { echo "FAILED rps: no CPU budget text"; failed=$((failed + 1)); }
# Up to 6 vCPUs: nothing extrapolated.
check rps6 8 0 --platform nsxt --l7-rps 150000
# Up to 2 vCPUs: the measured 1 and 2 of each profile only.
check small 4 0 --platform vcenter --ssl-tps-ecc 2000 --max-vcpus-per-se 2
# Open connections: nsxt publishes none (its curve is cross-profile), so only vcenter's 4 dots.
check conns 4 0 --platform nsxt --l4-open-conns 2000000
# Settings checked against the workload: the given size is marked as well.
check given 8 0 --platform vcenter --ssl-tps-ecc 8000 --vcpus-per-se 2
[ "$(count "$tmp/given.svg" path given)" = 1 ] || { echo "FAILED given: no mark for the settings"; failed=$((failed + 1)); }
# ... and a second CPU-budget bar for the settings, over its target.
[ "$(count "$tmp/given.svg" rect cpu-budget)" = 2 ] || { echo "FAILED given: not one part in each of 2 bars"; failed=$((failed + 1)); }
grep -q 'CPU budget per SE, your settings (1 SE of 2 vCPUs): CPU 137.9%' "$tmp/given.svg" || { echo "FAILED given: no budget bar for the settings"; failed=$((failed + 1)); }
# The observed peak beside the demand line (nsxalb_se_group_usage's figure), and none without it.
check observed 8 0 --platform nsxt --l7-rps 100000 --observed-peak 200000
[ "$(count "$tmp/observed.svg" line observed)" = 1 ] || { echo "FAILED observed: no observed line"; failed=$((failed + 1)); }
grep -q 'observed peak, per SE: 250,000' "$tmp/observed.svg" || { echo "FAILED observed: no observed label"; failed=$((failed + 1)); }
[ "$(count "$tmp/rps6.svg" line observed)" = 0 ] || { echo "FAILED rps6: an observed line without --observed-peak"; failed=$((failed + 1)); }
# A chosen metric instead of the binding one.
check chosen 8 0 --platform vcenter --ssl-tps-ecc 8000 --l7-rps 1000 --chart-metric l7-rps
grep -q 'L7 RPS capacity of one SE' "$tmp/chosen.svg" || { echo "FAILED chosen: not the L7 RPS chart"; failed=$((failed + 1)); }
# The forecast panel of a usage report: one dot per daily peak on the report's days, the trend
# ending where it reaches the target line, and the caption from the report.
usage=$testdata/usage_forecast.json
check forecast 8 0 --platform nsxt --l7-rps 100000 --observed-usage "$usage"
svg=$tmp/forecast.svg
[ "$(count "$svg" circle daily-peak)" = "$(jq '.forecast.daily_peaks | length' "$usage")" ] ||
  fail forecast "$(count "$svg" circle daily-peak) daily-peak dots, not one per daily peak"
[ "$(xmllint --xpath "//*[local-name()='circle' and @class='daily-peak']/@data-day" "$svg" | grep -o '[0-9-]\{10\}')" = "$(jq -r '.forecast.daily_peaks[].day' "$usage")" ] ||
  fail forecast "the dots are not on the report's days"
[ "$(count "$svg" line trend)" = 1 ] || fail forecast "no trend line"
[ "$(count "$svg" line forecast-target)" = 1 ] || fail forecast "no target line"
[ "$(attr "$svg" line trend y2)" = "$(attr "$svg" line forecast-target y1)" ] ||
  fail forecast "the trend does not end on the target line"
expected=$(jq -r '.forecast | "reaches \(.target_pct)% in \(.days_to_target) days (\(.reaches_on))"' "$usage")
[ "$(caption "$svg")" = "$expected" ] || fail forecast "caption \"$(caption "$svg")\", expected \"$expected\""
# ... and the report's observed L7 RPS beside the demand line: observed / 80% / 1 SE.
per_se=$(jq -r '.observed.l7_rps * 100 / 80 | floor' "$usage" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
grep -q "observed peak, per SE: $per_se<" "$svg" || fail forecast "no observed peak of $per_se from the report"
# --observed-peak wins over the report's figure.
"$provider" size --platform nsxt --l7-rps 100000 --svg "$tmp/given-peak.svg" --observed-usage "$usage" --observed-peak 40000 >/dev/null
grep -q 'observed peak, per SE: 50,000<' "$tmp/given-peak.svg" || fail given-peak "--observed-peak did not win"
# No forecast (3 daily peaks): the dots, a trend (2 peaks fit a line), and the reason.
jq '.forecast.daily_peaks |= .[:3] | .forecast.days_to_target = null | .forecast.reaches_on = null |
    .forecast.reason = "3 complete days of data; a forecast needs at least 7"' "$usage" >"$tmp/three.json"
check three 8 0 --platform nsxt --l7-rps 100000 --observed-usage "$tmp/three.json"
[ "$(count "$tmp/three.svg" circle daily-peak)" = 3 ] || fail three "not 3 daily-peak dots"
[ "$(count "$tmp/three.svg" line trend)" = 1 ] || fail three "no trend through 3 peaks"
[ "$(caption "$tmp/three.svg")" = "no forecast: $(jq -r .forecast.reason "$tmp/three.json")" ] ||
  fail three "caption \"$(caption "$tmp/three.svg")\""
# One daily peak fits no line: no trend.
jq '.forecast.daily_peaks |= .[:1] | .forecast.days_to_target = null | .forecast.reaches_on = null |
    .forecast.reason = "1 complete day of data; a forecast needs at least 7"' "$usage" >"$tmp/one.json"
check one 8 0 --platform nsxt --l7-rps 100000 --observed-usage "$tmp/one.json"
[ "$(count "$tmp/one.svg" circle daily-peak)" = 1 ] || fail one "not 1 daily-peak dot"
[ "$(count "$tmp/one.svg" line trend)" = 0 ] || fail one "a trend line through 1 peak"
# Without --observed-usage there is no forecast panel.
[ "$(count "$tmp/rps6.svg" circle daily-peak)$(count "$tmp/rps6.svg" line trend)$(count "$tmp/rps6.svg" line forecast-target)" = 000 ] ||
  fail rps6 "a forecast panel without --observed-usage"

# Without a workload there is nothing to chart: a usage error.
"$provider" size --platform vcenter --vcpus-per-se 2 --svg "$tmp/none.svg" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAILED none: --svg without a workload is not a usage error"; failed=$((failed + 1)); }

echo "size --svg: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
