#!/usr/bin/env bash
# Prints the number of instructions the provider executes from exec to its handshake line, with
# AutoMTLS on (a fresh P-521 client certificate, as go-plugin sends), counted by callgrind: a
# figure that stays stable on a loaded machine, unlike a time. callgrind dumps its counts when
# FormatHandshakeLine is entered (the line is formatted, then written), so what the provider
# does after the line is not counted.
#
# Usage: bench/host/handshake_instructions.sh BUILT_PROVIDER_BINARY
# Needs valgrind and openssl; exits 77 when valgrind is missing.
set -euo pipefail

binary=${1:?usage: handshake_instructions.sh BUILT_PROVIDER_BINARY}
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-521 -nodes -subj /CN=localhost \
  -days 1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
export TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2
export PLUGIN_PROTOCOL_VERSIONS=5,6
PLUGIN_CLIENT_CERT=$(cat "$work/cert.pem")
export PLUGIN_CLIENT_CERT
export TMPDIR=$work

coproc provider { exec valgrind --tool=callgrind --dump-instr=no \
  --dump-before='nsxalb::host::FormatHandshakeLine*' \
  --callgrind-out-file="$work/callgrind.out" "$binary" </dev/null 2>"$work/valgrind.log"; }
# shellcheck disable=SC2154  # coproc provider sets provider_PID
pid=$provider_PID
if ! read -r -t 120 handshake <&"${provider[0]}"; then
  kill -KILL "$pid" 2>/dev/null || true
  echo "handshake_instructions.sh: no handshake line; valgrind said:" >&2
  tail -n 20 "$work/valgrind.log" >&2
  exit 1
fi
kill -TERM "$pid"
wait "$pid" || true
[[ $handshake == 1\|5\|unix\|* ]] || { echo "bad handshake: $handshake" >&2; exit 1; }
[ -s "$work/callgrind.out.1" ] || { echo "no dump at the handshake line" >&2; exit 1; }
awk '/^summary:/ { print $2 }' "$work/callgrind.out.1"
