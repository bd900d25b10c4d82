#!/usr/bin/env bash
# Link launcher for the provider binary (CMake RULE_LAUNCH_LINK): runs the link command CMake
# generated, but with every shared library from the system library directory that has a static
# archive next to it (gRPC, protobuf, Abseil, OpenSSL, c-ares, re2, upb, zlib) replaced by that
# archive, inside one --start-group/--end-group, plus libstdc++ and libgcc linked statically.
# libc and libm stay shared. If lld is installed, it links with startup_order.txt (next to this
# script) as --symbol-ordering-file, so the code a provider process runs (start-up, then a
# session as Terraform drives it) sits together.
#
# With --sanitizer-build as its first argument (the AddressSanitizer tree's provider), libstdc++,
# libgcc, libssl and libcrypto stay shared: the sanitizer runtime intercepts libstdc++'s
# operator new and __cxa_throw, and the LeakSanitizer suppressions (tests/asan/) name
# libcrypto.so.3. The other ~55 libraries are linked in: such a provider, started alone without
# arguments, takes 85 ms instead of 123 (2026-12-07), and the scenarios start it ~1,400 times.
#
# Why: a dynamically linked gRPC binary loads ~57 shared objects and spends most of its start-up
# in the dynamic loader (symbol lookups and relocations); start-up code scattered over ~10 MB of
# text makes the kernel's fault-around map most of it. See docs/design/host.md. Each attempt
# falls back to the next (lld with ordering, then the default linker, then the original shared
# link), so the build never breaks; the last fallback prints a loud warning, and the
# PluginHostStaticLink test (tests/host/static_link_test.sh) fails on the resulting binary (a
# sanitizer tree has no such test: there the fallback costs only start-up time).
set -uo pipefail

libdir=${NSXALB_STATIC_LIBDIR:-/usr/lib/x86_64-linux-gnu}
order_file="$(cd "$(dirname "$0")" && pwd)/startup_order.txt"
static_runtime=(-static-libstdc++ -static-libgcc)
keep_shared='^$'
if [[ ${1:-} == --sanitizer-build ]]; then
  shift
  static_runtime=()
  keep_shared='^lib(ssl|crypto)\.a$'
fi
args=()
archives=()
for arg in "$@"; do
  archive=""
  if [[ $arg =~ ^(${libdir}/lib[^/]+)\.so(\.[0-9.]+)?$ ]]; then
    archive=${BASH_REMATCH[1]}.a
  elif [[ $arg =~ ^-l([A-Za-z0-9_+-]+)$ ]] &&
       [[ ${BASH_REMATCH[1]} != @(m|dl|rt|pthread|c|stdc++|gcc_s) ]]; then
    archive=${libdir}/lib${BASH_REMATCH[1]}.a
  fi
  if [[ -n $archive && -f $archive && ! ${archive##*/} =~ $keep_shared ]]; then
    archives+=("$archive")
  else
    args+=("$arg")
  fi
done

log=/tmp/nsxalb-static-link.$$.log
static_link=("${args[@]}" "${static_runtime[@]}"
             -Wl,--start-group "${archives[@]}" -Wl,--end-group -Wl,--gc-sections)
if ((${#archives[@]} > 0)); then
  if command -v ld.lld >/dev/null && [[ -f $order_file ]] &&
     "${static_link[@]}" -fuse-ld=lld -Wl,--symbol-ordering-file="$order_file" \
       -Wl,--no-warn-symbol-ordering 2>"$log"; then
    rm -f "$log"
    exit 0
  fi
  if "${static_link[@]}" 2>"$log"; then
    rm -f "$log"
    exit 0
  fi
  # Loud on purpose: the shared fallback still builds, but every provider launch then costs
  # ~30 ms and ~14 MB more. The PluginHostStaticLink test (tests/host/) fails on such a binary.
  {
    echo "static_link.sh: ============================================================"
    echo "static_link.sh: WARNING: static link failed, linking against shared libraries instead."
    echo "static_link.sh: The provider will start ~5x slower and use ~2.5x the memory; the"
    echo "static_link.sh: PluginHostStaticLink test (not in a sanitizer tree) fails on this binary."
    echo "static_link.sh: Missing pieces:"
    grep -E "cannot find|undefined reference" "$log" | sort -u | head -n 20 | sed 's/^/static_link.sh:   /'
    echo "static_link.sh: Linker output (first 20 lines):"
    head -n 20 "$log" | sed 's/^/static_link.sh:   /'
    echo "static_link.sh: ============================================================"
  } >&2
  rm -f "$log"
fi
exec "$@"
