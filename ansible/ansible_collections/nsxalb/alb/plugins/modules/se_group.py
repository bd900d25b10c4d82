#!/usr/bin/python
# -*- coding: utf-8 -*-
# nsxalb.alb.se_group: a thin module over `terraform-provider-nsxalb controller apply-se-group`,
# which reads, sizes, merges and writes the group with the Terraform resource's own code.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: se_group
short_description: An NSX ALB Service Engine group, sized for a declared workload
description:
  - Creates, updates or deletes one Service Engine group on the NSX Advanced Load Balancer
    Controller, with the same semantics as the nsxalb_se_group Terraform resource, through the
    same code in the terraform-provider-nsxalb binary.
  - A C(workload) fills the sizing settings that are not given with the sizing model's
    recommendation, and checks the given ones against it. The model's findings come back as
    warnings, or fail the task under C(sizing_policy=enforce) when the group would be created or
    changed (an unchanged group and C(state=absent) never fail on sizing).
  - An update is a read-modify-write that keeps every field the module does not manage. Nothing
    is sent when nothing would change.
  - Check mode reports what would change and sends no POST, PUT or DELETE. A delete waits for
    nothing it cannot observe.
version_added: 0.1.0
author:
  - terraform-provider-nsxalb maintainers (@nsxalb)
requirements:
  - The terraform-provider-nsxalb binary, on C(PATH) or at C(binary_path).
extends_documentation_fragment:
  - nsxalb.alb.connection
  - nsxalb.alb.workload
attributes:
  check_mode:
    description: Reads and plans, and reports C(changed) when the group would change; sends no POST, PUT or DELETE.
    support: full
  diff_mode:
    description: Returns the managed fields before and after, shown with C(--diff).
    support: full
  action_group:
    description: Use C(group/nsxalb.alb.nsxalb) in C(module_defaults) to set the connection options once for every module of the group.
    support: full
    membership:
      - nsxalb.alb.nsxalb
options:
  name:
    description:
      - "Name of the SE group, unique within its cloud and tenant."
    type: str
    required: true
  cloud:
    description:
      - "Name of the cloud the SE group belongs to."
    type: str
    default: Default-Cloud
  state:
    description:
      - "Whether the group exists."
    type: str
    choices: [present, absent]
    default: present
  platform:
    description:
      - "Performance profile the group is sized with. Unset, the cloud's type decides (CLOUD_VCENTER is vcenter, CLOUD_NSXT is nsxt)."
    type: str
    choices: [vcenter, nsxt]
  sizing_policy:
    description:
      - "What an under-sized group is: C(warn) (a warning) or C(enforce) (a failure when the group would be created or changed)."
    type: str
    choices: [warn, enforce]
    default: warn
  extra_fields:
    description:
      - "Further ServiceEngineGroup fields by their Avi names (networks, vCenter clusters, ...). Fields a typed option manages are refused."
    type: dict
  description:
    description:
      - "Free-form description of the SE group."
    type: str
  vcpus_per_se:
    description:
      - "vCPUs of each Service Engine (Avi vcpus_per_se, 1-64)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  memory_per_se:
    description:
      - "Memory of each Service Engine in MB (Avi memory_per_se)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  disk_per_se:
    description:
      - "Disk of each Service Engine in GB (Avi disk_per_se)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  cpu_reserve:
    description:
      - "Reserve the SE's vCPUs on the hypervisor (Avi cpu_reserve)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: bool
  mem_reserve:
    description:
      - "Reserve the SE's memory on the hypervisor (Avi mem_reserve)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: bool
  dedicated_dispatcher_core:
    description:
      - "Dedicate a core to packet dispatching (Avi dedicated_dispatcher_core)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: bool
  num_dispatcher_cores:
    description:
      - "Number of dedicated dispatcher cores: 0, 1, 2, 4, 8 or 16 (Avi num_dispatcher_cores; 0 lets the SE decide)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  max_queues_per_vnic:
    description:
      - "Queues per vNIC: 0 (auto), 1, 2, 4, 8 or 16 (Avi max_queues_per_vnic)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  hybrid_rss_mode:
    description:
      - "Toggle between dispatcher modes for packet processing (Avi hybrid_rss_mode)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: bool
  min_scaleout_per_vs:
    description:
      - "Minimum number of active SEs a virtual service is placed on (Avi min_scaleout_per_vs)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  max_scaleout_per_vs:
    description:
      - "Maximum number of active SEs a virtual service may scale out to (Avi max_scaleout_per_vs, 1-64)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  max_se:
    description:
      - "Maximum number of SEs in the group (Avi max_se)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  min_se:
    description:
      - "Minimum number of SEs in the group (Avi min_se)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  buffer_se:
    description:
      - "Spare SEs kept for N+M high availability (Avi buffer_se)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  ha_mode:
    description:
      - "High availability mode (Avi ha_mode): HA_MODE_SHARED (N+M, the default), HA_MODE_SHARED_PAIR (active/active: at least 2 active SEs,
        no buffer, and the loss of one leaves the rest within 100%) or HA_MODE_LEGACY_ACTIVE_STANDBY (one active SE and a standby, no scale-out)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: str
    choices: [HA_MODE_SHARED, HA_MODE_SHARED_PAIR, HA_MODE_LEGACY_ACTIVE_STANDBY]
  max_vs_per_se:
    description:
      - "Most virtual services placed on one SE (Avi max_vs_per_se, 1-1000, default 10)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: int
  max_cpu_usage:
    description:
      - "CPU percent at which the group rebalances and scales out (Avi max_cpu_usage, 40-90, default 80)."
      - "The sizing target follows it when the workload sets no target_utilization."
      - "Unset and with C(workload), the sizing model's recommendation (the target utilization)."
    type: int
  se_name_prefix:
    description:
      - "Prefix of the names of the SE virtual machines (Avi se_name_prefix)."
      - "Unset and with C(workload), the sizing model's recommendation."
    type: str
  max_num_se_dps:
    description:
      - "Data-path processes per SE (Avi max_num_se_dps, 1-128): each consumes one Service Unit."
      - "Never recommended: unset, a new group runs one per vCPU and an existing one keeps the Controller's value."
    type: int
  per_app:
    description:
      - "Per-app SE mode (Avi per_app): each vCPU is licensed at 25% of a Service Unit, and an SE holds at most 2 virtual services."
      - "Never recommended: unset, a new group is not per-app and an existing one keeps the Controller's value."
    type: bool
  workload:
    # The type and the keys come from the nsxalb.alb.workload doc fragment.
    description:
      - "The workload the group must carry, with the nsxalb_se_group resource's keys."
      - "Sizing settings left unset are filled with the sizing model's recommendation, and set ones are checked against it."
