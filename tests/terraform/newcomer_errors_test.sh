#!/usr/bin/env bash
# Scenario: the errors a newcomer meets first, each with a message that says what to do
# (docs/troubleshooting.md lists them): plan before init; the provider missing from the mirror; a
# wrong controller address; the untrusted self-signed certificate of a fresh Controller (the
# emulator's is one); wrong credentials. A platform that the cloud's type does not give is
# platform_not_derivable_test.sh.
source "$(dirname "$0")/lib.sh" "$@"

# assert_says TEXT: the last terraform output contains TEXT, however Terraform wrapped its lines.
assert_says() {
  tr -s ' \n' '  ' <"$TF_OUT" >"$TF_TMP/flat.txt"
  assert_contains "$TF_TMP/flat.txt" "$1"
}

tf_write main.tf <<'EOF2'
resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud"

  workload {
    l7_rps = 150000
  }
}
EOF2

step "plan before terraform init: Terraform says to run it"
tf_fails plan
assert_contains "$TF_OUT" "Error: Inconsistent dependency lock file"
assert_says "terraform init"

step "the provider is not in the mirror: Terraform names the mirror, the shared helper what to do"
pkg_dir=$(dirname "$(find "$TF_MIRROR" -name 'terraform-provider-nsxalb_v*')")
mv "$pkg_dir" "$TF_TMP/pkg.away"
tf_fails init
assert_says "registry.terraform.io/nsxalb/nsxalb"
assert_says "$TF_MIRROR"
tfm_explain_init_failure "$TF_OUT" 2>"$TF_TMP/hint.txt" || fail "the init failure was not recognised"
assert_contains "$TF_TMP/hint.txt" "What to do: terraform could not find nsxalb/nsxalb"
assert_contains "$TF_TMP/hint.txt" "filesystem_mirror"
mv "$TF_TMP/pkg.away" "$pkg_dir"
tf init

step "a wrong controller address: cannot connect, check controller / NSXALB_CONTROLLER"
# A port nothing listens on; a short total timeout so the retries end quickly.
NSXALB_CONTROLLER=127.0.0.1:1 NSXALB_TIMEOUT_SECONDS=2 tf_fails plan
assert_contains "$TF_OUT" "Error: Cannot connect to the Controller"
assert_says "nothing answered at https://127.0.0.1:1"
assert_says "controller argument (or NSXALB_CONTROLLER)"
assert_says "terraform-provider-nsxalb controller check"

step "the Controller's self-signed certificate, not trusted: how to save it and set ca_file"
ca_file=$NSXALB_CA_FILE
unset NSXALB_CA_FILE
tf_fails plan
export NSXALB_CA_FILE=$ca_file
assert_contains "$TF_OUT" "Error: The Controller's certificate is not trusted"
assert_says "self-signed certificate"
assert_says "openssl s_client -connect 127.0.0.1:${EMU_URL##*:} -showcerts"
assert_says "ca_file (or NSXALB_CA_FILE)"
assert_not_contains "$TF_OUT" "ca_file or ca_pem" # the advice is given once
# The command it gives saves a certificate that works as ca_file.
openssl s_client -connect "127.0.0.1:${EMU_URL##*:}" -showcerts </dev/null 2>/dev/null |
  openssl x509 >"$TF_TMP/controller-ca.pem" || fail "the openssl commands of the message failed"
NSXALB_CA_FILE=$TF_TMP/controller-ca.pem tf plan
assert_says "Plan: 1 to add"

step "wrong credentials: the Controller rejected the login, check username and password"
NSXALB_PASSWORD=not-the-password tf_fails plan
assert_contains "$TF_OUT" "Error: The Controller rejected the login"
assert_says "does not accept user \"admin\""
assert_says "NSXALB_USERNAME and NSXALB_PASSWORD"
assert_not_contains "$TF_OUT" "not-the-password"
pass
