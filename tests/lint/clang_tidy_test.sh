#!/usr/bin/env bash
# Lint: clang-tidy, with the root .clang-tidy (its checks, each disabled one with its reason, and
# warnings as errors), finds nothing in the project's own sources: every plugin/ and emulator/
# translation unit of the build's compile_commands.json, and the project headers they include.
# Every source is checked in batches of a folder's files, one clang-tidy per core
# (clang_tidy_batches.py: 152 files in about 3.5 minutes instead of 14 one by one). Without
# clang-tidy it exits 77 (Skipped); under CI=true it fails.
# Usage: clang_tidy_test.sh SOURCE_DIR BUILD_DIR [FILE...]   (FILEs: only those, for a quick look)
set -euo pipefail
root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
shift 2
# shellcheck source=../../scripts/lib/require-tool.sh
source "$root/scripts/lib/require-tool.sh"
require_tool clang-tidy "lint_clang_tidy (Debian's clang-tidy)"
[ -f "$build/compile_commands.json" ] || {
  echo "FAIL: $build/compile_commands.json is missing (CMAKE_EXPORT_COMPILE_COMMANDS)" >&2
  exit 1
}

jobs=$(nproc)
echo "clang-tidy $(clang-tidy --version | sed -n 's/.*LLVM version //p'), $jobs at a time"
if [ $# -eq 0 ]; then
  # Every source, in batches of a folder's files (clang_tidy_batches.py says why and how).
  if python3 "$root/tests/lint/clang_tidy_batches.py" "$root" "$build" "$jobs"; then
    echo "clang-tidy: no finding"
    exit 0
  fi
  echo "FAIL: clang-tidy found the above (fix them, or disable the check in .clang-tidy with a reason)" >&2
  exit 1
fi

# The FILEs given, each alone.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -Wno-unknown-warning-option: the build's flags are g++'s; clang need not know all of them.
rc=0
printf '%s\0' "$@" |
  xargs -0 -n 1 -P "$jobs" clang-tidy -p "$build" --quiet \
    --extra-arg=-Wno-unknown-warning-option >"$log" 2>&1 || rc=1
# clang-tidy prints "N warnings generated" for the diagnostics it filtered out: not findings.
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' "$log" || true
if [ "$rc" -eq 0 ]; then
  echo "clang-tidy: no finding"
else
  echo "FAIL: clang-tidy found the above (fix them, or disable the check in .clang-tidy with a reason)" >&2
fi
exit "$rc"
