#!/usr/bin/env bash
# Lint: the nsxalb.alb collection passes ansible-test sanity's validate-modules and pep8.
# ansible-test would run both in a virtualenv it fills from PyPI, which CI does not reach, so
# ansible_sanity.py runs the same validate-modules script and pycodestyle settings from the
# installed ansible_test package with the interpreter ansible-test itself runs on. Exclusions go in
# the collection's tests/sanity/ignore-X.Y.txt, as for ansible-test.
# Without ansible-test, pycodestyle or voluptuous it exits 77 (Skipped); under CI=true it fails
# (scripts/install-deps installs ansible-core, pycodestyle and python3-voluptuous).
# Usage: ansible_sanity_test.sh SOURCE_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
# shellcheck source=../../scripts/lib/require-tool.sh
source "$root/scripts/lib/require-tool.sh"
require_tool ansible-test "lint_ansible_sanity (Debian's ansible-core)"
require_tool pycodestyle "lint_ansible_sanity (Debian's pycodestyle)"
# The interpreter of ansible-test's shebang: the one that imports Debian's ansible and ansible_test.
read -r -a python < <(sed -n '1s/^#! *//p' "$(command -v ansible-test)")
for module in voluptuous pycodestyle; do
  if ! "${python[@]}" -c "import $module" 2>/dev/null; then
    if [ "${CI:-}" = true ]; then
      echo "FAIL: lint_ansible_sanity: ${python[*]} cannot import $module, and CI=true (scripts/install-deps installs it)" >&2
      exit 1
    fi
    echo "SKIP: lint_ansible_sanity: ${python[*]} cannot import $module (Debian's python3-$module)" >&2
    exit 77
  fi
done
exec "${python[@]}" "$root/tests/lint/ansible_sanity.py" "$root/ansible/ansible_collections/nsxalb/alb"
