#!/usr/bin/env bash
# Upgrades that change nothing (docs/design/se-group-resource.md, "Upgrades plan no change"): for
# every fixture in tests/upgrade/fixtures/ (the state and the Controller objects an earlier
# release left behind, recorded by scripts/record-upgrade-fixture), this build of the provider,
# after terraform init -upgrade:
#   * plans no change: plan -detailed-exitcode exits 0, and the Controller sees no write;
#   * still warns at the HCL line of the under-sized group (today's wording);
#   * applies nothing ("0 added, 0 changed, 0 destroyed", no write), and the state it writes has
#     the current schema version and the `sizing` the release recorded (with the service_units
#     the upgrade fills in, for a release that recorded none).
# A change to the schema or to the plan that would give an upgrading user a diff fails here.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "$@"

schema_version=$(jq .version "$SOURCE_DIR/provider_schema/resources/nsxalb_se_group.json")
fixtures=()
for dir in "$SOURCE_DIR"/tests/upgrade/fixtures/*/; do fixtures+=("${dir%/}"); done
[ ${#fixtures[@]} -gt 0 ] || fail "no fixtures under tests/upgrade/fixtures"

for fixture in "${fixtures[@]}"; do
  label=$(basename "$fixture")
  step "$label: the Controller objects and the state $(jq -r .version "$fixture/fixture.json") left"
  cp "$fixture/controller.json" "$TF_TMP/controller-$label.json"
  emu_restart --state "$TF_TMP/controller-$label.json"
  TF_WORK=$TF_TMP/work-$label
  mkdir -p "$TF_WORK"
  cp "$fixture/main.tf" "$fixture/terraform.tfstate" "$TF_WORK/"
  tfm_write_versions_tf "$TF_WORK/versions.tf"
  groups=$(jq '[.resources[] | select(.type == "nsxalb_se_group")] | length' "$fixture/terraform.tfstate")
  [ "$groups" -ge 4 ] || fail "$label: the fixture's state holds $groups SE groups, not 4"

  step "$label: terraform init -upgrade installs this build ($TF_PROVIDER_VERSION)"
  tf init -upgrade
  assert_contains "$TF_OUT" "Installed nsxalb/nsxalb v$TF_PROVIDER_VERSION"

  step "$label: plan -detailed-exitcode exits 0, with the under-sizing warning, and writes nothing"
  emu_reset_counters
  tf plan -detailed-exitcode
  assert_contains "$TF_OUT" "No changes. Your infrastructure matches the configuration."
  assert_says "$TF_OUT" "with nsxalb_se_group.tls,"
  assert_says "$TF_OUT" "demand-within-capacity"
  writes=$(emu_writes)
  [ "$writes" = 0 ] || { emu_counters >&2; fail "$label: the plan made $writes writes"; }

  step "$label: apply changes nothing; the state moves to schema version $schema_version"
  tf apply -auto-approve
  assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 0 changed, 0 destroyed."
  writes=$(emu_writes)
  [ "$writes" = 0 ] || { emu_counters >&2; fail "$label: the apply made $writes writes"; }
  assert_json "[.resources[] | select(.type == \"nsxalb_se_group\") | .instances[0].schema_version] | unique" \
    "[$schema_version]" "$TF_WORK/terraform.tfstate"
  # The sizing the release recorded; service_units, which 0.1.0 did not record, is what the
  # upgrade step filled: max_se x vcpus_per_se (rule service-units-at-planned-scale).
  without_units='[.resources[] | {name, sizing: (.instances[0].attributes.sizing | if . == null then null else del(.service_units) end)}]'
  recorded=$(jq -c "$without_units" "$fixture/terraform.tfstate")
  assert_json "$without_units" "$recorded" "$TF_WORK/terraform.tfstate"
  assert_json '[.resources[] | .instances[0].attributes | select(.sizing != null) | .sizing.service_units == .max_se * .vcpus_per_se] | all' \
    true "$TF_WORK/terraform.tfstate"
  assert_nothing_lost
done
pass
