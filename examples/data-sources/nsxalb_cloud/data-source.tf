# A cloud by name: its uuid, type, and the sizing profile that type implies.
data "nsxalb_cloud" "nsxt" {
  name = "nsxt-cloud"
}

output "nsxt_cloud_platform" {
  value = data.nsxalb_cloud.nsxt.platform # "nsxt"
}
