# shellcheck shell=bash
# The harness for scenarios in which the real `terraform` drives the built provider against
# nsxalb-controller-emulator. A scenario sources this file, writes its configuration and runs
# terraform through `tf`; see docs/design/terraform-tests.md.
#
#   source "$(dirname "$0")/lib.sh" "$@"   # args: PROVIDER_BINARY EMULATOR_BINARY [VERSION]
#
# Sourcing it:
#   * exits 77 (CTest's SKIP_RETURN_CODE) when terraform is not on PATH, or fails when CI=true
#     (scripts/lib/require-tool.sh);
#   * makes a private temporary directory $TF_TMP, removed on exit, INT and TERM
#     (kept when NSXALB_TF_KEEP=1), with the working directory $TF_WORK;
#   * points Terraform at its own CLI config (never ~/.terraformrc) whose filesystem mirror holds
#     a copy of the provider, and writes $TF_WORK/versions.tf requiring nsxalb/nsxalb;
#   * starts the emulator on 127.0.0.1, port 0, and exports NSXALB_CONTROLLER, NSXALB_USERNAME,
#     NSXALB_PASSWORD and NSXALB_CA_FILE for the provider (every other NSXALB_* is unset).
# The binaries may also come from NSXALB_PROVIDER_BINARY / NSXALB_EMULATOR_BINARY. A scenario may
# set the array EMU_ARGS (extra emulator flags) before sourcing. Knobs for a person debugging:
# NSXALB_TF_KEEP=1 keeps $TF_TMP, NSXALB_TF_TIMEOUT bounds each terraform command (seconds,
# default 180), and TF_LOG* pass through to Terraform and the provider. CTest sets
# NSXALB_SANITIZED_BUILD=1 in a sanitizer build (kept as TF_SANITIZED_BUILD).
# NSXALB_TF_TRACE_SECRETS=1 (CI runs every scenario so once): Terraform and the provider log at
# TRACE into $TF_OUT_DIR/*.trace, the Controller password is a marker, and `pass` fails when the
# marker, or a session cookie value, CSRF token or auth token the emulator issued, appears in any
# file the scenario left (outputs, traces, states, plans, the emulator's log; see
# _tf_scan_secrets).

set -euo pipefail

# --- Reporting ------------------------------------------------------------------------------------

# fail MSG: the scenario fails with MSG.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# step TEXT: one progress line, so a failure's output shows how far the scenario got.
step() { echo "--- $*"; }

# pass: the last line of a scenario that got to the end.
pass() {
  _tf_scan_secrets
  echo "PASS: $(basename "$0" .sh)"
}

# --- Arguments and tools --------------------------------------------------------------------------

TF_PROVIDER_BINARY=${1:-${NSXALB_PROVIDER_BINARY:-}}
TF_EMULATOR_BINARY=${2:-${NSXALB_EMULATOR_BINARY:-}}
# shellcheck disable=SC2034  # read by the scenarios that source this file
TF_PROVIDER_SOURCE=registry.terraform.io/nsxalb/nsxalb
# The repository root, for scenarios that compare with files in the tree.
# shellcheck disable=SC2034
SOURCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/version.sh
source "$SOURCE_DIR/scripts/lib/version.sh"
# The version the mirror offers the provider as: project(VERSION) unless given.
TF_PROVIDER_VERSION=${3:-${NSXALB_PROVIDER_VERSION:-$(nsxalb_project_version "$SOURCE_DIR")}}
# The mirror, CLI configuration and emulator helpers shared with scripts/demo and examples/gitops.
# shellcheck source=../../scripts/lib/terraform-mirror.sh
source "$SOURCE_DIR/scripts/lib/terraform-mirror.sh"
# shellcheck source=../../scripts/lib/require-tool.sh
source "$SOURCE_DIR/scripts/lib/require-tool.sh"

require_tool terraform "$(basename "$0" .sh) (the real terraform CLI)"
[ -x "$TF_PROVIDER_BINARY" ] || fail "provider binary '$TF_PROVIDER_BINARY' is not executable" \
  "(pass it as the first argument or in NSXALB_PROVIDER_BINARY)"
