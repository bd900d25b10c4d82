#!/usr/bin/env bash
# Lint: clang-tidy, with the root .clang-tidy (its checks, each disabled one with its reason, and
# warnings as errors), finds nothing in the project's own sources: every plugin/ and emulator/
# translation unit of the build's compile_commands.json, and the project headers they include.
# The files run in parallel, one clang-tidy per core. Without clang-tidy it exits 77 (Skipped);
# under CI=true it fails.
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

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(python3 - "$build/compile_commands.json" "$root" <<'EOF'
import json, os, sys
root = sys.argv[2] + os.sep
seen = set()
for entry in json.load(open(sys.argv[1])):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = path[len(root):] if path.startswith(root) else None
    if rel and rel.split(os.sep)[0] in ("plugin", "emulator") and rel not in seen:
        seen.add(rel)
        print(path)
EOF
  )
fi
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no plugin/ or emulator/ source in compile_commands.json" >&2; exit 1; }

jobs=$(nproc)
echo "clang-tidy $(clang-tidy --version | sed -n 's/.*LLVM version //p'): ${#files[@]} files, $jobs at a time"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -Wno-unknown-warning-option: the build's flags are g++'s; clang need not know all of them.
rc=0
printf '%s\0' "${files[@]}" |
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
