# What one 4-vCPU SE carries on vCenter, per metric, with the basis of each figure.
output "four_vcpu_l7_rps" {
  value = provider::nsxalb::capacity("vcenter", 4).l7_rps
  # { basis = "measured", text = "...", unit = "RPS", value = ... }
}
