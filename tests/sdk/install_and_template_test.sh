#!/usr/bin/env bash
# `cmake --install` into a temporary prefix: the executable there finds its modules in
# ../lib/vrambench, the SDK is complete, and the template it installs (share/vrambench/
# template, as plugins/template holds it), copied out, configures against it with
# find_package(vrambench) and no build type named, builds optimised, passes plugin-check,
# and once installed into the same prefix is listed by that prefix's vrambench.
# Usage: install_and_template_test.sh BUILD_DIR SOURCE_DIR CMAKE
set -euo pipefail
build=$1 source=$2 cmake=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset VRAMBENCH_PLUGIN_PATH

prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/vrambench lib/vrambench/vrambench-host.so \
         include/vrambench/plugin.h include/vrambench/pattern.h \
         include/vrambench/plugin_support.hpp include/vrambench/operation.hpp \
         include/vrambench/plugin_table.hpp include/vrambench/segments.hpp include/vrambench/external_handle.hpp \
         share/vrambench/template/CMakeLists.txt share/vrambench/template/README.md \
         share/vrambench/template/template_backend.cpp share/vrambench/template/template_kernels.cpp \
         share/vrambench/template/template_kernels.hpp \
         lib/cmake/vrambench/vrambenchConfig.cmake lib/cmake/vrambench/vrambenchConfigVersion.cmake \
         lib/cmake/vrambench/vrambenchTargets.cmake lib/cmake/vrambench/vrambench_backend.cmake; do
  [ -f "$prefix/$f" ] || fail "the install tree lacks $f"
done
[ -e "$prefix/lib/vrambench/vrambench-template.so" ] && fail "the test-only template module was installed"
for m in "$build"/bin/vrambench-*.so; do
  [ -f "$prefix/lib/vrambench/$(basename "$m")" ] || fail "built module $(basename "$m") is not installed"
done

# The installed executable, away from the build tree, finds the installed modules.
list=$("$prefix/bin/vrambench" list) || fail "the installed vrambench list failed"
grep -q "host:0" <<<"$list" || { echo "$list"; fail "the installed vrambench does not list host:0"; }

# The published sets travel with the executable: health, away from the build tree, judges
# the H200 set against them and the datasheet floor, and the same set read at 0.6x fails.
h200=$prefix/share/vrambench/results/nvidia-h200-cuda/standard.json
[ -f "$h200" ] && [ -f "$prefix/share/vrambench/results/nvidia-h200-cuda/provenance.txt" ] \
  || fail "the install tree lacks the published H200 set and its provenance"
health=$("$prefix/bin/vrambench" health --result "$h200" 2>&1) || { echo "$health"; fail "the installed health calls the published H200 set unhealthy or not judged"; }
grep -q "^verdict .*: healthy" <<<"$health" || { echo "$health"; fail "the installed health gave no healthy verdict"; }
python3 - "$h200" "$work/slow.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for r in s["results"]:
    if r["probe"] == "bandwidth.stream" and r["parameters"].get("operation") == "read" and r.get("value"):
        r["value"] *= 0.6
        r["samples"] = [x * 0.6 for x in r.get("samples", [])]
json.dump(s, open(sys.argv[2], "w"))
PY
set +e
slow=$("$prefix/bin/vrambench" health --result "$work/slow.json" 2>&1)
code=$?
set -e
[ "$code" -eq 5 ] && grep -q "bandwidth.stream read" <<<"$slow" \
  || { echo "$slow"; fail "the installed health passed a stream read at 0.6x (exit $code)"; }

# The installed template, copied out, against the installed SDK only.
cp -r "$prefix/share/vrambench/template" "$work/template"
diff -r "$source/plugins/template" "$work/template" >/dev/null || fail "the installed template differs from plugins/template"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# No CMAKE_BUILD_TYPE: the template must choose an optimised build itself.
"$cmake" -S "$work/template" -B "$work/template-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "the template does not configure against the installed SDK"; }
abi=$(sed -n 's/^#define VRB_ABI_VERSION_MAJOR \([0-9]*\)u.*/\1/p' "$source/plugins/include/vrambench/plugin.h").$(
      sed -n 's/^#define VRB_ABI_VERSION_MINOR \([0-9]*\)u.*/\1/p' "$source/plugins/include/vrambench/plugin.h")
