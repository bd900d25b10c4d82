#!/usr/bin/env bash
# Scenario: examples/gitops/pipeline.sh, the pull-request gate, on the emulator. A new
# configuration exits 2 (changes to review) with a Markdown sizing review and one SVG chart per SE
# group; after apply it exits 0 (no changes); an under-sized group fails the plan under
# sizing_policy = "enforce" and exits 1 with the error in the review. The README shows the
# review: its lines must be what the pipeline wrote.
source "$(dirname "$0")/lib.sh" "$@"

# The example's own terraform block replaces the harness's versions.tf.
rm -f "$TF_WORK/versions.tf"
cp "$SOURCE_DIR"/examples/gitops/*.tf "$TF_WORK/"
pipeline=$SOURCE_DIR/examples/gitops/pipeline.sh

# run_pipeline EXPECTED_EXIT: runs the pipeline on $TF_WORK; its output in $TF_TMP/pipeline.out.
run_pipeline() {
  local rc=0
  timeout 300 bash "$pipeline" "$TF_WORK" >"$TF_TMP/pipeline.out" 2>&1 || rc=$?
  if [ "$rc" -ne "$1" ]; then
    cat "$TF_TMP/pipeline.out" >&2
    fail "pipeline.sh exited $rc, expected $1"
  fi
}
review=$TF_WORK/sizing-review.md

step "a new configuration: changes to review (2), a review with both groups and their charts"
run_pipeline 2
assert_contains "$review" "## NSX ALB sizing review"
assert_contains "$review" "Plan: 2 SE groups to create, 0 to update, 0 to replace, 0 to destroy."
assert_contains "$review" "Both sized SE groups carry their workloads at the target utilization."
assert_contains "$review" '| `nsxalb_se_group.web` | create | 8,000 ECC SSL TPS, 150,000 L7 RPS at 80% target | 2 SEs of 6 vCPUs, 12 GB memory, 29 GB disk | as planned | CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8% | measured | 18 SUs | none |'
assert_contains "$review" '| `nsxalb_se_group.tls` | create | 8,000 ECC SSL TPS at 80% target | 1 SE of 5 vCPUs, 5 GB memory, 35 GB disk | as planned | ECC SSL TPS 77.3% | interpolated | 10 SUs | none |'
assert_contains "$review" "![L7 RPS capacity of one SE by vCPUs](charts/nsxalb_se_group.web.svg)"
for chart in nsxalb_se_group.web nsxalb_se_group.tls; do
  xmllint --noout "$TF_WORK/charts/$chart.svg" || fail "charts/$chart.svg is not well-formed"
done
assert_contains "$TF_TMP/pipeline.out" "## NSX ALB sizing review"

step "the README's review is what the pipeline wrote, section by section and in order"
sed -n '/<!-- gitops-report:begin -->/,/<!-- gitops-report:end -->/p' "$SOURCE_DIR/README.md" |
  sed '1,2d;$d' | sed '$d' >"$TF_TMP/readme-review.md"
[ -s "$TF_TMP/readme-review.md" ] || fail "no gitops-report block in README.md"
# A block per Markdown heading (the summary with its table, then one section per SE group).
assert_excerpt "$review" "$TF_TMP/readme-review.md" '^#+ '

step "after apply: no changes (0)"
tf apply -auto-approve tfplan
run_pipeline 0
assert_contains "$review" "Plan: 0 SE groups to create, 0 to update, 0 to replace, 0 to destroy."
assert_contains "$review" '| `nsxalb_se_group.tls` | no change |'

step "an under-sized group under sizing_policy = \"enforce\": the plan fails (1), the review says why"
sed -i 's/^  vcpus_per_se = 5$/  vcpus_per_se = 2/' "$TF_WORK/main.tf"
run_pipeline 1
assert_contains "$review" "**terraform plan failed**"
assert_contains "$review" "Error: ECC SSL TPS under-delivered: 5,800 of 10,000 needed"
assert_contains "$review" "demand-within-capacity"
pass
