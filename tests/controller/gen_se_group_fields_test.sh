#!/usr/bin/env bash
# scripts/gen-se-group-fields, the generator of plugin/controller/se_group_fields_data.cc, turns a
# small swagger file written in the vendor's phrasing (testdata/service_engine_group_swagger.json:
# ranges, special values, backported "introduced in", enums, units, the takes-effect phrases of
# new-ses-only and after-se-reboot fields, the overrides, a float default, a $ref, the excluded
# read-only fields) into exactly the rows of the golden file.
#
# When a copy of vmware/alb-sdk is at hand (NSXALB_ALB_SDK: a clone or a bare git directory that
# holds commit d181a90, the 30.2.1 swagger the catalog comes from), it also regenerates the
# committed catalog from that swagger and fails on any difference, so the committed rows (their
# takes_effect column included) are what the rule gives.
# Usage: gen_se_group_fields_test.sh SOURCE_DIR
set -euo pipefail
src=$1
testdata="$src/tests/controller/testdata"
actual=$("$src/scripts/gen-se-group-fields" "$testdata/service_engine_group_swagger.json")
if ! diff <(cat "$testdata/service_engine_group_fields.cc.golden") <(echo "$actual"); then
  echo "gen-se-group-fields output differs from the golden file (see the diff above)"
  exit 1
fi
echo "gen-se-group-fields: output matches the golden file"

sdk=${NSXALB_ALB_SDK:-}
if [ -z "$sdk" ]; then
  echo "NSXALB_ALB_SDK unset: the committed catalog was not regenerated from the 30.2.1 swagger"
  exit 0
fi
swagger=$(mktemp)
trap 'rm -f "$swagger"' EXIT
git -C "$sdk" show d181a90:swagger/ServiceEngineGroup.json >"$swagger"
if ! diff "$src/plugin/controller/se_group_fields_data.cc" \
  <("$src/scripts/gen-se-group-fields" "$swagger"); then
  echo "the committed catalog differs from what the script makes of the 30.2.1 swagger"
  exit 1
fi
echo "gen-se-group-fields: the committed catalog is what the 30.2.1 swagger gives"
