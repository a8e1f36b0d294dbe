#!/usr/bin/env bash
# scripts/gpu-check's run where nvidia-smi reports a GPU (tests/gpu/fake-nvidia-smi, as
# no GPU is here): it runs the GPU test programs of the build at hand, reads the GPU's
# state before and after, samples it meanwhile, flags throttling only when the samples
# show it, and records a backend that fails as failed. The CUDA backend finds no device
# here, as on a GPU machine whose driver or runtime is broken: the check fails saying
# the CUDA backend never ran, and the GPU tests fail instead of skipping. A staged peer
# runs right after the CUDA suite.
#   gpu_check_fake_gpu_test.sh SOURCE_DIR BUILD_DIR
set -u
root=$1
build=$2
here=$(cd "$(dirname "$0")" && pwd)
# A real GPU would be measured for minutes under the stand-in's name.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    echo "an NVIDIA GPU is here: scripts/gpu-check would measure it"
    exit 77
fi
# What is checked is a CUDA module that finds no device; a build without the CUDA
# toolkit has no module to run.
if [[ ! -f $build/bin/vrambench-cuda.so ]]; then
    echo "the cuda module is not built here (no CUDA toolkit at configure time): nothing to check"
    exit 77
fi
source "$here/expect.sh"
mkdir -p "$work/bin"
ln -s "$here/fake-nvidia-smi" "$work/bin/nvidia-smi"
# The CUDA backend has no device here, so its run fails fast: exit 3.
check() { # name, sampled reasons
    PATH=$work/bin:$PATH FAKE_NVIDIA_SMI_REASONS=$2 VRAMBENCH_BUILD_DIR=$build VRAMBENCH_CHECK_BACKENDS=cuda \
        "$root/scripts/gpu-check" "$work/$1" >"$work/$1.stdout" 2>"$work/$1.stderr"
    local status=$?
    echo "== $1: exit status $status; summary:"
    cat "$work/$1/summary.txt"
    expect "$1: exits with the failed run's status" test "$status" -eq 3
}

check throttled 0x0000000000000040
s=$work/throttled/summary.txt
expect "runs the stand-in test program" grep -q "^ran: vrambench_gpu_standin_tests, passed" "$s"
if [[ -n $(find "$build/tests" -maxdepth 2 -name vrambench_gpu_module_tests) ]]; then
    # VRAMBENCH_REQUIRE_GPU=cuda: the module's "unavailable" fails its tests.
    expect "fails the module test program, whose tests would skip" \
        grep -q "^ran: vrambench_gpu_module_tests, FAILED" "$s"
    expect "the module tests say the GPU was required" \
        grep -q "VRAMBENCH_REQUIRE_GPU=cuda: this machine has a GPU for the cuda backend" \
        "$work/throttled/vrambench_gpu_module_tests.log"
fi
expect "says in the summary that the CUDA backend never ran" \
    grep -q "^FAILED: the CUDA backend never ran: this machine has NVIDIA GPU(s) (1 listed by nvidia-smi)" "$s"
expect "says so on stderr" grep -q "the CUDA backend never ran on this machine's GPU" "$work/throttled.stderr"
expect "records the failed run" grep -q "^ran: cuda .*a run or device failed (exit 3" "$s"
expect "flags thermal slowdown" grep -q "^THROTTLED: " "$s"
expect "states the ECC mode" grep -q "^ECC mode: Enabled" "$s"
expect "states the MIG mode" grep -q "^MIG mode: Disabled" "$s"
for when in before after; do
    expect "reads the state $when" grep -q "clocks_event_reasons.active" "$work/throttled/gpu-$when.csv"
    expect "keeps the state $when in provenance" grep -q "^GPU state $when" "$work/throttled/provenance.txt"
done
expect "samples while it runs" test -s "$work/throttled/gpu-samples.csv"

check idle 0x0000000000000001
expect "does not flag an idle GPU" grep -q "^no throttling seen" "$work/idle/summary.txt"
expect "writes nothing on stdout" test ! -s "$work/idle.stdout"

# Nothing else fails here (the time budget leaves the tests and runs out): the check
# alone must fail, where the host backend would otherwise have passed it.
PATH=$work/bin:$PATH VRAMBENCH_BUILD_DIR=$build VRAMBENCH_CHECK_SECONDS=15 VRAMBENCH_CHECK_BACKENDS=host \
    "$root/scripts/gpu-check" "$work/unreached" >"$work/unreached.stdout" 2>"$work/unreached.stderr"
status=$?
echo "== unreached: exit status $status; summary:"
cat "$work/unreached/summary.txt"
expect "unreached: exits non-zero though nothing else failed" test "$status" -eq 3
expect "unreached: names why in the summary" grep -q "^FAILED: the CUDA backend never ran: .*vrambench list says: cuda" \
    "$work/unreached/summary.txt"

# A staged peer runs right after the CUDA suite, at the default array size where the
# CUDA set has no stream figures (none here), and its table is kept; the ratios it
# cannot form are noted. The staged build has no tests, so only the suite and peer run.
staged=$work/staged
mkdir -p "$staged/peers"
ln -s "$build/bin" "$staged/bin"
cat >"$staged/peers/babelstream-cuda" <<'PEER'
#!/usr/bin/env bash
echo "function,num_times,n_elements,sizeof,max_GB_per_sec,min_runtime,max_runtime,avg_runtime"
echo "Copy,2,1024,8,1.0,1,1,1"
echo "args: $*" >&2
PEER
chmod +x "$staged/peers/babelstream-cuda"
echo "says: Version: 5.0 Implementation: CUDA" >"$staged/peers/PEER-INFO"
PATH=$work/bin:$PATH VRAMBENCH_BUILD_DIR=$staged VRAMBENCH_CHECK_SECONDS=150 VRAMBENCH_CHECK_BACKENDS=cuda \
    "$root/scripts/gpu-check" "$work/peer" >"$work/peer.stdout" 2>"$work/peer.stderr"
echo "== peer: exit status $?; summary:"
cat "$work/peer/summary.txt"
s=$work/peer/summary.txt
expect "peer: runs it after the CUDA suite" grep -q "^ran: the peer, BabelStream's CUDA model, 33554432 doubles an array" "$s"
expect "peer: with its CSV, in GB, 100 runs" grep -qx "args: --arraysize 33554432 --numtimes 100 --csv --gigabytes" \
    "$work/peer/babelstream-cuda.log"
expect "peer: keeps its table" grep -q "^Copy,2,1024" "$work/peer/babelstream-cuda.csv"
expect "peer: says the ratios could not be formed" grep -q "^the peer ratios could not be formed" "$s"
expect "peer: records what it is in provenance" grep -q "Version: 5.0 Implementation: CUDA" "$work/peer/provenance.txt"
check_missing_peer() { grep -q "^NOT RUN: the peer (BabelStream's CUDA model): none staged" "$work/idle/summary.txt"; }
expect "idle: says no peer was staged" check_missing_peer

((failures == 0)) && echo "ok" || exit 1
