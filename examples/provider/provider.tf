# Configure the nsxalb provider. Every argument can also come from an NSXALB_* environment variable;
# keep the password out of the file (NSXALB_PASSWORD) or in a sensitive variable.
terraform {
  required_providers {
    nsxalb = {
      source  = "registry.terraform.io/nsxalb/nsxalb"
      version = "0.3.0"
    }
  }
}

variable "controller_password" {
  type      = string
  sensitive = true
}

provider "nsxalb" {
  controller = "alb-controller.example.com"
  username   = "admin"
  password   = var.controller_password
  tenant     = "admin"
  # TLS verification is always on unless you opt out with insecure = true.
  ca_file = "${path.module}/controller-ca.pem"
  # api_version defaults to the Controller's own version; pin it to keep plans stable across upgrades.
  # api_version = "22.1.3"
}
