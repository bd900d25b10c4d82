#!/usr/bin/env python3
"""Writes the seed corpus of the se_group_sizing fuzz target (tests/fuzz/se_group_sizing/).

Each seed is a configuration as Terraform sends it: msgpack of the schema's implied type, every
attribute present (null when unset), the `workload` block an object or null, unknown values as
cty's msgpack extension (d4 00 00). Run it from the repository root after a schema change:
    python3 tests/fuzz/make_sizing_seeds.py
"""
import json
import os
import struct

UNKNOWN = object()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def pack(v):
    if v is UNKNOWN:
        return b"\xd4\x00\x00"
    if v is None:
        return b"\xc0"
    if v is True:
        return b"\xc3"
    if v is False:
        return b"\xc2"
    if isinstance(v, int):
        if 0 <= v < 128:
            return bytes([v])
        if -32 <= v < 0:
            return struct.pack("b", v)
        return b"\xd3" + struct.pack(">q", v)
    if isinstance(v, float):
        return b"\xcb" + struct.pack(">d", v)
    if isinstance(v, str):
        b = v.encode()
        return (bytes([0xA0 | len(b)]) if len(b) < 32 else b"\xd9" + bytes([len(b)])) + b
    if isinstance(v, list):
        return bytes([0x90 | len(v)]) + b"".join(pack(x) for x in v)
    if isinstance(v, dict):
        out = bytes([0x80 | len(v)]) if len(v) < 16 else b"\xde" + struct.pack(">H", len(v))
        for k in sorted(v):
            out += pack(k) + pack(v[k])
        return out
    raise TypeError(v)


def blank(block):
    return {name: None for name in block["attributes"]} | {
        name: None for name in block.get("block_types", {})
    }


def schema(path):
    with open(os.path.join(ROOT, "provider_schema", path)) as f:
        return json.load(f)["block"]


def workload(**kw):
    w = blank(schema("resources/nsxalb_se_group.json")["block_types"]["workload"]["block"])
    w.update(kw)
    return w


def main():
    group = schema("resources/nsxalb_se_group.json")
    sizing = schema("data_sources/nsxalb_se_sizing.json")
    out = os.path.join(HERE, "se_group_sizing")
    os.makedirs(out, exist_ok=True)

    def write(name, value, base):
        v = blank(base)
        v.update(value)
        with open(os.path.join(out, name), "wb") as f:
            f.write(pack(v))

    write("group_workload_only", {"name": "web", "platform": "nsxt",
                                  "workload": workload(l7_rps=150000, ssl_tps_ecc=8000)}, group)
    write("group_settings_checked", {"name": "web", "platform": "vcenter", "vcpus_per_se": 2,
                                     "memory_per_se": 2048, "disk_per_se": 20,
                                     "num_dispatcher_cores": 0, "sizing_policy": "enforce",
                                     "workload": workload(ssl_tps_ecc=8000)}, group)
    write("group_every_setting", {"name": "g", "platform": "nsxt", "vcpus_per_se": 6,
                                  "memory_per_se": 12288, "disk_per_se": 29, "cpu_reserve": True,
                                  "mem_reserve": False, "dedicated_dispatcher_core": True,
                                  "num_dispatcher_cores": 2, "max_queues_per_vnic": 1,
                                  "hybrid_rss_mode": False, "min_scaleout_per_vs": 1,
                                  "max_scaleout_per_vs": 4, "max_se": 3, "min_se": 1,
                                  "buffer_se": 1, "ha_mode": "HA_MODE_SHARED",
                                  "extra_fields": '{"se_deprovision_delay":5}',
                                  "workload": workload(l4_open_conns=200000, l4_gbps=12.5,
                                                       target_utilization=90,
                                                       max_vcpus_per_se=64)}, group)
    write("group_out_of_range", {"name": "x", "platform": "vcenter", "vcpus_per_se": 100,
                                 "memory_per_se": 0.5, "num_dispatcher_cores": 3,
                                 "workload": workload(l7_rps=-1.0, target_utilization=10,
                                                      l4_cps=1e300)}, group)
    write("group_unknown_input", {"name": "u", "platform": "nsxt", "vcpus_per_se": UNKNOWN,
                                  "workload": workload(l7_rps=UNKNOWN)}, group)
    write("group_no_workload", {"name": "n", "vcpus_per_se": 4, "platform": "bogus",
                                "extra_fields": "{"}, group)
    write("sizing_workload", {"platform": "vcenter",
                              "workload": workload(ssl_tps_ecc=13000, l7_gbps=40)}, sizing)
    write("sizing_settings", {"platform": "nsxt", "vcpus_per_se": 2, "hybrid_rss_mode": False,
                              "max_se": 1000, "buffer_se": 0,
                              "workload": workload(ssl_tps_rsa=99999999)}, sizing)
    with open(os.path.join(out, "group_as_json"), "w") as f:
        v = blank(group)
        v.update({"name": "j", "platform": "nsxt", "workload": workload(l7_rps=50000),
                  "vcpus_per_se": 4})
        json.dump(v, f, sort_keys=True)


if __name__ == "__main__":
    main()
