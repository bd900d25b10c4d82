terraform {
  required_providers {
    nsxalb = {
      source = "nsxalb/nsxalb"
    }
  }
}

# The Controller comes from NSXALB_CONTROLLER, NSXALB_USERNAME, NSXALB_PASSWORD and NSXALB_CA_PEM
# (or NSXALB_CA_FILE), set by the CI system from its secrets.
provider "nsxalb" {
  # An SE group that cannot carry its workload fails the plan: the gate.
  sizing_policy = "enforce"
}
