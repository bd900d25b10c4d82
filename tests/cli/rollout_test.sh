#!/usr/bin/env bash
# `controller rollout GROUP` end to end against the Controller emulator's SE lifecycle (short
# boot and migration times, and the fault delete_hosting_se on: a DELETE of an SE that still hosts
# a virtual service succeeds and drops it, so a roll that deleted too early would show unplaced
# instants): a 3-SE group in a write-access cloud, 6 virtual services placed 2 a SE
# (max_vs_per_se 2, so a migration needs a new SE), and:
#   - a reboot-only change (num_dispatcher_cores): --dry-run prints the roll's decision, the one
#     the plan shows ("Apply will roll 3 SEs", each step, each guard; no samples of the SEs' load
#     and no --workload, so the capacity guard is not judged and says why) and writes nothing
#     (counted); the roll
#     reboots the 3 SEs one at a time, the emulator's timeline shows no virtual service ever
#     without an SE and never more than 1 SE out, no SE is left disabled or reboot-pending, and a
#     second run has nothing to do; its Controller requests are counted;
#   - a failed migration (fault MIGRATE_SE_FAILED): the roll stops at that SE, enables it again,
#     never touches the next;
#   - --workload: bad keys and values are usage errors; with --dry-run and no samples of the SEs'
#     load, the capacity figures of the declared workload on the SEs left; a workload they cannot
#     carry is refused before any SE write (counted);
#   - SIGINT in the middle of a migration (made long), and a second SIGINT while the SE's restore
#     runs (made slow): exit 130, the second signal ignored, the SE enabled again, the SEs done and
#     to do listed; SIGTERM the same with exit 143; none left disabled, no virtual service
#     unplaced; a second run finishes;
#   - a shape change (vcpus_per_se 4 -> 5) of another full 3-SE group whose SEs the emulator
#     measured at 50% CPU (se_stats.avg_cpu_usage): with too few licence units left, refused
#     before any SE write naming the units needed and left; with the licence back, --dry-run
#     predicts each leaving SE's 2 virtual services (cart-vs-7 and -8 first: the emulator
#     numbers them across groups) on a new SE of 5 vCPUs at 50% x 4 / 5 = 40.0%
#     CPU, and the roll replaces 3 of 3 SEs at 5 vCPUs one at a time (the Controller's
#     replacement up before each delete), the timeline clean, the requests counted;
#   - a no-access cloud: a shape change is refused by the cloud guard, saying what to do by hand.
# Usage: rollout_test.sh PROVIDER_BINARY EMULATOR_BINARY
set -euo pipefail
provider=$1
emulator=$2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib/terraform-mirror.sh
source "$source_dir/scripts/lib/terraform-mirror.sh"

tmp=$(mktemp -d)
EMU_PID=""
cleanup() {
  local rc=$?
  tfm_stop_emulator
  if [ "$rc" -ne 0 ] && [ -s "$tmp/emulator.log" ]; then tail -n 20 "$tmp/emulator.log" >&2; fi
  rm -rf "$tmp"
  return "$rc"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "--- $*"; }

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -E '^NSXALB_' || true)
tfm_start_emulator "$emulator" "$tmp" --se-boot-ms 200 --se-migration-ms 200 --delete-hosting-se ||
  fail "the emulator did not start"
export NSXALB_CONTROLLER=$EMU_URL NSXALB_USERNAME=admin NSXALB_PASSWORD=admin
export NSXALB_CA_FILE=$EMU_CA_FILE

emu() {  # emu METHOD PATH [JSON]: a control request; prints the body.
  local body=()
  [ "$1" = GET ] || body=(-H 'Content-Type: application/json' -d "${3:-{\}}")
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" --fail-with-body -X "$1" "${body[@]}" \
    "$EMU_URL/_emulator/$2" || fail "$1 /_emulator/$2 failed"
}

# apply NAME CLOUD SETTINGS_JSON: the group at those settings (the provider's apply-se-group);
# prints its uuid.
apply() {
  local result
  result=$(jq -n --arg n "$1" --arg c "$2" --argjson s "$3" '{name: $n, cloud: $c, platform: "vcenter", settings: $s}' |
    "$provider" controller apply-se-group) || true
  jq -er '.se_group.uuid' <<<"$result" || fail "applying SE group $1 failed: $result"
}

