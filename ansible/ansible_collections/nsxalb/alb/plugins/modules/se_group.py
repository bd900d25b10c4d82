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
  - With C(rollout.strategy=rolling), after the group is written, the running SEs that do not
    match its settings are rolled to them, one at a time (C(rollout.max_unavailable)), by the
    binary's C(controller rollout) command, when its decision (the one C(terraform plan) shows,
    with its upgrade, HA-mode, capacity, placement, licence and cloud guards) lets it roll.
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
  rollout:
    description:
      - "What to do with the running SEs that do not match the group's settings once it is written
        (a change of C(vcpus_per_se), C(memory_per_se) or C(disk_per_se) reaches new SEs only; a reboot-only field waits for a reboot)."
      - "C(strategy=none) leaves them as they are (the ses-behind-settings warning says so)."
      - "C(strategy=rolling) runs C(terraform-provider-nsxalb controller rollout NAME --cloud CLOUD --max-unavailable N --timeout D),
        with C(--workload) from C(workload) when given, so that its capacity guard checks that workload on the SEs left."
      - "The roll takes each such SE in name order through the Controller's steps: disable it, wait until its virtual services have migrated,
        then delete it once the Controller's replacement at the new shape is up, or reboot it and enable it again."
      - "Its guards refuse before the first SE is touched, and the task fails with their message. No SE is left disabled."
      - "In check mode the command runs with C(--dry-run): it prints the steps and the guards' figures and writes nothing.
        When the group itself would change, that dry run sees the group's current settings, and C(rollout.to_do) lists the SEs that lag the new ones."
    type: dict
    suboptions:
      strategy:
        description:
          - "C(none) or C(rolling)."
        type: str
        choices: [none, rolling]
        default: none
      max_unavailable:
        description:
          - "SEs out at once, 1 or more; the capacity guard refuses a number the group cannot lose."
        type: int
        default: 1
      timeout:
        description:
          - "How long one SE may take through its steps, as a duration (C(30m), C(90s), C(1h30m))."
          - "The roll stops at an SE that takes longer, enabling it again."
        type: str
        default: 30m
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

- name: Grow the SEs of checkout to 5 vCPUs and replace the running ones, one at a time
  nsxalb.alb.se_group:
    name: checkout
    cloud: nsxt-cloud
    vcpus_per_se: 5
    memory_per_se: 10240
    rollout:
      strategy: rolling
      max_unavailable: 1
      timeout: 30m
    workload:
      l7_rps: 300000
      ssl_tps_ecc: 6000

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
rollout:
  description:
    - What the roll did with C(rollout.strategy=rolling); null with C(strategy=none) or C(state=absent).
    - C(changed) is true when an SE was rolled (or, in check mode, would be).
  returned: when state is present
  type: dict
  contains:
    strategy:
      description: C(rolling).
      type: str
    dry_run:
      description: True in check mode (the command ran with --dry-run).
      type: bool
    done:
      description: The SEs rolled to the group's settings, in the roll's order.
      type: list
      elements: str
    to_do:
      description: The SEs still behind the settings (in check mode, those the roll would take).
      type: list
      elements: str
    lines:
      description: What the command printed, one line per step (and, in check mode, the steps and the guards' figures).
      type: list
      elements: str
  sample: {"strategy": "rolling", "dry_run": false, "done": ["checkout-se-1", "checkout-se-2"], "to_do": [], "lines": ["checkout-se-1: deleted"]}
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
import re

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    WORKLOAD_ARGUMENT_SPEC,
    binary,
    connection_argument_spec,
    connection_environment,
    run_json,
)

ROLLOUT_ARGUMENT_SPEC = dict(
    strategy=dict(type="str", choices=["none", "rolling"], default="none"),
    max_unavailable=dict(type="int", default=1),
    timeout=dict(type="str", default="30m"),
)

# A duration as the binary reads it: "30m", "90s", "1h30m", "1.5h".
DURATION = re.compile(r"^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$")

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


def check_rollout(module, rollout):
    """Fails before anything is written when the rollout option cannot run."""
    if rollout["max_unavailable"] < 1:
        module.fail_json(msg="rollout.max_unavailable: want 1 or more, not %d"
                         % rollout["max_unavailable"])
    if not DURATION.match(rollout["timeout"]):
        module.fail_json(msg="rollout.timeout: want a duration such as 30m, 90s or 1h30m, not %r"
                         % rollout["timeout"])


