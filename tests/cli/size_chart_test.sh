#!/usr/bin/env bash
# `size --svg FILE`: the chart is well-formed XML (xmllint), has one dot per measured cell of the
# charted metric (both profiles, up to max_vcpus_per_se), one demand line, one recommended-size
# mark, extrapolated segments above 6 vCPUs, an observed-peak line with --observed-peak, and no
# external references.
# Usage: size_chart_test.sh PROVIDER_BINARY
set -uo pipefail
provider=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v xmllint >/dev/null || { echo "xmllint not installed (scripts/install-deps)"; exit 1; }
passed=0 failed=0
count() { xmllint --xpath "count(//*[local-name()='$2' and contains(concat(' ', @class, ' '), ' $3 ')])" "$1"; }

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
# Without a workload there is nothing to chart: a usage error.
"$provider" size --platform vcenter --vcpus-per-se 2 --svg "$tmp/none.svg" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAILED none: --svg without a workload is not a usage error"; failed=$((failed + 1)); }

echo "size --svg: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
