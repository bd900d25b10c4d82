#!/usr/bin/env bash
# Regenerates plugin/host/startup_order.txt: the symbols the shipped provider executes from
# launch to its handshake line (with AutoMTLS), which plugin/host/static_link.sh hands to lld as
# --symbol-ordering-file so that start-up code sits together in the binary and the kernel's
# 64 KiB fault-around maps fewer cold pages (docs/design/host.md, "Start-up time and memory").
#
# Usage: bench/host/startup_order.sh BUILT_PROVIDER_BINARY [OUTPUT]
# Needs valgrind (callgrind) and openssl. Run it after changes that alter what start-up runs;
# a stale list only costs memory, never correctness (unknown symbols are ignored).
set -euo pipefail

binary=${1:?usage: startup_order.sh BUILT_PROVIDER_BINARY [OUTPUT]}
out=${2:-"$(cd "$(dirname "$0")/../.." && pwd)/plugin/host/startup_order.txt"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-521 -nodes -subj /CN=localhost \
  -days 1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

export TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2
export PLUGIN_PROTOCOL_VERSIONS=5,6
PLUGIN_CLIENT_CERT=$(cat "$work/cert.pem")
export PLUGIN_CLIENT_CERT
export TMPDIR=$work

# Callgrind runs the provider in this process id; stop it with SIGTERM once the handshake line
# is out (the few shutdown functions that then run are harmless in the list).
coproc provider { exec valgrind --tool=callgrind --demangle=no \
  --callgrind-out-file="$work/callgrind.out" "$binary" </dev/null 2>"$work/valgrind.log"; }
pid=$provider_PID
if ! read -r -t 120 handshake <&"${provider[0]}"; then
  kill -KILL "$pid" 2>/dev/null || true
  echo "startup_order.sh: no handshake line; valgrind said:" >&2
  tail -n 20 "$work/valgrind.log" >&2
  exit 1
fi
[[ $handshake == 1\|5\|unix\|* ]] || { echo "startup_order.sh: bad handshake: $handshake" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid" || true

# Function names as callgrind first defines them ("fn=(id) name" / "cfn=(id) name"), keeping
# only symbols the binary defines, in first-seen order.
nm --defined-only "$binary" | awk '{print $3}' | sort -u >"$work/defined.txt"
grep -oE '^c?fn=\([0-9]+\) [^ ]+' "$work/callgrind.out" |
  sed -E -e 's/^c?fn=\([0-9]+\) //' -e "s/'[0-9]+\$//" |
  awk 'NR == FNR { defined[$0] = 1; next } defined[$0] && !seen[$0]++' "$work/defined.txt" - \
  >"$out"
echo "startup_order.sh: wrote $(wc -l <"$out") symbols to $out"
