#!/usr/bin/env bash
# nsxalb.alb.se_group and the group's running SEs, with the real ansible-playbook against the
# emulator: a group `checkout` of 4 vCPUs and 8,192 MB with 3 SEs (made through the emulator's
# control endpoint) is resized to 5 vCPUs and 10,240 MB. The task changes the group and returns
# service_engines as the nsxalb_se_group resource records it (3 running, 0 matching, each SE at
# 4 vCPUs, new-ses-only on vcpus_per_se and memory_per_se) and warns ses-behind-settings with the
# utilization at the running shape, without failing, under sizing_policy=enforce too; the same
# play again changes nothing and warns again; an SE at the new shape matches; with every SE at
# the settings the task says nothing.
source "$(dirname "$0")/lib.sh" "$@"

# The playbook: one se_group task; its result's service_engines and warnings into files.
cat >"$AN_TMP/checkout.yml" <<'YAML'
- name: The checkout SE group
  hosts: localhost
  gather_facts: false
  tasks:
    - name: checkout on nsxt-cloud
      nsxalb.alb.se_group:
        name: checkout
        cloud: nsxt-cloud
        vcpus_per_se: "{{ vcpus }}"
        memory_per_se: "{{ memory }}"
        max_se: 4
        sizing_policy: "{{ policy | default('warn') }}"
        workload:
          l7_rps: 120000
      register: checkout
    - name: Keep what it returned
      ansible.builtin.copy:
        content: "{{ checkout.service_engines | to_json }}"
        dest: "{{ out }}"
        mode: "0600"
      changed_when: false
YAML

# run OUT VCPUS MEMORY [ARGS...]: the play; the task's service_engines into $AN_TMP/OUT.json.
run() { an_checkout_play "$@"; }
ses() { jq -cS "$2" "$AN_TMP/$1.json"; }

step "create checkout at 4 vCPUs and 8,192 MB: no SE runs, nothing to say"
run create 4 8192 || fail "the create play failed"
assert_recap create 'changed=1 .*failed=0'
assert_eq "service_engines with no SE" '{"lagging":[],"matching":0,"reboot_fields":[],"running":0}' \
  "$(ses create '.')"
grep -q 'ses-behind-settings' "$AN_TMP/create.out" && fail "create: warned ses-behind-settings"

uuid=$(emu_group checkout | jq -r .uuid)
_emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
  -d "{\"se_group_uuid\": \"$uuid\", \"count\": 3}" "$EMU_URL/_emulator/serviceengines" \
  >/dev/null || fail "creating 3 SEs in checkout failed"

step "the same settings with 3 SEs: every SE matches, no warning"
run same 4 8192 || fail "the play with 3 SEs failed"
assert_recap same 'changed=0 .*failed=0'
assert_eq "running, matching" '[3,3]' "$(ses same '[.running, .matching]')"
grep -q 'ses-behind-settings' "$AN_TMP/same.out" && fail "same: warned ses-behind-settings"

step "resize to 5 vCPUs and 10,240 MB under enforce: changed, a warning, not a failure"
run resize 5 10240 -e policy=enforce || fail "the resize play failed"
assert_recap resize 'changed=1 .*failed=0'
assert_eq "running, matching" '[3,0]' "$(ses resize '[.running, .matching]')"
assert_eq "each SE keeps 4 vCPUs and 8,192 MB, new-ses-only" \
  '[[4,8192,"new-ses-only",["vcpus_per_se","memory_per_se","disk_per_se"]]]' \
  "$(ses resize '[.lagging[] | [.vcpus, .memory_mb, .why, .fields]] | unique')"
assert_eq "the SEs named" '["checkout-se-1","checkout-se-2","checkout-se-3"]' \
  "$(ses resize '[.lagging[].name]')"
assert_out resize '[WARNING]:'
assert_out resize 'ses-behind-settings'
assert_out resize 'reach new SEs only'
assert_out resize 'rule utilization-at-running-shape'

step "the same play again: no change, the same warning"
run again 5 10240 || fail "the second resize play failed"
assert_recap again 'changed=0 .*failed=0'
assert_eq "still 0 of 3" '[3,0]' "$(ses again '[.running, .matching]')"
assert_out again 'ses-behind-settings'

step "an SE at the new shape matches"
_emu_curl --fail-with-body -X POST -H 'Content-Type: application/json' \
  -d "{\"se_group_uuid\": \"$uuid\", \"count\": 1}" "$EMU_URL/_emulator/serviceengines" \
  >/dev/null || fail "creating a 4th SE failed"
run fourth 5 10240 || fail "the play with a 4th SE failed"
assert_eq "4 running, 1 matching" '[4,1]' "$(ses fourth '[.running, .matching]')"
assert_eq "the lagging SEs" '["checkout-se-1","checkout-se-2","checkout-se-3"]' \
  "$(ses fourth '[.lagging[].name]')"
pass
