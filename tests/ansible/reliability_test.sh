#!/usr/bin/env bash
# A 503 burst and an expired session during the play are survived: the client retries the 503s
# and logs in again after the 419, the group is created once, and the rerun writes nothing.
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
pass