"""

EXAMPLES = r"""
- name: An SE group for 150,000 HTTP requests per second on the NSX-T cloud
  nsxalb.alb.se_group:
    name: web
    cloud: nsxt-cloud
    workload:
      l7_rps: 150000

- name: Fail rather than create an under-sized group
  nsxalb.alb.se_group:
    name: web-small
    cloud: nsxt-cloud
    vcpus_per_se: 2
    min_scaleout_per_vs: 1
    sizing_policy: enforce
    workload:
      l7_rps: 150000

- name: Remove it
  nsxalb.alb.se_group:
    name: web
    cloud: nsxt-cloud
    state: absent
"""

RETURN = r"""
se_group:
  description: The group as the Controller holds it afterwards, with Avi's field names (in check mode, as it would). Null when absent.
  returned: always
  type: dict
  sample: {"name": "web", "vcpus_per_se": 6, "memory_per_se": 12288}
sizing:
  description: What the sizing model found, the nsxalb_se_group resource's computed sizing object. Null without a workload.
  returned: when state is present
  type: dict
  contains:
    profile:
      description: The performance profile, vcenter or nsxt.
      type: str
    se_count:
      description: Active SEs.
      type: int
    binding_metric:
      description: The metric that binds, or cpu when a CPU budget of several metrics does.
      type: str
    utilization_pct:
      description: Utilization of the binding metric, in percent.
      type: float
    basis:
      description: The weakest basis of the figures used.
      type: str
    service_units:
      description:
        - What the planned group costs in Service Units (rule service-units-at-planned-scale).
        - One planned SE's SUs (its vCPUs, or max_num_se_dps when smaller, x 0.25 with per_app) times the SEs max_se is planned to.
      type: float
    summary:
      description: One line, such as "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)".
      type: str
    findings:
      description: Every finding of the model, one line each.
      type: list
      elements: str
