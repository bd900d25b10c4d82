#!/usr/bin/env bash
# Scenario: the provider installs as teams install providers. scripts/release packages the built
# binary into a dist/ tree; a static HTTPS server from Python's standard library serves its
# network mirror on loopback, with a throwaway CA that Terraform trusts through SSL_CERT_FILE; and
# a CLI configuration whose only installation method is that network_mirror installs it:
#   * init, plan and apply against the emulator; the lock file holds the version and the h1: hash
#     of dist/ (the mirror's zh: is the zip's SHA256SUMS line), and `terraform providers lock
#     -net-mirror` agrees;
#   * two release runs give byte-identical zips and mirror trees, and the built binary names no
#     path of the build machine (so its build id does not depend on where it was built); SHA256SUMS is signed and gpg --verify accepts it with the public
#     key the release wrote; --version prints CMake's project(VERSION);
#   * an archive of other bytes makes init fail with Terraform's checksum error;
#   * init -upgrade from V to V+1 (a second dist/ tree) moves the lock file to the new hashes.
source "$(dirname "$0")/lib.sh" "$@"
for tool in python3 zip unzip gpg openssl; do
  require_tool "$tool" "release_install_test (scripts/release and the mirror server)"
done
release=$SOURCE_DIR/scripts/release
version=$(nsxalb_project_version "$SOURCE_DIR")
[ -n "$version" ] || fail "no project(VERSION) in CMakeLists.txt"
next=${version%.*}.$((${version##*.} + 1))
name=terraform-provider-nsxalb_$version

step "--version prints CMake's project(VERSION)"
"$TF_PROVIDER_BINARY" --version >"$TF_TMP/version.txt"
assert_contains "$TF_TMP/version.txt" "terraform-provider-nsxalb $version (commit "

step "a throwaway signing key; two release runs of the same binary"
export GNUPGHOME=$TF_TMP/gnupg
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key "nsxalb release test <release@test.invalid>" \
  ed25519 sign never 2>"$TF_TMP/gpg.err" || { cat "$TF_TMP/gpg.err" >&2; fail "gpg could not make a key"; }
key=$(gpg --batch --list-secret-keys --with-colons 2>/dev/null | awk -F: '/^fpr:/ { print $10; exit }')
[ -n "$key" ] || fail "no key id from gpg"
for run in 1 2; do
  NSXALB_GPG_KEY=$key bash "$release" --allow-dirty --binary "$TF_PROVIDER_BINARY" \
    --out "$TF_TMP/dist$run" >"$TF_TMP/release$run.out" 2>&1 ||
    { cat "$TF_TMP/release$run.out" >&2; fail "scripts/release (run $run) failed"; }
done
dist=$TF_TMP/dist1
for f in "${name}_linux_amd64.zip" "${name}_SHA256SUMS" "${name}_SHA256SUMS.sig" \
  "${name}_manifest.json" "${name}_public_key.asc" \
  "mirror/registry.terraform.io/nsxalb/nsxalb/index.json" \
  "mirror/registry.terraform.io/nsxalb/nsxalb/$version.json"; do
  [ -s "$dist/$f" ] || fail "dist/ lacks $f"
done

step "byte-identical archives and mirror trees; no build path in the shipped binary"
cmp "$TF_TMP/dist1/${name}_linux_amd64.zip" "$TF_TMP/dist2/${name}_linux_amd64.zip" ||
  fail "two release runs gave different zips"
diff -r "$TF_TMP/dist1/mirror" "$TF_TMP/dist2/mirror" || fail "two release runs gave different mirror trees"
cmp "$TF_TMP/dist1/${name}_SHA256SUMS" "$TF_TMP/dist2/${name}_SHA256SUMS" || fail "SHA256SUMS differ"
collection=$(cd "$TF_TMP/dist1" && ls nsxalb-alb-*.tar.gz 2>/dev/null || true)
if command -v ansible-galaxy >/dev/null 2>&1; then
  [ "$collection" = "nsxalb-alb-$version.tar.gz" ] || fail "no Ansible collection archive in dist/ ($collection)"
  cmp "$TF_TMP/dist1/$collection" "$TF_TMP/dist2/$collection" || fail "two release runs gave different collections"
fi
# The built binary, debug info and all: without -ffile-prefix-map its debug info names the
# source and build directories, and its build id (a hash over the whole file, kept in the
# stripped copy) then differs from one build directory to another.
# A sanitizer build is never shipped, and AddressSanitizer keeps each source file's full path in
# its global metadata whatever -ffile-prefix-map says; the default build runs this check.
if [ -n "$TF_SANITIZED_BUILD" ]; then
  echo "note: a sanitizer build; the build-path check runs in the default build" >&2
elif grep -q -F "$SOURCE_DIR/" "$TF_PROVIDER_BINARY"; then
  fail "the built binary holds the path $SOURCE_DIR/ (not built with -ffile-prefix-map?)"
fi
assert_json ".metadata.protocol_versions" '["5.0"]' "$dist/${name}_manifest.json"

step "the signature: gpg --verify with only the public key the release wrote"
(cd "$dist" && sha256sum --check --quiet "${name}_SHA256SUMS") || fail "SHA256SUMS does not match the files"
verify_home=$TF_TMP/gnupg-verify
mkdir -m 700 "$verify_home"
GNUPGHOME=$verify_home gpg --batch --quiet --import "$dist/${name}_public_key.asc" 2>/dev/null
GNUPGHOME=$verify_home gpg --batch --verify "$dist/${name}_SHA256SUMS.sig" "$dist/${name}_SHA256SUMS" \
  >"$TF_TMP/verify.out" 2>&1 || { cat "$TF_TMP/verify.out" >&2; fail "gpg --verify rejected the signature"; }
assert_contains "$TF_TMP/verify.out" "Good signature"
echo "tampered" >>"$TF_TMP/dist2/${name}_SHA256SUMS"
if GNUPGHOME=$verify_home gpg --batch --verify "$TF_TMP/dist2/${name}_SHA256SUMS.sig" \
  "$TF_TMP/dist2/${name}_SHA256SUMS" >/dev/null 2>&1; then
  fail "gpg --verify accepted a changed SHA256SUMS"
fi

step "the mirror over HTTPS on loopback, with a throwaway CA"
tls=$TF_TMP/mirror-tls
mkdir -p "$tls"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=nsxalb test CA" \
  -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null || fail "openssl: no CA"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
  -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null || fail "openssl: no CSR"
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$tls/ext.cnf"
openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
  -days 1 -extfile "$tls/ext.cnf" -out "$tls/server.pem" 2>/dev/null || fail "openssl: no certificate"
served=$TF_TMP/served
mirror_pid=""
# serve DIR: (re)starts the server on DIR's mirror tree; sets MIRROR_URL.
serve() {
  [ -z "$mirror_pid" ] || { kill "$mirror_pid" 2>/dev/null; wait "$mirror_pid" 2>/dev/null || true; }
  rm -rf "$served" "$TF_TMP/mirror.port"
  cp -r "$1/mirror" "$served"
  python3 "$SOURCE_DIR/tests/support/https_static_server.py" "$served" "$tls/server.pem" \
    "$tls/server.key" "$TF_TMP/mirror.port" 2>>"$TF_TMP/mirror.log" &
  mirror_pid=$!
  for _ in $(seq 1 100); do [ -s "$TF_TMP/mirror.port" ] && break; sleep 0.1; done
  [ -s "$TF_TMP/mirror.port" ] || fail "the mirror server did not start: $(cat "$TF_TMP/mirror.log")"
  MIRROR_URL=https://localhost:$(cat "$TF_TMP/mirror.port")/
}
stop_mirror_then_clean_up() {
  local rc=$?
  [ -z "$mirror_pid" ] || kill "$mirror_pid" 2>/dev/null || true
  (exit "$rc")
  _tf_cleanup
}
trap stop_mirror_then_clean_up EXIT
serve "$dist"
# The only installation method: the network mirror, for every provider.
cat >"$TF_TMP/network-mirror.tfrc" <<EOT
provider_installation {
  network_mirror {
    url = "$MIRROR_URL"
  }
}
EOT
export TF_CLI_CONFIG_FILE=$TF_TMP/network-mirror.tfrc SSL_CERT_FILE=$tls/ca.pem
tf_write versions.tf <<EOT
terraform {
  required_providers {
    nsxalb = {
      source  = "nsxalb/nsxalb"
      version = ">= $version"
    }
  }
}
EOT
tf_write main.tf <<'EOT'
resource "nsxalb_se_group" "web" {
  name  = "web"
  cloud = "nsxt-cloud"
  workload {
    l7_rps = 50000
  }
}
EOT

step "init from the network mirror only, then plan and apply against the emulator"
tf init -input=false
assert_contains "$TF_OUT" "Installing nsxalb/nsxalb v$version"
tf apply -auto-approve -input=false
assert_contains "$TF_OUT" "Apply complete! Resources: 1 added"
lock=$TF_WORK/.terraform.lock.hcl
mirror_json=$dist/mirror/registry.terraform.io/nsxalb/nsxalb/$version.json
h1=$(jq -r '.archives.linux_amd64.hashes[] | select(startswith("h1:"))' "$mirror_json")
zh=$(jq -r '.archives.linux_amd64.hashes[] | select(startswith("zh:"))' "$mirror_json")
assert_contains "$lock" "version     = \"$version\""
assert_contains "$lock" "\"$h1\""
# Terraform records the zh: (the zip's sha256) too only for a registry's signed checksums; from a
# mirror it verifies the download against <V>.json's hashes, zh: among them, and records the h1:
# it computed. That zh: is the one SHA256SUMS gives the zip.
assert_contains "$dist/${name}_SHA256SUMS" "${zh#zh:}  ${name}_linux_amd64.zip"

step "terraform providers lock -net-mirror agrees with the lock file init wrote"
locked=$TF_TMP/lock-check
mkdir -p "$locked"
cp "$TF_WORK/versions.tf" "$locked/"
(cd "$locked" && terraform providers lock -net-mirror="$MIRROR_URL" -platform=linux_amd64 \
  >"$TF_TMP/lock.out" 2>&1) || { cat "$TF_TMP/lock.out" >&2; fail "terraform providers lock failed"; }
diff <(grep -E 'h1:|zh:|version ' "$lock") <(grep -E 'h1:|zh:|version ' "$locked/.terraform.lock.hcl") ||
  fail "providers lock -net-mirror recorded other hashes than init"

step "an archive of other bytes: init fails with Terraform's checksum error"
tampered=$TF_TMP/dist-tampered
cp -r "$dist" "$tampered"
printf 'not the released binary\n' >"$TF_TMP/terraform-provider-nsxalb_v$version"
(cd "$TF_TMP" && zip -q -X "$tampered/mirror/registry.terraform.io/nsxalb/nsxalb/${name}_linux_amd64.zip" \
  "terraform-provider-nsxalb_v$version")
serve "$tampered"
sed -i "s|url = \".*\"|url = \"$MIRROR_URL\"|" "$TF_CLI_CONFIG_FILE"
fresh=$TF_TMP/fresh
mkdir -p "$fresh"
cp "$TF_WORK/versions.tf" "$TF_WORK/main.tf" "$fresh/"
work=$TF_WORK
TF_WORK=$fresh
tf_fails init -input=false
# Terraform 1.11.4's wording (sic).
assert_says "$TF_OUT" "Error while installing nsxalb/nsxalb v$version: provider package doesn't match the any of the expected checksums"
TF_WORK=$work

step "init -upgrade from $version to $next: the lock file moves to the new hashes"
bash "$release" --allow-dirty --binary "$TF_PROVIDER_BINARY" --version "$next" --out "$TF_TMP/dist-next" \
  >"$TF_TMP/release-next.out" 2>&1 || { cat "$TF_TMP/release-next.out" >&2; fail "scripts/release --version $next failed"; }
serve "$TF_TMP/dist-next"
sed -i "s|url = \".*\"|url = \"$MIRROR_URL\"|" "$TF_CLI_CONFIG_FILE"
tf init -upgrade -input=false
assert_contains "$TF_OUT" "Installing nsxalb/nsxalb v$next"
next_json=$TF_TMP/dist-next/mirror/registry.terraform.io/nsxalb/nsxalb/$next.json
assert_contains "$lock" "version     = \"$next\""
assert_contains "$lock" "\"$(jq -r '.archives.linux_amd64.hashes[0]' "$next_json")\""
if grep -qF "\"$h1\"" "$lock"; then fail "the lock file still holds $version's hash"; fi
tf plan -input=false
assert_contains "$TF_OUT" "No changes."
tf destroy -auto-approve -input=false
assert_groups 0
pass
