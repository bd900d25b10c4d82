#!/usr/bin/env bash
# CHANGELOG.md follows the convention CONTRIBUTING.md sets ("Releases and deprecations"): a
# section "## X.Y.Z ..." for project(VERSION) and for 0.1.0, newest first, whose subsections are
# only BREAKING CHANGES, FEATURES, ENHANCEMENTS, BUG FIXES and NOTES; and scripts/release refuses a
# version without its section (tried on a copy of the release script's inputs whose changelog
# lacks it). Fails naming the line or the step.
# Usage: changelog_test.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=../../scripts/lib/version.sh
source scripts/lib/version.sh
version=$(nsxalb_project_version .)
bad=0
complain() { echo "FAIL: $*"; bad=$((bad + 1)); }

grep -qE "^## ${version//./\\.}( |$)" CHANGELOG.md || complain "CHANGELOG.md has no section for $version"
grep -qE '^## 0\.1\.0( |$)' CHANGELOG.md || complain "CHANGELOG.md has no section for 0.1.0"
# Sections newest first.
mapfile -t versions < <(sed -n 's/^## \([0-9][0-9.]*\)\( .*\)\{0,1\}$/\1/p' CHANGELOG.md)
sorted=$(printf '%s\n' "${versions[@]}" | sort -r -V)
[ "$sorted" = "$(printf '%s\n' "${versions[@]}")" ] || complain "sections not newest first: ${versions[*]}"
# Only the five subsection names, as "NAME:" lines.
while IFS= read -r line; do
  case "$line" in
    "BREAKING CHANGES:" | "FEATURES:" | "ENHANCEMENTS:" | "BUG FIXES:" | "NOTES:") ;;
    *) complain "CHANGELOG.md: \"$line\" is not one of BREAKING CHANGES, FEATURES, ENHANCEMENTS, BUG FIXES, NOTES" ;;
  esac
done < <(grep -E '^[A-Z][A-Z ]+:$' CHANGELOG.md)

# scripts/release on a tree whose changelog lacks the version: refused before anything is built.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts/lib"
cp scripts/release "$tmp/scripts/"
cp scripts/lib/version.sh "$tmp/scripts/lib/"
grep '^project(' CMakeLists.txt >"$tmp/CMakeLists.txt"
printf '# Changelog\n\n## 0.1.0 (2026-12-01)\n\nFEATURES:\n\n* one\n' >"$tmp/CHANGELOG.md"
printf '#!/bin/sh\n' >"$tmp/binary" && chmod +x "$tmp/binary"
if [ "$version" != 0.1.0 ]; then
  if (cd "$tmp" && bash scripts/release --allow-dirty --binary "$tmp/binary" --out "$tmp/dist") \
    >"$tmp/out" 2>&1; then
    complain "scripts/release packaged $version without its changelog section"
  elif ! grep -q "CHANGELOG.md has no section \"## $version\"" "$tmp/out"; then
    complain "scripts/release failed without naming the missing section: $(cat "$tmp/out")"
  fi
fi
echo "changelog: ${#versions[@]} versions (${versions[*]}), $bad problem(s)"
[ "$bad" -eq 0 ]
