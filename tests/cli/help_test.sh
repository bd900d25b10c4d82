#!/usr/bin/env bash
# `--help` on the binary and on every command, as a new user types it: each prints its usage on
# stdout (starting "Usage: terraform-provider-nsxalb"), nothing on stderr, and exits 0. The
# commands are the ones the top-level help lists, and that list must hold the expected ones, so a
# command added without a help line, or a help that fails, fails here. The binary stays a plugin:
# with no argument and no plugin environment it says so and exits 1; with Terraform's magic
# cookie it answers the go-plugin handshake line.
# Usage: help_test.sh PROVIDER_BINARY
set -uo pipefail
provider=$1
tmp=$(mktemp -d)
plugin_pid=""
cleanup() {
  if [ -n "$plugin_pid" ]; then kill "$plugin_pid" 2>/dev/null; wait "$plugin_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_help ARGS...: exit 0, a usage on stdout, nothing on stderr.
expect_help() {
  local rc=0
  "$provider" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "'$*' exited $rc: $(head -c 300 "$tmp/err")"
  elif ! head -n 1 "$tmp/out" | grep -q '^Usage: terraform-provider-nsxalb'; then
    fail "'$*' printed no usage on stdout (first line: $(head -n 1 "$tmp/out"))"
  elif [ -s "$tmp/err" ]; then
    fail "'$*' wrote to stderr: $(head -c 300 "$tmp/err")"
  else
    echo "ok: $* ($(wc -l <"$tmp/out") lines)"
  fi
}

for flag in --help -h help; do expect_help "$flag"; done
"$provider" --help >"$tmp/top" 2>/dev/null
# The commands the top-level help lists: the indented lines between the first blank line after
# "runs one of these commands:" and the next blank line.
mapfile -t listed < <(sed -n '/runs one of these commands:/,/^Flags:/p' "$tmp/top" |
  sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
for want in size plan-report estate-report docs schema controller version help; do
  printf '%s\n' "${listed[@]}" | grep -qx -- "$want" || fail "--help does not list the command $want"
done
[ "${#listed[@]}" -ge 8 ] || fail "--help lists ${#listed[@]} commands: ${listed[*]}"

for command in "${listed[@]}"; do
  expect_help "$command" --help
  expect_help "$command" -h
  [ "$command" = help ] || expect_help help "$command"
done
# Every action of controller answers --help too (with no Controller setting in the environment).
for action in check list-se-groups get-se-group apply-se-group usage; do
  env -u NSXALB_CONTROLLER -u NSXALB_USERNAME "$provider" controller "$action" --help \
    </dev/null >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q "controller $action" "$tmp/out"; then
    fail "'controller $action --help' exited $rc or does not show the action"
  else
    echo "ok: controller $action --help"
  fi
done

# Not a help: an unknown word is a usage error that points at --help.
rc=0
"$provider" frobnicate >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -qF -- "--help" "$tmp/err" ||
  fail "an unknown command exited $rc: $(cat "$tmp/err")"
rc=0
"$provider" help frobnicate >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "'help frobnicate' exited $rc"

# Still a plugin. No argument, no plugin environment: the plugin message, exit 1.
rc=0
env -u TF_PLUGIN_MAGIC_COOKIE "$provider" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -qF "This binary is a plugin" "$tmp/err" ||
  fail "no argument exited $rc: $(cat "$tmp/err")"
# With Terraform's cookie it serves: the first stdout line is go-plugin's handshake.
TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 \
  PLUGIN_PROTOCOL_VERSIONS=5 TMPDIR=$tmp "$provider" </dev/null >"$tmp/handshake" 2>"$tmp/err" &
plugin_pid=$!
for _ in $(seq 1 100); do
  [ -s "$tmp/handshake" ] && break
  sleep 0.05
done
grep -Eq '^1\|5\|unix\|' "$tmp/handshake" ||
  fail "with the magic cookie, no handshake line: $(cat "$tmp/handshake") $(cat "$tmp/err")"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS: --help on the binary and on ${#listed[@]} commands"
