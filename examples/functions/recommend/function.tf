# Size an SE group with the model, whichever provider then creates it. Functions are called on
# an unconfigured provider: no Controller and no credentials are needed.
terraform {
  required_providers {
    nsxalb = { source = "nsxalb/nsxalb" }
  }
}

locals {
  web = provider::nsxalb::recommend("nsxt", { l7_rps = 150000, ssl_tps_ecc = 8000 })
}

# With vmware/avi, the same values feed its SE group resource:
#
#   resource "avi_serviceenginegroup" "web" {
#     name                      = "web"
#     cloud_ref                 = data.avi_cloud.nsxt.id
#     vcpus_per_se              = local.web.vcpus_per_se
#     memory_per_se             = local.web.memory_per_se
#     disk_per_se               = local.web.disk_per_se
#     num_dispatcher_cores      = local.web.num_dispatcher_cores
#     dedicated_dispatcher_core = local.web.dedicated_dispatcher_core
#     max_queues_per_vnic       = local.web.max_queues_per_vnic
#     hybrid_rss_mode           = local.web.hybrid_rss_mode
#     cpu_reserve               = local.web.cpu_reserve
#     mem_reserve               = local.web.mem_reserve
#     max_se                    = local.web.max_se
#     buffer_se                 = local.web.buffer_se
#     ha_mode                   = local.web.ha_mode
#   }
#
# terraform_data is the runnable stand-in here.
resource "terraform_data" "web_se_group" {
  input = {
    vcpus_per_se  = local.web.vcpus_per_se
    memory_per_se = local.web.memory_per_se
    disk_per_se   = local.web.disk_per_se
    max_se        = local.web.max_se
  }
}

output "web_sizing" {
  value = local.web.summary
}
