# shellcheck shell=bash
# Running the real `terraform` against this provider and the Controller emulator without touching
# the user's own Terraform settings: shared by scripts/demo, examples/gitops and the terraform test
# scenarios (tests/terraform/lib.sh). Source it; it defines functions and sets nothing else.
#
#   tfm_install_provider BINARY VERSION DIR   a filesystem mirror DIR/mirror holding a copy of the
#                                             provider, and a CLI config DIR/terraformrc that
#                                             installs nsxalb/* from it (and nothing else from
#                                             it); exports TF_CLI_CONFIG_FILE. ~/.terraformrc is
#                                             never read or written. The copy is stripped of
#                                             debug info (as a release is) unless
#                                             TFM_KEEP_DEBUG_INFO=1: Terraform reads and hashes
#                                             the whole package at every command (0.27 s of CPU
#                                             for a plan with the 153 MB RelWithDebInfo binary,
#                                             0.17 s with its 22 MB stripped copy).
#   tfm_add_mirrored_provider SOURCE BINARY VERSION DIR
#                                             after tfm_install_provider: adds another provider
#                                             (such as a test stand-in for registry.terraform.io/
#                                             vmware/avi) to the same mirror, and to what the CLI
#                                             config installs from it
#   tfm_write_versions_tf FILE                a terraform block requiring nsxalb/nsxalb
#   tfm_start_emulator BINARY DIR [ARGS...]   nsxalb-controller-emulator on 127.0.0.1, port 0,
#                                             TLS files in DIR/emulator-tls, logs in
#                                             DIR/emulator.log; sets EMU_PID, EMU_URL and
#                                             EMU_CA_FILE. Returns 1 (log on stderr) if it is not
#                                             ready within 10 s.
#   tfm_stop_emulator                         stops it (TERM, then KILL after 5 s)
#   tfm_stop_mirror_processes DIR             stops every process running a binary under DIR
#                                             (providers Terraform left behind), by pid
#   tfm_explain_init_failure FILE             after a failed `terraform init` whose output is
#                                             FILE: says what to do when the provider was not
#                                             found (returns 0 when it recognised the failure)
# Nothing here exits: the caller decides what a failure means.

TFM_PROVIDER_SOURCE=registry.terraform.io/nsxalb/nsxalb

# The platform directory Terraform looks for in a mirror, such as linux_amd64.
tfm_platform() {
  local os arch
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
  echo "${os}_${arch}"
}

tfm_install_provider() {
  local binary=$1 version=$2 dir=$3 pkg
  TF_MIRROR=$dir/mirror
  pkg=$TF_MIRROR/$TFM_PROVIDER_SOURCE/$version/$(tfm_platform)
  mkdir -p "$pkg" || return 1
  # A copy, not a link: a rebuild during the run must not change the package under Terraform.
  if [ "${TFM_KEEP_DEBUG_INFO:-}" = 1 ]; then
    cp "$binary" "$pkg/terraform-provider-nsxalb_v$version" || return 1
  else
    objcopy --strip-debug "$binary" "$pkg/terraform-provider-nsxalb_v$version" || return 1
  fi
  cat >"$dir/terraformrc" <<TFRC
provider_installation {
  filesystem_mirror {
    path    = "$TF_MIRROR"
    include = ["registry.terraform.io/nsxalb/*"]
  }
  direct {
    exclude = ["registry.terraform.io/nsxalb/*"]
  }
}
TFRC
  export TF_CLI_CONFIG_FILE=$dir/terraformrc
}

tfm_add_mirrored_provider() {
  local source=$1 binary=$2 version=$3 dir=$4 pkg
  pkg=$TF_MIRROR/$source/$version/$(tfm_platform)
  mkdir -p "$pkg" || return 1
  cp "$binary" "$pkg/terraform-provider-${source##*/}_v$version" || return 1
  sed -i "s|include = \[\(.*\)\]|include = [\1, \"$source\"]|; s|exclude = \[\(.*\)\]|exclude = [\1, \"$source\"]|" \
    "$dir/terraformrc" || return 1
}

tfm_write_versions_tf() {
  cat >"$1" <<'TF'
terraform {
  required_providers {
    nsxalb = { source = "nsxalb/nsxalb" }
  }
}
TF
}

tfm_start_emulator() {
  local binary=$1 dir=$2
  shift 2
  # A restart in the same DIR: the last emulator's ready line must not be read as this one's
  # (the new process truncates the file only once it runs, which under load can be after the
  # wait below has seen the old line).
  rm -f "$dir/emulator.ready"
  # Started straight from the caller's shell, so --exit-with-parent stops it even if that shell
  # is killed.
  "$binary" --bind 127.0.0.1 --port 0 --tls-dir "$dir/emulator-tls" --exit-with-parent "$@" \
    >"$dir/emulator.ready" 2>"$dir/emulator.log" &
  EMU_PID=$!
  local _
  # Until a whole ready line is there (a line being written is not yet one); read once, so that
  # what is checked is what the URL comes from.
  local ready=""
  for _ in $(seq 1 200); do
    ready=$(cat "$dir/emulator.ready" 2>/dev/null || true)
    [[ "$ready" == *'"event"'*'}' ]] && break
    kill -0 "$EMU_PID" 2>/dev/null || break
    sleep 0.05
  done
  if ! jq -e '.event == "ready"' >/dev/null 2>&1 <<<"$ready"; then
    cat "$dir/emulator.log" >&2
    echo "the Controller emulator printed no ready line within 10 s" >&2
    return 1
  fi
  # shellcheck disable=SC2034  # the function's results, read by the caller
  EMU_URL=$(jq -r .url <<<"$ready")
  # shellcheck disable=SC2034
  EMU_CA_FILE=$(jq -r .ca_file <<<"$ready")
}

tfm_stop_emulator() {
  [ -n "${EMU_PID:-}" ] || return 0
  kill -TERM "$EMU_PID" 2>/dev/null || true
  local _
  for _ in $(seq 1 100); do kill -0 "$EMU_PID" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$EMU_PID" 2>/dev/null || true
  wait "$EMU_PID" 2>/dev/null || true
  EMU_PID=""
}

tfm_stop_mirror_processes() {
  local dir=$1 proc
  # One find over /proc: a readlink per process cost a fork and an exec each, about 300 per
  # scenario when six run side by side (3% of the scenario pass's CPU, 2026-12-07).
  while IFS= read -r proc; do
    kill -TERM "${proc#/proc/}" 2>/dev/null || true
  done < <(find /proc -mindepth 2 -maxdepth 2 -path '/proc/[0-9]*/exe' -lname "$dir/*" \
    -printf '%h\n' 2>/dev/null)
}

tfm_explain_init_failure() {
  local out=$1
  if grep -qE 'was not found in any of the search locations|Failed to query available provider packages|does not have a provider named' "$out"; then
    cat >&2 <<HINT
What to do: terraform could not find nsxalb/nsxalb. It is not on registry.terraform.io yet, so
Terraform must find it in a filesystem mirror: the binary at
  <mirror>/$TFM_PROVIDER_SOURCE/<version>/$(tfm_platform)/terraform-provider-nsxalb_v<version>
and a CLI configuration (TF_CLI_CONFIG_FILE, or ~/.terraformrc) whose provider_installation
block has a filesystem_mirror with that path (docs/troubleshooting.md shows one). Build the
binary first (cmake --build build --target terraform-provider-nsxalb); scripts/demo sets all of
this up in a temporary directory. After rebuilding, run terraform init -upgrade.
HINT
    return 0
  fi
  return 1
}
