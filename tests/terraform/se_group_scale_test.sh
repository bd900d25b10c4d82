#!/usr/bin/env bash
# Scenario 8: count = 100 at -parallelism=10. Apply makes exactly one POST per group, a refresh
# plan exactly one GET per group and no changes, and every provider process that called the
# Controller logged in exactly once (the client shares one session across concurrent calls).
source "$(dirname "$0")/lib.sh" "$@"

# Each provider process writes its own log, so logins can be counted per process.
mkdir -p "$TF_TMP/provider-logs"
pkg=$TF_MIRROR/$TF_PROVIDER_SOURCE/$TF_PROVIDER_VERSION/linux_amd64
mv "$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION" "$TF_TMP/provider.bin"
cat >"$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION" <<EOF
#!/bin/sh
exec "$TF_TMP/provider.bin" "\$@" 2>>"$TF_TMP/provider-logs/\$\$.log"
EOF
chmod +x "$pkg/terraform-provider-nsxalb_v$TF_PROVIDER_VERSION"
export TF_LOG_PROVIDER=DEBUG

tf_write main.tf <<'EOF'
provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  count = 100
  name  = "scale-${count.index}"
  cloud = count.index % 2 == 0 ? "Default-Cloud" : "nsxt-cloud"

  workload {
    l7_rps = 10000 + 1000 * count.index
  }
}
EOF
tf init

# check_logins: every provider process that sent a Controller request logged in exactly once.
check_logins() {
  local f calls logins callers=0
  for f in "$TF_TMP"/provider-logs/*.log; do
    calls=$(grep -c 'controller: .* -> HTTP' "$f" || true)
    logins=$(grep -c 'controller: logged in' "$f" || true)
    if [ "$calls" -gt 0 ]; then
      callers=$((callers + 1))
      [ "$logins" -eq 1 ] || fail "provider process $(basename "$f" .log) logged in $logins times"
    else
      [ "$logins" -eq 0 ] || fail "provider process $(basename "$f" .log) logged in without calling"
    fi
  done
  local total
  total=$(emu_counters | jq '.requests["POST /login"] // 0')
  [ "$total" -eq "$callers" ] || fail "$total logins for $callers provider processes that called"
  echo "$callers provider processes called the Controller, one login each"
  rm -f "$TF_TMP"/provider-logs/*.log
}

step "apply 100 groups at -parallelism=10: one POST each"
emu_reset_counters
tf apply -auto-approve -parallelism=10
assert_contains "$TF_OUT" "Apply complete! Resources: 100 added, 0 changed, 0 destroyed."
emu_counters | tee "$TF_TMP/apply-counters.json" |
  assert_json '.requests["POST /api/serviceenginegroup"]' 100 -
check_logins

step "refresh plan: one GET each, no changes"
emu_reset_counters
tf plan -detailed-exitcode -parallelism=10
assert_contains "$TF_OUT" "No changes."
emu_counters | tee "$TF_TMP/plan-counters.json" |
  assert_json '.requests["GET /api/serviceenginegroup/{uuid}"]' 100 -
assert_json '[.requests | to_entries[] | select(.key | test("^(POST|PUT|DELETE) /api"))] | length' \
  0 "$TF_TMP/plan-counters.json"
check_logins

step "plan -refresh=false: no Controller request at all"
emu_reset_counters
tf plan -refresh=false -detailed-exitcode -parallelism=10
emu_counters | assert_json '.total' 0 -

step "destroy: one DELETE each"
emu_reset_counters
tf destroy -auto-approve -parallelism=10
emu_counters | assert_json '.requests["DELETE /api/serviceenginegroup/{uuid}"]' 100 -
pass
