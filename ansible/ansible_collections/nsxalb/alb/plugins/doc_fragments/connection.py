# -*- coding: utf-8 -*-
# The connection options every nsxalb.alb module that talks to the Controller shares.
from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    """Documentation of the connection options (plugins/module_utils/nsxalb.py)."""

    DOCUMENTATION = r"""
options:
  controller:
    description:
      - The Controller's address, as host, host:port or https:// URL.
      - Falls back to the C(NSXALB_CONTROLLER) environment variable.
    type: str
  username:
    description:
      - The user to log in as.
      - Falls back to C(NSXALB_USERNAME).
    type: str
  password:
    description:
      - The user's password. Reaches the binary through its environment, never its arguments,
        and never comes back in a result.
      - Falls back to C(NSXALB_PASSWORD).
    type: str
  auth_token:
    description:
      - An API token to log in with instead of a password. Handled like C(password).
      - Falls back to C(NSXALB_AUTH_TOKEN).
    type: str
  tenant:
    description:
      - The tenant to work in.
      - Falls back to C(NSXALB_TENANT); the binary's default is C(admin).
    type: str
  api_version:
    description:
      - The API version to send as X-Avi-Version.
      - Falls back to C(NSXALB_API_VERSION); unset, the Controller's own version is used.
    type: str
  ca_file:
    description:
      - A PEM file of the CA that signs the Controller's certificate.
      - Falls back to C(NSXALB_CA_FILE).
    type: path
  ca_pem:
    description:
      - The same CA as PEM text.
      - Falls back to C(NSXALB_CA_PEM).
    type: str
  validate_certs:
    description:
      - Whether to verify the Controller's TLS certificate. C(false) is the binary's
        C(NSXALB_INSECURE=true), for a lab only.
      - Falls back to C(NSXALB_VALIDATE_CERTS).
    type: bool
    default: true
  binary_path:
    description:
      - The terraform-provider-nsxalb binary. Unset, the one on C(PATH).
    type: path
"""