# count KEY: how many requests of the counter key (e.g. "PUT /api/serviceengine/{uuid}").
count() { emu GET counters | jq --arg k "$1" '.requests[$k] // 0'; }

# ses GROUP_UUID: the group's SEs with their runtime, one JSON object a line.
ses() {
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" -c "$tmp/jar" -b "$tmp/jar" \
    -H 'Content-Type: application/json' -d '{"username":"admin","password":"admin"}' \
    "$EMU_URL/login" >/dev/null
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" -b "$tmp/jar" -H 'X-Avi-Version: 22.1.3' \
    "$EMU_URL/api/serviceengine?refers_to=serviceenginegroup:$1&join_subresources=runtime&page_size=200" |
    jq -c '.results[] | {name, enable_state, vcpus: .resources.num_vcpus,
      oper: .runtime.oper_status.state, pending: .runtime.se_grp_reboot_pending}'
}

base='{"vcpus_per_se": 4, "memory_per_se": 8192, "max_se": 6, "max_vs_per_se": 2}'

step "a 3-SE group in Default-Cloud (write access) with 6 virtual services, 2 a SE"
uuid=$(apply checkout Default-Cloud "$base")
emu POST serviceengines "{\"se_group_uuid\":\"$uuid\",\"count\":3}" >/dev/null
emu POST virtualservices '{"se_group":"checkout","count":6}' >/dev/null
[ "$(ses "$uuid" | wc -l)" -eq 3 ] || fail "want 3 SEs: $(ses "$uuid")"

step "nothing lags: nothing to do"
"$provider" controller rollout checkout >"$tmp/none.out" || fail "rollout of a settled group failed"
grep -q "rollout: nothing to do" "$tmp/none.out" || fail "$(cat "$tmp/none.out")"

step "a reboot-only change: num_dispatcher_cores 0 -> 2"
apply checkout Default-Cloud "$(jq -c '. + {num_dispatcher_cores: 2}' <<<"$base")" >/dev/null
[ "$(ses "$uuid" | jq -s '[.[] | select(.pending)] | length')" -eq 3 ] ||
  fail "want 3 SEs reboot-pending: $(ses "$uuid")"

step "--dry-run: the steps and the guards, no write"
emu POST counters/reset >/dev/null
"$provider" controller rollout checkout --dry-run >"$tmp/dry.out" || fail "dry run: $(cat "$tmp/dry.out")"
cat "$tmp/dry.out"
grep -qx "Apply will roll 3 SEs" "$tmp/dry.out" || fail "dry run does not say the decision"
grep -q "rollout: checkout-se-1, -2 and -3 will be rebooted" "$tmp/dry.out" ||
  fail "dry run does not say what it will do"
grep -q "  step 1: checkout-se-1 out; " "$tmp/dry.out" || fail "dry run shows no step"
grep -q "guard capacity: passes: not judged: the Controller has no samples of the SEs' load" \
  "$tmp/dry.out" || fail "dry run does not say why the capacity is not judged"
grep -q "nothing was written" "$tmp/dry.out" || fail "dry run does not say it wrote nothing"
for k in "PUT /api/serviceengine/{uuid}" "PATCH /api/serviceengine/{uuid}" \
  "DELETE /api/serviceengine/{uuid}" "POST /api/serviceengine/{uuid}/reboot"; do
  [ "$(count "$k")" -eq 0 ] || fail "the dry run sent $k"
done

step "the roll: one SE at a time, no virtual service ever without an SE"
emu POST timeline/reset >/dev/null
emu POST counters/reset >/dev/null
start=$(date +%s%N)
"$provider" controller rollout checkout --poll-interval 50ms --timeout 60s >"$tmp/roll.out" ||
  fail "the roll failed: $(cat "$tmp/roll.out")"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
cat "$tmp/roll.out"
[ "$(grep -c ': rebooting$' "$tmp/roll.out")" -eq 3 ] || fail "want 3 reboots"
grep -q "checkout-se-2: disabled, 2 virtual services migrating" "$tmp/roll.out" ||
  fail "no step line for checkout-se-2's disable"
