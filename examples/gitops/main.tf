# Two SE groups under review. The provider's sizing_policy = "enforce" (provider.tf) makes an SE
# group that cannot carry its workload an error, so `terraform plan` fails and so does the gate.

# Sized by the model: vcpus_per_se, memory, disk, dispatchers and queues are planned for the load.
resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud"

  workload {
    l7_rps      = 150000
    ssl_tps_ecc = 8000
  }
}

# Sized by hand and checked: 5 vCPUs carry 8,000 ECC TLS handshakes/s at 77.3% (2 would not).
resource "nsxalb_se_group" "tls" {
  name         = "tls"
  platform     = "vcenter"
  vcpus_per_se = 5

  workload {
    ssl_tps_ecc = 8000
  }
}
