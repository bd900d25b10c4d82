#!/usr/bin/env bash
# Lint: shellcheck finds nothing in any shell script of the tree (scripts/, scripts/lib/, .ci/run,
# bench/, examples/, every tests/**/*.sh, ...), with the settings and the reasoned exclusions of
# the root .shellcheckrc. The scripts are found, not listed: every tracked or new (not ignored)
# file named *.sh or starting with a sh/bash shebang. A file with neither a shebang nor a
# `# shellcheck shell=` directive (the Terraform Registry's examples/**/import.sh, a command line)
# is checked as sh. Without shellcheck it exits 77 (Skipped); under CI=true it fails.
# Usage: shellcheck_test.sh SOURCE_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
# shellcheck source=../../scripts/lib/require-tool.sh
source "$root/scripts/lib/require-tool.sh"
require_tool shellcheck "lint_shellcheck (Debian's shellcheck)"
cd "$root"

candidates() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard
  else
    find . -path ./.git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||'
  fi
}

scripts=() commands=()
while IFS= read -r file; do
  [ -f "$file" ] || continue  # deleted from the work tree, not yet from the index
  first=$(head -c 200 "$file" 2>/dev/null | tr -d '\000' | head -n 1 || true)
  if [[ $first =~ ^\#!.*(/|[[:space:]])(ba)?sh([[:space:]]|$) ]] ||
     { [[ $file == *.sh ]] && grep -q '^# shellcheck shell=' "$file"; }; then
    scripts+=("$file")
  elif [[ $file == *.sh ]]; then
    commands+=("$file")
  fi
done < <(candidates | sort -u)

echo "shellcheck $(shellcheck --version | sed -n 's/^version: //p'): ${#scripts[@]} scripts," \
  "${#commands[@]} command files (as sh)"
[ ${#scripts[@]} -gt 0 ] || { echo "FAIL: no shell script found under $root" >&2; exit 1; }
rc=0
shellcheck --external-sources "${scripts[@]}" || rc=1
if [ ${#commands[@]} -gt 0 ]; then
  shellcheck --shell=sh "${commands[@]}" || rc=1
fi
[ "$rc" -eq 0 ] && echo "shellcheck: no finding"
exit "$rc"
