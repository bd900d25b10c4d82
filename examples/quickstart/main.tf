resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud" # an NSX-T cloud: the nsxt profile

  workload { # an HTTPS service: requests and handshakes share the SEs' cores
    l7_rps      = 150000
    ssl_tps_ecc = 8000
  }
}

resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = 2

  workload {
    ssl_tps_ecc = 8000
  }
}