timeline=$(emu GET timeline)
jq -e '.summary.unplaced_instants | length == 0' <<<"$timeline" >/dev/null ||
  fail "a virtual service was left without an SE: $(jq -c .summary <<<"$timeline")"
jq -e '.summary.max_ses_out <= 1' <<<"$timeline" >/dev/null ||
  fail "more than 1 SE out at once: $(jq -c .summary <<<"$timeline")"
ses "$uuid" | jq -s -e 'all(.enable_state == "SE_STATE_ENABLED" and (.pending | not))' >/dev/null ||
  fail "an SE is left disabled or reboot-pending: $(ses "$uuid")"
puts=$(count "PUT /api/serviceengine/{uuid}")
reboots=$(count "POST /api/serviceengine/{uuid}/reboot")
deletes=$(count "DELETE /api/serviceengine/{uuid}")
echo "requests of the roll: total $(emu GET counters | jq .total), PUT SE $puts, reboot $reboots," \
  "DELETE $deletes, GET runtime $(count "GET /api/serviceengine/{uuid}/runtime"); ${elapsed_ms} ms"
[ "$puts" -eq 6 ] || fail "want 6 PUTs (disable and enable of 3 SEs), got $puts"
[ "$reboots" -eq 3 ] || fail "want 3 reboots, got $reboots"
[ "$deletes" -eq 0 ] || fail "a reboot-only roll deleted an SE"
"$provider" controller rollout checkout >"$tmp/again.out" || fail "second run failed"
grep -q "rollout: nothing to do" "$tmp/again.out" || fail "second run: $(cat "$tmp/again.out")"

step "a failed migration stops the roll at that SE and gives it back"
apply checkout Default-Cloud "$(jq -c '. + {num_dispatcher_cores: 1}' <<<"$base")" >/dev/null
emu POST faults '{"migrate_fail_next": 1}' >/dev/null
emu POST counters/reset >/dev/null
if "$provider" controller rollout checkout --poll-interval 50ms --timeout 60s \
  >"$tmp/fail.out" 2>"$tmp/fail.err"; then
  fail "a failed migration did not fail the roll"
fi
cat "$tmp/fail.err"
grep -q "MIGRATE_SE_FAILED" "$tmp/fail.err" || fail "the error does not name MIGRATE_SE_FAILED"
grep -q "was enabled again" "$tmp/fail.err" || fail "the error does not say the SE is enabled again"
grep -q "To do: " "$tmp/fail.err" || fail "the error does not list the SEs to do"
[ "$(count "POST /api/serviceengine/{uuid}/reboot")" -eq 0 ] || fail "rebooted after a failed migration"
[ "$(count "PUT /api/serviceengine/{uuid}")" -eq 2 ] || fail "want 2 PUTs (disable, enable again)"
ses "$uuid" | jq -s -e 'all(.enable_state == "SE_STATE_ENABLED")' >/dev/null ||
  fail "an SE is left disabled: $(ses "$uuid")"
emu DELETE faults >/dev/null

step "--workload: bad keys and values are usage errors (exit 2) naming them"
for bad in "l7_rpz=1000" "l7_rps=lots" "l7_rps=-5" "l7_rps"; do
  rc=0
  "$provider" controller rollout checkout --workload "$bad" >/dev/null 2>"$tmp/bad.err" || rc=$?
  [ "$rc" -eq 2 ] || fail "--workload $bad: want exit 2, got $rc"
  grep -q -- "--workload: " "$tmp/bad.err" || fail "--workload $bad: $(cat "$tmp/bad.err")"
done
grep -q 'not "l7_rps"' "$tmp/bad.err" || fail "the error does not name the pair: $(cat "$tmp/bad.err")"
"$provider" controller rollout checkout --workload l7_rpz=1 >/dev/null 2>"$tmp/bad.err" || true
grep -q 'unknown key "l7_rpz"' "$tmp/bad.err" || fail "the error does not name the unknown key"

step "--dry-run --workload: the capacity figures of the SEs left"
"$provider" controller rollout checkout --dry-run --workload l7_rps=10000 >"$tmp/dry-load.out" ||
  fail "dry run with a workload: $(cat "$tmp/dry-load.out")"
