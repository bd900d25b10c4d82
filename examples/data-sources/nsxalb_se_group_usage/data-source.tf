# What the "web" group's SEs really carried over the last 7 days, against the sizing model.
data "nsxalb_se_group_usage" "web" {
  name      = "web"
  cloud     = "nsxt-cloud"
  window    = "7d"
  statistic = "p99"
}

output "web_peak_rps" {
  value = data.nsxalb_se_group_usage.web.observed.l7_rps
}

output "web_recommendation" {
  value = data.nsxalb_se_group_usage.web.recommendation.summary
}
