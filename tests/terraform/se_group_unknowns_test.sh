#!/usr/bin/env bash
# Values unknown at validate (variables) or at plan (another resource's attributes) are skipped,
# never errors: validate passes, plan reports the finding once, and a workload that depends on
# another resource plans its sizing as "known after apply" and applies the recommendation; a
# group without a workload takes the Controller's defaults.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF'
variable "platform" {
  type = string
}

variable "tps" {
  type = number
}

resource "nsxalb_se_group" "edge" {
  name         = "edge"
  platform     = var.platform
  vcpus_per_se = 2

  workload {
    ssl_tps_ecc = var.tps
  }
}

resource "nsxalb_se_group" "plain" {
  name = "plain-no-workload"
}

resource "nsxalb_se_group" "follower" {
  name = "follower-${nsxalb_se_group.edge.id}"

  workload {
    l7_rps = 40000 + length(nsxalb_se_group.edge.id)
  }
}
EOF
tf init
step "validate: the variables are unknown, nothing is judged"
tf validate
assert_contains "$TF_OUT" "The configuration is valid."

step "plan: the warning appears once; the follower's sizing is known after apply"
tf plan -var platform=vcenter -var tps=8000
assert_contains "$TF_OUT" "demand-within-capacity"
[ "$(grep -c '^Warning: ' "$TF_OUT")" -eq 1 ] || fail "expected exactly one warning"
assert_contains "$TF_OUT" "+ vcpus_per_se              = (known after apply)"

step "apply: the follower gets the recommendation computed at apply"
tf apply -auto-approve -var platform=vcenter -var tps=8000
tf show -json
assert_json '[.values.root_module.resources[] | select(.name == "follower") | .values.vcpus_per_se | type] | .[0]' '"number"'
assert_json '[.values.root_module.resources[] | select(.name == "follower") | .values.sizing.binding_metric] | .[0]' '"l7_rps"'
step "without a workload, the sizing attributes are the Controller's defaults, and sizing is null"
assert_json '[.values.root_module.resources[] | select(.name == "plain") | .values | [.memory_per_se, .vcpus_per_se, .max_se, .sizing]] | .[0]' '[2048,1,10,null]'
tf plan -detailed-exitcode -var platform=vcenter -var tps=8000
assert_contains "$TF_OUT" "No changes."
tf destroy -auto-approve -var platform=vcenter -var tps=8000
pass
