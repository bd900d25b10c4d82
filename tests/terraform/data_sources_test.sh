#!/usr/bin/env bash
# Scenario 10: the nsxalb_cloud and nsxalb_se_group data sources read existing objects (the
# emulator's clouds and Default-Group); an ambiguous group name is an error that lists the clouds.
source "$(dirname "$0")/lib.sh" "$@"

tf_write main.tf <<'EOF'
provider "nsxalb" {}

data "nsxalb_cloud" "nsxt" {
  name = "nsxt-cloud"
}

data "nsxalb_se_group" "default" {
  name  = "Default-Group"
  cloud = data.nsxalb_cloud.nsxt.name
}

output "cloud" {
  value = data.nsxalb_cloud.nsxt
}

output "group" {
  value = data.nsxalb_se_group.default
}
EOF
tf init
tf apply -auto-approve
tf output -json
assert_json '.cloud.value.vtype' '"CLOUD_NSXT"'
assert_json '.cloud.value.platform' '"nsxt"'
assert_json '.cloud.value.id | startswith("cloud-")' true
assert_json '.group.value.cloud' '"nsxt-cloud"'
assert_json '.group.value.platform' '"nsxt"'
assert_json '.group.value.tenant' '"admin"'
assert_json '.group.value.id | startswith("serviceenginegroup-")' true
assert_json '.group.value.vcpus_per_se | type' '"number"'

step "Default-Group without a cloud is ambiguous: the error lists the clouds"
sed -i 's/^  cloud = data.nsxalb_cloud.nsxt.name$//' "$TF_WORK/main.tf"
tf_fails plan
assert_contains "$TF_OUT" "Default-Cloud"
assert_contains "$TF_OUT" "nsxt-cloud"

step "a cloud that does not exist"
sed -i 's/name = "nsxt-cloud"/name = "no-such-cloud"/' "$TF_WORK/main.tf"
tf_fails plan
assert_contains "$TF_OUT" "Cloud not found"
pass
