# shellcheck shell=bash
# Helpers for the scenarios that move avi_serviceenginegroup (vmware/avi) to nsxalb_se_group.
# Source after lib.sh; the scenario must keep NSXALB_AVI_STANDIN_BINARY in AVI_STANDIN before
# sourcing lib.sh (which unsets every NSXALB_* variable).
#
#   avi_setup                  installs the vmware/avi stand-in (tests/terraform/avi_standin) into
#                              the mirror and writes versions.tf and providers.tf for both
#                              providers
#   avi_create_group NAME      with AVI_STANDIN_RELEASE_LINE as exported ("20.1" or "current"):
#                              a fresh state with avi_serviceenginegroup.web called NAME on
#                              nsxt-cloud, sized with provider::nsxalb::recommend("nsxt",
#                              { l7_rps = 150000 }), with AVI_GROUP_EXTRA_HCL (attribute lines)
#                              added to the resource when set; sets AVI_UUID

avi_setup() {
  [ -x "${AVI_STANDIN:-}" ] || fail "the vmware/avi stand-in '${AVI_STANDIN:-}' is not" \
    "executable (NSXALB_AVI_STANDIN_BINARY; CTest sets it)"
  tfm_add_mirrored_provider registry.terraform.io/vmware/avi "$AVI_STANDIN" 31.1.1 "$TF_TMP" ||
    fail "cannot install the vmware/avi stand-in into the mirror"
  tf_write versions.tf <<'EOF_TF'
terraform {
  required_providers {
    nsxalb = { source = "nsxalb/nsxalb" }
    avi    = { source = "vmware/avi" }
  }
}
EOF_TF
  # The password from the environment, as vmware/avi reads AVI_PASSWORD: never in a file (the
  # TRACE scan searches every file a scenario leaves for it).
  export AVI_PASSWORD=$EMU_PASSWORD
  tf_write providers.tf <<EOF_TF
provider "nsxalb" {}

provider "avi" {
  avi_controller = "$EMU_URL"
  avi_username   = "$EMU_USERNAME"
}
EOF_TF
}

avi_create_group() {
  local name=$1
  rm -f "$TF_WORK/terraform.tfstate" "$TF_WORK/terraform.tfstate.backup"
  tf_write main.tf <<EOF_TF
data "avi_cloud" "nsxt" {
  name = "nsxt-cloud"
}

locals {
  web = provider::nsxalb::recommend("nsxt", { l7_rps = 150000 })
}

resource "avi_serviceenginegroup" "web" {
  name          = "$name"
  cloud_ref     = data.avi_cloud.nsxt.id
  vcpus_per_se  = local.web.vcpus_per_se
  memory_per_se = local.web.memory_per_se
  disk_per_se   = local.web.disk_per_se
  max_se        = 2
  ha_mode       = "HA_MODE_SHARED"
${AVI_GROUP_EXTRA_HCL:-}
}
EOF_TF
  tf init -upgrade
  tf apply -auto-approve
  assert_contains "$TF_OUT" "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."
  AVI_UUID=$(jq -r '.resources[] | select(.type == "avi_serviceenginegroup") |
    .instances[0].attributes.uuid' "$TF_WORK/terraform.tfstate")
  [ -n "$AVI_UUID" ] && [ "$AVI_UUID" != null ] || fail "the avi state has no uuid"
  emu_api GET "/api/serviceenginegroup/$AVI_UUID" | assert_json '.vcpus_per_se' 6 -
}
