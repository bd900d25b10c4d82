#!/usr/bin/env bash
# Scenario: an SE group in a cloud whose type has no sizing profile (CLOUD_NONE, "No
# Orchestrator") cannot derive its platform: the plan fails with an error that says to set
# platform; with platform set it plans. The emulator starts from a state with such a cloud.
state_dir=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-state-XXXXXX")
cat >"$state_dir/state.json" <<'EOF2'
{"format": 1, "last_modified": 1, "objects": {
  "tenant": [{"uuid": "admin", "name": "admin", "local": true, "description": "",
              "tenant_ref": "admin"}],
  "cloud": [{"uuid": "cloud-8a0b0c1d-0000-4000-8000-000000000001", "name": "no-orchestrator",
             "vtype": "CLOUD_NONE", "tenant_ref": "admin"}],
  "serviceenginegroup": []}}
EOF2
EMU_ARGS=(--state "$state_dir/state.json")
source "$(dirname "$0")/lib.sh" "$@"
mv "$state_dir/state.json" "$TF_TMP/state.json" 2>/dev/null; rmdir "$state_dir"

tf_write main.tf <<'EOF2'
resource "nsxalb_se_group" "edge" {
  name  = "edge"
  cloud = "no-orchestrator"

  workload {
    l7_rps = 50000
  }
}

data "nsxalb_cloud" "none" {
  name = "no-orchestrator"
}
EOF2
tf init

step "platform unset in a CLOUD_NONE cloud: an error that says to set it"
tf_fails plan
assert_contains "$TF_OUT" "Error: Set platform for this cloud"
assert_contains "$TF_OUT" "is of type CLOUD_NONE"
assert_contains "$TF_OUT" "Set platform = \"vcenter\" or"

step "with platform set it plans, sized; the cloud data source has a null platform"
sed -i 's/^  cloud = "no-orchestrator"$/  cloud    = "no-orchestrator"\n  platform = "vcenter"/' "$TF_WORK/main.tf"
tf plan -out=tfplan
assert_contains "$TF_OUT" "Plan: 1 to add"
tf show -json tfplan
assert_json '.resource_changes[] | select(.address == "nsxalb_se_group.edge") | .change.after.vcpus_per_se' 2
assert_json '.prior_state.values.root_module.resources[] | select(.address == "data.nsxalb_cloud.none") | .values.platform' null
pass
