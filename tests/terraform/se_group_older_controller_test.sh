#!/usr/bin/env bash
# A Controller at 20.1.6, the version of the vCenter performance tables: recommended fields its
# API lacks (hybrid_rss_mode, from 21.1.3) are planned null instead of being sent and refused, so
# apply works and the next plan has no changes.
EMU_ARGS=(--controller-version 20.1.6)
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF'
resource "nsxalb_se_group" "web" {
  name = "web"

  workload {
    ssl_tps_ecc = 8000
  }
}
EOF
tf init
tf plan -out=tfplan
tf show -json tfplan
assert_json '.resource_changes[0].change.after.hybrid_rss_mode' null
assert_json '.resource_changes[0].change.after.vcpus_per_se | type' '"number"'
tf apply -auto-approve tfplan
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."

step "a hand-set field the Controller's API lacks is refused before anything is sent"
emu_reset_counters
tf_write extra.tf <<'EOF'
resource "nsxalb_se_group" "new_field" {
  name            = "new-field"
  platform        = "vcenter"
  hybrid_rss_mode = true
}
EOF
tf_fails apply -auto-approve
assert_contains "$TF_OUT" "hybrid_rss_mode needs Controller API version"
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"] // 0' 0 -
pass
