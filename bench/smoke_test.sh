#!/usr/bin/env bash
# CTest's bench_run_smoke: `bench/run --smoke` (tiny counts), so the command the README documents
# keeps working, with every part measured. Skipped without terraform (the estate) or valgrind (the
# instruction count), failed instead under CI=true (scripts/lib/require-tool.sh); fails when
# bench/run fails or its JSON lacks a part.
# Usage: bench/smoke_test.sh BUILD_DIR OUT_JSON
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: smoke_test.sh BUILD_DIR OUT_JSON} out=${2:?usage: smoke_test.sh BUILD_DIR OUT_JSON}
# shellcheck source=../scripts/lib/require-tool.sh
source "$root/scripts/lib/require-tool.sh"
require_tool terraform "bench/run's estate part"
require_tool valgrind "bench/run's instruction count"
"$root/bench/run" --smoke --build-dir "$build" --out "$out"
missing=$(jq -r '[
  (if .startup.handshake_ms.median == null then "start-up" else empty end),
  (if .startup.instructions_to_handshake == null then "instructions" else empty end),
  (if .rpc == null then "per-RPC" else empty end),
  (if .model.recommendations_per_second == null then "model" else empty end),
  (if .codec.msgpack_decode_us == null then "codec" else empty end),
  (if (.estate.phases // []) | length != 5 then "estate" else empty end)
  ] | join(", ")' "$out")
[ -z "$missing" ] || { echo "FAIL: bench/run --smoke measured no $missing ($out)" >&2; exit 1; }
echo "PASS: bench/run --smoke measured every part"
