#!/usr/bin/env bash
# Issue 23: sizing_policy = "enforce" never blocks a destroy, whatever the configuration says.
# A group applied under "warn" (2 vCPUs for 8,000 ECC TPS) is destroyed with `terraform destroy`,
# `terraform apply -destroy` and planned away with `terraform plan -destroy`, under "enforce",
# with the configuration unchanged, edited to another under-sized value (3 vCPUs) and edited to a
# fitting one. Terraform 1.11.4 begins each with a normal-mode plan of the edited configuration
# (PreDestroyRefresh); the provider knows it from the command that started it
# (docs/design/se-group-resource.md, "The enforce gate never blocks a destroy"). A normal plan
# that creates or changes an under-sized group still fails at the attribute's line.
source "$(dirname "$0")/lib.sh" "$@"

# write_config POLICY VCPUS: main.tf with the provider's policy and the group's vcpus_per_se.
write_config() {
  tf_write main.tf <<HCL
provider "nsxalb" {
  sizing_policy = "$1"
}

resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = $2

  workload {
    ssl_tps_ecc = 8000
  }
}
HCL
  line=$(grep -n "vcpus_per_se = $2" "$TF_WORK/main.tf" | cut -d: -f1)
}

# create: the group as the team first applied it, under "warn".
create() {
  write_config warn 2
  tf apply -auto-approve
  assert_groups 1
}

# assert_gate_error VCPUS: a sizing error at main.tf's vcpus_per_se line.
assert_gate_error() {
  assert_says "$TF_OUT" "Error: ECC SSL TPS under-delivered"
  assert_contains "$TF_OUT" "on main.tf line $line, in resource \"nsxalb_se_group\" \"tls\":"
  assert_contains "$TF_OUT" "$line:   vcpus_per_se = $1"
}

tf init
create

step "a normal plan that changes the group to another under-sized value fails at the line"
write_config enforce 3
emu_reset_counters
tf_fails plan
assert_gate_error 3
tf_fails apply -auto-approve
assert_gate_error 3
emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"] // 0' 0 -

# FIT: the vcpus_per_se that carries the workload on one SE.
FIT=6
write_config enforce "$FIT"
tf plan
assert_not_contains "$TF_OUT" "Error"
assert_contains "$TF_OUT" "1 to change"

for vcpus in 2 3 "$FIT"; do
  step "enforce, vcpus_per_se = $vcpus: terraform plan -destroy plans the destroy"
  write_config enforce "$vcpus"
  tf plan -destroy
  assert_not_contains "$TF_OUT" "Error"
  assert_contains "$TF_OUT" "Plan: 0 to add, 0 to change, 1 to destroy."
  assert_groups 1

  step "enforce, vcpus_per_se = $vcpus: terraform apply -destroy removes the group"
  emu_reset_counters
  tf apply -destroy -auto-approve
  assert_not_contains "$TF_OUT" "Error"
  assert_contains "$TF_OUT" "Apply complete! Resources: 0 added, 0 changed, 1 destroyed."
  emu_counters | assert_json '.requests["PUT /api/serviceenginegroup/{uuid}"] // 0' 0 -
  assert_groups 0
  assert_nothing_lost

  create
  step "enforce, vcpus_per_se = $vcpus: terraform destroy removes the group"
  write_config enforce "$vcpus"
  tf destroy -auto-approve
  assert_not_contains "$TF_OUT" "Error"
  assert_contains "$TF_OUT" "Destroy complete! Resources: 1 destroyed."
  assert_groups 0
  assert_nothing_lost
  create
done

step "a normal plan that creates an under-sized group still fails at the line"
tf destroy -auto-approve
write_config enforce 3
emu_reset_counters
tf_fails apply -auto-approve
assert_gate_error 3
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"] // 0' 0 -
assert_groups 0
assert_nothing_lost
pass
