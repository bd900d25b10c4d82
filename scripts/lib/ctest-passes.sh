# shellcheck shell=bash
# Runs a build's tests in two ctest passes, so that the scenarios do not wait for a free core they
# hardly use: scripts/test, and .ci/run's sanitizer stage. Source it; it defines one function.
#
#   ctest_passes BUILD_DIR [LABELS]
#     1. every test but the scenarios (labels terraform and ansible) and those with a label that
#        the regular expression LABELS matches (such as 'bench|lint'), NSXALB_TEST_JOBS at a time
#        (default one per core plus one: some of them wait on timeouts, latencies and child
#        processes; the sanitizer tree's 56 took 249 s of wall time and 437 s of CPU one per
#        core, 226 s and 428 s with one more, 2026-12-07);
#     2. the scenarios, NSXALB_SCENARIO_JOBS at a time (default 2 per core). Each has its own
#        emulator, port, temporary directory and Terraform working directory
#        (tests/terraform/lib.sh, tests/ansible/lib.sh), so they run side by side. Alone, a
#        scenario keeps about one core busy (the 62 one after the other: 485 s of wall time,
#        511 s of CPU, 2026-12-07); two per core fill the cores while one waits on an SE timing.
#        More only add processes that compete for the cores: the optimized tree's pass took
#        376 s of wall time and 692 s of CPU 3 per core, 314 s and 584 s 2 per core, 312 s and
#        575 s at 3 in all (the sanitizer tree: 646 s and 1,213 s of CPU 3 per core, 615 s and
#        1,090 s 2 per core). On this kind of machine (a paravirtualised VM) a fork, an exec or a
#        page fault is dear, and every extra process in flight costs them.
#     Both passes run; returns 1 when either failed (each names its failed tests), 0 otherwise.
#     The second pass fails when it selects no test (--no-tests=error): a build without the
#     scenarios is a broken build here.

ctest_passes() {
  local build_dir=$1 others=${2:-} rc=0 cores test_jobs scenario_jobs
  cores=$(nproc)
  test_jobs=${NSXALB_TEST_JOBS:-$((cores + 1))}
  scenario_jobs=${NSXALB_SCENARIO_JOBS:-$((2 * cores))}
  echo "== tests but the scenarios, $test_jobs at a time"
  ctest --test-dir "$build_dir" --output-on-failure -j"$test_jobs" -LE "terraform|ansible${others:+|$others}" || rc=1
  echo "== the Terraform and Ansible scenarios, $scenario_jobs at a time"
  ctest --test-dir "$build_dir" --output-on-failure -j"$scenario_jobs" -L 'terraform|ansible' \
    --no-tests=error || rc=1
  return "$rc"
}
