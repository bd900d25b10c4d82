#!/usr/bin/env bash
# Runs every `$ terraform-provider-nsxalb ...` example in the code blocks of a Markdown file (the
# README, docs/sizing.md) and compares its output with the text printed under it, exactly and in order, so
# the docs cannot drift from the binary. A file without an example fails.
# Usage: readme_examples_test.sh FILE.md DIRECTORY_OF_THE_BINARY
set -uo pipefail
readme=$1
PATH="$(cd "$2" && pwd):$PATH"
export PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Split the README into numbered example files: NNN.cmd holds the command, NNN.out the text below it.
awk -v dir="$work" '
  /^```/ { in_block = !in_block; current = ""; next }
  in_block && /^\$ terraform-provider-nsxalb / {
    n++; current = sprintf("%s/%03d", dir, n)
    print substr($0, 3) > (current ".cmd"); printf "" > (current ".out"); next
  }
  in_block && /^\$ / { current = ""; next }
  in_block && current != "" { print > (current ".out") }
' "$readme"

passed=0 failed=0
for cmd_file in "$work"/*.cmd; do
  [ -e "$cmd_file" ] || continue
  base=${cmd_file%.cmd}
  cmd=$(cat "$cmd_file")
  actual=$(cd "$work" && timeout 30 bash -c "$cmd" 2>&1)
  expected=$(cat "$base.out")
  # Line for line and in order: stdout and stderr share one pipe, and the binary writes them in
  # the order the README shows (std::cerr is tied to std::cout, so the report is flushed first).
  if [ "$actual" == "$expected" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED: $cmd"
    diff <(echo "$expected") <(echo "$actual") | head -20
  fi
done
echo "$(basename "$readme") examples: $passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
