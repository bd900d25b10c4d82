#!/usr/bin/env bash
# Upgrades that change nothing (docs/design/se-group-resource.md, "Upgrades plan no change"): for
# every fixture in tests/upgrade/fixtures/ (the state and the Controller objects an earlier
# release left behind, recorded by scripts/record-upgrade-fixture), this build of the provider,
# after terraform init -upgrade:
#   * plans no change: plan -detailed-exitcode exits 0, and the Controller sees no write;
#   * still warns at the HCL line of the under-sized group, in TODAY's wording (below), never in
#     the recorded one where the two differ;
#   * applies nothing ("0 added, 0 changed, 0 destroyed", no write), and the state it writes has
#     the current schema version and the `sizing` the release recorded (with the service_units
#     the upgrade fills in, for a release that recorded none): its tls finding keeps the recorded
#     wording, not today's.
# A fixture recorded with running SEs (fixture.json's "setup", tests/upgrade/setups/; its *.tf
# beside main.tf) also shows that the emulator serves its SEs and virtual services as recorded,
# that each group whose SEs lag warns ses-behind-settings in the plan and no other group does, and
# that the state keeps the recorded service_engines and last_rollout: running SEs behind the
# settings, and a roll a release finished, are no diff. running-ses must hold both.
# A change to the schema or to the plan that would give an upgrading user a diff fails here.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "$@"

