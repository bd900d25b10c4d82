# -*- coding: utf-8 -*-
# What every nsxalb.alb module shares: the connection options (documented by the
# nsxalb.alb.connection doc fragment), the workload keys (documented by the nsxalb.alb.workload
# doc fragment), the environment that carries the connection to the binary, and running the
# binary. No sizing and no Controller logic: the binary holds both.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible.module_utils.basic import env_fallback

BINARY_NAME = "terraform-provider-nsxalb"

# The connection options, each with its NSXALB_* fallback (the provider block's variables).
CONNECTION_ARGUMENT_SPEC = dict(
    controller=dict(type="str", fallback=(env_fallback, ["NSXALB_CONTROLLER"])),
    username=dict(type="str", fallback=(env_fallback, ["NSXALB_USERNAME"])),
    password=dict(type="str", no_log=True, fallback=(env_fallback, ["NSXALB_PASSWORD"])),
    auth_token=dict(type="str", no_log=True, fallback=(env_fallback, ["NSXALB_AUTH_TOKEN"])),
    tenant=dict(type="str", fallback=(env_fallback, ["NSXALB_TENANT"])),
    api_version=dict(type="str", fallback=(env_fallback, ["NSXALB_API_VERSION"])),
    ca_file=dict(type="path", fallback=(env_fallback, ["NSXALB_CA_FILE"])),
    ca_pem=dict(type="str", fallback=(env_fallback, ["NSXALB_CA_PEM"])),
    validate_certs=dict(type="bool", default=True,
                        fallback=(env_fallback, ["NSXALB_VALIDATE_CERTS"])),
    binary_path=dict(type="path"),
)

# The workload keys, with the nsxalb_se_group resource's names: the suboptions of the workload
# option of every module that takes one (se_group, se_sizing).
WORKLOAD_ARGUMENT_SPEC = dict(
    ssl_tps_ecc=dict(type="float"),
    ssl_tps_rsa=dict(type="float"),
    l7_rps=dict(type="float"),
    l4_cps=dict(type="float"),
    l4_open_conns=dict(type="float"),
    l4_gbps=dict(type="float"),
    l7_gbps=dict(type="float"),
    l7_ssl_gbps=dict(type="float"),
    target_utilization=dict(type="int"),
    max_vcpus_per_se=dict(type="int"),
    virtual_services=dict(type="int"),
)

# Option name -> the binary's environment variable.
_ENVIRONMENT = (
    ("controller", "NSXALB_CONTROLLER"),
    ("username", "NSXALB_USERNAME"),
    ("password", "NSXALB_PASSWORD"),
    ("auth_token", "NSXALB_AUTH_TOKEN"),
    ("tenant", "NSXALB_TENANT"),
    ("api_version", "NSXALB_API_VERSION"),
    ("ca_file", "NSXALB_CA_FILE"),
    ("ca_pem", "NSXALB_CA_PEM"),
)


def connection_argument_spec(**more):
    """The connection options plus a module's own."""
    spec = dict(CONNECTION_ARGUMENT_SPEC)
    spec.update(more)
    return spec


def binary(module):
    """The binary to run: binary_path, else the one on PATH (fails the module without one)."""
    if module.params.get("binary_path"):
        return module.params["binary_path"]
    return module.get_bin_path(BINARY_NAME, required=True)


def connection_environment(module):
    """The binary's environment for the connection options: every setting, secrets included,
    travels here and never in argv. Unset options are set empty, so the binary reads no
    stale value."""
    env = {}
    for option, variable in _ENVIRONMENT:
        value = module.params.get(option)
        env[variable] = "" if value is None else str(value)
    env["NSXALB_INSECURE"] = "false" if module.params.get("validate_certs", True) else "true"
    return env


def run_json(module, args, data=None, environ_update=None):
    """Runs the binary with args; returns (rc, parsed JSON stdout or None, stderr)."""
    rc, out, err = module.run_command(
        [binary(module)] + list(args), data=data, binary_data=data is None,
        environ_update=environ_update or {})
    try:
        parsed = json.loads(out) if out.strip() else None
    except ValueError:
        parsed = None
    return rc, parsed, err
