#!/usr/bin/env bash
# Regenerates plugin/host/startup_order.txt: the symbols the shipped provider executes in a
# typical life, which plugin/host/static_link.sh hands to lld as --symbol-ordering-file so that
# the code that runs sits together in the binary and the kernel's 64 KiB fault-around maps fewer
# cold pages (docs/design/host.md, "Start-up time and memory"). First the functions that run up
# to the handshake line, then those of a session as Terraform drives it (gRPC and TLS set-up,
# GetProviderSchema, Configure, validate, plan, apply and read of nsxalb_se_group against the
# emulator, Shutdown), each in first-seen order.
#
# Usage: bench/host/startup_order.sh BUILT_PROVIDER_BINARY RPC_BENCH_BINARY [OUTPUT]
# Needs valgrind (callgrind). Run it after changes that alter what start-up or a session runs;
# a stale list only costs memory, never correctness (unknown symbols are ignored).
set -euo pipefail

binary=$(cd "$(dirname "${1:?usage: startup_order.sh PROVIDER RPC_BENCH [OUTPUT]}")" && pwd)/$(basename "$1")
rpc_bench=${2:?usage: startup_order.sh PROVIDER RPC_BENCH [OUTPUT]}
out=${3:-"$(cd "$(dirname "$0")/../.." && pwd)/plugin/host/startup_order.txt"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# rpc_bench launches the provider through this wrapper; callgrind writes one profile up to the
# handshake line (out.PID.1) and one for the rest of the process (out.PID).
cat >"$work/provider" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --demangle=no --dump-before='_ZN6nsxalb4host19FormatHandshakeLine*' \
  --callgrind-out-file="$work/out.%p" "$binary" "\$@"
EOF
chmod +x "$work/provider"
if ! TF_LOG=WARN "$rpc_bench" --iterations 3 --binary "$work/provider" >"$work/rpc.log" 2>&1; then
  echo "startup_order.sh: the profiled session failed:" >&2
  tail -n 20 "$work/rpc.log" >&2
  exit 1
fi
profiles=("$work"/out.*.1)
[ -e "${profiles[0]}" ] || { echo "startup_order.sh: no callgrind profile written" >&2; exit 1; }

# Function names as callgrind first defines them ("fn=(id) name" / "cfn=(id) name"), keeping
# only symbols the binary defines, start-up first, in first-seen order.
nm --defined-only "$binary" | awk '{print $3}' | sort -u >"$work/defined.txt"
for profile in "${profiles[0]}" "${profiles[0]%.1}"; do
  grep -oE '^c?fn=\([0-9]+\) [^ ]+' "$profile" | sed -E -e 's/^c?fn=\([0-9]+\) //' -e "s/'[0-9]+\$//"
done | awk 'NR == FNR { defined[$0] = 1; next } defined[$0] && !seen[$0]++' "$work/defined.txt" - \
  >"$out"
echo "startup_order.sh: wrote $(wc -l <"$out") symbols to $out"