schema_version=$(jq .version "$SOURCE_DIR/provider_schema/resources/nsxalb_se_group.json")
# Today's wording of the tls group's demand-within-capacity finding, as this build says it in a
# plan (a change to the wording changes it here). 0.1.0 at bbd8d21 wrote "2 vCPUs deliver 5,800".
today_tls="1 SE of 2 vCPUs delivers 5,800 ECC SSL TPS (vcenter, measured); the workload needs 8,000"
# tls_detail STATE: the detail of the tls group's demand-within-capacity finding in STATE (the
# finding is "warning [vcpus_per_se] demand-within-capacity: SUMMARY. DETAIL").
tls_detail() {
  jq -r '.resources[] | select(.type == "nsxalb_se_group" and .name == "tls")
    | .instances[0].attributes.sizing.findings[] | select(contains("demand-within-capacity"))
    | sub("^.*? needed\\. "; "")' "$1"
}
# recorded_ses STATE: each group that recorded service_engines in STATE, with its last_rollout, as
# one compact JSON list ({name, service_engines, last_rollout}, by name).
recorded_ses() {
  jq -c '[.resources[] | .instances[0].attributes | select(.service_engines != null)
    | {name, service_engines, last_rollout}] | sort_by(.name)' "$1"
}
# emu_placements: the emulator's SEs ({uuid, name, resources}) and virtual services ({uuid, name,
# se_uuids}) as one compact JSON object; emu_placements FILE: the same of a controller.json.
emu_placements() {
  local filter='{ses: [.serviceengine[]? | {uuid, name, resources}] | sort_by(.uuid),
    vss: [.virtualservice[]? | {uuid, name, se_uuids: (.se_uuids | sort)}] | sort_by(.uuid)}'
  if [ $# -gt 0 ]; then
    jq -c ".objects | $filter" "$1"
  else
    jq -c -n --argjson state "$(emu_get /_emulator/state)" \
      --argjson vss "$(emu_control GET virtualservices)" "\$state + {virtualservice: \$vss.results} | $filter"
  fi
}
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
  cp "$fixture"/*.tf "$fixture/terraform.tfstate" "$TF_WORK/"
  tfm_write_versions_tf "$TF_WORK/versions.tf"
  groups=$(jq '[.resources[] | select(.type == "nsxalb_se_group")] | length' "$fixture/terraform.tfstate")
  [ "$groups" -ge 4 ] || fail "$label: the fixture's state holds $groups SE groups, not 4"
  recorded_running=$(recorded_ses "$fixture/terraform.tfstate")
  # name RUNNING LAGGING of each group whose SEs lag, one a line.
  lagging_groups=$(jq -r '.[] | select(.service_engines.lagging | length > 0)
    | "\(.name) \(.service_engines.running) \(.service_engines.lagging | length)"' <<<"$recorded_running")
  placements=$(emu_placements "$fixture/controller.json")
  if [ "$(jq -r '.setup // ""' "$fixture/fixture.json")" = running-ses ]; then
    [ "$(wc -l <<<"$lagging_groups")" -ge 2 ] ||
      fail "$label: running-ses records fewer than 2 groups with lagging SEs: $recorded_running"
    jq -e 'any(.[]; .last_rollout.result == "complete" and .service_engines.running > 0
      and (.service_engines.lagging | length) == 0)' <<<"$recorded_running" >/dev/null ||
      fail "$label: running-ses records no group its rolling rollout completed: $recorded_running"
    jq -e '(.vss | length) > 0 and ([.vss[].se_uuids[]] | unique) == [.ses[].uuid]' \
      <<<"$placements" >/dev/null ||
      fail "$label: running-ses's controller.json has an SE without a virtual service: $placements"
  fi
  [ "$(emu_placements)" = "$placements" ] ||
    fail "$label: the emulator does not serve the recorded SEs and virtual services: $(emu_placements)"

  step "$label: terraform init -upgrade installs this build ($TF_PROVIDER_VERSION)"
  tf init -upgrade
  assert_contains "$TF_OUT" "Installed nsxalb/nsxalb v$TF_PROVIDER_VERSION"

  step "$label: plan -detailed-exitcode exits 0, with the under-sizing warning, and writes nothing"
  emu_reset_counters
  tf plan -detailed-exitcode
  assert_contains "$TF_OUT" "No changes. Your infrastructure matches the configuration."
  assert_says "$TF_OUT" "with nsxalb_se_group.tls,"
  assert_says "$TF_OUT" "demand-within-capacity"
  recorded_tls=$(tls_detail "$fixture/terraform.tfstate")
  [ -n "$recorded_tls" ] || fail "$label: the fixture's tls group records no demand-within-capacity"
  assert_says "$TF_OUT" "$today_tls"
  # The recorded wording, where it differs from today's, is not what the plan says.
  case "$recorded_tls" in
    *"$today_tls"*) ;;
    *) assert_not_says "$TF_OUT" "$recorded_tls" ;;
  esac
  writes=$(emu_writes)
  [ "$writes" = 0 ] || { emu_counters >&2; fail "$label: the plan made $writes writes"; }
  # Each group whose SEs lag warns ses-behind-settings ("3 of lagging's 3 running SEs lag its
  # settings"), and only those.
  while read -r name running lagging; do
    [ -n "$name" ] || continue
    assert_says "$TF_OUT" "$lagging of $name's $running running SEs lag its settings"
  done <<<"$lagging_groups"
  warned=$(tr -s '[:space:]' ' ' <"$TF_OUT" | { grep -o 'rule ses-behind-settings' || true; } | wc -l)
  [ "$warned" = "$(grep -c . <<<"$lagging_groups" || true)" ] ||
    fail "$label: $warned ses-behind-settings warnings, for the groups with lagging SEs: ${lagging_groups:-none}"

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
  # The state keeps the recorded wording of the tls finding, and today's only where they agree.
  [ "$(tls_detail "$TF_WORK/terraform.tfstate")" = "$recorded_tls" ] ||
    fail "$label: the state's tls finding is not the recorded one: $(tls_detail "$TF_WORK/terraform.tfstate")"
  case "$recorded_tls" in
    *"$today_tls"*) ;;
    *) if grep -qF -- "$today_tls" "$TF_WORK/terraform.tfstate"; then
      fail "$label: the state took today's wording of the tls finding"
    fi ;;
  esac
  # The running SEs and the last roll as the release recorded them, and the Controller's SEs and
  # virtual services untouched.
  assert_json "[.resources[] | .instances[0].attributes
    | select(.name | IN($(jq -c '[.[].name]' <<<"$recorded_running")[]))
    | {name, service_engines, last_rollout}] | sort_by(.name)" "$recorded_running" "$TF_WORK/terraform.tfstate"
  [ "$(emu_placements)" = "$placements" ] ||
    fail "$label: the Controller's SEs or virtual services changed: $(emu_placements)"
  assert_nothing_lost
done
pass
