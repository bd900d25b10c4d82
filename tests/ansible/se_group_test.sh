#!/usr/bin/env bash
# nsxalb.alb.se_group with the real ansible-playbook against the emulator: create reports changed
# with the vCPUs `size` recommends; the same play again is ok and writes nothing; --check of a
# change reports changed and leaves the emulator untouched; --check --diff prints the diff;
# state=absent removes the group, then is ok; se_group_info finds it and se_sizing agrees.
source "$(dirname "$0")/lib.sh" "$@"

recommended=$("$AN_PROVIDER_BINARY" size --platform nsxt --l7-rps 150000 --json |
  jq '.recommendation.settings.vcpus_per_se.value')
assert_eq "size recommends" 6 "$recommended"

step "create: changed, with the recommended vCPUs"
play create se_group.yml || fail "the create play failed"
assert_recap create 'ok=2 changed=1 .*failed=0'
assert_out create "vcpus_per_se=$recommended"
assert_out create "sizing: 1 SE of 6 vCPUs carries 150,000 L7 RPS"
assert_eq "emulator vcpus_per_se" "$recommended" "$(emu_group web | jq .vcpus_per_se)"
assert_eq "writes after create" 1 "$(emu_writes)"

step "the same play again: ok, no write"
play again se_group.yml || fail "the second play failed"
assert_recap again 'ok=2 changed=0 .*failed=0'
assert_eq "writes after the second run" 1 "$(emu_writes)"

step "--check of a change: changed, the emulator untouched"
play check se_group.yml --check -e group_vcpus=8 || fail "the check play failed"
assert_recap check 'ok=2 changed=1 .*failed=0'
assert_eq "writes after --check" 1 "$(emu_writes)"
assert_eq "emulator vcpus_per_se after --check" 6 "$(emu_group web | jq .vcpus_per_se)"

step "--check --diff prints the diff"
play diff se_group.yml --check --diff -e group_vcpus=8 || fail "the diff play failed"
assert_out diff '-    "vcpus_per_se": 6'
assert_out diff '+    "vcpus_per_se": 8'
assert_eq "writes after --check --diff" 1 "$(emu_writes)"

step "se_group_info finds it; se_sizing recommends what was written"
play info se_group_info.yml || fail "the info play failed"
assert_recap info 'ok=3 changed=0 .*failed=0'
assert_out info "found=1"
assert_out info "found_vcpus=6"
assert_out info "recommended_vcpus=6"

step "absent: --check changes nothing, then removed, then ok"
play absent_check se_group.yml --check -e group_state=absent || fail "the absent check failed"
assert_recap absent_check 'changed=1 .*failed=0'
assert_eq "writes after absent --check" 1 "$(emu_writes)"
play absent se_group.yml -e group_state=absent || fail "the absent play failed"
assert_recap absent 'changed=1 .*failed=0'
assert_eq "the group after absent" null "$(emu_group web)"
assert_eq "writes after absent" 2 "$(emu_writes)"
play absent_again se_group.yml -e group_state=absent || fail "the second absent play failed"
assert_recap absent_again 'changed=0 .*failed=0'
assert_eq "writes after absent again" 2 "$(emu_writes)"
pass
