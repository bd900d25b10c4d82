# shellcheck shell=bash
# One rule for tests that need an outside tool: skipped on a developer's machine without it,
# failed in CI. Source it; it defines two functions and sets nothing else.
#
#   require_tool TOOL [WHAT]   returns when TOOL is on PATH. Otherwise it exits: 77 (CTest's
#                              SKIP_RETURN_CODE, reported as Skipped), or 1 when CI=true and
#                              .ci/tools lists TOOL (CI has it, so its absence is a broken CI
#                              machine, not a reason to skip). WHAT names what needs the tool.
#   ci_tools                   prints the tools .ci/tools lists, one a line.

_require_tool_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

ci_tools() {
  sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$_require_tool_root/.ci/tools"
}

require_tool() {
  local tool=$1 what=${2:-this test}
  command -v "$tool" >/dev/null 2>&1 && return 0
  if [ "${CI:-}" = true ] && ci_tools | grep -qxF -- "$tool"; then
    echo "FAIL: $what: $tool not found on PATH, and CI=true: CI has it (.ci/tools)" >&2
    exit 1
  fi
  echo "SKIP: $what: $tool not found on PATH" >&2
  exit 77
}
