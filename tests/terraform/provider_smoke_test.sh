#!/usr/bin/env bash
# Scenario: the real terraform installs the provider from a filesystem mirror, starts it
# (go-plugin handshake with automatic mutual TLS), reads its schema and plans a configuration that
# holds only a provider block. Nothing in that needs the Controller, so the emulator sees no
# request. A marker password must appear in no output and no trace log.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF'
provider "nsxalb" {}
EOF

step "init from the filesystem mirror"
tf init
assert_contains "$TF_OUT" "Installed nsxalb/nsxalb v$TF_PROVIDER_VERSION (unauthenticated)"
assert_contains "$TF_WORK/.terraform.lock.hcl" "provider \"$TF_PROVIDER_SOURCE\""

step "validate"
tf validate
assert_contains "$TF_OUT" "The configuration is valid."

step "providers schema -json: the provider block is provider_schema/provider.json"
tf providers schema -json
p=".provider_schemas[\"$TF_PROVIDER_SOURCE\"]"
assert_json "$p.provider.block.attributes.controller.type" '"string"'
assert_json "$p.provider.block.attributes.password.sensitive" true
assert_json "$p.resource_schemas | keys" '["nsxalb_se_group"]'
assert_json "$p.data_source_schemas | keys" '["nsxalb_cloud","nsxalb_license_usage","nsxalb_se_group","nsxalb_se_group_usage","nsxalb_se_groups_usage","nsxalb_se_sizing"]'
assert_json "[$p.resource_schemas[], $p.data_source_schemas[] | .block.description | length > 40] | all" true
assert_json "[$p.resource_schemas[], $p.data_source_schemas[] | .block.attributes[] | .description | length > 0] | all" true
jq -S "$p.provider" "$TF_STDOUT" >"$TF_TMP/provider_seen.json"
jq -S 'del(.. | .nsxalb?)' "$SOURCE_DIR/provider_schema/provider.json" >"$TF_TMP/provider_source.json"
diff -u "$TF_TMP/provider_source.json" "$TF_TMP/provider_seen.json" ||
  fail "the provider schema Terraform sees differs from provider_schema/provider.json"

step "plan of a provider block alone: no changes"
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "nothing contacted the Controller"
emu_counters | assert_json '.total' 0 -

step "a marker password leaks into no output or trace log"
marker="leak-marker-$RANDOM$RANDOM"
export NSXALB_PASSWORD=$marker TF_LOG=trace TF_LOG_PATH=$TF_TMP/trace.log
tf validate
tf providers schema -json
tf plan
unset TF_LOG TF_LOG_PATH
# The trace log is from the right run: the provider served with mutual TLS and answered.
assert_contains "$TF_TMP/trace.log" "configuring client automatic mTLS"
assert_contains "$TF_TMP/trace.log" "with mutual TLS"
assert_contains "$TF_TMP/trace.log" "GRPCProvider: GetProviderSchema"
for f in "$TF_OUT_DIR"/* "$TF_TMP/trace.log" "$TF_TMP/emulator.log"; do
  assert_not_contains "$f" "$marker"
done
emu_counters | assert_json '.total' 0 -

pass
