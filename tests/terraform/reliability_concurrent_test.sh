#!/usr/bin/env bash
# Reliability: two pipelines race. Two `terraform apply` runs at once, in two working
# directories whose configurations declare the same SE group name. Both creates reach the
# Controller together (a latency fault holds them); one wins, the other fails cleanly on the
# name conflict with the import command, and exactly one group exists, known to the winner only.
source "$(dirname "$0")/lib.sh" "$@"

first=$TF_WORK
second=$TF_TMP/work2
mkdir -p "$second"
cp "$first/versions.tf" "$second/"
for dir in "$first" "$second"; do
  cat >"$dir/main.tf" <<'EOF2'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "contested"
  vcpus_per_se = 2
}
EOF2
  TF_WORK=$dir tf init
done

step "two applies at once create the same name"
emu_faults '{"latency_ms":4000,"match":"POST /api/serviceenginegroup"}'
TF_WORK=$first tf_start apply -auto-approve
run1=$TF_BG
TF_WORK=$second tf_start apply -auto-approve
run2=$TF_BG
rc1=0 rc2=0
tf_wait "$run1" || rc1=$?
out1=$TF_OUT
tf_wait "$run2" || rc2=$?
out2=$TF_OUT
echo "exit codes: $rc1 $rc2"
# Both creates were in flight together: the second arrived within the first one's latency.
emu_counters | assert_json '.requests["POST /api/serviceenginegroup"]' 2 -
emu_counters | assert_json '[.log[] | select(.request == "POST /api/serviceenginegroup") |
  .at_us] | .[1] - .[0] < 4000000' true -
if [ "$rc1" -eq 0 ] && [ "$rc2" -ne 0 ]; then
  winner=$first loser_out=$out2 loser=$second
elif [ "$rc2" -eq 0 ] && [ "$rc1" -ne 0 ]; then
  winner=$second loser_out=$out1 loser=$first
else
  cat "$out1" "$out2" >&2
  fail "expected one apply to succeed and one to fail, got exit codes $rc1 and $rc2"
fi
assert_says "$loser_out" "Error: Cannot create SE group"
assert_says "$loser_out" "already exists"
assert_says "$loser_out" 'terraform import <address> "Default-Cloud/contested"'
assert_not_says "$loser_out" "crash"

step "exactly one group, in the winner's state only"
assert_groups 1
[ -z "$(tf_state_groups "$loser")" ] || fail "the losing apply recorded a group"
assert_nothing_lost "$winner" "$loser"
pass