grep -q "plugin ABI $abi" "$work/configure.log" || { cat "$work/configure.log"; fail "vrambench_ABI_VERSION is not $abi"; }
"$cmake" --build "$work/template-build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the template does not build"; }
module=$work/template-build/vrambench-template.so
[ -f "$module" ] || fail "no vrambench-template.so (no prefix) in the template's build folder"
exported=$(nm -D --defined-only "$module" | awk '{print $3}' | grep -v '^_' | sort -u)
[ "$exported" = "vrb_plugin_entry" ] || fail "the template exports more than its entry: $exported"

"$prefix/bin/vrambench" plugin-check "$module" >"$work/check.log" 2>&1 || { cat "$work/check.log"; fail "plugin-check of the out-of-tree template"; }
grep -q "^PASSED" "$work/check.log" || { cat "$work/check.log"; fail "plugin-check printed no PASSED line"; }
grep -q "without optimisation" "$work/check.log" && { cat "$work/check.log"; fail "the template built with no build type named is unoptimised"; }
"$prefix/bin/vrambench" list --plugin "$module" | grep -q "template:0" || fail "list --plugin does not show template:0"

# Installed into the same prefix, the module is found with nothing named.
"$cmake" --install "$work/template-build" --prefix "$prefix" >/dev/null || fail "the template does not install"
[ -f "$prefix/lib/vrambench/vrambench-template.so" ] || fail "the template did not install into lib/vrambench"
"$prefix/bin/vrambench" list | grep -q "template:0" || fail "the installed template is not listed"

# vrambench_add_backend alone, in a project that names no build type, builds optimised;
# a Debug build of the same is named as built without optimisation.
mkdir "$work/bare"
cp "$work/template"/template_* "$work/bare/"
cat >"$work/bare/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(bare LANGUAGES CXX)
find_package(vrambench REQUIRED)
vrambench_add_backend(bare SOURCES template_backend.cpp template_kernels.cpp)
CMAKE
for type in "" Debug; do
  "$cmake" -S "$work/bare" -B "$work/bare/build$type" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DCMAKE_PREFIX_PATH="$prefix" \
    "${launcher[@]}" >"$work/bare.log" 2>&1 && "$cmake" --build "$work/bare/build$type" >>"$work/bare.log" 2>&1 \
    || { cat "$work/bare.log"; fail "a project of vrambench_add_backend alone (build type '$type') does not build"; }
  listed=$("$prefix/bin/vrambench" list --plugin "$work/bare/build$type/vrambench-bare.so")
  grep -q "template:0" <<<"$listed" || { echo "$listed"; fail "list --plugin does not show the bare module's device"; }
  if [ -z "$type" ] && grep -q "without optimisation" <<<"$listed"; then
    echo "$listed"; fail "vrambench_add_backend with no build type built an unoptimised module"
  fi
  if [ "$type" = Debug ] && ! grep -q "built without optimisation (-O0)" <<<"$listed"; then
    echo "$listed"; fail "list does not name a Debug module as built without optimisation"
  fi
done

# A project asking for an SDK this is not is refused at configure time.
mkdir "$work/too-new"
cat >"$work/too-new/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(too_new LANGUAGES CXX)
find_package(vrambench 99.0 REQUIRED)
CMAKE
if "$cmake" -S "$work/too-new" -B "$work/too-new/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/too-new.log" 2>&1; then
  fail "find_package(vrambench 99.0) was accepted"
fi
grep -q "vrambench" "$work/too-new.log" || fail "the refused find_package says nothing about vrambench"
echo "install tree, find_package and the out-of-tree template: ok"
