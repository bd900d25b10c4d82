# -*- coding: utf-8 -*-
# The workload option of every nsxalb.alb module that sizes (se_group, se_sizing): its keys are
# plugins/module_utils/nsxalb.py's WORKLOAD_ARGUMENT_SPEC, the nsxalb_se_group resource's names.
# A module may set its own description or required on top (Ansible merges the fragment's option
# with the module's, the module's keys winning).
from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    """Documentation of the workload option (plugins/module_utils/nsxalb.py)."""

    DOCUMENTATION = r"""
options:
  workload:
    description:
      - "The workload the group must carry, with the nsxalb_se_group resource's keys."
    type: dict
    suboptions:
      ssl_tps_ecc:
        description:
          - "New SSL/TLS handshakes per second with ECC certificates."
        type: float
      ssl_tps_rsa:
        description:
          - "New SSL/TLS handshakes per second with RSA 2048 certificates."
        type: float
      l7_rps:
        description:
          - "HTTP requests per second."
        type: float
      l4_cps:
        description:
          - "New L4 (TCP) connections per second."
        type: float
      l4_open_conns:
        description:
          - "Concurrently open L4 connections."
        type: float
      l4_gbps:
        description:
          - "L4 throughput in Gbps."
        type: float
      l7_gbps:
        description:
          - "L7 (HTTP) throughput in Gbps."
        type: float
      l7_ssl_gbps:
        description:
          - "L7 HTTPS throughput in Gbps."
        type: float
      target_utilization:
        description:
          - "Utilization, in percent (40-90, default 80), that the planned SEs may reach at the declared workload."
        type: int
      max_vcpus_per_se:
        description:
          - "Largest SE, in vCPUs (1-64, default 6), the model may plan before it scales out to more SEs."
        type: int
      virtual_services:
        description:
          - "How many virtual services the group places (1-1000000). Unset, the workload is one virtual service."
        type: int
"""
