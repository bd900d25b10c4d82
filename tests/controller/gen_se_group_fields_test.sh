#!/usr/bin/env bash
# scripts/gen-se-group-fields, the generator of plugin/controller/se_group_fields_data.cc, turns a
# small swagger file written in the vendor's phrasing (testdata/service_engine_group_swagger.json:
# ranges, special values, backported "introduced in", enums, units, reboot flags, a float
# default, a $ref, the excluded read-only fields) into exactly the rows of the golden file.
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
