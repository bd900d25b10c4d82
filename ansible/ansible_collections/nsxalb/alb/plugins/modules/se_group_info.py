#!/usr/bin/python
# -*- coding: utf-8 -*-
# nsxalb.alb.se_group_info: a thin module over `terraform-provider-nsxalb controller
# list-se-groups --json --full`, and `controller usage --json` when asked for the usage.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: se_group_info
short_description: Lists NSX ALB Service Engine groups, or gets them by name and cloud
description:
  - Reads the tenant's Service Engine groups (every page) with the terraform-provider-nsxalb
    binary's Controller client, optionally only those called C(name) and in C(cloud).
  - With C(usage), also reads what the group's Service Engines really carried over a window
    (the Controller's analytics), as the nsxalb_se_group_usage Terraform data source does.
  - Changes nothing.
version_added: 0.1.0
author:
  - terraform-provider-nsxalb maintainers (@nsxalb)
requirements:
  - The terraform-provider-nsxalb binary, on C(PATH) or at C(binary_path).
extends_documentation_fragment:
  - nsxalb.alb.connection
attributes:
  check_mode:
    description: Only reads, so check mode returns the same groups.
    support: full
  action_group:
    description: Use C(group/nsxalb.alb.nsxalb) in C(module_defaults) to set the connection options once for every module of the group.
    support: full
    membership:
      - nsxalb.alb.nsxalb
options:
  name:
    description:
      - "Only the groups of this name."
    type: str
  cloud:
    description:
      - "Only the groups in this cloud (name, uuid or ref)."
    type: str
  usage:
    description:
      - "Also return the observed load of the group called C(name) (and C(cloud) when the name is in several clouds)."
      - "That is the group's peaks summed over its SEs per timestamp, each SE's CPU, the sizing model's calibration"
      - "and a recommendation from the observed workload."
      - "One SE listing and one analytics request. Analytics that are unavailable are a finding in the result, not a failure."
    type: dict
    suboptions:
      window:
        description:
          - "How far back to read, 1h to 30d, such as C(24h) or C(7d)."
        type: str
        default: 7d
      statistic:
        description:
          - "The statistic over the window's points."
        type: str
        choices: [max, p99, p95]
        default: max
      platform:
        description:
          - "The sizing profile for the calibration and the recommendation. Unset, derived from the cloud's type."
        type: str
        choices: [vcenter, nsxt]
"""

EXAMPLES = r"""
- name: The web SE group on the NSX-T cloud
  nsxalb.alb.se_group_info:
    name: web
    cloud: nsxt-cloud
  register: found

- name: What the web group's SEs carried over the last 7 days
  nsxalb.alb.se_group_info:
    name: web
    cloud: nsxt-cloud
    usage:
      window: 7d
  register: web_usage

- name: Every SE group
  nsxalb.alb.se_group_info:
  register: all_groups
"""

RETURN = r"""
se_groups:
  description: The groups as the Controller holds them, with Avi's field names.
  returned: always
  type: list
  elements: dict
  sample: [{"name": "web", "vcpus_per_se": 6}]
usage:
  description: >-
    With C(usage), the group's observed load, with the nsxalb_se_group_usage data source's
    attribute names (se_count, window, statistic, step_seconds, samples, expected_samples, basis,
    observed, observed_at, service_engines, calibration, assumptions, recommendation,
    service_units (now, recommended, reclaimable, reason), forecast (days_to_target, reaches_on,
    measure, subject, target_pct, slope_per_day, r_squared, daily_peaks, reason), findings).
  returned: when usage is given
  type: dict
  sample: {"se_count": 2, "observed": {"l7_rps": 200000, "cpu_pct": 91},
           "service_units": {"now": 12, "recommended": 8, "reclaimable": 4, "reason": null}}
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    connection_argument_spec,
    connection_environment,
    run_json,
)


def main():
    module = AnsibleModule(
        argument_spec=connection_argument_spec(
            name=dict(type="str"), cloud=dict(type="str"),
            usage=dict(type="dict", options=dict(
                window=dict(type="str", default="7d"),
                statistic=dict(type="str", default="max", choices=["max", "p99", "p95"]),
                platform=dict(type="str", choices=["vcenter", "nsxt"])))),
        required_by={"usage": "name"},
        supports_check_mode=True)
    args = ["controller", "list-se-groups", "--json", "--full"]
    if module.params["name"]:
        args += ["--name", module.params["name"]]
    if module.params["cloud"]:
        args += ["--cloud", module.params["cloud"]]
    rc, result, err = run_json(module, args, environ_update=connection_environment(module))
    if rc != 0 or not isinstance(result, list):
        module.fail_json(msg=err.strip() or "list-se-groups failed (exit code %d)" % rc)
    usage = module.params["usage"]
    if usage is None:
        module.exit_json(changed=False, se_groups=result)
    args = ["controller", "usage", module.params["name"], "--json",
            "--window", usage["window"], "--statistic", usage["statistic"]]
    if module.params["cloud"]:
        args += ["--cloud", module.params["cloud"]]
    if usage["platform"]:
        args += ["--platform", usage["platform"]]
    rc, report, err = run_json(module, args, environ_update=connection_environment(module))
    if rc != 0 or not isinstance(report, dict):
        module.fail_json(msg=err.strip() or "controller usage failed (exit code %d)" % rc)
    module.exit_json(changed=False, se_groups=result, usage=report)


if __name__ == "__main__":
    main()
