#!/usr/bin/env bash
# Lint: every C++ source of the project is formatted as .clang-format says (Google style, 100
# columns). Lists the files that are not; `clang-format -i FILE` fixes one.
# Usage: clang_format_check.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 1
if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (scripts/install-deps installs it)"
  exit 1
fi
bad=0 checked=0
while IFS= read -r file; do
  checked=$((checked + 1))
  if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
    echo "not formatted: $file"
    bad=$((bad + 1))
  fi
done < <(git ls-files '*.cc' '*.h' 2>/dev/null || find plugin emulator tests bench -name '*.cc' -o -name '*.h')
echo "clang-format: $checked files checked, $bad not formatted"
[ "$checked" -gt 0 ] && [ "$bad" -eq 0 ]