service_engines:
  description:
    - The group's running SEs against the settings it has afterwards, from one listing of the group's SEs.
    - The nsxalb_se_group resource's computed service_engines object.
    - When a SE lags, the finding ses-behind-settings is also a warning of the task (never a failure, whatever C(sizing_policy)), and one line of C(findings).
    - Null when the group does not exist (absent, or created in check mode) or its SEs could not be listed (then a warning says why).
  returned: when state is present
  type: dict
  contains:
    running:
      description: How many SEs the group runs.
      type: int
    matching:
      description: How many of them have the group's settings.
      type: int
    lagging:
      description:
        - Each SE that does not, with its name, vcpus, memory_mb, why and fields.
        - why is C(new-ses-only) (vcpus_per_se, memory_per_se or disk_per_se differs from its real size; only a replacement changes it).
        - Or C(after-se-reboot) (a reboot-only field changed, or the Controller reports its reboot pending).
      type: list
      elements: dict
    reboot_fields:
      description: The after-se-reboot fields this run changed while SEs ran, which they wait for until they reboot.
      type: list
      elements: str
findings:
  description: The model's findings for this run, errors first, one line each (and ses-behind-settings when a running SE lags the settings).
  returned: always
  type: list
  elements: str
diff:
  description: The managed fields before and after (shown with --diff).
  returned: always
  type: dict
  contains:
    before:
      description: The fields as the group held them; empty when it did not exist.
      type: dict
    after:
      description: The fields as they are afterwards; empty when removed.
      type: dict
"""

import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    WORKLOAD_ARGUMENT_SPEC,
    connection_argument_spec,
    connection_environment,
    run_json,
)

# The typed settings, with the nsxalb_se_group resource's (and Avi's) names.
SETTINGS = dict(
    description=dict(type="str"),
    vcpus_per_se=dict(type="int"),
    memory_per_se=dict(type="int"),
    disk_per_se=dict(type="int"),
    cpu_reserve=dict(type="bool"),
    mem_reserve=dict(type="bool"),
    dedicated_dispatcher_core=dict(type="bool"),
    num_dispatcher_cores=dict(type="int"),
    max_queues_per_vnic=dict(type="int"),
    hybrid_rss_mode=dict(type="bool"),
    min_scaleout_per_vs=dict(type="int"),
    max_scaleout_per_vs=dict(type="int"),
    max_se=dict(type="int"),
    min_se=dict(type="int"),
    buffer_se=dict(type="int"),
    ha_mode=dict(type="str", choices=["HA_MODE_SHARED", "HA_MODE_SHARED_PAIR",
                                      "HA_MODE_LEGACY_ACTIVE_STANDBY"]),
    max_vs_per_se=dict(type="int"),
    max_cpu_usage=dict(type="int"),
    se_name_prefix=dict(type="str"),
    max_num_se_dps=dict(type="int"),
    per_app=dict(type="bool"),
)


def given(values):
    """The members that are set."""
    return dict((k, v) for k, v in (values or {}).items() if v is not None)


def main():
    argument_spec = connection_argument_spec(
        name=dict(type="str", required=True),
        cloud=dict(type="str", default="Default-Cloud"),
        state=dict(type="str", choices=["present", "absent"], default="present"),
        platform=dict(type="str", choices=["vcenter", "nsxt"]),
        sizing_policy=dict(type="str", choices=["warn", "enforce"], default="warn"),
        extra_fields=dict(type="dict"),
        workload=dict(type="dict", options=WORKLOAD_ARGUMENT_SPEC),
        **SETTINGS
    )
    module = AnsibleModule(argument_spec=argument_spec, supports_check_mode=True)
    p = module.params
    desired = dict(
        name=p["name"],
        cloud=p["cloud"],
        tenant=p["tenant"],
        state=p["state"],
        platform=p["platform"],
        sizing_policy=p["sizing_policy"],
        settings=given(dict((k, p[k]) for k in SETTINGS)),
        workload=given(p["workload"]) if p["workload"] is not None else None,
        extra_fields=p["extra_fields"],
    )
    args = ["controller", "apply-se-group"] + (["--dry-run"] if module.check_mode else [])
    rc, result, err = run_json(module, args, data=json.dumps(desired),
                               environ_update=connection_environment(module))
    if result is None:
        module.fail_json(msg="terraform-provider-nsxalb controller apply-se-group failed: %s"
                         % (err.strip() or "no output (exit code %d)" % rc))
    if rc != 0 or result.get("failed"):
        module.fail_json(msg=result.get("msg", "apply-se-group failed"),
                         findings=result.get("findings", []), sizing=result.get("sizing"))
    for warning in result.get("warnings", []):
        module.warn(warning)
    module.exit_json(
        changed=result["changed"],
        se_group=result["se_group"],
        sizing=result["sizing"],
        findings=result["findings"],
        service_engines=result.get("service_engines"),
        diff=dict(before=result["before"], after=result["after"]),
    )


if __name__ == "__main__":
    main()