def workload_flag(workload):
    """The --workload value: KEY=VALUE for each key set, whole numbers without a fraction."""
    pairs = []
    for key in sorted(workload):
        value = workload[key]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        pairs.append("%s=%s" % (key, repr(value)))
    return ",".join(pairs)


def listed_names(text, label):
    """The names after LABEL ("Done: " or "To do: ") in the binary's message, up to the '.'."""
    match = re.search(re.escape(label) + r"([^.]*)\.", text)
    if not match or match.group(1).strip() in ("", "none"):
        return []
    return [name.strip() for name in match.group(1).split(",") if name.strip()]


def run_rollout(module, p, lagging, group_changed):
    """Runs `controller rollout` for the group (--dry-run in check mode); returns its result."""
    rollout = p["rollout"]
    args = [binary(module), "controller", "rollout", p["name"], "--cloud", p["cloud"],
            "--max-unavailable", str(rollout["max_unavailable"]), "--timeout", rollout["timeout"]]
    workload = given(p["workload"]) if p["workload"] is not None else {}
    if workload:
        args += ["--workload", workload_flag(workload)]
    if module.check_mode:
        args.append("--dry-run")
    rc, out, err = module.run_command(args, environ_update=connection_environment(module))
    lines = out.splitlines()
    result = dict(strategy="rolling", dry_run=module.check_mode, done=[], to_do=list(lagging),
                  lines=lines)
    if rc != 0:
        message = err.strip() or "no output (exit code %d)" % rc
        if not module.check_mode:
            result["done"] = listed_names(message, "Done: ")
            result["to_do"] = listed_names(message, "To do: ") or [
                name for name in lagging if name not in result["done"]]
        module.fail_json(msg=message, rollout=result, changed=group_changed)
    if not module.check_mode:
        result["done"] = list(lagging) if "rollout: nothing to do" not in lines else []
        result["to_do"] = []
    return result


def main():
    argument_spec = connection_argument_spec(
        name=dict(type="str", required=True),
        cloud=dict(type="str", default="Default-Cloud"),
        state=dict(type="str", choices=["present", "absent"], default="present"),
        platform=dict(type="str", choices=["vcenter", "nsxt"]),
        sizing_policy=dict(type="str", choices=["warn", "enforce"], default="warn"),
        extra_fields=dict(type="dict"),
        workload=dict(type="dict", options=WORKLOAD_ARGUMENT_SPEC),
        rollout=dict(type="dict", options=ROLLOUT_ARGUMENT_SPEC),
        **SETTINGS
    )
    module = AnsibleModule(argument_spec=argument_spec, supports_check_mode=True)
    p = module.params
    rolling = (p["state"] == "present" and p["rollout"] is not None
               and p["rollout"]["strategy"] == "rolling")
    if rolling:
        check_rollout(module, p["rollout"])
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
    rollout = None
    if rolling:
        lagging = sorted(se["name"] for se in (result.get("service_engines") or {}).get(
            "lagging", []))
        rollout = run_rollout(module, p, lagging, result["changed"])
        if module.check_mode and result["changed"] and lagging:
            module.warn("check mode: the group is not written, so the roll's dry run sees its "
                        "current settings; rollout.to_do lists the SEs that lag the new ones")
        if rollout["done"]:
            # The SEs changed: their view, and the warnings about them, read again.
            _, after, _ = run_json(module, ["controller", "apply-se-group", "--dry-run"],
                                   data=json.dumps(desired),
                                   environ_update=connection_environment(module))
            if after is not None and not after.get("failed"):
                for key in ("service_engines", "warnings", "findings"):
                    result[key] = after.get(key, result.get(key))
    for warning in result.get("warnings", []):
        module.warn(warning)
    module.exit_json(
        changed=result["changed"] or bool(rollout and (rollout["done"] or (
            module.check_mode and rollout["to_do"]))),
        rollout=rollout,
        se_group=result["se_group"],
        sizing=result["sizing"],
        findings=result["findings"],
        service_engines=result.get("service_engines"),
        diff=dict(before=result["before"], after=result["after"]),
    )


if __name__ == "__main__":
    main()