cat "$tmp/dry-load.out"
grep -Eq "guard capacity: passes: the Controller has no samples of the SEs' load( \([^)]*\))?, so with 1 of [0-9]+ running SEs out, the [0-9]+ left \(at their real shape\) would run the declared workload 10,000 L7 RPS at [0-9.]+% CPU \((measured|interpolated|extrapolated)\), target 80%" \
  "$tmp/dry-load.out" || fail "the dry run prints no capacity figures for the workload"

step "--workload the SEs left cannot carry: refused before any write"
emu POST counters/reset >/dev/null
if "$provider" controller rollout checkout --workload l7_rps=1000000,ssl_tps_ecc=20000 \
  >"$tmp/heavy.out" 2>"$tmp/heavy.err"; then
  fail "a workload the SEs left cannot carry was not refused"
fi
cat "$tmp/heavy.err"
grep -Eq "rollout refused by the capacity guard: the Controller has no samples of the SEs' load.*, so with 1 of [0-9]+ running SEs out, the [0-9]+ left" "$tmp/heavy.err" ||
  fail "the refusal does not name the SEs out and left"
grep -qx "Rollout refused by the capacity guard" "$tmp/heavy.out" || fail "the decision's summary is not printed"
grep -q "the declared workload 20,000 ECC SSL TPS + 1,000,000 L7 RPS at" "$tmp/heavy.err" ||
  fail "the refusal does not name the workload"
for k in "PUT /api/serviceengine/{uuid}" "PATCH /api/serviceengine/{uuid}" \
  "DELETE /api/serviceengine/{uuid}" "POST /api/serviceengine/{uuid}/reboot"; do
  [ "$(count "$k")" -eq 0 ] || fail "a refused roll sent $k"
done

# interrupt SIGNAL OUT: starts the roll of checkout in a process group of its own (where SIGINT
# is not ignored), waits until it disabled an SE, sends SIGNAL, and sets roll_pid; the output
# goes to $tmp/OUT.out and $tmp/OUT.err.
interrupt() {
  set -m
  "$provider" controller rollout checkout --poll-interval 50ms --timeout 60s \
    >"$tmp/$2.out" 2>"$tmp/$2.err" &
  roll_pid=$!
  set +m
  for _ in $(seq 1 600); do
    grep -q ': disabled, ' "$tmp/$2.out" && break
    sleep 0.05
  done
  grep -q ': disabled, ' "$tmp/$2.out" || fail "the roll disabled no SE: $(cat "$tmp/$2.out" "$tmp/$2.err")"
  kill "-$1" "$roll_pid"
}

step "SIGINT in the middle, twice: the roll stops after its step, no SE is left disabled"
emu POST timing '{"migration_ms": 5000}' >/dev/null
emu POST timeline/reset >/dev/null
# The SE's restore (its PUT) takes a second, so the second Ctrl-C comes while it runs.
emu POST faults '{"latency_ms": 1000, "match": "PUT /api/serviceengine/{uuid}"}' >/dev/null
interrupt INT int
sleep 0.3
kill -INT "$roll_pid" || fail "the roll exited before its restore ran"
rc=0
wait "$roll_pid" || rc=$?
emu POST faults '{"latency_ms": 0}' >/dev/null
cat "$tmp/int.out" "$tmp/int.err"
[ "$rc" -eq 130 ] || fail "want exit 130 after SIGINT, got $rc"
grep -q "SIGINT: stopping after the current step" "$tmp/int.err" || fail "no notice that the roll stops"
grep -q "SIGINT ignored: already stopping" "$tmp/int.err" || fail "the second SIGINT was not ignored"
grep -q "rollout interrupted at checkout-se-1" "$tmp/int.err" || fail "the error does not name the SE"
grep -q "checkout-se-1 was enabled again" "$tmp/int.err" || fail "the SE was not given back"
grep -q "Done: none. To do: checkout-se-1, " "$tmp/int.err" || fail "the error lists no SEs done and to do"
ses "$uuid" | jq -s -e 'all(.enable_state == "SE_STATE_ENABLED")' >/dev/null ||
  fail "an SE is left disabled after SIGINT: $(ses "$uuid")"

