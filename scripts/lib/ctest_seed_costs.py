#!/usr/bin/env python3
"""Gives a build tree that has never run its tests the test costs another tree measured.

ctest starts the tests of a parallel run in descending order of cost, which it reads from the
build tree's Testing/Temporary/CTestCostData.txt (written at the end of every run). A fresh tree
has none, so ctest starts the tests in the order they were declared, and a long test declared
late keeps one core busy after the others are done: in the sanitizer tree of .ci/run,
usage_collection_fuzz_replay_test (55 s) started last among the tests but the scenarios, and
terraform_se_groups_usage_estate (189 s) last but a few among the scenarios (2026-12-07).

The optimized tree has run every test by then, so its costs order the sanitizer tree's run:
  * a test of the same name (every scenario, script and lint test) gets its cost;
  * a test that runs a whole GoogleTest executable (NSXALB_GTEST_WHOLE_EXECUTABLES, named after
    the executable) gets the sum of the costs of the tests that ran that executable in the
    measured tree, one gtest test each.
The sanitizers make every test slower, but by a similar factor, so the order holds. A tree that
already has cost data keeps it (ctest's own measurements are better), and a test with no match
keeps no cost (ctest runs it after those with one).

Usage: ctest_seed_costs.py MEASURED_BUILD_DIR BUILD_DIR
Prints one line saying how many tests got a cost; exits 0 unless a tree cannot be read.
"""

import json
import os
import subprocess
import sys

COST_FILE = os.path.join("Testing", "Temporary", "CTestCostData.txt")


def measured_costs(build_dir):
    """Test name -> average seconds, from a tree's cost data ({} when it has none)."""
    costs = {}
    try:
        with open(os.path.join(build_dir, COST_FILE), encoding="utf-8") as data:
            for line in data:
                if line.strip() == "---":  # the failed tests follow: no costs
                    break
                fields = line.split()
                if len(fields) == 3:
                    costs[fields[0]] = float(fields[2])
    except FileNotFoundError:
        pass
    return costs


def test_commands(build_dir):
    """Test name -> the command ctest runs for it (empty for a test without one)."""
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                             stdout=subprocess.PIPE, check=True, text=True)
    return {test["name"]: test.get("command", []) for test in json.loads(listing.stdout)["tests"]}


def seeded_costs(measured, measured_commands, commands):
    """The costs to give the tests of `commands`: by name, else by the executable they run."""
    by_executable = {}
    for name, command in measured_commands.items():
        if name in measured and command:
            executable = os.path.basename(command[0])
            by_executable[executable] = by_executable.get(executable, 0.0) + measured[name]
    seeded = {}
    for name, command in commands.items():
        if name in measured:
            seeded[name] = measured[name]
        elif command and os.path.basename(command[0]) == name and name in by_executable:
            seeded[name] = by_executable[name]
    return seeded


def main():
    measured_dir, build_dir = sys.argv[1], sys.argv[2]
    target = os.path.join(build_dir, COST_FILE)
    if os.path.exists(target):
        print("ctest costs: %s keeps its own" % build_dir)
        return 0
    measured = measured_costs(measured_dir)
    commands = test_commands(build_dir)
    seeded = seeded_costs(measured, test_commands(measured_dir), commands)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as data:
        for name, cost in sorted(seeded.items()):
            data.write("%s 1 %.3f\n" % (name, cost))
        data.write("---\n")
    print("ctest costs: %d of %d tests of %s ordered by the costs %s measured"
          % (len(seeded), len(commands), build_dir, measured_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
