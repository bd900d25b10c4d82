#!/usr/bin/python
# -*- coding: utf-8 -*-
# nsxalb.alb.se_sizing: a thin module over `terraform-provider-nsxalb size --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: se_sizing
short_description: Sizes NSX ALB Service Engines for a workload, offline
description:
  - Runs the sizing model of the terraform-provider-nsxalb binary with the inputs of its
    C(size) command and returns the report of C(size --json). Needs no Controller.
  - Changes nothing, so C(changed) is always false.
version_added: 0.1.0
author:
  - terraform-provider-nsxalb maintainers (@nsxalb)
requirements:
  - The terraform-provider-nsxalb binary, on C(PATH) or at C(binary_path).
extends_documentation_fragment:
  - nsxalb.alb.workload
attributes:
  check_mode:
    description: Changes nothing in either mode; check mode returns the same report.
    support: full
  diff_mode:
    description: Nothing changes, so there is no diff.
    support: none
options:
  platform:
    description:
      - "The performance profile to size with."
    type: str
    choices: [vcenter, nsxt]
    required: true
  workload:
    # The type and the keys come from the nsxalb.alb.workload doc fragment.
    description:
      - "The demand, with the keys of the se_group module's workload (any subset), and the sizing policy inputs."
    required: true
  settings:
    description:
      - "Settings to check against the workload, with the se_group module's names."
    type: dict
    suboptions:
      vcpus_per_se:
        description: ["vCPUs of each SE."]
        type: int
      memory_per_se:
        description: ["Memory of each SE, MB."]
        type: int
      disk_per_se:
        description: ["Disk of each SE, GB."]
        type: int
      cpu_reserve:
        description: ["Reserve the SE's vCPUs."]
        type: bool
      mem_reserve:
        description: ["Reserve the SE's memory."]
        type: bool
      dedicated_dispatcher_core:
        description: ["Dedicate a core to packet dispatching."]
        type: bool
      num_dispatcher_cores:
        description: ["Dedicated dispatcher cores."]
        type: int
      max_queues_per_vnic:
        description: ["Queues per vNIC."]
        type: int
      hybrid_rss_mode:
        description: ["Hybrid RSS dispatcher mode."]
        type: bool
      min_scaleout_per_vs:
        description: ["SEs each virtual service is placed on: with one virtual service, the active SEs its workload is spread over."]
        type: int
      max_scaleout_per_vs:
        description: ["SEs one virtual service may use (default 4)."]
        type: int
      max_se:
        description: ["Maximum SEs, checked against the HA mode and the virtual-service slots."]
        type: int
      buffer_se:
        description: ["Buffer SEs for N+M HA (default 1)."]
        type: int
      ha_mode:
        description: ["The HA mode."]
        type: str
        choices: [HA_MODE_SHARED, HA_MODE_SHARED_PAIR, HA_MODE_LEGACY_ACTIVE_STANDBY]
      max_vs_per_se:
        description: ["Virtual services per SE (default 10)."]
        type: int
  binary_path:
    description:
      - "The terraform-provider-nsxalb binary. Unset, the one on C(PATH)."
    type: path
"""

EXAMPLES = r"""
- name: How big must the SEs be for 150,000 HTTP requests per second?
  nsxalb.alb.se_sizing:
    platform: nsxt
    workload:
      l7_rps: 150000
  register: sized
"""

RETURN = r"""
report:
  description: The report of C(terraform-provider-nsxalb size --json) for the same inputs.
  returned: always
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    WORKLOAD_ARGUMENT_SPEC,
    run_json,
)


def flag_name(option):
    """The size command's flag for an option: its name, which is the Avi field's, in dashes."""
    return "--" + option.replace("_", "-")


def flag_value(value):
    """A value as the size command reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def main():
    bools = ("cpu_reserve", "mem_reserve", "dedicated_dispatcher_core", "hybrid_rss_mode")
    settings = dict((k, dict(type="bool" if k in bools else "int"))
                    for k in ("vcpus_per_se", "memory_per_se", "disk_per_se", "cpu_reserve",
                              "mem_reserve", "dedicated_dispatcher_core",
                              "num_dispatcher_cores", "max_queues_per_vnic", "hybrid_rss_mode",
                              "min_scaleout_per_vs", "max_scaleout_per_vs", "max_se",
                              "buffer_se", "max_vs_per_se"))
    settings["ha_mode"] = dict(type="str", choices=["HA_MODE_SHARED", "HA_MODE_SHARED_PAIR",
                                                    "HA_MODE_LEGACY_ACTIVE_STANDBY"])
    module = AnsibleModule(
        argument_spec=dict(
            platform=dict(type="str", choices=["vcenter", "nsxt"], required=True),
            workload=dict(type="dict", required=True, options=WORKLOAD_ARGUMENT_SPEC),
            settings=dict(type="dict", options=settings),
            binary_path=dict(type="path"),
        ),
        supports_check_mode=True)
    args = ["size", "--json", "--platform", module.params["platform"]]
    for group in ("workload", "settings"):
        for key, value in sorted((module.params[group] or {}).items()):
            if value is not None:
                args += [flag_name(key), flag_value(value)]
    rc, report, err = run_json(module, args)
    if rc != 0 or report is None:
        module.fail_json(msg=err.strip() or "size failed (exit code %d)" % rc, cmd=args)
    module.exit_json(changed=False, report=report)


if __name__ == "__main__":
    main()
