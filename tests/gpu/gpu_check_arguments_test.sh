#!/usr/bin/env bash
# scripts/gpu-check's arguments, in a second: --build-only refuses before building
# anything when no peer is named or the one named is not a program; bad arguments are
# exit 2; --help shows the whole header, the peer's variable included.
#   gpu_check_arguments_test.sh SOURCE_DIR
set -u
root=$1
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"
check() { # expected status, then the environment and arguments (the peer unset unless named)
    local want=$1
    shift
    env -u VRAMBENCH_PEER_BABELSTREAM VRAMBENCH_GPU_TREE="$work/tree" "$@" >"$work/stdout" 2>"$work/stderr"
    local status=$?
    expect "$* exits $want (got $status: $(head -c 300 "$work/stderr"))" test "$status" -eq "$want"
}

check 2 "$root/scripts/gpu-check" --build-only "$work/carry"
expect "says no peer is named" grep -q "no peer named: set VRAMBENCH_PEER_BABELSTREAM" "$work/stderr"
expect "builds nothing" test ! -e "$work/tree" -a ! -e "$work/carry"

check 2 VRAMBENCH_PEER_BABELSTREAM="$work/no-such-binary" "$root/scripts/gpu-check" --build-only "$work/carry"
expect "says the peer is not a program" grep -q "no-such-binary is not an executable file" "$work/stderr"
expect "still builds nothing" test ! -e "$work/tree" -a ! -e "$work/carry"

check 2 "$root/scripts/gpu-check"
check 2 "$root/scripts/gpu-check" "$work/a" "$work/b"
check 2 "$root/scripts/gpu-check" --no-such-option
check 2 VRAMBENCH_PEER_BABELSTREAM=none "$root/scripts/gpu-check" --build-only "$work/a" "$work/b"
check 0 "$root/scripts/gpu-check" --help
expect "--help names the peer's variable" grep -q "VRAMBENCH_PEER_BABELSTREAM" "$work/stdout"
expect "--help shows the exit statuses, at the header's end" grep -q "vrambench's own figures stand without it" "$work/stdout"

((failures == 0)) && echo "ok" || exit 1