step "SIGTERM in the middle: the same stop, exit 143"
interrupt TERM term
rc=0
wait "$roll_pid" || rc=$?
cat "$tmp/term.out" "$tmp/term.err"
[ "$rc" -eq 143 ] || fail "want exit 143 after SIGTERM, got $rc"
grep -q "SIGTERM: stopping after the current step" "$tmp/term.err" || fail "no notice that the roll stops"
grep -q "was enabled again" "$tmp/term.err" || fail "the SE was not given back"
ses "$uuid" | jq -s -e 'all(.enable_state == "SE_STATE_ENABLED")' >/dev/null ||
  fail "an SE is left disabled after SIGTERM: $(ses "$uuid")"
emu POST timing '{"migration_ms": 200}' >/dev/null
sleep 0.5 # the migrations the signals cut short end in the emulator
timeline=$(emu GET timeline)
jq -e '.summary.unplaced_instants | length == 0' <<<"$timeline" >/dev/null ||
  fail "a virtual service was left without an SE: $(jq -c .summary <<<"$timeline")"

step "a second run finishes the roll"
"$provider" controller rollout checkout --poll-interval 50ms --timeout 60s >"$tmp/resume.out" ||
  fail "the second run failed: $(cat "$tmp/resume.out")"
cat "$tmp/resume.out"
grep -q "rollout: done" "$tmp/resume.out" || fail "the second run did not finish"
ses "$uuid" | jq -s -e 'all(.enable_state == "SE_STATE_ENABLED" and (.pending | not))' >/dev/null ||
  fail "an SE is left disabled or reboot-pending: $(ses "$uuid")"
"$provider" controller rollout checkout >"$tmp/resume-again.out" || fail "third run failed"
grep -q "rollout: nothing to do" "$tmp/resume-again.out" || fail "$(cat "$tmp/resume-again.out")"

# api PATH: a GET of the Controller API as admin; prints the body.
api() {
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" -c "$tmp/jar" -b "$tmp/jar" \
    -H 'Content-Type: application/json' -d '{"username":"admin","password":"admin"}' \
    "$EMU_URL/login" >/dev/null
  curl -sS --max-time 30 --cacert "$EMU_CA_FILE" -b "$tmp/jar" -H 'X-Avi-Version: 22.1.3' \
    "$EMU_URL$1"
}

step "a shape change (vcpus_per_se 4 -> 5) of a full 3-SE group: cart"
cart=$(apply cart Default-Cloud "$base")
emu POST serviceengines "{\"se_group_uuid\":\"$cart\",\"count\":3}" >/dev/null
emu POST virtualservices '{"se_group":"cart","count":6}' >/dev/null
apply cart Default-Cloud "$(jq -c '. + {vcpus_per_se: 5}' <<<"$base")" >/dev/null

step "too few licence units: refused before the first SE write, naming the units"
usage=$(api /api/licensing/ledger/details | jq -c '.results[0].tier_usages[] | select(.tier == "ENTERPRISE") | .usage')
emu POST license "{\"licensed\": {\"ENTERPRISE\": $(jq '.consumed + .escrow + 4' <<<"$usage")}}" >/dev/null
emu POST counters/reset >/dev/null
if "$provider" controller rollout cart >"$tmp/short.out" 2>"$tmp/short.err"; then
  fail "a replacement the licence cannot cover was not refused"
fi
cat "$tmp/short.err"
grep -q "will be replaced (4 vCPUs -> 5)" "$tmp/short.out" || fail "$(cat "$tmp/short.out")"
grep -q "rollout refused by the license guard: .*1 replacement at a time needs 5 SUs; the ENTERPRISE tier has 4 left" "$tmp/short.err" ||
  fail "the licence refusal does not name the units needed and left"
for k in "PUT /api/serviceengine/{uuid}" "DELETE /api/serviceengine/{uuid}"; do
  [ "$(count "$k")" -eq 0 ] || fail "a refused roll sent $k"
done

