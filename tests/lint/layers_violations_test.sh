#!/usr/bin/env bash
# layers_test.py on a copy of the tree (plugin/, emulator/ and docs/design/): the copy passes as
# it is, and each upward include or link added to it fails, named by file and line: the CLI's
# shared helpers (plugin/cli/common) including a family, a family including a sibling family, a
# family of row 7b including one of 7c, a family including the dispatcher (plugin/cli/commands.h),
# nsxalb_cli_common linking a family, a lower layer including the CLI, and a new folder under
# plugin/cli without a row of its own.
# Usage: layers_violations_test.sh SOURCE_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
lint="$root/tests/lint/layers_test.py"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/base/docs"
cp -r "$root/plugin" "$root/emulator" "$tree/base/"
cp -r "$root/docs/design" "$tree/base/docs/"
failures=0

# The copy as it is passes.
if ! out=$(python3 "$lint" "$tree/base" 2>&1); then
  echo "FAIL: the tree as it is:"; echo "$out"; exit 1
fi
echo "ok: the tree as it is passes"

# Every violation goes into one copy (the lint reports them all in one run, each on its own line):
# violates NAME FILE TEXT EXPECTED appends TEXT to FILE; the run must print a line matching
# EXPECTED (a grep -E pattern) for it.
cp -r "$tree/base" "$tree/case"
names=()
patterns=()
violates() {
  mkdir -p "$(dirname "$tree/case/$2")"
  printf '%s\n' "$3" >>"$tree/case/$2"
  names+=("$1")
  patterns+=("$4")
}

violates "the CLI's shared helpers including a family" plugin/cli/common/text_table.cc \
  '#include "plugin/cli/estate/estate_view.h"' \
  '^ERROR: plugin/cli/common/text_table.cc:[0-9]+: includes plugin/cli/estate/estate_view.h: plugin/cli/common \(layer 7\)'
violates "a family including a sibling family" plugin/cli/size/size_command.cc \
  '#include "plugin/cli/estate/estate_view.h"' \
  '^ERROR: plugin/cli/size/size_command.cc:[0-9]+: includes plugin/cli/estate/estate_view.h: plugin/cli/size \(layer 7b\)'
violates "a family including a family of a higher row" plugin/cli/estate/estate_view.h \
  '#include "plugin/cli/plan_report/plan_json.h"' \
  '^ERROR: plugin/cli/estate/estate_view.h:[0-9]+: includes plugin/cli/plan_report/plan_json.h: .* plugin/cli/plan_report is layer 7c'
violates "a family including the dispatcher" plugin/cli/rollout/stop_signals.cc \
  '#include "plugin/cli/commands.h"' \
  '^ERROR: plugin/cli/rollout/stop_signals.cc:[0-9]+: includes plugin/cli/commands.h: .* plugin/cli is layer 7d'
violates "the domain including the CLI" plugin/segroup/fields.cc \
  '#include "plugin/cli/common/text_table.h"' \
  '^ERROR: plugin/segroup/fields.cc:[0-9]+: includes plugin/cli/common/text_table.h'
violates "the CLI's shared helpers linking a family" plugin/cli/common/CMakeLists.txt \
  'target_link_libraries(nsxalb_cli_common PRIVATE nsxalb_cli_estate)' \
  '^ERROR: plugin/cli/common/CMakeLists.txt:1: nsxalb_cli_common \(layer 7\) links nsxalb_cli_estate \(layer 7b\)'
violates "a new folder under plugin/cli without a row" plugin/cli/newfamily/new_command.h \
  '// A family the table does not know yet.' \
  '^ERROR: plugin/cli/newfamily/new_command.h:1: in a subfolder of plugin/cli with no row'

if out=$(python3 "$lint" "$tree/case" 2>&1); then
  echo "FAIL: the lint passed a tree with ${#names[@]} violations:"; echo "$out"; exit 1
fi
for i in "${!names[@]}"; do
  if grep -Eq "${patterns[i]}" <<<"$out"; then
    echo "ok: ${names[i]} fails"
  else
    echo "FAIL: ${names[i]}: no line matches '${patterns[i]}'"; failures=$((failures + 1))
  fi
done
count=$(grep -c '^ERROR: ' <<<"$out" || true)
if ((count != ${#names[@]})); then
  echo "FAIL: ${#names[@]} violations added, $count reported:"; echo "$out"
  failures=$((failures + 1))
fi
if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "layers_violations: every violation reported"
