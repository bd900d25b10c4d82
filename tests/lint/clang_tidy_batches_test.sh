#!/usr/bin/env bash
# clang_tidy_batches.py on a small tree of its own: a finding in a batched file is reported with
# its path, two files that clash in one batch (each its own kName in an anonymous namespace) are
# re-batched and checked without a false finding, and a clean tree passes. Skipped without
# clang-tidy; under CI=true it fails.
# Usage: clang_tidy_batches_test.sh SOURCE_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
# shellcheck source=../../scripts/lib/require-tool.sh
source "$root/scripts/lib/require-tool.sh"
require_tool clang-tidy "lint_clang_tidy_batches (Debian's clang-tidy)"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/plugin/probe" "$tree/build"
cp "$root/.clang-tidy" "$tree/"
for name in first second; do
  cat >"$tree/plugin/probe/$name.cc" <<CC
#include <string>
namespace probe {
namespace {
const char kName[] = "$name";
}  // namespace
std::string ${name^}Name() { return kName; }
}  // namespace probe
CC
done
cat >"$tree/plugin/probe/third.cc" <<'CC'
#include <string>
namespace probe {
std::string ThirdName() { return "third"; }
}  // namespace probe
CC
python3 - "$tree" <<'PY'
import json, os, sys
tree = sys.argv[1]
entries = [{"directory": tree + "/build", "file": tree + "/plugin/probe/" + name + ".cc",
            "command": "c++ -std=c++17 -Wall -Wextra -c %s/plugin/probe/%s.cc -o %s.o"
                       % (tree, name, name)} for name in ("first", "second", "third")]
json.dump(entries, open(tree + "/build/compile_commands.json", "w"))
PY
batches="$root/tests/lint/clang_tidy_batches.py"

# A clean tree: the clash of first.cc and second.cc is no finding.
out=$(python3 "$batches" "$tree" "$tree/build" 2 2>&1) || {
  echo "FAIL: a clean tree failed:"; echo "$out"; exit 1; }
echo "$out" | grep -q "3 files in 1 batches (2 runs, 1 files re-batched after a clash)" || {
  echo "FAIL: expected one batch and second.cc re-batched:"; echo "$out"; exit 1; }

# A finding in the batch's last file (a static definition in an anonymous namespace).
sed -i 's/^std::string ThirdName/namespace {\nstatic int Unused() { return 0; }\n}  \/\/ namespace\nstd::string ThirdName/' \
  "$tree/plugin/probe/third.cc"
if out=$(python3 "$batches" "$tree" "$tree/build" 2 2>&1); then
  echo "FAIL: a finding passed:"; echo "$out"; exit 1
fi
echo "$out" | grep -q "plugin/probe/third.cc:.*readability-static-definition-in-anonymous-namespace" || {
  echo "FAIL: the finding in third.cc is not reported with its path:"; echo "$out"; exit 1; }

# A source that includes another source is a finding (the scan that replaces
# bugprone-suspicious-include, which the batches turn off).
sed -i 's/^static int Unused() { return 0; }$/int Unused() { return 0; }/' "$tree/plugin/probe/third.cc"
sed -i '1i #include "first.cc"' "$tree/plugin/probe/second.cc"
if out=$(python3 "$batches" "$tree" "$tree/build" 2 2>&1); then
  echo "FAIL: a source that includes a source passed:"; echo "$out"; exit 1
fi
echo "$out" | grep -q "second.cc: includes a source file" || {
  echo "FAIL: the include of first.cc is not reported:"; echo "$out"; exit 1; }
echo "clang_tidy_batches: findings reported, clashes re-batched, includes of sources found"