[ -x "$TF_EMULATOR_BINARY" ] || fail "emulator binary '$TF_EMULATOR_BINARY' is not executable" \
  "(pass it as the second argument or in NSXALB_EMULATOR_BINARY)"
TF_KEEP=${NSXALB_TF_KEEP:-}
# shellcheck disable=SC2034  # read by the scenarios that source this file
TF_SANITIZED_BUILD=${NSXALB_SANITIZED_BUILD:-}  # CTest sets it for a sanitizer build
TF_TRACE_SECRETS=${NSXALB_TF_TRACE_SECRETS:-}
TF_TIMEOUT=${NSXALB_TF_TIMEOUT:-180}
for tool in jq curl timeout; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found on PATH (scripts/install-deps)"
done

# --- Private directory and cleanup ----------------------------------------------------------------

TF_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-tf-XXXXXX")
TF_WORK=$TF_TMP/work
TF_OUT_DIR=$TF_TMP/out
# The harness's own files (its cookie jar, the secret scan's list), which the scan leaves out.
TF_HARNESS_DIR=$TF_TMP/harness
mkdir -p "$TF_WORK" "$TF_OUT_DIR" "$TF_HARNESS_DIR"
EMU_PID=""
_tf_run_pid=""
declare -A _tf_bg_base=() _tf_bg_pgid=()
_tf_main_pid=$BASHPID

_tf_cleanup() {
  local rc=$?
  # Only the scenario's own shell cleans up, never a subshell that inherited the trap.
  [ "$BASHPID" = "$_tf_main_pid" ] || return 0
  # A running terraform (through timeout, which passes TERM on), then any provider left behind:
  # those run from our mirror, so they are found, and stopped, by their pids.
  for pid in $_tf_run_pid "${!_tf_bg_base[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  done
  tfm_stop_mirror_processes "$TF_TMP"
  tfm_stop_emulator
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -s "$TF_TMP/emulator.log" ]; then
    echo "----- last lines of the emulator's log -----" >&2
    tail -n 20 "$TF_TMP/emulator.log" >&2
  fi
  if [ "$TF_KEEP" = 1 ]; then
    echo "kept $TF_TMP" >&2
  else
    rm -rf "$TF_TMP"
  fi
  return "$rc"
}
trap _tf_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- Terraform environment ------------------------------------------------------------------------

# Nothing from the caller's Terraform or provider settings leaks in (but TF_LOG* for debugging).
while IFS= read -r _tf_var; do
  unset "$_tf_var"
done < <(compgen -e | grep -E '^(NSXALB_|TF_)' | grep -v '^TF_LOG' || true)
unset _tf_var
export TF_IN_AUTOMATION=1
export CHECKPOINT_DISABLE=1
# Plain text and no prompts from every command that accepts the flags.
for _tf_cmd in init plan apply destroy refresh import; do
  export "TF_CLI_ARGS_${_tf_cmd}=-no-color -input=false"
done
for _tf_cmd in validate show output console state taint untaint; do
  export "TF_CLI_ARGS_${_tf_cmd}=-no-color"
done
unset _tf_cmd

# A sanitizer build's provider keeps its debug info, so that a report names file and line; the
# optimized build's is stripped, as a release is (scripts/lib/terraform-mirror.sh says why).
TFM_KEEP_DEBUG_INFO=$([ -n "$TF_SANITIZED_BUILD" ] && echo 1 || true) \
  tfm_install_provider "$TF_PROVIDER_BINARY" "$TF_PROVIDER_VERSION" "$TF_TMP" ||
  fail "cannot install the provider into the mirror under $TF_TMP"
tfm_write_versions_tf "$TF_WORK/versions.tf"

# --- Emulator -------------------------------------------------------------------------------------

