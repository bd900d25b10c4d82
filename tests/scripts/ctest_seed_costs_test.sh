#!/usr/bin/env bash
# scripts/lib/ctest_seed_costs.py on two CTest trees of its own: a test with the measured tree's
# name gets its cost, a whole-executable test the sum of its gtest tests' costs, a test with no
# match none, and a tree with cost data of its own keeps it.
# Usage: ctest_seed_costs_test.sh SOURCE_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/measured/Testing/Temporary" "$tmp/measured/tests" "$tmp/fresh/tests"
# ctest lists a command only for an executable that exists.
for tree in measured fresh; do
  printf '#!/bin/sh\n' >"$tmp/$tree/tests/unit_tests"
  chmod +x "$tmp/$tree/tests/unit_tests"
done
# The measured tree: two gtest tests of unit_tests, a scenario, and a failed test after "---".
cat >"$tmp/measured/CTestTestfile.cmake" <<CTEST
add_test([=[Suite.First]=] "$tmp/measured/tests/unit_tests" "--gtest_filter=Suite.First")
add_test([=[Suite.Second]=] "$tmp/measured/tests/unit_tests" "--gtest_filter=Suite.Second")
add_test([=[terraform_scenario]=] "bash" "scenario_test.sh")
CTEST
cat >"$tmp/measured/Testing/Temporary/CTestCostData.txt" <<'COSTS'
Suite.First 3 1.5
Suite.Second 1 2.25
terraform_scenario 2 40
---
Suite.Second
COSTS
# The fresh tree: the executable as one test, the same scenario, and a test the other never ran.
cat >"$tmp/fresh/CTestTestfile.cmake" <<CTEST
add_test([=[unit_tests]=] "$tmp/fresh/tests/unit_tests" "--gtest_brief=1")
add_test([=[terraform_scenario]=] "bash" "scenario_test.sh")
add_test([=[new_test]=] "bash" "new_test.sh")
CTEST
seed() { python3 "$root/scripts/lib/ctest_seed_costs.py" "$tmp/measured" "$tmp/fresh"; }
out=$(seed)
[ "$out" = "ctest costs: 2 of 3 tests of $tmp/fresh ordered by the costs $tmp/measured measured" ] || {
  echo "FAIL: unexpected summary: $out"; exit 1; }
expected=$'terraform_scenario 1 40.000\nunit_tests 1 3.750\n---'
actual=$(cat "$tmp/fresh/Testing/Temporary/CTestCostData.txt")
[ "$actual" = "$expected" ] || {
  echo "FAIL: seeded costs"; echo "expected:"; echo "$expected"; echo "actual:"; echo "$actual"; exit 1; }
# A second seeding keeps the tree's own data.
echo "new_test 1 99" >"$tmp/fresh/Testing/Temporary/CTestCostData.txt"
out=$(seed)
[ "$out" = "ctest costs: $tmp/fresh keeps its own" ] || { echo "FAIL: overwrote: $out"; exit 1; }
[ "$(cat "$tmp/fresh/Testing/Temporary/CTestCostData.txt")" = "new_test 1 99" ] || {
  echo "FAIL: the tree's own cost data changed"; exit 1; }
echo "PASS"
