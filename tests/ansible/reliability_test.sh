#!/usr/bin/env bash
# A 503 burst and an expired session during the play are survived: the client retries the 503s
# and logs in again after the 419, the group is created once, and the rerun writes nothing.
# Another writer changing the group between the module's GET and its PUT (the emulator's
# other_writer fault) gets a 412; the module reads again and keeps that writer's field, and a
# 412 that keeps coming back fails the task with a clear message after 3 attempts.
source "$(dirname "$0")/lib.sh" "$@"

step "a 503 burst on the SE group reads, and the session expiring before the create"
emu_faults '{"fail_next":3,"fail_status":503,"match":"GET /api/serviceenginegroup"}'
emu_faults '{"expire_next":1,"match":"POST /api/serviceenginegroup"}'
play create se_group.yml || fail "the play did not survive the faults"
assert_recap create 'ok=2 changed=1 .*failed=0'
counters=$(emu_counters)
fired() { jq --arg f "$1" '[.log[] | select((.faults // "") | contains($f))] | length' <<<"$counters"; }
assert_eq "503s that fired" 3 "$(fired fail)"
assert_eq "expired sessions that fired" 1 "$(fired expire)"
assert_eq "logins (one more after the expiry)" 2 "$(jq '.requests["POST /login"]' <<<"$counters")"
assert_eq "groups called web" 1 "$(_emu_curl --fail-with-body "$EMU_URL/_emulator/state" |
  jq '[.serviceenginegroup[] | select(.name == "web")] | length')"

step "the same play again, through another 503 burst: ok, no write"
writes=$(emu_writes)
emu_faults '{"fail_next":2,"fail_status":503}'
play again se_group.yml || fail "the rerun did not survive the 503s"
assert_recap again 'ok=2 changed=0 .*failed=0'
assert_eq "writes after the rerun" "$writes" "$(emu_writes)"

step "a change racing another writer: the 412 is retried on the fresh group, their field kept"
_emu_curl --fail-with-body -X POST -d '' "$EMU_URL/_emulator/counters/reset" >/dev/null
emu_faults '{"other_writer_next":1,"other_writer_field":"connection_memory_percentage","other_writer_value":70}'
play race se_group.yml -e group_vcpus=8 || fail "the play racing another writer failed"
assert_recap race 'ok=2 changed=1 .*failed=0'
assert_eq "vcpus_per_se after the race" 8 "$(emu_group web | jq .vcpus_per_se)"
assert_eq "the other writer's field" 70 "$(emu_group web | jq .connection_memory_percentage)"
counters=$(emu_counters)
assert_eq "GETs by uuid (read, re-read after the 412)" 2 \
  "$(jq '.requests["GET /api/serviceenginegroup/{uuid}"]' <<<"$counters")"
assert_eq "PUTs (412, then accepted)" 2 "$(jq '.requests["PUT /api/serviceenginegroup/{uuid}"]' <<<"$counters")"

step "a 412 after every read: failed after 3 attempts, nothing written"
emu_faults '{"other_writer_next":100}'
play race_lost se_group.yml -e group_vcpus=4 && fail "the play succeeded although every PUT was stale"
assert_recap race_lost 'failed=1'
assert_out race_lost "changed by another writer between each of 3 reads"
assert_eq "vcpus_per_se after the lost race" 8 "$(emu_group web | jq .vcpus_per_se)"
emu_faults '{"other_writer_next":0}'
pass
