#!/usr/bin/env bash
# scripts/demo as a newcomer runs it, on this build's binaries (NSXALB_DEMO_SKIP_BUILD=1):
#   terraform     it exits 0 and prints the plan with the sizing and the warning at the HCL line,
#                 the apply, "No changes." and the destroy (its time is printed, never asserted:
#                 speed is measured, not tested);
#   no_terraform  with terraform off PATH it says so and shows the same sizing with `size` (the
#                 quick start's workloads: the HTTPS mix on nsxt, the handshakes on 2 vCPUs);
#   interrupted   SIGINT during the run (Ctrl-C) stops it, and nothing it started keeps running.
# Every case checks that nothing the demo started is left running and its directory is gone.
# Usage: demo_test.sh CASE SOURCE_DIR BUILD_DIR
set -uo pipefail
case_name=$1 source_dir=$2 build_dir=$3
# shellcheck source=../../scripts/lib/require-tool.sh
source "$source_dir/scripts/lib/require-tool.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-demo-test-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/demo.out
fail() {
  echo "----- demo output -----" >&2
  cat "$out" >&2
  echo "FAIL: $*" >&2
  exit 1
}
expect() { grep -qF -- "$1" "$out" || fail "the demo did not print '$1'"; }

# Nothing the demo started outlives it: no process runs a binary from its temporary directory (the
# mirror's provider copy) and no emulator writes its TLS files there; the directory is removed.
check_nothing_left() {
  local exe cmd pid
  for _ in $(seq 1 50); do
    local left=""
    for pid in /proc/[0-9]*; do
      exe=$(readlink "$pid/exe" 2>/dev/null) || continue
      cmd=$(tr '\0' ' ' <"$pid/cmdline" 2>/dev/null) || continue
      if [[ "$exe" == "$tmp"/* || "$cmd" == *"$tmp/nsxalb-demo-"* ]]; then left="$left ${pid#/proc/}"; fi
    done
    [ -z "$left" ] && break
    sleep 0.1
  done
  [ -z "$left" ] || fail "processes left running:$left"
  if compgen -G "$tmp/nsxalb-demo-*" >/dev/null; then fail "the demo left its directory behind"; fi
}

export NSXALB_DEMO_SKIP_BUILD=1 BUILD_DIR=$build_dir TMPDIR=$tmp
case "$case_name" in
  terraform)
    require_tool terraform "demo_$case_name"
    start=$(date +%s)
    bash "$source_dir/scripts/demo" >"$out" 2>&1
    rc=$? elapsed=$(($(date +%s) - start))
    [ "$rc" -eq 0 ] || fail "scripts/demo exited $rc"
    expect "Installed nsxalb/nsxalb v0.3.0 (unauthenticated)"
    expect '+ vcpus_per_se              = 6'
    expect '+ summary         = "2 SEs of 6 vCPUs carry 150,000 L7 RPS + 8,000 ECC SSL TPS at 71.4% CPU (measured)"'
    expect "Warning: ECC SSL TPS under-delivered: 5,800 of 10,000 needed"
    expect 'on main.tf line 14, in resource "nsxalb_se_group" "tls":'
    expect "Plan: 2 to add, 0 to change, 0 to destroy."
    expect "Apply complete! Resources: 2 added, 0 changed, 0 destroyed."
    expect "No changes. Your infrastructure matches the configuration."
    expect "Destroy complete! Resources: 2 destroyed."
    expect "Demo finished in"
    echo "scripts/demo took $elapsed s"
    ;;
  no_terraform)
    # PATH without any directory that holds terraform.
    path=""
    IFS=: read -ra dirs <<<"$PATH"
    for d in "${dirs[@]}"; do [ -x "$d/terraform" ] || path=${path:+$path:}$d; done
    PATH=$path bash "$source_dir/scripts/demo" >"$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "scripts/demo exited $rc"
    expect "terraform is not on PATH"
    # The quick start's web group: the HTTPS mix, so the same shape and CPU budget as the plan's
    # sizing.summary ("2 SEs of 6 vCPUs carry 150,000 L7 RPS + 8,000 ECC SSL TPS at 71.4% CPU").
    expect "size --platform nsxt --l7-rps 150000 --ssl-tps-ecc 8000"
    expect "Recommendation: 2 active SEs + 1 buffer, 6 vCPUs / 12288 MB each"
    expect "CPU budget per SE: CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8%"
    expect "warning [vcpus_per_se] ECC SSL TPS under-delivered: 5,800 of 10,000 needed"
    expect "Demo finished (without Terraform)"
    ;;
  interrupted)
    require_tool terraform "demo_$case_name"
    # A background job of a script ignores SIGINT unless told otherwise; a terminal's Ctrl-C
    # would reach it with the default disposition.
    env --default-signal=INT bash "$source_dir/scripts/demo" >"$out" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
      grep -qF "== 5. terraform apply" "$out" 2>/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    grep -qF "== 5. terraform apply" "$out" || fail "the demo never got to the apply"
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    # Stopped half-way (130, from the INT trap), or it had just finished.
    [ "$rc" -eq 130 ] || grep -qF "Demo finished in" "$out" ||
      fail "the demo exited $rc after SIGINT"
    echo "scripts/demo exited $rc after SIGINT"
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
check_nothing_left
echo "PASS: demo_$case_name"
