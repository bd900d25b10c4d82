#!/usr/bin/env bash
# The collection as Ansible's own tools see it: ansible-doc documents every module (with the
# connection doc fragment), ansible-galaxy builds it, and the sanity tests of ansible-test that run
# offline pass (the others install requirements from PyPI, which CI does not reach; the two that
# matter most, validate-modules and pep8, run without PyPI in tests/lint/ansible_sanity_test.sh).
source "$(dirname "$0")/lib.sh" "$@"

require_tool ansible-doc "collection_test (Debian's ansible-core)"
COLLECTION=$SOURCE_DIR/ansible/ansible_collections/nsxalb/alb

step "ansible-doc documents every module"
for module in se_group se_group_info se_sizing; do
  ansible-doc "nsxalb.alb.$module" >"$AN_TMP/doc-$module.out" 2>&1 ||
    { cat "$AN_TMP/doc-$module.out"; fail "ansible-doc nsxalb.alb.$module failed"; }
  for text in "NSXALB.ALB.${module^^}" OPTIONS EXAMPLES "RETURN VALUES" binary_path; do
    grep -qF -- "$text" "$AN_TMP/doc-$module.out" || fail "ansible-doc nsxalb.alb.$module lacks '$text'"
  done
done
for option in controller username password auth_token tenant api_version ca_file ca_pem \
  validate_certs NSXALB_PASSWORD NSXALB_CA_FILE; do
  grep -qF -- "$option" "$AN_TMP/doc-se_group.out" || fail "se_group's doc lacks '$option'"
done
for option in workload sizing_policy extra_fields vcpus_per_se se_name_prefix l7_rps; do
  grep -qF -- "$option" "$AN_TMP/doc-se_group.out" || fail "se_group's doc lacks '$option'"
done
ansible-doc --list nsxalb.alb >"$AN_TMP/list.out" 2>/dev/null || fail "ansible-doc --list failed"
grep -c '^nsxalb\.alb\.' "$AN_TMP/list.out" >"$AN_TMP/count" || true
assert_eq "modules listed by ansible-doc --list" 3 "$(cat "$AN_TMP/count")"

step "se_group's settings and workload keys are the nsxalb_se_group resource's"
schema=$SOURCE_DIR/provider_schema/resources/nsxalb_se_group.json
ansible-doc --json nsxalb.alb.se_group >"$AN_TMP/doc.json" 2>/dev/null || fail "ansible-doc --json"
options=$(jq -c '.["nsxalb.alb.se_group"].doc.options | keys' "$AN_TMP/doc.json")
for name in $(jq -r '.block.attributes | keys[]' "$schema"); do
  case $name in id | url | sizing | service_engines | last_rollout) continue ;; esac  # computed only: results, not options
  jq -e --arg n "$name" 'index($n) != null' <<<"$options" >/dev/null ||
    fail "se_group has no option $name, an attribute of nsxalb_se_group"
done
workload_doc=$(jq -c '.["nsxalb.alb.se_group"].doc.options.workload.suboptions | keys' "$AN_TMP/doc.json")
workload_schema=$(jq -c '.block.block_types.workload.block.attributes | keys' "$schema")
assert_eq "se_group's workload keys" "$workload_schema" "$workload_doc"

step "se_sizing gives every setting to size under the flag of its name (the Avi field's)"
# Each option is the size command's flag of the same name; a missing or misnamed flag fails the
# module (size: unknown flag). The report echoes what size was given.
settings='{"vcpus_per_se": 4, "memory_per_se": 8192, "disk_per_se": 30, "cpu_reserve": true,
  "mem_reserve": true, "dedicated_dispatcher_core": true, "num_dispatcher_cores": 1,
  "max_queues_per_vnic": 1, "hybrid_rss_mode": false, "min_scaleout_per_vs": 2,
  "max_scaleout_per_vs": 4, "max_se": 4, "buffer_se": 1, "ha_mode": "HA_MODE_SHARED",
  "max_vs_per_se": 10}'
ansible localhost -i localhost, -c local -m nsxalb.alb.se_sizing \
  -a "{\"platform\": \"nsxt\", \"workload\": {\"l7_rps\": 150000, \"virtual_services\": 1},
       \"settings\": $settings}" >"$AN_TMP/sizing.out" 2>&1 ||
  { cat "$AN_TMP/sizing.out"; fail "se_sizing with every setting failed"; }
sed '1s/^localhost | SUCCESS => //' "$AN_TMP/sizing.out" >"$AN_TMP/sizing.json"
given=$(jq -c '.report.check.given | keys' "$AN_TMP/sizing.json") ||
  { cat "$AN_TMP/sizing.out"; fail "se_sizing printed no report"; }
assert_eq "settings size was given" \
  '["cpu_reserve","dedicated_dispatcher_core","disk_per_se","hybrid_rss_mode","max_queues_per_vnic","max_se","mem_reserve","memory_per_se","num_dispatcher_cores","se_count","vcpus_per_se"]' \
  "$given"

step "ansible-galaxy collection build"
ansible-galaxy collection build "$COLLECTION" --output-path "$AN_TMP/dist" >"$AN_TMP/build.out" 2>&1 ||
  { cat "$AN_TMP/build.out"; fail "ansible-galaxy collection build failed"; }
[ -s "$AN_TMP/dist/nsxalb-alb-0.3.0.tar.gz" ] || fail "no nsxalb-alb-0.3.0.tar.gz"
tar -tzf "$AN_TMP/dist/nsxalb-alb-0.3.0.tar.gz" >"$AN_TMP/dist/files"
grep -qx 'plugins/modules/se_group.py' "$AN_TMP/dist/files" ||
  fail "the built collection lacks plugins/modules/se_group.py"

if ! command -v ansible-test >/dev/null 2>&1; then
  echo "(ansible-test not found: the sanity step is left out)"
  pass
  exit 0
fi
step "ansible-test sanity, the tests that run offline"
# A copy outside the git tree, so that ansible-test sees every file and writes its output there.
mkdir -p "$AN_TMP/sanity/ansible_collections/nsxalb"
cp -r "$COLLECTION" "$AN_TMP/sanity/ansible_collections/nsxalb/alb"
offline=(action-plugin-docs compile empty-init future-import-boilerplate line-endings
  metaclass-boilerplate no-assert no-basestring no-dict-iteritems no-dict-iterkeys
  no-dict-itervalues no-get-exception no-illegal-filenames no-main-display no-smart-quotes
  no-unicode-literals replace-urlopen shebang symlinks use-argspec-type-path use-compat-six
  ignores)
python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
args=()
for t in "${offline[@]}"; do args+=(--test "$t"); done
(cd "$AN_TMP/sanity/ansible_collections/nsxalb/alb" &&
  ansible-test sanity --python "$python" "${args[@]}") >"$AN_TMP/sanity.out" 2>&1 ||
  { cat "$AN_TMP/sanity.out"; fail "ansible-test sanity failed"; }
grep -c '^Running sanity test' "$AN_TMP/sanity.out" >"$AN_TMP/count" || true
assert_eq "sanity tests run" "${#offline[@]}" "$(cat "$AN_TMP/count")"
pass
