# An SE group Terraform does not manage, such as the Controller's Default-Group.
data "nsxalb_se_group" "default" {
  name  = "Default-Group"
  cloud = "Default-Cloud"
}

output "default_group_vcpus" {
  value = data.nsxalb_se_group.default.vcpus_per_se
}