step "with the licence back, on the SEs' measured CPU: --dry-run predicts each step"
emu POST license '{"licensed": {}}' >/dev/null
# Each SE's CPU now: 12 five-minute samples of the last hour, the highest 50%.
emu POST metrics "$(emu GET state | jq -c --arg g "$cart" '{series: [.serviceengine[]
  | select(.se_group_ref == $g) | {entity_uuid: .uuid, metric_id: "se_stats.avg_cpu_usage",
    step: 300, values: [range(12) | if . == 5 then 50 else 40 end]}]}')" >/dev/null
"$provider" controller rollout cart --dry-run >"$tmp/cart-dry.out" || fail "dry run: $(cat "$tmp/cart-dry.out")"
cat "$tmp/cart-dry.out"
for line in "Apply will roll 3 SEs" \
  "  step 1: cart-se-1 out; cart-vs-7, cart-vs-8 -> new SE 1; the Controller creates new SE 1 at 5 vCPUs; predicted CPU: new SE 1 (5 vCPUs) 40.0%" \
  "  guard capacity: passes: predicted peak 40.0% CPU on new SE 1 at step 1, target 80%"; do
  grep -qxF -- "$line" "$tmp/cart-dry.out" || fail "the dry run does not say '$line'"
done
grep -q "^  load: what the SEs carry now, the Controller's se_stats.avg_cpu_usage" "$tmp/cart-dry.out" ||
  fail "the dry run does not say which load it judged"

step "with the licence back: 3 of 3 SEs replaced at 5 vCPUs, one at a time, make before break"
emu POST timeline/reset >/dev/null
emu POST counters/reset >/dev/null
start=$(date +%s%N)
"$provider" controller rollout cart --poll-interval 50ms --timeout 60s >"$tmp/replace.out" ||
  fail "the replacement roll failed: $(cat "$tmp/replace.out")"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
cat "$tmp/replace.out"
[ "$(grep -c ': deleted$' "$tmp/replace.out")" -eq 3 ] || fail "want 3 SEs deleted"
ses "$cart" | jq -s -e 'length == 3 and all(.vcpus == 5 and .oper == "OPER_UP")' >/dev/null ||
  fail "want 3 SEs up at 5 vCPUs: $(ses "$cart")"
timeline=$(emu GET timeline)
jq -e '.summary.unplaced_instants | length == 0' <<<"$timeline" >/dev/null ||
  fail "a virtual service was left without an SE: $(jq -c .summary <<<"$timeline")"
jq -e '.summary.max_ses_out <= 1' <<<"$timeline" >/dev/null ||
  fail "more than 1 SE out at once: $(jq -c .summary <<<"$timeline")"
echo "requests of the replacement roll: total $(emu GET counters | jq .total)," \
  "PUT SE $(count "PUT /api/serviceengine/{uuid}"), DELETE $(count "DELETE /api/serviceengine/{uuid}")," \
  "ledger $(count "GET /api/licensing/ledger/details"); ${elapsed_ms} ms"
[ "$(count "DELETE /api/serviceengine/{uuid}")" -eq 3 ] || fail "want 3 DELETEs"
[ "$(count "PUT /api/serviceengine/{uuid}")" -eq 3 ] || fail "want 3 PUTs (one disable each)"
"$provider" controller rollout cart >"$tmp/cart-again.out" || fail "second run failed"
grep -q "rollout: nothing to do" "$tmp/cart-again.out" || fail "$(cat "$tmp/cart-again.out")"

step "a no-access cloud: the cloud guard says what to do by hand"
emu POST clouds '{"name": "manual-cloud"}' >/dev/null
manual=$(apply manual manual-cloud '{"vcpus_per_se": 2, "memory_per_se": 4096}')
emu POST serviceengines "{\"se_group_uuid\":\"$manual\",\"count\":2}" >/dev/null
apply manual manual-cloud '{"vcpus_per_se": 3, "memory_per_se": 4096}' >/dev/null
if "$provider" controller rollout manual --cloud manual-cloud >/dev/null 2>"$tmp/cloud.err"; then
  fail "a replacement in a no-access cloud was not refused"
fi
grep -q "cloud guard" "$tmp/cloud.err" || fail "$(cat "$tmp/cloud.err")"
grep -q "By hand" "$tmp/cloud.err" || fail "the cloud guard does not say what to do by hand"

echo "PASS"
