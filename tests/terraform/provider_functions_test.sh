#!/usr/bin/env bash
# Provider-defined functions (Terraform 1.8 and later): provider::nsxalb::recommend in locals
# sizes a terraform_data (the stand-in for another provider's SE group resource) and an
# nsxalb_se_group with the figures of `size --json`; terraform console prints them;
# `terraform providers schema -json` lists the three functions; a bad argument is an error at its
# line; a call over a value known only after apply plans unknown, then applies.
source "$(dirname "$0")/lib.sh" "$@"

step "the schema lists recommend, capacity and check with their parameters"
tf_write main.tf <<'EOF_TF'
provider "nsxalb" {}
EOF_TF
tf init
tf providers schema -json
schema=$TF_STDOUT
fns='.provider_schemas["registry.terraform.io/nsxalb/nsxalb"].functions'
assert_json "$fns | keys" '["capacity","check","recommend"]' "$schema"
assert_json "$fns.recommend.parameters | map(.name)" '["platform","workload"]' "$schema"
assert_json "$fns.check.parameters | map(.name)" '["platform","settings","workload"]' "$schema"
assert_json "$fns.capacity.parameters | map(.name)" '["platform","vcpus"]' "$schema"
assert_json "[${fns}[] | .summary != \"\" and .description != \"\"] | all" true "$schema"

step "a function in locals sizes terraform_data and nsxalb_se_group"
tf_write main.tf <<'EOF_TF'
provider "nsxalb" {}

locals {
  web = provider::nsxalb::recommend("nsxt", { l7_rps = 150000 })
}

# The stand-in for vmware/avi's avi_serviceenginegroup (examples/functions/).
resource "terraform_data" "avi_group" {
  input = {
    vcpus_per_se  = local.web.vcpus_per_se
    memory_per_se = local.web.memory_per_se
    disk_per_se   = local.web.disk_per_se
  }
}

resource "nsxalb_se_group" "web" {
  name          = "fn-web"
  cloud         = "nsxt-cloud"
  vcpus_per_se  = local.web.vcpus_per_se
  memory_per_se = local.web.memory_per_se
}

output "web" { value = local.web }
output "capacity" { value = provider::nsxalb::capacity("nsxt", 6).l7_rps }
output "check" {
  value = provider::nsxalb::check("nsxt", { vcpus_per_se = 2 }, { l7_rps = 150000 })
}
EOF_TF
emu_reset_counters
tf apply -auto-approve
assert_contains "$TF_OUT" "Apply complete! Resources: 2 added, 0 changed, 0 destroyed."
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 1 -
tf output -json
out=$TF_STDOUT
assert_json '.web.value.vcpus_per_se' 6 "$out"
assert_json '.web.value.summary' '"1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)"' "$out"
assert_json '.capacity.value.value' 205000 "$out"
assert_json '.capacity.value.basis' '"measured"' "$out"
assert_json '.check.value.ok' false "$out"
assert_contains "$out" "demand-within-capacity"

step "the same figures as size --json"
"$TF_PROVIDER_BINARY" size --platform nsxt --l7-rps 150000 --json >"$TF_TMP/size.json"
for key in $(jq -r '.recommendation.settings | keys[]' "$TF_TMP/size.json"); do
  want=$(jq -c --arg k "$key" '.recommendation.settings[$k].value' "$TF_TMP/size.json")
  assert_json ".web.value.$key" "$want" "$out"
done
tf state show terraform_data.avi_group
assert_contains "$TF_OUT" 'vcpus_per_se  = 6'
emu_api GET "/api/serviceenginegroup?name=fn-web" | assert_json '.results[0].vcpus_per_se' 6 -

step "the next plan is clean: results are deterministic"
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "terraform console prints recommend(...).vcpus_per_se"
echo 'provider::nsxalb::recommend("nsxt", { l7_rps = 150000 }).vcpus_per_se' >"$TF_TMP/console.in"
# stdout alone: under TF_LOG (CI's TRACE run) the log goes to stderr.
(cd "$TF_WORK" && terraform console -no-color <"$TF_TMP/console.in") >"$TF_TMP/console.out" \
  2>"$TF_TMP/console.err" || { cat "$TF_TMP/console.out" "$TF_TMP/console.err"; fail "terraform console failed"; }
[ "$(cat "$TF_TMP/console.out")" = 6 ] || fail "console printed '$(cat "$TF_TMP/console.out")', expected 6"

step "a bad argument is an error at its line, with the accepted values"
tf_write bad.tf <<'EOF_TF'
output "bad_platform" {
  value = provider::nsxalb::recommend("nsx", { l7_rps = 1 })
}

output "bad_key" {
  value = provider::nsxalb::recommend("vcenter", { l7rps = 1 })
}
EOF_TF
emu_reset_counters
tf_fails plan
emu_counters | assert_json '[.requests | to_entries[] | select(.key | test("^(POST|PUT|DELETE) /api/")) | .value] | add // 0' 0 -
assert_contains "$TF_OUT" "Invalid function argument"
assert_contains "$TF_OUT" "on bad.tf line 2, in output \"bad_platform\""
assert_contains "$TF_OUT" 'Invalid value for "platform" parameter: Unknown platform "nsx": the'
assert_contains "$TF_OUT" "on bad.tf line 6, in output \"bad_key\""
assert_contains "$TF_OUT" 'Invalid value for "workload" parameter: workload has no key "l7rps"'
assert_contains "$TF_OUT" "l7_rps"
rm "$TF_WORK/bad.tf"

step "a call over a value known only after apply plans unknown, then applies"
tf_write later.tf <<'EOF_TF'
resource "terraform_data" "demand" {
  input = 40000
}

resource "terraform_data" "later" {
  input = provider::nsxalb::recommend("vcenter", { ssl_tps_ecc = terraform_data.demand.output }).vcpus_per_se
}
EOF_TF
tf plan -out=later.plan
assert_contains "$TF_OUT" "input  = (known after apply)"
assert_contains "$TF_OUT" "2 to add, 0 to change, 0 to destroy."
emu_reset_counters
tf apply later.plan
emu_counters | assert_json '[.requests | to_entries[] | select(.key | test("^(POST|PUT|DELETE) /api/")) | .value] | add // 0' 0 -
tf state show terraform_data.later
want=$(jq -c '.recommendation.settings.vcpus_per_se.value' \
  <("$TF_PROVIDER_BINARY" size --platform vcenter --ssl-tps-ecc 40000 --json))
assert_contains "$TF_OUT" "input  = $want"
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
step "examples/functions: each example plans and applies"
for example in "$SOURCE_DIR"/examples/functions/*/function.tf; do
  name=$(basename "$(dirname "$example")")
  dir=example-$name
  mkdir -p "$TF_WORK/$dir"
  cp "$example" "$TF_WORK/$dir/main.tf"
  grep -q required_providers "$TF_WORK/$dir/main.tf" || cp "$TF_WORK/versions.tf" "$TF_WORK/$dir/"
  tf -chdir="$dir" init
  tf -chdir="$dir" apply -auto-approve
  assert_contains "$TF_OUT" "Apply complete!"
  # The check example's settings are under-sized on purpose: its check block says so.
  [ "$name" != check ] || assert_contains "$TF_OUT" 'Check block assertion failed'
done
pass
