#!/usr/bin/env bash
# Scenario 2b: under sizing_policy = "enforce", an under-sized group that exists and that a plan
# leaves unchanged gets a warning, not the error: a pull request that changes another resource
# applies, a -refresh-only plan passes, and the nsxalb_se_sizing data source never fails on
# sizing; a change to the group itself is still refused; a postcondition on the data source stops
# a plan but not a destroy (docs/design/se-group-resource.md, "The enforce gate").
source "$(dirname "$0")/lib.sh" "$@"

summary="ECC SSL TPS under-delivered: 5,800 of 10,000 needed"

# write_config PROVIDER_POLICY WEB_RPS TLS_ECC [postcondition]
write_config() {
  local policy="" lifecycle=""
  [ -z "$1" ] || policy="sizing_policy = \"$1\""
  if [ "${4:-}" = postcondition ]; then
    lifecycle='
  lifecycle {
    postcondition {
      condition     = !anytrue([for f in self.findings : strcontains(f, "demand-within-capacity")])
      error_message = "The SE group settings cannot carry the workload."
    }
  }'
  fi
  tf_write main.tf <<EOF
provider "nsxalb" {
  $policy
}

resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = 2

  workload {
    ssl_tps_ecc = $3
  }
}

resource "nsxalb_se_group" "web" {
  name     = "web"
  platform = "vcenter"

  workload {
    l7_rps = $2
  }
}

data "nsxalb_se_sizing" "tls" {
  platform      = "vcenter"
  sizing_policy = "enforce"
  vcpus_per_se  = 2

  workload {
    ssl_tps_ecc = 8000
  }
$lifecycle
}
EOF
  line=$(grep -n 'vcpus_per_se = 2' "$TF_WORK/main.tf" | cut -d: -f1)
  ds_line=$(grep -n 'vcpus_per_se  = 2' "$TF_WORK/main.tf" | cut -d: -f1)
}

step "both groups are created under the default policy (tls under-sized, with a warning)"
write_config "" 20000 8000
tf init
tf apply -auto-approve
assert_says "$TF_OUT" "Warning: $summary"
assert_groups 2

step "provider-level enforce, nothing changed: no changes, the old group only warns"
write_config enforce 20000 8000
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
assert_says "$TF_OUT" "Warning: $summary"
assert_says "$TF_OUT" "this plan leaves the group unchanged"
assert_not_contains "$TF_OUT" "Error"
# Terraform folds warnings of the same summary into one ("and one more similar warning
# elsewhere"); its JSON view lists each, with the configuration it belongs to.
tf plan -json
jq -c 'select(.type == "diagnostic") | .diagnostic |
  {severity, address, line: .range.start.line, why: (.detail | test("nsxalb_se_sizing in every plan"))}' \
  "$TF_STDOUT" >"$TF_TMP/diagnostics.json"
grep -qxF "{\"severity\":\"warning\",\"address\":\"nsxalb_se_group.tls\",\"line\":$line,\"why\":false}" \
  "$TF_TMP/diagnostics.json" || fail "no warning for nsxalb_se_group.tls at line $line: $(cat "$TF_TMP/diagnostics.json")"
grep -qxF "{\"severity\":\"warning\",\"address\":\"data.nsxalb_se_sizing.tls\",\"line\":$ds_line,\"why\":true}" \
  "$TF_TMP/diagnostics.json" ||
  fail "no warning for data.nsxalb_se_sizing.tls at line $ds_line: $(cat "$TF_TMP/diagnostics.json")"

step "a change to another resource only: planned, applied, the old group warns"
write_config enforce 150000 8000
tf plan -out=tfplan
assert_contains "$TF_OUT" "Plan: 0 to add, 1 to change, 0 to destroy."
assert_contains "$TF_OUT" "# nsxalb_se_group.web will be updated in-place"
assert_contains "$TF_OUT" "~ vcpus_per_se"
assert_not_contains "$TF_OUT" "# nsxalb_se_group.tls will be"
assert_says "$TF_OUT" "Warning: $summary"
assert_says "$TF_OUT" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"
emu_reset_counters
tf apply -auto-approve tfplan
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"]' 1 -

step "a -refresh-only plan is not blocked"
tf plan -refresh-only
assert_contains "$TF_OUT" "No changes."
assert_not_contains "$TF_OUT" "Error"

step "a change to the under-sized group itself is still refused"
write_config enforce 150000 9000
tf_fails plan
assert_says "$TF_OUT" "Error: ECC SSL TPS under-delivered"
assert_says "$TF_OUT" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"
assert_says "$TF_OUT" "(rule demand-within-capacity)"

step "a postcondition on the data source stops the plan, not the destroy"
write_config enforce 150000 8000 postcondition
tf_fails plan
assert_says "$TF_OUT" "Error: Resource postcondition failed"
assert_says "$TF_OUT" "The SE group settings cannot carry the workload."
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete! Resources: 2 destroyed."
assert_not_contains "$TF_OUT" "Error"
assert_groups 0
assert_nothing_lost
pass
