#!/usr/bin/env bash
# Scenario 2: sizing_policy = "enforce" (provider or resource) stops a plan that would create an
# under-sized group, with the sizing error at the line of the hand-set attribute, so nothing is
# created; validation never fails on sizing; and `terraform destroy` removes an under-sized group
# that exists (docs/design/se-group-resource.md, "The enforce gate never blocks a destroy").
source "$(dirname "$0")/lib.sh" "$@"

# The model's finding for 8,000 ECC TPS on 1 SE of 2 vCPUs (vcenter): the diagnostic's summary.
summary="ECC SSL TPS under-delivered: 5,800 of 10,000 needed"

# write_config PROVIDER_POLICY RESOURCE_POLICY: main.tf with the policies given (an empty one is
# left out, so that the default applies).
write_config() {
  {
    echo 'provider "nsxalb" {'
    [ -z "$1" ] || echo "  sizing_policy = \"$1\""
    echo '}'
    echo
    echo 'resource "nsxalb_se_group" "tls" {'
    echo '  name         = "tls"'
    echo '  platform     = "vcenter"'
    echo '  vcpus_per_se = 2'
    [ -z "$2" ] || echo "  sizing_policy = \"$2\""
    echo
    echo '  workload {'
    echo '    ssl_tps_ecc = 8000'
    echo '  }'
    echo '}'
  } | tf_write main.tf
  line=$(grep -n 'vcpus_per_se = 2' "$TF_WORK/main.tf" | cut -d: -f1)
}

# assert_sizing_diagnostic SEVERITY: terraform's output holds one diagnostic "SEVERITY: $summary"
# whose own lines name the rule and point at main.tf line $line in nsxalb_se_group.tls (the
# lines up to the next diagnostic, so that another error's location cannot satisfy it).
assert_sizing_diagnostic() {
  local block
  block=$(awk -v head="$1: $summary" '
    index($0, head) == 1 { on = 1; print; next }
    on && /^(Error|Warning): / { exit }
    on { print }' "$TF_OUT")
  [ -n "$block" ] || { cat "$TF_OUT" >&2; fail "no diagnostic '$1: $summary'"; }
  printf '%s\n' "$block" >"$TF_TMP/diagnostic"
  assert_contains "$TF_TMP/diagnostic" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"
  assert_contains "$TF_TMP/diagnostic" "$line:   vcpus_per_se = 2"
  assert_says "$TF_TMP/diagnostic" "(rule demand-within-capacity)"
}

write_config enforce ""
tf init

step "provider-level enforce: plan fails with the sizing error at the line"
tf_fails plan
assert_sizing_diagnostic Error
assert_says "$TF_OUT" 'sizing_policy = "enforce" makes an under-sized group an error'

step "provider-level enforce: apply fails before any POST"
emu_reset_counters
tf_fails apply -auto-approve
assert_sizing_diagnostic Error
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"] // 0' 0 -
assert_groups 0

step "resource-level enforce: validate passes (it runs before every destroy), plan fails"
write_config "" enforce
tf validate
assert_not_contains "$TF_OUT" "demand-within-capacity"
tf_fails plan
assert_sizing_diagnostic Error

step "the default policy (sizing_policy unset everywhere): the same group plans, with a warning"
write_config "" ""
grep -q sizing_policy "$TF_WORK/main.tf" && fail "the default-policy step must leave sizing_policy unset"
tf plan
assert_sizing_diagnostic Warning
assert_contains "$TF_OUT" "Plan: 1 to add"

step "destroy under enforce (provider and resource): the group created under the default is removed"
tf apply -auto-approve
assert_groups 1
write_config enforce enforce
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete! Resources: 1 destroyed."
assert_not_contains "$TF_OUT" "Error"
assert_groups 0
assert_nothing_lost
pass
