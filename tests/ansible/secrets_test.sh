#!/usr/bin/env bash
# The password given as the se_group module's no_log option, at -vvv: the play logs in with it
# (the group is created), it reaches the binary through its environment and never its argv, and
# the marker has zero hits in the play's output.
EMU_PASSWORD="ansible-marker-pw-$RANDOM$RANDOM$RANDOM"
source "$(dirname "$0")/lib.sh" "$@"
unset NSXALB_PASSWORD  # only the option carries it

# A wrapper in place of the binary on PATH records its argv, and whether the password arrived in
# its environment (never the value).
rm "$AN_TMP/bin/terraform-provider-nsxalb"
cat >"$AN_TMP/bin/terraform-provider-nsxalb" <<WRAPPER
#!/usr/bin/env bash
printf '%s\n' "\$*" >>"$AN_TMP/argv.log"
[ "\${NSXALB_PASSWORD:-}" = "$EMU_PASSWORD" ] && echo password-in-environment >>"$AN_TMP/env.log"
exec "$AN_PROVIDER_BINARY" "\$@"
WRAPPER
chmod +x "$AN_TMP/bin/terraform-provider-nsxalb"

step "the play at -vvv with the marker password as an option"
play secret se_group_secret.yml -vvv -e "controller_password=$EMU_PASSWORD" ||
  fail "the play failed"
assert_recap secret 'ok=1 changed=1 .*failed=0'
assert_eq "the group on the emulator" '"web"' "$(emu_group web | jq .name)"
hits=$(grep -c -F -- "$EMU_PASSWORD" "$AN_TMP/secret.out" || true)
assert_eq "marker hits in the -vvv output" 0 "$hits"
assert_out secret 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
hits=$(grep -c -F -- "$EMU_PASSWORD" "$AN_TMP/argv.log" || true)
assert_eq "marker hits in the binary's argv" 0 "$hits"
assert_eq "runs with the password in the environment" 1 "$(grep -c password-in-environment "$AN_TMP/env.log")"
pass
