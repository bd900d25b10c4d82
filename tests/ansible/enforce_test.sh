#!/usr/bin/env bash
# nsxalb.alb.se_group sizing: a workload plans the settings and returns the `sizing` object;
# under sizing_policy=warn an under-sized group is created with the finding as a warning; under
# enforce the task fails with the finding's text and nothing is written; absent never fails on
# sizing.
source "$(dirname "$0")/lib.sh" "$@"

step "enforce on a new under-sized group: failed, with the finding, and no write"
if play enforce se_group_enforce.yml; then fail "the enforce play should have failed"; fi
assert_recap enforce 'ok=0 changed=0 .*failed=1'
assert_out enforce 'demand-within-capacity'
assert_out enforce 'was not written (sizing_policy \"enforce\" fails'
assert_out enforce 'L7 RPS under-delivered: 94,000 of 187,500 needed'
assert_eq "writes after enforce" 0 "$(emu_writes)"
assert_eq "the group after enforce" null "$(emu_group web-small)"

step "the same group under warn: created, the finding a warning"
play warn se_group.yml -e group_name=web-small -e group_vcpus=2 || fail "the warn play failed"
assert_recap warn 'changed=1 .*failed=0'
assert_out warn '[WARNING]: warning [vcpus_per_se] demand-within-capacity'
assert_out warn 'vcpus_per_se=2'
assert_eq "writes after warn" 1 "$(emu_writes)"

step "absent under enforce never fails on sizing"
play absent se_group.yml -e group_name=web-small -e group_vcpus=2 -e group_policy=enforce \
  -e group_state=absent ||
  fail "absent failed"
assert_recap absent 'changed=1 .*failed=0'
assert_eq "the group after absent" null "$(emu_group web-small)"
pass
