#!/usr/bin/python
# -*- coding: utf-8 -*-
# nsxalb.alb.se_group_info: a thin module over `terraform-provider-nsxalb controller
# list-se-groups --json --full`, and `controller usage --json` (`controller usage --all --json`
# for the whole estate) when asked for the usage.
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
  - With C(usage.all), reads it for every group of the tenant (or those C(usage.cloud),
    C(usage.name_regex) and C(usage.min_se_count) keep) at once, as the nsxalb_se_groups_usage
    Terraform data source does, with a bounded number of requests whatever the size of the estate.
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
      - "With C(all), the observed load of every group instead (C(name) is then not needed), in C(estate)."
    type: dict
    suboptions:
      all:
        description:
          - "Read every SE group of the tenant, or those the filters below keep, and return them in C(estate)."
          - "One listing each of the clouds, SE groups and SEs, and one analytics request per batch of at most"
          - "128 metric requests (one per SE and one per batch): never a request per group."
        type: bool
        default: false
      cloud:
        description:
          - "With C(all), only the groups in this cloud (name, uuid or ref). Unset, the module's C(cloud) if given, else every cloud."
        type: str
      name_regex:
        description:
          - "With C(all), only the groups whose name this regular expression (RE2 syntax) matches in part; anchor it to match the whole name."
        type: str
      min_se_count:
        description:
          - "With C(all), only the groups with at least this many Service Engines now."
        type: int
        default: 0
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
          - "The sizing profile for the calibration and the recommendation. Unset, derived from the cloud's type"
          - "(with C(all), each group's cloud's type)."
        type: str
        choices: [vcenter, nsxt]
      forecast_days:
        description:
          - "With C(all), how soon a forecast must reach the target for a group to be at risk, 1 to 365 days."
        type: int
        default: 30
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

- name: The observed load of every web SE group with SEs, over 14 days
  nsxalb.alb.se_group_info:
    usage:
      all: true
      name_regex: "^web-"
      min_se_count: 1
      window: 14d
  register: estate
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
estate:
  description: >-
    With C(usage.all), the estate with the nsxalb_se_groups_usage data source's attribute names:
    groups (most reclaimable Service Units first; each with id, name, cloud, platform, at_risk,
    observed, license_tier, license_service_units_now (its SUs now per the Controller's licence
    ledger), license_note, and usage, the group's report as C(usage) gives it for one group),
    totals (groups, groups_at_risk, groups_without_observed_load, service_units_now,
    service_units_recommended, service_units_reclaimable), metrics_requests (the analytics
    requests sent), license_pool (per tier: tier, licensed, consumed, escrow, remaining,
    remaining_after_reclaim) and license_error (why the ledger could not be read). A failed
    analytics request leaves the groups it carried without figures, with the
    usage-analytics-unavailable finding, not a failure.
  returned: when usage.all is true
  type: dict
  sample: {"groups": [{"id": "serviceenginegroup-1", "name": "web-1", "cloud": "nsxt-cloud",
                       "platform": "nsxt", "at_risk": false, "observed": true,
                       "usage": {"se_count": 3, "service_units": {"now": 24, "recommended": 4,
                                                                 "reclaimable": 20, "reason": null}}}],
           "totals": {"groups": 1, "groups_at_risk": 0, "groups_without_observed_load": 0,
                      "service_units_now": 24, "service_units_recommended": 4,
                      "service_units_reclaimable": 20},
           "metrics_requests": 1,
           "license_pool": [{"tier": "ENTERPRISE", "licensed": 64, "consumed": 24, "escrow": 0,
                             "remaining": 40, "remaining_after_reclaim": 60}],
           "license_error": ""}
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    connection_argument_spec,
    connection_environment,
    run_json,
)


def usage_args(module):
    """The `controller usage` arguments for the usage option: one group, or the estate."""
    usage = module.params["usage"]
    args = ["controller", "usage"]
    if usage["all"]:
        args.append("--all")
        cloud = usage["cloud"] or module.params["cloud"]
        if cloud:
            args += ["--cloud", cloud]
        if usage["name_regex"]:
            args += ["--name", usage["name_regex"]]
        if usage["min_se_count"]:
            args += ["--min-ses", str(usage["min_se_count"])]
        args += ["--forecast-days", str(usage["forecast_days"])]
    else:
        args.append(module.params["name"])
        if module.params["cloud"]:
            args += ["--cloud", module.params["cloud"]]
    if usage["platform"]:
        args += ["--platform", usage["platform"]]
    return args + ["--json", "--window", usage["window"], "--statistic", usage["statistic"]]


def main():
    module = AnsibleModule(
        argument_spec=connection_argument_spec(
            name=dict(type="str"), cloud=dict(type="str"),
            usage=dict(type="dict", options=dict(
                all=dict(type="bool", default=False),
                cloud=dict(type="str"),
                name_regex=dict(type="str"),
                min_se_count=dict(type="int", default=0),
                window=dict(type="str", default="7d"),
                statistic=dict(type="str", default="max", choices=["max", "p99", "p95"]),
                platform=dict(type="str", choices=["vcenter", "nsxt"]),
                forecast_days=dict(type="int", default=30)))),
        supports_check_mode=True)
    usage = module.params["usage"]
    if usage is not None and not usage["all"]:
        if not module.params["name"]:
            module.fail_json(msg="usage needs name (the group whose usage to read), or usage.all: true")
        for option in ("cloud", "name_regex"):
            if usage[option]:
                module.fail_json(msg="usage.%s filters the estate: it needs usage.all: true" % option)
        if usage["min_se_count"]:
            module.fail_json(msg="usage.min_se_count filters the estate: it needs usage.all: true")
    args = ["controller", "list-se-groups", "--json", "--full"]
    if module.params["name"]:
        args += ["--name", module.params["name"]]
    if module.params["cloud"]:
        args += ["--cloud", module.params["cloud"]]
    rc, result, err = run_json(module, args, environ_update=connection_environment(module))
    if rc != 0 or not isinstance(result, list):
        module.fail_json(msg=err.strip() or "list-se-groups failed (exit code %d)" % rc)
    if usage is None:
        module.exit_json(changed=False, se_groups=result)
    rc, report, err = run_json(module, usage_args(module),
                               environ_update=connection_environment(module))
    if rc != 0 or not isinstance(report, dict):
        module.fail_json(msg=err.strip() or "controller usage failed (exit code %d)" % rc)
    if usage["all"]:
        module.exit_json(changed=False, se_groups=result, estate=report)
    module.exit_json(changed=False, se_groups=result, usage=report)


if __name__ == "__main__":
    main()
