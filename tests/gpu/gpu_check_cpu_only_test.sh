#!/usr/bin/env bash
# scripts/gpu-check on a machine without a GPU, with a build already there: it says
# plainly that nothing was measured and why, exits 3, and leaves provenance and a
# summary but no result set. Skips (77) where a GPU is present.
#   gpu_check_cpu_only_test.sh SOURCE_DIR BUILD_DIR
set -u
root=$1
build=$2
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    echo "an NVIDIA GPU is here: this test is for machines without one"
    exit 77
fi
if command -v rocm-smi >/dev/null 2>&1 && [[ -e /dev/kfd ]]; then
    echo "an AMD GPU may be here: this test is for machines without one"
    exit 77
fi

source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

VRAMBENCH_BUILD_DIR=$build "$root/scripts/gpu-check" "$work/out" >"$work/stdout" 2>"$work/stderr"
status=$?
echo "exit status $status; stderr:"
cat "$work/stderr"

expect "exits 3" test "$status" -eq 3
expect "says on stderr that there is no GPU" grep -q "no GPU on this machine" "$work/stderr"
expect "writes a summary naming a CPU-only machine" grep -q "^CPU-only machine" "$work/out/summary.txt"
expect "says the GPU tests did not run" grep -q "^NOT RUN: the GPU tests" "$work/out/summary.txt"
expect "says the standard suite did not run" grep -q "^NOT RUN: the standard suite" "$work/out/summary.txt"
expect "records the commit in provenance" grep -q "^git commit: " "$work/out/provenance.txt"
expect "records the build it found" grep -qx "build: $build" "$work/out/provenance.txt"
expect "lists why each backend cannot serve" grep -q "vrambench list on this machine" "$work/out/summary.txt"
expect "writes no result set" test -z "$(find "$work/out" -name '*.json')"
expect "prints nothing on stdout" test ! -s "$work/stdout"

((failures == 0)) && echo "ok" || exit 1
