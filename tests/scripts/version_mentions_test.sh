#!/usr/bin/env bash
# The provider's version lives in one place, CMake's project(VERSION): every place the docs and
# examples name it (a provider version constraint in examples/, a mirror path, a release file
# name) must say the same. Fails naming the file and line that differ, or when there is none.
# Usage: version_mentions_test.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=../../scripts/lib/version.sh
source scripts/lib/version.sh
version=$(nsxalb_project_version .)
[ -n "$version" ] || { echo "FAIL: no project(VERSION) in CMakeLists.txt"; exit 1; }
v='[0-9]+\.[0-9]+\.[0-9]+'
# The provider's own version, wherever a Controller or Avi version cannot be meant.
patterns=(
  "nsxalb/nsxalb/$v/"                    # a mirror path
  "nsxalb/nsxalb v$v"                    # terraform init's "Installed nsxalb/nsxalb vX"
  "terraform-provider-nsxalb_v?$v"       # the binary and release file names
  "nsxalb-alb-$v"                        # the Ansible collection archive
)
found=0 bad=0
while IFS= read -r hit; do
  found=$((found + 1))
  mention=$(printf '%s' "$hit" | grep -oE "$v" | head -1)
  if [ "$mention" != "$version" ]; then
    echo "FAIL: $hit names $mention, not $version (CMakeLists.txt project(VERSION))"
    bad=$((bad + 1))
  fi
done < <(for p in "${patterns[@]}"; do
  grep -rnoE -- "$p" README.md docs examples scripts tests/scripts 2>/dev/null
done)
# examples/: the version constraint of nsxalb/nsxalb in required_providers.
while IFS= read -r hit; do
  found=$((found + 1))
  mention=$(printf '%s' "$hit" | grep -oE "$v" | head -1)
  if [ "$mention" != "$version" ]; then
    echo "FAIL: $hit requires $mention, not $version"
    bad=$((bad + 1))
  fi
done < <(grep -rn -A2 -E 'source *= *"(registry.terraform.io/)?nsxalb/nsxalb"' examples --include=*.tf |
  grep -E "version *= *\"[^\"]*$v")
# The Ansible collection's own version, when the tree has the collection.
galaxy=ansible/ansible_collections/nsxalb/alb/galaxy.yml
if [ -f "$galaxy" ]; then
  found=$((found + 1))
  mention=$(sed -n 's/^version: *//p' "$galaxy")
  if [ "$mention" != "$version" ]; then
    echo "FAIL: $galaxy has version $mention, not $version"
    bad=$((bad + 1))
  fi
fi
[ "$found" -gt 0 ] || { echo "FAIL: no mention of the provider's version found: the patterns are stale"; exit 1; }
echo "version mentions: $found, $bad not $version"
[ "$bad" -eq 0 ]
