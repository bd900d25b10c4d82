# Sizing without a Controller: no credentials needed, so it also works in `terraform console`.
data "nsxalb_se_sizing" "web" {
  platform = "nsxt"

  workload {
    l7_rps      = 150000
    ssl_tps_ecc = 8000
  }
}

output "web_sizing" {
  value = {
    summary      = data.nsxalb_se_sizing.web.summary
    vcpus_per_se = data.nsxalb_se_sizing.web.vcpus_per_se
    se_count     = data.nsxalb_se_sizing.web.se_count
  }
}
