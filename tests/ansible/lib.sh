# shellcheck shell=bash
# The harness for tests in which the real ansible-playbook runs the nsxalb.alb collection
# (ansible/ansible_collections/nsxalb/alb) against nsxalb-controller-emulator, with the playbooks
# of examples/ansible/.
#
#   source "$(dirname "$0")/lib.sh" "$@"   # args: PROVIDER_BINARY EMULATOR_BINARY
#
# Sourcing it exits 77 (Skipped) without ansible-playbook, or fails under CI=true
# (scripts/lib/require-tool.sh); makes a private directory $AN_TMP, removed on exit; puts the
# built binary on PATH and the collection on ANSIBLE_COLLECTIONS_PATH; starts the emulator (extra
# flags in the array EMU_ARGS) and exports NSXALB_CONTROLLER, NSXALB_USERNAME, NSXALB_PASSWORD and
# NSXALB_CA_FILE, the connection options' fallbacks. NSXALB_AN_KEEP=1 keeps $AN_TMP.

set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "--- $*"; }
pass() { echo "PASS: $(basename "$0" .sh)"; }

AN_PROVIDER_BINARY=$(realpath -m "${1:-${NSXALB_PROVIDER_BINARY:-}}")
AN_EMULATOR_BINARY=$(realpath -m "${2:-${NSXALB_EMULATOR_BINARY:-}}")
SOURCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EXAMPLES=$SOURCE_DIR/examples/ansible
# shellcheck source=../../scripts/lib/terraform-mirror.sh
source "$SOURCE_DIR/scripts/lib/terraform-mirror.sh"
# shellcheck source=../../scripts/lib/require-tool.sh
source "$SOURCE_DIR/scripts/lib/require-tool.sh"

require_tool ansible-playbook "$(basename "$0" .sh) (Debian's ansible-core)"
[ -x "$AN_PROVIDER_BINARY" ] || fail "provider binary '$AN_PROVIDER_BINARY' is not executable"
[ -x "$AN_EMULATOR_BINARY" ] || fail "emulator binary '$AN_EMULATOR_BINARY' is not executable"
for tool in jq curl; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found on PATH (scripts/install-deps)"
done

AN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-ansible-XXXXXX")
# shellcheck disable=SC2034  # tfm_stop_emulator reads it
EMU_PID=""
_an_cleanup() {
  local rc=$?
  tfm_stop_emulator
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -s "$AN_TMP/emulator.log" ]; then
    echo "----- last lines of the emulator's log -----" >&2
    tail -n 20 "$AN_TMP/emulator.log" >&2
  fi
  if [ "${NSXALB_AN_KEEP:-}" = 1 ]; then echo "kept $AN_TMP" >&2; else rm -rf "$AN_TMP"; fi
  return "$rc"
}
trap _an_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Nothing from the caller's settings leaks in.
while IFS= read -r _an_var; do unset "$_an_var"; done < <(compgen -e | grep -E '^(NSXALB_|ANSIBLE_)' || true)
unset _an_var
mkdir -p "$AN_TMP/bin" "$AN_TMP/home"
ln -s "$AN_PROVIDER_BINARY" "$AN_TMP/bin/terraform-provider-nsxalb"
export PATH=$AN_TMP/bin:$PATH
export ANSIBLE_COLLECTIONS_PATH=$SOURCE_DIR/ansible
export ANSIBLE_HOME=$AN_TMP/home ANSIBLE_LOCAL_TEMP=$AN_TMP/home/tmp
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
# The modules run with the interpreter ansible-playbook itself runs with (its #! line; Debian's
# /usr/bin/python3), named rather than discovered: discovery cost each ansible-playbook run about
# 0.5 s of CPU (a play of two tasks: 2.7 s of user and system time with auto_silent, 2.1 s with
# the interpreter named, 2026-12-07).
_an_shebang=$(head -n 1 "$(command -v ansible-playbook)" 2>/dev/null || true)
if [[ $_an_shebang =~ ^\#![[:space:]]*(/[^[:space:]]*python[0-9.]*)[[:space:]]*$ ]] && [ -x "${BASH_REMATCH[1]}" ]; then
  export ANSIBLE_PYTHON_INTERPRETER=${BASH_REMATCH[1]}
else
  export ANSIBLE_PYTHON_INTERPRETER=auto_silent
fi
unset _an_shebang
export ANSIBLE_DEPRECATION_WARNINGS=0

[ -n "${EMU_ARGS+set}" ] || EMU_ARGS=()
EMU_PASSWORD=${EMU_PASSWORD:-admin}
tfm_start_emulator "$AN_EMULATOR_BINARY" "$AN_TMP" --password "$EMU_PASSWORD" "${EMU_ARGS[@]}" ||
  fail "the emulator did not start"
export NSXALB_CONTROLLER=$EMU_URL NSXALB_USERNAME=admin NSXALB_PASSWORD=$EMU_PASSWORD
export NSXALB_CA_FILE=$EMU_CA_FILE

_emu_curl() { curl -sS --max-time 30 --cacert "$EMU_CA_FILE" "$@"; }

# emu_counters: the emulator's request counters (docs/emulator.md).
emu_counters() { _emu_curl --fail-with-body "$EMU_URL/_emulator/counters" || fail "counters"; }

# emu_writes: POST, PUT and DELETE requests to /api/ counted so far (the login is not one, nor
# the analytics queries, which POST a collection of metric requests to read).
emu_writes() {
  emu_counters | jq '[.requests | to_entries[] | select(.key | test("^(POST /api/|PUT |DELETE )")
                      and (test("/api/analytics/") | not)) | .value] | add // 0'
}

