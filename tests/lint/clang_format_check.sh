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
mapfile -t files < <(git ls-files '*.cc' '*.h' 2>/dev/null ||
  find plugin emulator tests bench -name '*.cc' -o -name '*.h')
# One clang-format for many files (xargs), not one per file: a process per file cost 66 s of the
# CI's test stage. Each violation names its file ("FILE:LINE:COL: error: code should be
# clang-formatted"); a file is listed once.
report=$(printf '%s\0' "${files[@]}" | xargs -0 clang-format --dry-run --Werror 2>&1)
mapfile -t unformatted < <(printf '%s\n' "$report" |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
for file in "${unformatted[@]}"; do
  echo "not formatted: $file"
done
if [ ${#unformatted[@]} -eq 0 ] && printf '%s\n' "$report" | grep -q ' error: '; then
  printf '%s\n' "$report"  # clang-format failed for another reason: show it
  exit 1
fi
echo "clang-format: ${#files[@]} files checked, ${#unformatted[@]} not formatted"
[ "${#files[@]}" -gt 0 ] && [ "${#unformatted[@]}" -eq 0 ]
