#!/usr/bin/python
# -*- coding: utf-8 -*-
# nsxalb.alb.se_group_info: a thin module over `terraform-provider-nsxalb controller
# list-se-groups --json --full`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: se_group_info
short_description: Lists NSX ALB Service Engine groups, or gets them by name and cloud
description:
  - Reads the tenant's Service Engine groups (every page) with the terraform-provider-nsxalb
    binary's Controller client, optionally only those called C(name) and in C(cloud).
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
"""

EXAMPLES = r"""
- name: The web SE group on the NSX-T cloud
  nsxalb.alb.se_group_info:
    name: web
    cloud: nsxt-cloud
  register: found

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
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.nsxalb.alb.plugins.module_utils.nsxalb import (
    connection_argument_spec,
    connection_environment,
    run_json,
)


def main():
    module = AnsibleModule(
        argument_spec=connection_argument_spec(name=dict(type="str"), cloud=dict(type="str")),
        supports_check_mode=True)
    args = ["controller", "list-se-groups", "--json", "--full"]
    if module.params["name"]:
        args += ["--name", module.params["name"]]
    if module.params["cloud"]:
        args += ["--cloud", module.params["cloud"]]
    rc, result, err = run_json(module, args, environ_update=connection_environment(module))
    if rc != 0 or not isinstance(result, list):
        module.fail_json(msg=err.strip() or "list-se-groups failed (exit code %d)" % rc)
    module.exit_json(changed=False, se_groups=result)


if __name__ == "__main__":
    main()
