#!/usr/bin/env bash
# The sizing gate for pull requests, as a plain shell pipeline a CI job runs:
#   1. terraform plan -out (with sizing_policy = "enforce", an under-sized SE group fails here);
#   2. terraform show -json;
#   3. a sizing review in Markdown for the pull-request comment, rendered by the provider's own
#      `plan-report` command (the binary terraform init installed, so the report and the plan
#      come from the same version), with one SVG chart per SE group under charts/.
#
# Usage: pipeline.sh [CONFIG_DIR]   (default: this folder)
# Writes in CONFIG_DIR: tfplan, plan.json, sizing-review.md (SIZING_REPORT overrides) and charts/.
# Exit codes: 0 no changes (what runs fits the configuration); 1 error, an under-sized SE group
# included (the review then shows the error); 2 changes to review.
# Needs terraform, and a provider installation terraform init can use (in CI: a filesystem
# mirror with TF_CLI_CONFIG_FILE, see github-actions.yml), and the NSXALB_* settings.
set -uo pipefail
dir=${1:-$(dirname "$0")}
cd "$dir" || exit 1
report=${SIZING_REPORT:-sizing-review.md}
export TF_IN_AUTOMATION=1
tf_args=(-input=false -no-color)

# failed STEP LOG: the review says which step failed and shows Terraform's errors.
failed() {
  {
    echo "## NSX ALB sizing review"
    echo
    echo "**terraform $1 failed**; nothing was reviewed. Terraform said:"
    echo
    echo '```'
    if grep -q '^Error: ' "$2"; then sed -n '/^Error: /,$p' "$2"; else cat "$2"; fi
    echo '```'
  } >"$report"
  cat "$report"
  exit 1
}

terraform init "${tf_args[@]}" >init.log 2>&1 || failed init init.log
rc=0
terraform plan "${tf_args[@]}" -detailed-exitcode -out=tfplan >plan.log 2>&1 || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || failed plan plan.log
terraform show -json tfplan >plan.json 2>show.log || failed show show.log
provider=$(find -L .terraform/providers -name 'terraform-provider-nsxalb_v*' 2>/dev/null | head -n 1)
[ -n "$provider" ] || { echo "pipeline: terraform init installed no terraform-provider-nsxalb" >&2; exit 1; }
rm -rf charts && mkdir -p charts
"$provider" plan-report plan.json --svg-dir charts >"$report" || exit 1
cat "$report"
exit "$rc"
