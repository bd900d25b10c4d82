#!/usr/bin/env bash
# module_defaults with the collection's action group: with no NSXALB_* variable set, a play that
# gives the connection once under group/nsxalb.alb.nsxalb (examples/ansible/se_group_defaults.yml)
# creates the group with se_group and reads it back with se_group_info; the same play without the
# defaults (se_group.yml) fails, so the connection came from module_defaults.
source "$(dirname "$0")/lib.sh" "$@"

# The connection reaches the play only as variables, from a vars file (no password in argv).
cat >"$AN_TMP/connection.yml" <<VARS
controller: "$NSXALB_CONTROLLER"
controller_username: "$NSXALB_USERNAME"
controller_password: "$NSXALB_PASSWORD"
controller_ca_file: "$NSXALB_CA_FILE"
VARS
unset NSXALB_CONTROLLER NSXALB_USERNAME NSXALB_PASSWORD NSXALB_CA_FILE

step "without module_defaults and without NSXALB_*: the play fails"
if play bare se_group.yml; then fail "se_group.yml succeeded with no connection"; fi
assert_recap bare 'ok=0 changed=0 .*failed=1'
assert_eq "writes without a connection" 0 "$(emu_writes)"

step "module_defaults for group/nsxalb.alb.nsxalb: created, then read back"
play defaults se_group_defaults.yml -e "@$AN_TMP/connection.yml" || fail "the play failed"
assert_recap defaults 'ok=3 changed=1 .*failed=0'
assert_out defaults "vcpus_per_se=6"
assert_out defaults "found=1"
assert_eq "the group on the emulator" '"web"' "$(emu_group web | jq .name)"
assert_eq "writes after the play" 1 "$(emu_writes)"
pass
