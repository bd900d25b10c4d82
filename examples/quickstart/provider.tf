# The quick start's provider block. The Controller comes from the environment: NSXALB_CONTROLLER,
# NSXALB_USERNAME, NSXALB_PASSWORD and NSXALB_CA_FILE (scripts/demo points them at the
# emulator). main.tf is the README's quick start, line for line.
terraform {
  required_providers {
    nsxalb = {
      source = "nsxalb/nsxalb"
    }
  }
}

provider "nsxalb" {}