# emu_faults JSON: arms faults, e.g. '{"fail_next":3,"fail_status":503}'.
emu_faults() {
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$1" \
    "$EMU_URL/_emulator/faults" >/dev/null || fail "setting emulator faults $1 failed"
}

# emu_group NAME: the SE group called NAME as the emulator holds it ("null" when none).
emu_group() {
  _emu_curl --fail-with-body "$EMU_URL/_emulator/state" |
    jq --arg n "$1" '[.serviceenginegroup // [] | .[] | select(.name == $n)] | first'
}

# play OUT PLAYBOOK [ARGS...]: runs ansible-playbook on localhost; its output goes to
# $AN_TMP/OUT.out (and to this test's output); returns ansible-playbook's exit code.
play() {
  local out=$AN_TMP/$1.out playbook=$2
  shift 2
  local rc=0
  ansible-playbook -i localhost, -c local "$EXAMPLES/$playbook" "$@" >"$out" 2>&1 || rc=$?
  sed 's/^/    /' "$out"
  return "$rc"
}

# recap OUT: the PLAY RECAP line of a run, e.g. "localhost : ok=2 changed=1 ... failed=0".
recap() { grep -E '^localhost +:' "$AN_TMP/$1.out" | tr -s ' '; }

# assert_recap OUT PATTERN: the recap line matches the extended regex PATTERN.
assert_recap() {
  local line
  line=$(recap "$1")
  [[ $line =~ $2 ]] || fail "$1: recap '$line' does not match /$2/"
}

# assert_out OUT TEXT: the run's output contains TEXT.
assert_out() { grep -qF -- "$2" "$AN_TMP/$1.out" || fail "$1: the output lacks '$2'"; }

# assert_eq WHAT EXPECTED ACTUAL.
assert_eq() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }

# an_checkout_play NAME VCPUS MEMORY [ARGS...]: runs the scenario's play $AN_TMP/checkout.yml with
# vcpus, memory and out=$AN_TMP/NAME.json (and ARGS); its output goes to $AN_TMP/NAME.out and,
# indented, to stdout; returns ansible-playbook's exit code.
an_checkout_play() {
  local name=$1 vcpus=$2 memory=$3
  shift 3
  local rc=0
  ansible-playbook -i localhost, -c local "$AN_TMP/checkout.yml" -e "vcpus=$vcpus" \
    -e "memory=$memory" -e "out=$AN_TMP/$name.json" "$@" >"$AN_TMP/$name.out" 2>&1 || rc=$?
  sed 's/^/    /' "$AN_TMP/$name.out"
  return "$rc"
}
