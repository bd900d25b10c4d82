#!/usr/bin/env bash
# Estate benchmark: N nsxalb_se_group resources (count, with workloads, alternating between
# Default-Cloud (vcenter) and nsxt-cloud) through the real terraform binary against the emulator,
# at -parallelism=P. Phases: apply; plan (refresh, must show no changes); plan -refresh=false;
# update (apply of a changed description: one PUT per group); destroy. Reuses the terraform
# scenarios' harness (tests/terraform/lib.sh: private directory, CLI configuration, filesystem
# mirror, emulator).
#
#   estate.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON
#   NSXALB_BENCH_ESTATE_SIZE (default 1000), NSXALB_BENCH_PARALLELISM (default 10)
#   NSXALB_BENCH_PROVIDER_PREFIX: a command put before each provider process, for a profile,
#     e.g. "valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p" (the figures are then
#     the profiler's)
#   NSXALB_BENCH_PHASES: the phases to measure (default "apply plan plan_no_refresh update
#     destroy"; apply always runs first)
#   NSXALB_BENCH_SES_PER_GROUP (default 0): after the apply, the emulator runs this many SEs in
#     every group (at its settings), so that the refresh reads them into service_engines; the
#     plan still sends one paged SE listing for all of them (200 a page)
#
# Per phase it writes: wall time; CPU time of terraform and of the provider processes,
# separately (every process runs under rusage_exec, see rusage_exec.cc); the providers' peak RSS
# and how many were started; the emulator's counters (requests by method and endpoint, logins,
# new TLS connections) and its CPU time and share; and, from each provider process's own debug
# log, how many called the Controller, logins and cloud lookups per process.
set -euo pipefail
estate_size=${NSXALB_BENCH_ESTATE_SIZE:-1000}
parallelism=${NSXALB_BENCH_PARALLELISM:-10}
provider_prefix=${NSXALB_BENCH_PROVIDER_PREFIX:-}
phases=${NSXALB_BENCH_PHASES:-apply plan plan_no_refresh update destroy}
ses_per_group=${NSXALB_BENCH_SES_PER_GROUP:-0}
provider=${1:?usage: estate.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
emulator=${2:?usage: estate.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
rusage_exec=${3:?usage: estate.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
out_json=${4:?usage: estate.sh PROVIDER EMULATOR RUSAGE_EXEC OUT_JSON}
out_json=$(cd "$(dirname "$out_json")" && pwd)/$(basename "$out_json")
rusage_exec=$(cd "$(dirname "$rusage_exec")" && pwd)/$(basename "$rusage_exec")

NSXALB_TF_TIMEOUT=${NSXALB_TF_TIMEOUT:-900}
# shellcheck source=../../tests/terraform/lib.sh
source "$(dirname "$0")/../../tests/terraform/lib.sh" "$provider" "$emulator"

bench=$TF_TMP/bench
mkdir -p "$bench/provider-logs" "$bench/bin"

# The mirror's provider becomes a script that runs the real binary under rusage_exec, with its
# stderr (at DEBUG) in a file of its own, so that each process can be examined afterwards.
pkg=$TF_MIRROR/$TF_PROVIDER_SOURCE/$TF_PROVIDER_VERSION/linux_amd64
mv "$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION" "$bench/provider.bin"
cat >"$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION" <<EOF
#!/bin/sh
exec "$rusage_exec" --log "$bench/provider.rusage" -- $provider_prefix "$bench/provider.bin" "\$@" \
  2>>"$bench/provider-logs/\$\$.log"
EOF
chmod +x "$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION"
export TF_LOG_PROVIDER=DEBUG

# Terraform itself, under rusage_exec, first on PATH.
real_terraform=$(command -v terraform)
cat >"$bench/bin/terraform" <<EOF
#!/bin/sh
exec "$rusage_exec" --log "$bench/terraform.rusage" -- "$real_terraform" "\$@"
EOF
chmod +x "$bench/bin/terraform"
export PATH=$bench/bin:$PATH

# write_config DESCRIPTION: the estate's configuration.
write_config() {
  tf_write main.tf <<EOF
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  count       = $estate_size
  name        = "estate-\${count.index}"
  cloud       = count.index % 2 == 0 ? "Default-Cloud" : "nsxt-cloud"
  description = "$1"

  workload {
    l7_rps      = 10000 + 100 * count.index
    ssl_tps_ecc = 500 + count.index % 50
  }
}
EOF
}
write_config "estate benchmark"
tf init

clock_ticks=$(getconf CLK_TCK)
# emu_cpu_ticks: the emulator's user + system time so far, in clock ticks.
emu_cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$EMU_PID/stat"; }

# measure NAME TERRAFORM_ARGS...: runs one phase and writes $bench/NAME.json.
measure() {
  local name=$1
  shift
  step "$name: terraform $* ($estate_size groups, -parallelism=$parallelism)"
  : >"$bench/provider.rusage"
  : >"$bench/terraform.rusage"
  rm -f "$bench"/provider-logs/*.log
  emu_reset_counters
  local emu_before emu_after
  emu_before=$(emu_cpu_ticks)
  tf "$@"
  emu_after=$(emu_cpu_ticks)
  emu_counters >"$bench/$name.counters.json"

  # Per provider process: Controller calls, logins and cloud lookups, from its debug log.
  local f calls logins clouds
  : >"$bench/$name.processes"
  for f in "$bench"/provider-logs/*.log; do
    [ -e "$f" ] || continue
    calls=$(grep -c 'controller: .* -> HTTP' "$f" || true)
    logins=$(grep -c 'controller: logged in' "$f" || true)
    clouds=$(grep -c 'controller: GET /api/cloud -> HTTP' "$f" || true)
    echo "{\"calls\":$calls,\"logins\":$logins,\"cloud_lookups\":$clouds}" >>"$bench/$name.processes"
  done

  jq -n --arg name "$name" --arg args "$*" \
    --argjson size "$estate_size" --argjson parallelism "$parallelism" \
    --argjson emu_ticks "$((emu_after - emu_before))" --argjson ticks_per_s "$clock_ticks" \
    --slurpfile terraform "$bench/terraform.rusage" \
    --slurpfile providers "$bench/provider.rusage" \
    --slurpfile processes "$bench/$name.processes" \
    --slurpfile counters "$bench/$name.counters.json" '
    def cpu: (.utime_us + .stime_us) / 1e6;
    def self_cpu: (.self_utime_us + .self_stime_us) / 1e6;
    ($counters[0]) as $c
    | ([$providers[] | cpu] | add // 0) as $provider_cpu
    | ([$providers[] | self_cpu] | add // 0) as $wrapper_cpu
    | ($terraform[0]) as $tf
    | (($tf | cpu) - $provider_cpu - $wrapper_cpu) as $terraform_cpu
    | ($emu_ticks / $ticks_per_s) as $emu_cpu
    | [$processes[] | select(.calls > 0)] as $callers
    | {
        phase: $name, command: ("terraform " + $args), size: $size, parallelism: $parallelism,
        wall_s: ($tf.wall_us / 1e6),
        terraform_cpu_s: $terraform_cpu,
        provider_cpu_s: $provider_cpu,
        provider_processes: ($providers | length),
        provider_peak_rss_mb: (([$providers[] | .maxrss_kb] | max // 0) / 1024),
        provider_exit_codes: ([$providers[] | .exit] | unique),
        requests_total: $c.total,
        requests_by_method: ($c.requests | to_entries
          | group_by(.key | split(" ")[0])
          | map({key: (.[0].key | split(" ")[0]), value: (map(.value) | add)}) | from_entries),
        requests: $c.requests,
        logins: ($c.requests["POST /login"] // 0),
        cloud_lookups: ([$c.requests | to_entries[] | select(.key | startswith("GET /api/cloud"))
          | .value] | add // 0),
        # The reading of the counters opens one connection of its own (docs/emulator.md).
        tls_connections: ([$c.tls_connections - 1, 0] | max),
        controller_processes: ($callers | length),
        logins_per_calling_process: {
          min: ([$callers[] | .logins] | min), max: ([$callers[] | .logins] | max)},
        logins_by_processes_without_calls: ([$processes[] | select(.calls == 0) | .logins]
          | add // 0),
        max_cloud_lookups_per_process: ([$processes[] | .cloud_lookups] | max // 0),
        emulator_cpu_s: $emu_cpu,
        emulator_cpu_share: (if ($tf | cpu) + $emu_cpu > 0
          then $emu_cpu / (($tf | cpu) - $wrapper_cpu + $emu_cpu) else 0 end)
      }' >"$bench/$name.json"
  jq -c '{phase, wall_s, terraform_cpu_s, provider_cpu_s, provider_processes,
          provider_peak_rss_mb, requests_by_method, logins, tls_connections,
          emulator_cpu_share}' "$bench/$name.json"
}

measured=()
measure apply apply -auto-approve -parallelism="$parallelism"
assert_contains "$TF_OUT" "Apply complete! Resources: $estate_size added, 0 changed, 0 destroyed."
measured+=("$bench/apply.json")
if [ "$ses_per_group" -gt 0 ]; then
  while read -r uuid; do
    _emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
      -d "{\"se_group_uuid\":\"$uuid\",\"count\":$ses_per_group}" \
      "$EMU_URL/_emulator/serviceengines" >/dev/null || fail "creating SEs in $uuid failed"
  done < <(jq -r '.resources[].instances[].attributes.id' "$TF_WORK/terraform.tfstate")
fi
for phase in $phases; do
  case $phase in
    apply) ;;
    plan)
      measure plan plan -detailed-exitcode -parallelism="$parallelism"
      assert_contains "$TF_OUT" "No changes."
      ;;
    plan_no_refresh)
      measure plan_no_refresh plan -refresh=false -detailed-exitcode -parallelism="$parallelism"
      assert_contains "$TF_OUT" "No changes."
      ;;
    update)
      write_config "estate benchmark, updated"
      measure update apply -auto-approve -parallelism="$parallelism"
      assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, $estate_size changed, 0 destroyed."
      ;;
    destroy)
      measure destroy destroy -auto-approve -parallelism="$parallelism"
      assert_contains "$TF_OUT" "Destroy complete! Resources: $estate_size destroyed."
      ;;
    *) fail "unknown phase '$phase' in NSXALB_BENCH_PHASES" ;;
  esac
  [ "$phase" = apply ] || measured+=("$bench/$phase.json")
done

jq -s '{size: .[0].size, parallelism: .[0].parallelism, phases: .}' "${measured[@]}" >"$out_json"
pass
