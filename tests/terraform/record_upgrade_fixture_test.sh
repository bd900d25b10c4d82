#!/usr/bin/env bash
# scripts/record-upgrade-fixture writes a fixture only when the upgrade to this build plans clean
# (issue 39): the replay tests (upgrade_fixtures_test.sh) require it, so a fixture that does not
# would fail them from the day it is committed. With this build as the "release":
#   * the quick start's configuration plans clean: the fixture is written (state, objects, meta);
#   * the same label again: refused (exit 2), the fixture untouched;
#   * with a SETUP (a folder of tests/upgrade/setups/: a *.tf and a setup.sh that runs an SE and
#     places a virtual service on it): the fixture keeps the setup's *.tf beside main.tf, names
#     the setup in fixture.json, and its controller.json holds the SE and the virtual service;
#     an unknown SETUP is refused (exit 2);
#   * a configuration whose upgrade plans a change (a description = timestamp()): refused
#     (exit 1) with the plan's exit code in the message, and no fixture written.
# The script runs from a copy of what it reads (scripts/, CMakeLists.txt, tests/upgrade/main.tf),
# so nothing is written into the source tree.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "$@"

build_dir=$(cd "$(dirname "$TF_PROVIDER_BINARY")/.." && pwd)
root=$TF_TMP/root
mkdir -p "$root/tests/upgrade"
cp -r "$SOURCE_DIR/scripts" "$root/"
cp "$SOURCE_DIR/CMakeLists.txt" "$root/"
cp "$SOURCE_DIR/tests/upgrade/main.tf" "$root/tests/upgrade/main.tf"
fixtures=$root/tests/upgrade/fixtures

# record LABEL [SETUP]: runs the script for LABEL (and SETUP) with this build as the release;
# sets rc, output in $TF_TMP/record.out. The scenario's own emulator is left alone (the script
# starts its own).
record() {
  rc=0
  env -u EMU_PID -u EMU_URL -u EMU_CA_FILE BUILD_DIR="$build_dir" \
    "$root/scripts/record-upgrade-fixture" "$TF_PROVIDER_BINARY" "$1" "${1#*-}" ${2:+"$2"} \
    >"$TF_TMP/record.out" 2>&1 || rc=$?
}

step "an upgrade that plans clean: the fixture is written"
record 0.2.0-abcdef0
[ "$rc" = 0 ] || { cat "$TF_TMP/record.out" >&2; fail "the script exited with $rc"; }
assert_contains "$TF_TMP/record.out" "plan -detailed-exitcode: 0"
for file in main.tf terraform.tfstate controller.json fixture.json; do
  [ -s "$fixtures/0.2.0-abcdef0/$file" ] || fail "the fixture has no $file"
done
assert_json .commit '"abcdef0"' "$fixtures/0.2.0-abcdef0/fixture.json"
assert_json '[.resources[] | select(.type == "nsxalb_se_group")] | length' 4 \
  "$fixtures/0.2.0-abcdef0/terraform.tfstate"
sum=$(cat "$fixtures/0.2.0-abcdef0"/* | md5sum)

step "the same label again: refused, the fixture untouched"
record 0.2.0-abcdef0
[ "$rc" = 2 ] || { cat "$TF_TMP/record.out" >&2; fail "the script exited with $rc, not 2"; }
assert_contains "$TF_TMP/record.out" "a recorded fixture is not overwritten"
[ "$(cat "$fixtures/0.2.0-abcdef0"/* | md5sum)" = "$sum" ] || fail "the fixture changed"

step "a setup: its configuration beside main.tf, its SE and virtual service in controller.json"
setup_dir=$root/tests/upgrade/setups/probe
mkdir -p "$setup_dir"
cat >"$setup_dir/probe.tf" <<'TF'
resource "nsxalb_se_group" "probe" {
  name         = "probe"
  cloud        = "nsxt-cloud"
  vcpus_per_se = 2
}
TF
cat >"$setup_dir/setup.sh" <<'SH'
set -euo pipefail
terraform apply -auto-approve -input=false -no-color >/dev/null
uuid=$(jq -r '.resources[] | select(.name == "probe") | .instances[0].attributes.id' terraform.tfstate)
for call in "serviceengines {\"se_group_uuid\":\"$uuid\",\"count\":1}" \
  "virtualservices {\"se_group\":\"$uuid\",\"count\":1}"; do
  curl -sS --fail-with-body --cacert "$EMU_CA_FILE" -H 'Content-Type: application/json' \
    -d "${call#* }" "$EMU_URL/_emulator/${call%% *}" >/dev/null
done
SH
record 0.2.0-abcdef2 probe
[ "$rc" = 0 ] || { cat "$TF_TMP/record.out" >&2; fail "the script exited with $rc"; }
assert_contains "$TF_TMP/record.out" "tests/upgrade/setups/probe/setup.sh"
[ "$(cd "$fixtures/0.2.0-abcdef2" && echo *.tf)" = "main.tf probe.tf" ] ||
  fail "the fixture's configuration is not main.tf and probe.tf: $(ls "$fixtures/0.2.0-abcdef2")"
assert_json .setup '"probe"' "$fixtures/0.2.0-abcdef2/fixture.json"
assert_json '.resources[] | select(.name == "probe") | .instances[0].attributes.service_engines
  | [.running, .matching]' '[1,1]' "$fixtures/0.2.0-abcdef2/terraform.tfstate"
assert_json '.objects | [.serviceengine[0].uuid] == [.virtualservice[0].se_uuids[]]' true \
  "$fixtures/0.2.0-abcdef2/controller.json"
record 0.2.0-abcdef3 no-such-setup
[ "$rc" = 2 ] || { cat "$TF_TMP/record.out" >&2; fail "the script exited with $rc, not 2"; }
assert_contains "$TF_TMP/record.out" "SETUP must name a folder of tests/upgrade/setups/"

step "an upgrade that plans a change: refused, nothing written"
cat >"$root/tests/upgrade/main.tf" <<'TF'
resource "nsxalb_se_group" "manual" {
  name         = "manual"
  description  = timestamp()
  vcpus_per_se = 4
  max_se       = 4
}
TF
record 0.2.0-abcdef1
[ "$rc" = 1 ] || { cat "$TF_TMP/record.out" >&2; fail "the script exited with $rc, not 1"; }
assert_contains "$TF_TMP/record.out" \
  "record-upgrade-fixture: the upgrade to this build does not plan clean (plan -detailed-exitcode 2"
assert_contains "$TF_TMP/record.out" "no fixture written"
[ ! -e "$fixtures/0.2.0-abcdef1" ] || fail "the script wrote $fixtures/0.2.0-abcdef1"
pass
