#!/usr/bin/env bash
# Scenario 1: a group with only a workload plans its sizing as known values; a hand-sized group
# that cannot carry its workload warns at the line of the hand-set attribute; apply creates both
# with one POST each, and the next plan has no changes.
source "$(dirname "$0")/lib.sh" "$@"

# The configuration is the README's quick start, so the README shows what users get (and
# examples/quickstart/main.tf, which scripts/demo runs).
readme_block() { sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "$SOURCE_DIR/README.md" | sed '1,2d;$d' | sed '$d'; }
readme_block quickstart-hcl | tf_write main.tf
grep -q 'resource "nsxalb_se_group" "tls"' "$TF_WORK/main.tf" || fail "no quick start HCL in README.md"
# examples/quickstart (what scripts/demo runs) is the same configuration, line for line.
diff -u "$TF_WORK/main.tf" "$SOURCE_DIR/examples/quickstart/main.tf" ||
  fail "examples/quickstart/main.tf differs from the README's quick start"
vcpus_line=$(grep -n 'vcpus_per_se = 2' "$TF_WORK/main.tf" | cut -d: -f1)

tf init
step "validate: the platform is written, but the provider's policy decides, so plan reports it"
tf validate
assert_contains "$TF_OUT" "The configuration is valid."

step "plan: known sizing, and the warning at the vcpus_per_se line"
tf plan -out=tfplan
assert_contains "$TF_OUT" "Plan: 2 to add, 0 to change, 0 to destroy."
assert_contains "$TF_OUT" "Warning: "
assert_contains "$TF_OUT" "on main.tf line $vcpus_line, in resource \"nsxalb_se_group\" \"tls\":"
assert_contains "$TF_OUT" "$vcpus_line:   vcpus_per_se = 2"
assert_contains "$TF_OUT" "demand-within-capacity"
assert_contains "$TF_OUT" '+ vcpus_per_se              = 6'
plan_out=$TF_OUT

step "the README's plan excerpt is what terraform printed, resource by resource and in order"
readme_block plan-excerpt >"$TF_TMP/excerpt.txt"
[ -s "$TF_TMP/excerpt.txt" ] || fail "no plan excerpt in README.md"
# A block per resource ("  # nsxalb_se_group.web will be created"), per diagnostic ("Warning: ..."
# down to the next header) and for the summary ("Plan: ...").
assert_excerpt "$plan_out" "$TF_TMP/excerpt.txt" '^(  # [^ ]+ |(Warning|Error): |Plan: |Changes to Outputs:)'

tf show -json tfplan
web='.resource_changes[] | select(.address == "nsxalb_se_group.web") | .change'
tls='.resource_changes[] | select(.address == "nsxalb_se_group.tls") | .change'
assert_json "$web.after.vcpus_per_se" 6
assert_json "$web.after.platform" '"nsxt"'
assert_json "$web.after_unknown.vcpus_per_se // false" false
for attr in memory_per_se disk_per_se num_dispatcher_cores max_queues_per_vnic max_se; do
  assert_json "$web.after.$attr | type" '"number"'
  assert_json "$web.after_unknown.$attr // false" false
done
assert_json "$web.after.sizing.profile" '"nsxt"'
# An HTTPS mix: requests and handshakes share one CPU budget, 2 SEs of 6 vCPUs at 71.4%.
assert_json "$web.after.sizing.se_count" 2
assert_json "$web.after.sizing.binding_metric" '"cpu"'
assert_json "$web.after.sizing.utilization_pct" 71.4
assert_json "$web.after.max_se" 3
assert_json "$web.after.min_scaleout_per_vs" 2
assert_json "$web.after.sizing.summary | test(\"150,000 L7 RPS \\\\+ 8,000 ECC SSL TPS at 71.4% CPU\")" true
assert_json "$tls.after.vcpus_per_se" 2
assert_json "$tls.after.sizing.findings | map(test(\"demand-within-capacity\")) | any" true

step "apply: one POST per group"
emu_reset_counters
tf apply -auto-approve tfplan
assert_contains "$TF_OUT" "Apply complete! Resources: 2 added, 0 changed, 0 destroyed."
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 2 -
uuid=$(cd "$TF_WORK" && terraform show -json | jq -r '.values.root_module.resources[] | select(.address == "nsxalb_se_group.web") | .values.id')
emu_api GET "/api/serviceenginegroup/$uuid" >"$TF_TMP/web.json"
assert_json '.vcpus_per_se' 6 "$TF_TMP/web.json"
assert_json '.name' '"web"' "$TF_TMP/web.json"

step "the next plan has no changes"
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
pass
