#!/usr/bin/env bash
# The README's figures that a command in the repository makes, checked against that command:
#   * the Performance tables (between <!-- bench-table:begin FILE --> and <!-- bench-table:end -->)
#     are `bench/table FILE`, FILE is the newest results file under bench/results/, and it comes
#     from a full bench/run (not --smoke);
#   * the test counts ("N tests ... M drive the real terraform") are what `ctest -N` lists: every
#     test but the benchmarks, and the tests labelled terraform.
# Usage: readme_figures_test.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
source_dir=${1:?usage: readme_figures_test.sh SOURCE_DIR BUILD_DIR}
build_dir=${2:?usage: readme_figures_test.sh SOURCE_DIR BUILD_DIR}
readme=$source_dir/README.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-readme-figures-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

echo "--- the Performance tables are bench/table of the newest kept results file"
file=$(sed -n 's/^<!-- bench-table:begin \(.*\) -->$/\1/p' "$readme")
newest=$(cd "$source_dir" && find bench/results -name '*.json' | sort | tail -n 1)
if [ -z "$file" ]; then
  fail "README.md has no <!-- bench-table:begin FILE --> line"
elif [ ! -s "$source_dir/$file" ]; then
  fail "README.md's Performance tables name $file, which is not in the repository"
else
  [ "$file" = "$newest" ] || fail "README.md's Performance tables come from $file, but the newest results file is $newest"
  jq -e '.smoke == false' "$source_dir/$file" >/dev/null ||
    fail "$file is from bench/run --smoke (tiny counts), not figures to publish"
  sed -n '/^<!-- bench-table:begin /,/^<!-- bench-table:end -->$/p' "$readme" | sed '1d;$d' \
    >"$tmp/readme-table.md"
  "$source_dir/bench/table" "$source_dir/$file" >"$tmp/bench-table.md" ||
    fail "bench/table $file failed"
  diff -u "$tmp/bench-table.md" "$tmp/readme-table.md" >&2 ||
    fail "README.md's Performance tables differ from bench/table $file (diff above: - the file, + the README)"
fi

echo "--- the test counts are what ctest lists"
count() { ctest --test-dir "$build_dir" -N "$@" | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p'; }
all=$(count -LE bench)
terraform=$(count -L terraform)
if [ -z "$all" ] || [ "$all" -eq 0 ]; then fail "ctest -N listed no tests in $build_dir"; fi
line=$(grep -E '[0-9]+ tests .*\([0-9]+ drive the real terraform\)' "$readme" || true)
said_all=$(printf '%s' "$line" | sed -nE 's/.* ([0-9]+) tests .*/\1/p')
said_terraform=$(printf '%s' "$line" | sed -nE 's/.*\(([0-9]+) drive the real terraform\).*/\1/p')
if [ -z "$line" ]; then
  fail "README.md has no line with 'N tests ... (M drive the real terraform)'"
else
  [ "$said_all" = "$all" ] ||
    fail "README.md says $said_all tests; ctest --test-dir BUILD -N -LE bench lists $all"
  [ "$said_terraform" = "$terraform" ] ||
    fail "README.md says $said_terraform drive the real terraform; ctest -N -L terraform lists $terraform"
fi

[ "$failures" -eq 0 ] || exit 1
echo "PASS: the README's Performance tables and test counts match their sources"
