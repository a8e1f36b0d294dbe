#!/usr/bin/env bash
# `cpack -G DEB` from the build folder: one package for the executable and the host
# backend, one per GPU backend, and vrambench-dev. Each is unpacked with dpkg-deb -x into
# a temporary root, whose vrambench runs; the core package alone needs no GPU stack.
# Usage: debian_packages_test.sh BUILD_DIR CPACK
set -euo pipefail
build=$1 cpack=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset VRAMBENCH_PLUGIN_PATH

(cd "$work" && "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/packages") >"$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
package() { ls "$work/packages/$1"_*.deb 2>/dev/null | head -1; }
core=$(package vrambench) dev=$(package vrambench-dev)
[ -n "$core" ] || fail "no vrambench package"
[ -n "$dev" ] || fail "no vrambench-dev package"

depends() { dpkg-deb -f "$1" Depends; }
# Whether package $1 holds path $2 (the listing is read whole: grep -q would cut the pipe).
holds() { local listing; listing=$(dpkg-deb -c "$1") && grep -q " \.$2\$" <<<"$listing"; }
version=$(dpkg-deb -f "$core" Version)
# The core package needs no GPU stack.
if grep -Eiq 'vulkan|cuda|amdhip|rocm|nvidia' <<<"$(depends "$core")"; then
  fail "the vrambench package depends on a GPU stack: $(depends "$core")"
fi
holds "$core" /usr/bin/vrambench || fail "the vrambench package lacks /usr/bin/vrambench"
holds "$core" /usr/lib/vrambench/vrambench-host.so || fail "the vrambench package lacks the host backend"
holds "$dev" /usr/include/vrambench/plugin.h || fail "vrambench-dev lacks plugin.h"
holds "$dev" /usr/lib/cmake/vrambench/vrambenchConfig.cmake || fail "vrambench-dev lacks the CMake package"
for f in CMakeLists.txt README.md template_backend.cpp template_kernels.cpp template_kernels.hpp; do
  holds "$dev" "/usr/share/vrambench/template/$f" || fail "vrambench-dev lacks the template's $f (the guide says to copy it)"
done
holds "$dev" /usr/include/vrambench/segments.hpp || fail "vrambench-dev lacks segments.hpp"

# Each GPU backend built here has its package, depending on the core and its runtime.
declare -A runtime=([vulkan]=libvulkan1 [hip]=libamdhip64)
backends=()
for module in "$build"/bin/vrambench-*.so; do
  name=$(basename "$module" .so); name=${name#vrambench-}
  [ "$name" = host ] && continue
  deb=$(package "vrambench-$name")
  [ -n "$deb" ] || fail "backend $name was built but has no vrambench-$name package"
  grep -q "vrambench (= $version)" <<<"$(depends "$deb")" || fail "vrambench-$name does not depend on vrambench (= $version): $(depends "$deb")"
  if [ -n "${runtime[$name]:-}" ] && ! grep -q "${runtime[$name]}" <<<"$(depends "$deb")"; then
    fail "vrambench-$name does not depend on ${runtime[$name]}: $(depends "$deb")"
  fi
  holds "$deb" "/usr/lib/vrambench/vrambench-$name.so" || fail "vrambench-$name lacks its module"
  backends+=("$name")
done

# The core package alone: vrambench runs and lists the host.
dpkg-deb -x "$core" "$work/core-root"
out=$("$work/core-root/usr/bin/vrambench" list) || fail "vrambench from the core package alone failed"
grep -q "host:0" <<<"$out" || { echo "$out"; fail "vrambench from the core package does not list host:0"; }

# Every package in one root: each backend is listed (available or saying why not).
for deb in "$work"/packages/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
out=$("$work/root/usr/bin/vrambench" list) || fail "vrambench from the unpacked packages failed"
for name in host "${backends[@]}"; do
  grep -Eq "^$name\b|\b$name:|backend $name|^ *$name " <<<"$out" || { echo "$out"; fail "the unpacked vrambench does not list $name"; }
done
for deb in "$work"/packages/*.deb; do echo "$(basename "$deb"): Depends: $(depends "$deb")"; done
