#!/usr/bin/env bash
# Reliability, secrets: a representative plan, apply, import, failing plans and destroy, with
# TF_LOG=TRACE and TF_LOG_PROVIDER=TRACE, a marker password and then an auth token (from the
# environment, NSXALB_PASSWORD / NSXALB_AUTH_TOKEN). Neither, nor any session cookie or CSRF
# token the emulator issued, appears in any stdout, stderr, TRACE log, diagnostic, state file or
# plan JSON (lib.sh's NSXALB_TF_TRACE_SECRETS scan, at `pass`). Sensitive values show as
# (sensitive value) in plans; the plugin's socket directory is 0700.
export NSXALB_TF_TRACE_SECRETS=1
source "$(dirname "$0")/lib.sh" "$@"

password=$EMU_PASSWORD
[ "$NSXALB_PASSWORD" = "$password" ] || fail "the harness did not export the marker password"
# The plugin's socket directory goes under a folder of the scenario, where it can be inspected.
export PLUGIN_UNIX_SOCKET_DIR=$TF_TMP/sockets
mkdir -p "$PLUGIN_UNIX_SOCKET_DIR"
export TF_VAR_description="not a secret, but marked sensitive"

tf_write main.tf <<'EOF2'
variable "description" {
  type      = string
  sensitive = true
}

provider "nsxalb" {}

resource "nsxalb_se_group" "g" {
  name         = "secrets"
  vcpus_per_se = 2
  description  = var.description
}
EOF2
tf init

step "the provider's password and auth_token are sensitive in its schema"
tf providers schema -json
p=".provider_schemas[\"$TF_PROVIDER_SOURCE\"].provider.block.attributes"
assert_json "$p.password.sensitive" true
assert_json "$p.auth_token.sensitive" true

step "plan: a sensitive value shows as (sensitive value); the plan JSON holds no secret"
tf plan -out=tfplan
assert_says "$TF_OUT" "description = (sensitive value)"
tf show -json tfplan
assert_json '.resource_changes[0].change.after_sensitive.description' true

step "apply the saved plan; while it runs, the plugin's socket directory is 0700"
emu_faults '{"latency_ms":1500,"match":"POST /api/serviceenginegroup"}'
tf_start apply tfplan
# The provider that serves the apply is up while its create waits in the emulator's latency.
for _ in $(seq 1 200); do
  [ -n "$(emu_log "POST /api/serviceenginegroup")" ] && break
  sleep 0.05
done
modes=$(find "$PLUGIN_UNIX_SOCKET_DIR" -mindepth 1 -maxdepth 1 -type d \
  -exec stat -c %a {} + 2>/dev/null || true)
tf_wait || fail "apply tfplan failed: $(cat "$TF_OUT")"
echo "socket directory modes: $modes"
[ -n "$modes" ] || fail "no plugin socket directory appeared in $PLUGIN_UNIX_SOCKET_DIR"
! grep -qv '^700$' <<<"$modes" || fail "socket directory modes: $modes"
emu_faults '{"latency_ms":0}'
assert_nothing_lost

step "import a group made out of band"
emu_api POST /api/serviceenginegroup '{"name":"secrets-imported"}' >/dev/null
cat >>"$TF_WORK/main.tf" <<'EOF2'

resource "nsxalb_se_group" "imported" {
  name = "secrets-imported"
}
EOF2
tf import nsxalb_se_group.imported Default-Cloud/secrets-imported
assert_nothing_lost

step "failing plans: a Controller error, and a wrong password; diagnostics hold no secret"
emu_faults '{"fail_next":1,"fail_status":500,"match":"GET /api/serviceenginegroup/{uuid}"}'
tf_fails plan
assert_says "$TF_OUT" "HTTP 500"
NSXALB_PASSWORD="$password-wrong" tf_fails plan
assert_says "$TF_OUT" "HTTP 401"
assert_says "$TF_OUT" "Invalid credentials"

step "the same with an auth token instead of a password"
token=$(_emu_curl --fail-with-body -X POST -d '{"username":"admin"}' "$EMU_URL/_emulator/tokens" |
  jq -r .token)
[ -n "$token" ] && [ "$token" != null ] || fail "the emulator gave no token"
unset NSXALB_PASSWORD
export NSXALB_AUTH_TOKEN=$token
tf plan -detailed-exitcode
assert_contains "$TF_OUT" "No changes."
tf destroy -auto-approve
assert_contains "$TF_OUT" "Destroy complete! Resources: 2 destroyed."
assert_groups 0
assert_nothing_lost
# The scan at `pass` searches for the token: the emulator lists it with what it issued.
emu_get /_emulator/secrets | jq -e --arg t "$token" '.auth_tokens | index($t) != null' >/dev/null ||
  fail "the emulator does not list the auth token among the secrets it issued"
pass
