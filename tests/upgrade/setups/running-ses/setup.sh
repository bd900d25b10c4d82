#!/usr/bin/env bash
# The running-ses setup of scripts/record-upgrade-fixture: the groups of running_ses.tf with SEs
# running and virtual services placed on them, as a Controller holds them once the settings
# changed. Run by the script (see its header) in the work directory, with the release's provider
# installed and the emulator running; the script then applies the configuration as written.
#   1. applies the groups as they were before the change (an override file: 2 vCPUs, 2,048 MB);
#   2. has the Controller run their SEs at those settings (lagging 3, held 2, rolled 2) and
#      places 2 virtual services on each SE (max_vs_per_se = 2: full, so a disabled SE's virtual
#      services need a new SE, at the group's settings);
#   3. removes the override: the script's apply then writes the new settings; lagging's and
#      held's SEs keep their shape (strategy "none"), rolled's are replaced (strategy "rolling").
set -euo pipefail
cat >before_change_override.tf <<'TF'
resource "nsxalb_se_group" "lagging" {
  vcpus_per_se = 2
}
resource "nsxalb_se_group" "held" {
  memory_per_se = 2048
}
resource "nsxalb_se_group" "rolled" {
  vcpus_per_se = 2
}
TF
terraform apply -auto-approve -input=false -no-color | tail -n 1
rm before_change_override.tf

control() {  # control METHOD PATH [BODY]: the emulator's control endpoint
  curl -sS --fail-with-body --cacert "$EMU_CA_FILE" -X "$1" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$EMU_URL/_emulator/$2"
}
for group_ses in lagging:3 held:2 rolled:2; do
  name=${group_ses%:*} count=${group_ses#*:}
  uuid=$(jq -r --arg n "$name" '.resources[] | select(.type == "nsxalb_se_group" and .name == $n)
    | .instances[0].attributes.id' terraform.tfstate)
  control POST serviceengines "{\"se_group_uuid\":\"$uuid\",\"count\":$count}" >/dev/null
  control POST virtualservices "{\"se_group\":\"$uuid\",\"count\":$((2 * count))}" >/dev/null
done
control GET virtualservices | jq -r '.results | group_by(.se_group_uuid)[]
  | "   \(length) virtual services on \([.[].se_uuids[]] | unique | length) SEs (group \(.[0].se_group_uuid))"'