[ -n "${EMU_ARGS+set}" ] || EMU_ARGS=()
EMU_PASSWORD="admin"
if [ "$TF_TRACE_SECRETS" = 1 ]; then
  EMU_PASSWORD="trace-marker-pw-$RANDOM$RANDOM$RANDOM"
  EMU_ARGS+=(--password "$EMU_PASSWORD")
  export TF_LOG=TRACE TF_LOG_PROVIDER=TRACE
fi
tfm_start_emulator "$TF_EMULATOR_BINARY" "$TF_TMP" "${EMU_ARGS[@]}" || fail "the emulator did not start"
# What emu_api uses, whatever a scenario does to the provider's NSXALB_* settings.
EMU_USERNAME="admin"
EMU_API_VERSION=22.1.3  # the emulator's default, unless EMU_ARGS sets --controller-version
for ((_i = 0; _i + 1 < ${#EMU_ARGS[@]}; _i++)); do
  [ "${EMU_ARGS[_i]}" != --controller-version ] || EMU_API_VERSION=${EMU_ARGS[_i + 1]}
done
unset _i

export NSXALB_CONTROLLER=$EMU_URL
export NSXALB_USERNAME=$EMU_USERNAME
export NSXALB_PASSWORD=$EMU_PASSWORD
export NSXALB_CA_FILE=$EMU_CA_FILE

# --- Terraform ------------------------------------------------------------------------------------

TF_STEP=0
# tf ARGS...: runs `terraform ARGS` in $TF_WORK and fails the scenario (showing the output) unless
# it exits 0. The output stays in files: $TF_STDOUT, $TF_STDERR and both in $TF_OUT.
tf() {
  _tf_run "$@" || {
    local rc=$?
    _tf_show
    fail "terraform $* exited with $rc"
  }
}

# tf_fails ARGS...: like tf, but the command must fail (exit non-zero).
tf_fails() {
  if _tf_run "$@"; then
    _tf_show
    fail "terraform $* succeeded, expected a failure"
  fi
}

_tf_run() {
  TF_STEP=$((TF_STEP + 1))
  local base
  base=$TF_OUT_DIR/$(printf '%02d' "$TF_STEP")-${1:-none}
  TF_STDOUT=$base.stdout
  TF_STDERR=$base.stderr
  TF_OUT=$base.out
  local rc=0
  # In the background so that INT and TERM reach this shell's traps at once (a foreground child
  # would delay them until it ends); stdin is /dev/null, so terraform never waits for input.
  (cd "$TF_WORK" && _tf_trace_to "$base" && exec timeout --kill-after=10 "$TF_TIMEOUT" terraform "$@") \
    >"$TF_STDOUT" 2>"$TF_STDERR" </dev/null &
  _tf_run_pid=$!
  wait "$_tf_run_pid" || rc=$?
  _tf_run_pid=""
  cat "$TF_STDOUT" "$TF_STDERR" >"$TF_OUT"
  [ "$rc" -ne 124 ] || echo "terraform $* timed out after $TF_TIMEOUT s" >>"$TF_OUT"
  return "$rc"
}

# tf_start ARGS...: starts `terraform ARGS` in $TF_WORK in the background and returns at once,
# setting TF_BG (the run's handle for tf_wait and tf_interrupt) and TF_STDOUT, TF_STDERR, TF_OUT.
# Terraform gets a process group of its own, as a shell gives a foreground command, so that
# tf_interrupt reaches it and its provider as Ctrl-C in a terminal does. Set TF_WORK for the
# call to run in another working directory.
tf_start() {
  TF_STEP=$((TF_STEP + 1))
  local base pidfile
  base=$TF_OUT_DIR/$(printf '%02d' "$TF_STEP")-${1:-none}
  pidfile=$base.pid
  TF_STDOUT=$base.stdout
  TF_STDERR=$base.stderr
  TF_OUT=$base.out
  # shellcheck disable=SC2016
  (cd "$TF_WORK" && _tf_trace_to "$base" && exec timeout --kill-after=10 "$TF_TIMEOUT" \
    sh -c 'echo $$ >"$0"; exec setsid "$@"' "$pidfile" terraform "$@") \
    >"$TF_STDOUT" 2>"$TF_STDERR" </dev/null &
  TF_BG=$!
  _tf_bg_base[$TF_BG]=$base
  for _ in $(seq 1 200); do [ -s "$pidfile" ] && break; sleep 0.05; done
  _tf_bg_pgid[$TF_BG]=$(cat "$pidfile" 2>/dev/null || true)
}

# tf_interrupt [HANDLE]: Ctrl-C: SIGINT to the process group of a tf_start run (default TF_BG).
tf_interrupt() {
  local pgid=${_tf_bg_pgid[${1:-$TF_BG}]:-}
  [ -n "$pgid" ] || fail "tf_interrupt: no process group for run ${1:-$TF_BG}"
  kill -INT -- "-$pgid"
}

# tf_wait [HANDLE]: waits for a tf_start run (default TF_BG) and returns its exit code; its
# output is then in TF_STDOUT, TF_STDERR and TF_OUT.
tf_wait() {
  local handle=${1:-$TF_BG} rc=0 base
  base=${_tf_bg_base[$handle]:-}
  [ -n "$base" ] || fail "tf_wait: no run $handle"
  wait "$handle" || rc=$?
  unset "_tf_bg_base[$handle]" "_tf_bg_pgid[$handle]"
  TF_STDOUT=$base.stdout
  TF_STDERR=$base.stderr
  TF_OUT=$base.out
  cat "$TF_STDOUT" "$TF_STDERR" >"$TF_OUT"
  [ "$rc" -ne 124 ] || echo "terraform timed out after $TF_TIMEOUT s" >>"$TF_OUT"
  return "$rc"
}

# In NSXALB_TF_TRACE_SECRETS mode, points the TRACE log of the command about to run at
# BASE.trace (unless the scenario chose a TF_LOG_PATH).
_tf_trace_to() {
  if [ "$TF_TRACE_SECRETS" = 1 ] && [ -z "${TF_LOG_PATH:-}" ]; then
    export TF_LOG_PATH=$1.trace
  fi
}

# In NSXALB_TF_TRACE_SECRETS mode, fails when a secret is in any file under $TF_TMP (but the
# provider copy in the mirror and the harness's own files in $TF_HARNESS_DIR), and when no TRACE
# log holds the provider's own lines. The secrets: the marker password, and every session cookie
# value, CSRF token and auth token the emulator issued (GET /_emulator/secrets), to the provider
# and to the harness alike.
_tf_scan_secrets() {
  [ "$TF_TRACE_SECRETS" = 1 ] || return 0
  local secrets=$TF_HARNESS_DIR/secrets.txt issued counts
  issued=$(emu_get /_emulator/secrets) || fail "the emulator did not list the secrets it issued"
  {
    printf 'password\t%s\n' "$EMU_PASSWORD"
    jq -r '(.session_ids[] | "session cookie\t\(.)"), (.csrf_tokens[] | "CSRF token\t\(.)"),
      (.auth_tokens[] | "auth token\t\(.)")' <<<"$issued"
  } >"$secrets"
  local kind value hits leaks=""
  cut -f2 "$secrets" >"$TF_HARNESS_DIR/values.txt"
  grep -q '^$' "$TF_HARNESS_DIR/values.txt" && fail "an empty secret: $(cut -f1 "$secrets" | tr '\n' ' ')"
  # One pass over every file for all the secrets; then, only on a hit, which secret is where.
  if grep -rqF --exclude-dir=mirror --exclude-dir=harness -f "$TF_HARNESS_DIR/values.txt" "$TF_TMP"; then
    while IFS=$'\t' read -r kind value; do
      hits=$( (grep -rlF --exclude-dir=mirror --exclude-dir=harness -- "$value" "$TF_TMP" || true) | tr "\n" " ")
      [ -z "$hits" ] || leaks="$leaks"$'\n'"  the $kind ${value:0:6}... in: $hits"
    done <"$secrets"
    fail "secrets leaked:$leaks"
  fi
  local traces
  traces=$(find "$TF_OUT_DIR" -name '*.trace' | wc -l)
  # The scan means something only if the provider's own log was captured (in the TRACE logs,
  # or wherever the scenario sent it).
  if [ "$traces" -gt 0 ] && ! grep -rqF --exclude-dir=mirror --exclude-dir=harness \
    -e "provider.terraform-provider-nsxalb" -e "serving plugin protocol" "$TF_TMP"; then
    fail "no log holds a line of the provider"
  fi
  counts=$(jq -r '"\(.session_ids | length) session cookies, \(.csrf_tokens | length) CSRF tokens, \(.auth_tokens | length) auth tokens"' <<<"$issued")
  echo "secret scan: the password, $counts: in none of $(find "$TF_TMP" \
    \( -path "$TF_MIRROR" -o -path "$TF_HARNESS_DIR" \) -prune -o -type f -print | wc -l) files" \
    "($traces TRACE logs)"
}

_tf_show() {
  echo "----- output of terraform (step $TF_STEP) -----" >&2
  cat "$TF_OUT" >&2
  echo "----- end of output -----" >&2
}

# tf_plan_exits CODE ARGS...: `terraform plan -detailed-exitcode ARGS` exits CODE (0 no changes,
# 1 an error, 2 changes); otherwise the scenario fails, showing the output.
tf_plan_exits() {
  local want=$1 rc=0
  shift
  _tf_run plan -detailed-exitcode "$@" || rc=$?
  [ "$rc" = "$want" ] || {
    _tf_show
    fail "terraform plan -detailed-exitcode $* exited with $rc, expected $want"
  }
}

# tf_write FILE: writes stdin to $TF_WORK/FILE (a configuration file of the scenario).
tf_write() { cat >"$TF_WORK/$1"; }

# --- Emulator helpers -----------------------------------------------------------------------------

_emu_curl() { curl -sS --max-time 30 --cacert "$EMU_CA_FILE" "$@"; }

# emu_get PATH: GET $EMU_URL/PATH without a session (control endpoint, initial-data); prints the
# body; fails on a status >= 400.
emu_get() { _emu_curl --fail-with-body "$EMU_URL$1" || fail "GET $1 failed"; }

# emu_counters: the request counters, {"total":N,"requests":{"POST /login":1,...}}.
emu_counters() { emu_get /_emulator/counters; }

# emu_reset_counters: sets every counter back to zero.
emu_reset_counters() {
  _emu_curl --fail-with-body -X POST -d '' "$EMU_URL/_emulator/counters/reset" >/dev/null ||
    fail "resetting the emulator counters failed"
}

# emu_writes: how many requests since the last reset could have changed a Controller object (a
# POST, PUT, PATCH or DELETE under /api/ other than the analytics queries); login and logout
# aside.
emu_writes() {
  emu_counters | jq '[.requests | to_entries[]
    | select(.key | test("^(POST|PUT|PATCH|DELETE) /api/") and (test("/api/analytics/") | not))
    | .value] | add // 0'
}

# emu_restart [ARGS...]: stops the emulator and starts it again, on a new port, with EMU_ARGS and
# ARGS (such as --state FILE, to serve the objects a fixture recorded); the provider's
# NSXALB_CONTROLLER and NSXALB_CA_FILE follow it.
emu_restart() {
  tfm_stop_emulator
  tfm_start_emulator "$TF_EMULATOR_BINARY" "$TF_TMP" "${EMU_ARGS[@]}" "$@" ||
    fail "the emulator did not start again"
  export NSXALB_CONTROLLER=$EMU_URL NSXALB_CA_FILE=$EMU_CA_FILE
  rm -f "$_EMU_JAR"
}

# emu_control METHOD PATH [JSON]: a request to the control endpoint $EMU_URL/_emulator/PATH (not
# counted, no session), with the JSON body (default {}) unless METHOD is GET; prints the body and
# fails on a status >= 400.
emu_control() {
  local args=(-X "$1")
  [ "$1" = GET ] || args+=(-H 'Content-Type: application/json' -d "${3:-"{}"}")
  _emu_curl --fail-with-body "${args[@]}" "$EMU_URL/_emulator/$2" || fail "$1 /_emulator/$2 failed"
}

# emu_count KEY: how many requests with counter key KEY ("PUT /api/serviceengine/{uuid}") since
# the last reset; 0 when none.
emu_count() { emu_counters | jq --arg k "$1" '.requests[$k] // 0'; }

# emu_faults JSON: arms faults, e.g. '{"fail_next":1,"fail_status":503}' (docs/emulator.md).
emu_faults() {
  _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' -d "$1" \
    "$EMU_URL/_emulator/faults" >/dev/null || fail "setting emulator faults $1 failed"
}

_EMU_JAR=$TF_HARNESS_DIR/emulator.jar

_emu_login() {
  rm -f "$_EMU_JAR"
  local code
  code=$(_emu_curl -o /dev/null -w '%{http_code}' -c "$_EMU_JAR" -X POST \
    -H 'Content-Type: application/json' \
    -d "{\"username\":\"$EMU_USERNAME\",\"password\":\"$EMU_PASSWORD\"}" "$EMU_URL/login")
  [ "$code" = 200 ] || fail "emu_api: login answered $code"
}

# emu_api_status METHOD PATH [BODY]: a logged-in REST call (session cookie, CSRF token, Referer,
# X-Avi-Version, tenant admin), as a script or another client would make it out of band. Prints
# the status code; the body is in $TF_TMP/emu_body. Logs in when there is no session yet, and
# again once when the session has expired (401, 419).
emu_api_status() {
  local method=$1 path=$2 body=${3:-} attempt code csrf
  for attempt in 1 2; do
    [ -s "$_EMU_JAR" ] || _emu_login
    csrf=$(awk '$6 == "csrftoken" { print $7 }' "$_EMU_JAR")
    local args=(-o "$TF_TMP/emu_body" -w '%{http_code}' -b "$_EMU_JAR" -c "$_EMU_JAR" -X "$method"
      -H "X-Avi-Version: $EMU_API_VERSION" -H 'X-Avi-Tenant: admin'
      -H "X-CSRFToken: $csrf" -H "Referer: $EMU_URL/")
    # A body on every POST, PUT and PATCH: without one curl sends no Content-Length.
    case "$method" in
      POST | PUT | PATCH) args+=(-H 'Content-Type: application/json' --data-binary "$body") ;;
    esac
    code=$(_emu_curl "${args[@]}" "$EMU_URL$path")
    if [ "$attempt" = 1 ] && { [ "$code" = 401 ] || [ "$code" = 419 ]; }; then
      rm -f "$_EMU_JAR"
      continue
    fi
    break
  done
  echo "$code"
}

# emu_api METHOD PATH [BODY]: emu_api_status that prints the body and fails on a status >= 400.
emu_api() {
  local code
  code=$(emu_api_status "$@")
  [ "$code" -lt 400 ] || fail "emu_api $1 $2 answered $code: $(cat "$TF_TMP/emu_body")"
  cat "$TF_TMP/emu_body"
}

# emu_log KEY: the requests with counter key KEY ("POST /api/serviceenginegroup") in the
# emulator's request log, in arrival order: one "AT_US FAULTS" line each (FAULTS "-" for none).
emu_log() {
  emu_counters | jq -r --arg key "$1" '.log[] | select(.request == $key) | "\(.at_us) \(.faults // "-")"'
}

# emu_groups: the SE groups on the emulator other than the seeded Default-Groups, one
# "NAME UUID" line each, sorted.
emu_groups() {
  emu_get /_emulator/state |
    jq -r '.serviceenginegroup[] | select(.name != "Default-Group") | "\(.name) \(.uuid)"' | sort
}

# tf_state_groups [DIR]: the nsxalb_se_group instances in the state of working directory DIR
# (default $TF_WORK), one "NAME ID" line each, sorted; nothing when there is no state.
tf_state_groups() {
  local file=${1:-$TF_WORK}/terraform.tfstate
  [ -s "$file" ] || return 0
  jq -r '.resources[]? | select(.mode == "managed" and .type == "nsxalb_se_group") |
    .instances[] | "\(.attributes.name) \(.attributes.id)"' "$file" | sort
}

# assert_nothing_lost [DIR...]: the SE groups on the emulator (Default-Group aside) are exactly
# the ones in the states of the working directories DIR (default $TF_WORK), by name and uuid:
# none that no state knows (lost), none twice (duplicated), none in a state that is not there.
assert_nothing_lost() {
  local dirs=("$@") on_emulator in_state
  [ ${#dirs[@]} -gt 0 ] || dirs=("$TF_WORK")
  on_emulator=$(emu_groups) || fail "assert_nothing_lost: the emulator did not answer"
  in_state=$(for d in "${dirs[@]}"; do tf_state_groups "$d"; done | sort)
  if [ "$on_emulator" != "$in_state" ]; then
    echo "on the emulator:" >&2
    echo "$on_emulator" >&2
    echo "in the Terraform state:" >&2
    echo "$in_state" >&2
    fail "the SE groups on the emulator and in the Terraform state differ"
  fi
  if [ -n "$(echo "$on_emulator" | awk 'NF { print $1 }' | uniq -d)" ]; then
    fail "duplicated SE group names: $on_emulator"
  fi
}

# assert_groups N: the emulator holds N SE groups besides the Default-Groups (and it answers).
assert_groups() {
  local groups n
  groups=$(emu_groups) || fail "assert_groups $1: the emulator did not answer"
  n=$(printf '%s' "$groups" | grep -c . || true)
  [ "$n" = "$1" ] || fail "expected $1 SE groups on the emulator, found $n: $groups"
}

# --- Assertions -----------------------------------------------------------------------------------

# assert_contains FILE TEXT: FILE contains TEXT (a fixed string).
assert_contains() {
  grep -qF -- "$2" "$1" || {
    cat "$1" >&2
    fail "$(basename "$1") does not contain '$2'"
  }
}

# _tf_squeezed TEXT VAR: sets VAR to TEXT with every run of white space made one space (as
# `tr -s '[:space:]' ' '` does), with builtins only (for short texts: bash's pattern substitution
# is quadratic in the length).
_tf_squeezed() {
  local -n _tf_out=$2
  local squeezed=${1//[[:space:]]/ }
  while [[ $squeezed == *"  "* ]]; do squeezed=${squeezed//"  "/" "}; done
  _tf_out=$squeezed
}

# _tf_says FILE TEXT: FILE contains TEXT, any run of white space in either counting as one space.
# One awk: the scenarios call this about a thousand times a run, and a fork costs about 7 ms of
# CPU on a busy paravirtualised 2-core machine; the two pipelines this replaces made 5 forks a
# call (2026-12-07).
_tf_says() {
  local text
  _tf_squeezed "$2" text
  _TF_SAYS=$text awk 'NR > 1 { s = s "\n" } { s = s $0 }
    END { if (NR > 0) s = s "\n"; gsub(/[[:space:]]+/, " ", s); exit index(s, ENVIRON["_TF_SAYS"]) == 0 }' "$1"
}

# assert_says FILE TEXT: FILE contains TEXT with line breaks ignored (any run of white space
# counts as one space), for the diagnostics Terraform wraps at 78 columns.
assert_says() {
  _tf_says "$1" "$2" || {
    cat "$1" >&2
    fail "${1##*/} does not say '$2'"
  }
}

# assert_not_says FILE TEXT: FILE does not contain TEXT, line breaks ignored (see assert_says).
assert_not_says() {
  if _tf_says "$1" "$2"; then
    cat "$1" >&2
    fail "${1##*/} says '$2'"
  fi
}

# assert_excerpt FILE EXCERPT HEADER_ERE: the excerpt file EXCERPT (a README block) is what FILE
# says, block by block and in order. Both files are cut into blocks at the lines that match the
# extended regex HEADER_ERE (a resource's "  # nsxalb_se_group.web will be created", a
# diagnostic's "Warning: ...", a Markdown heading); the lines before the first header are a block
# of their own. Each block of EXCERPT must match a later block of FILE than the one before it,
# with the same header line, in which the excerpt block's other lines appear in the same order
# (as whole lines, trailing blanks ignored; blank excerpt lines are skipped; FILE may have more
# lines in between). So a line under the wrong resource, or out of order, fails.
assert_excerpt() {
  local file=$1 excerpt=$2 header=$3 report
  [ -s "$excerpt" ] || fail "assert_excerpt: the excerpt $excerpt is empty"
  report=$(awk -v header="$header" '
    function trim(t) { sub(/[ \t\r]+$/, "", t); return t }
    # cut(which, line): appends line to the current block of file `which` (1 excerpt, 2 output).
    function cut(w, line) {
      if (line ~ header) { n[w]++; head[w, n[w]] = line; len[w, n[w]] = 0; return }
      if (w == 1 && line == "") return
      len[w, n[w]]++; body[w, n[w], len[w, n[w]]] = line
    }
    BEGIN { n[1] = 0; n[2] = 0; head[1, 0] = ""; head[2, 0] = ""; len[1, 0] = 0; len[2, 0] = 0 }
    FNR == NR { cut(1, trim($0)); next }
    { cut(2, trim($0)) }
    END {
      from = 0
      for (e = 0; e <= n[1]; e++) {
        if (e == 0 && len[1, 0] == 0) continue
        found = -1; first = -1; best = 0
        for (o = (e == 0 ? 0 : from); o <= n[2] && found < 0; o++) {
          if (o == 0 && e > 0) continue
          if (head[2, o] != head[1, e]) continue
          if (first < 0) first = o
          k = 1
          for (i = 1; i <= len[2, o] && k <= len[1, e]; i++) if (body[2, o, i] == body[1, e, k]) k++
          if (k > len[1, e]) found = o
          else if (first == o) best = k
        }
        if (found >= 0) { from = found + 1; continue }
        if (first < 0) {
          printf "no block \"%s\" in the output after the previous block of the excerpt\n", head[1, e]
        } else {
          printf "in the block \"%s\" of the output, the excerpt line %d of the block is missing or out of order:\n  %s\n", head[1, e], best, body[1, e, best]
          printf "the output block:\n%s\n", head[2, first]
          for (i = 1; i <= len[2, first]; i++) print body[2, first, i]
        }
        exit 1
      }
    }' "$excerpt" "$file") || {
    echo "$report" >&2
    fail "$(basename "$file") does not say the excerpt $(basename "$excerpt"), block by block in order"
  }
}

# assert_not_contains FILE TEXT: FILE does not contain TEXT (a fixed string).
assert_not_contains() {
  if grep -nF -- "$2" "$1" >&2; then
    fail "$(basename "$1") contains '$2' (lines above)"
  fi
}

# assert_json EXPR EXPECTED [FILE]: `jq -c EXPR` of FILE (default: the last tf command's stdout,
# "-" for stdin) equals EXPECTED, written as compact JSON: 0, true, null, '"text"', '["a","b"]'.
assert_json() {
  local expr=$1 expected=$2 file=${3:-${TF_STDOUT:-}} actual
  [ -n "$file" ] || fail "assert_json $expr: no file and no tf output yet"
  if [ "$file" = - ]; then
    actual=$(jq -c "$expr") || fail "assert_json: jq '$expr' failed on stdin"
  else
    actual=$(jq -c "$expr" "$file") || fail "assert_json: jq '$expr' failed on $file"
  fi
  [ "$actual" = "$expected" ] || fail "jq '$expr': expected $expected, got $actual"
}
