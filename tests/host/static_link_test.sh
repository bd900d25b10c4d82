#!/usr/bin/env bash
# Checks that the shipped provider binary really is the statically linked one
# (plugin/host/static_link.sh, docs/design/host.md "Start-up time and memory"): its ELF DT_NEEDED
# entries may name only the C library and its siblings (libc, libm, libpthread, libdl, librt,
# ld-linux). static_link.sh falls back to a shared link rather than break the build, which costs
# Terraform ~30 ms and ~14 MB per provider launch; this test is what makes that fallback fail CI.
# Usage: static_link_test.sh BINARY
set -uo pipefail
binary=${1:?usage: static_link_test.sh BINARY}
if [[ ! -f $binary ]]; then
  echo "FAIL: $binary does not exist"
  exit 1
fi
if ! needed=$(readelf -d -W "$binary" 2>&1); then
  echo "FAIL: readelf -d $binary failed: $needed"
  exit 1
fi
allowed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux[^ ]*\.so\.[0-9]+|linux-vdso\.so\.1)$'
count=0
bad=()
while IFS= read -r lib; do
  count=$((count + 1))
  [[ $lib =~ $allowed ]] || bad+=("$lib")
done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' <<<"$needed")
if ((count == 0)); then
  echo "FAIL: no DT_NEEDED entries found in $binary (not a dynamically linked ELF file?)"
  exit 1
fi
if ((${#bad[@]} > 0)); then
  echo "FAIL: $binary needs shared libraries besides libc/libm/ld-linux: ${bad[*]}"
  echo "The static link in plugin/host/static_link.sh failed and fell back to a shared link;"
  echo "the build output of terraform-provider-nsxalb shows why (\"static link failed\")."
  exit 1
fi
echo "OK: $binary needs only: $(sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' <<<"$needed" | tr '\n' ' ')"
