#!/usr/bin/env bash
# Link launcher for the provider binary (CMake RULE_LAUNCH_LINK): runs the link command CMake
# generated, but with every shared library from the system library directory that has a static
# archive next to it (gRPC, protobuf, Abseil, OpenSSL, c-ares, re2, upb, zlib) replaced by that
# archive, inside one --start-group/--end-group. libc, libstdc++ and libm stay shared.
#
# Why: a dynamically linked gRPC binary loads ~57 shared objects and spends most of its start-up
# in the dynamic loader (symbol lookups and relocations); see docs/design/host.md. If the static
# link fails for any reason, the original command runs instead, so the build never breaks.
set -uo pipefail

libdir=${NSXALB_STATIC_LIBDIR:-/usr/lib/x86_64-linux-gnu}
args=()
archives=()
for arg in "$@"; do
  if [[ $arg =~ ^(${libdir}/lib[^/]+)\.so(\.[0-9.]+)?$ ]] && [[ -f ${BASH_REMATCH[1]}.a ]]; then
    archives+=("${BASH_REMATCH[1]}.a")
  elif [[ $arg =~ ^-l([A-Za-z0-9_+-]+)$ ]] && [[ -f ${libdir}/lib${BASH_REMATCH[1]}.a ]] &&
       [[ ${BASH_REMATCH[1]} != @(m|dl|rt|pthread|c|stdc++|gcc_s) ]]; then
    archives+=("${libdir}/lib${BASH_REMATCH[1]}.a")
  else
    args+=("$arg")
  fi
done

if ((${#archives[@]} > 0)) &&
   "${args[@]}" -Wl,--start-group "${archives[@]}" -Wl,--end-group -Wl,--gc-sections \
     2>/tmp/nsxalb-static-link.$$.log; then
  rm -f /tmp/nsxalb-static-link.$$.log
  exit 0
fi
if ((${#archives[@]} > 0)); then
  echo "static_link.sh: static link failed, linking against shared libraries instead:" >&2
  head -n 20 /tmp/nsxalb-static-link.$$.log >&2
  rm -f /tmp/nsxalb-static-link.$$.log
fi
exec "$@"
