#!/bin/bash
# The chase's timed path, read in the PTX nvcc makes of it for sm_90: between two of
# its dependent loads there is nothing but the load (no clamp, no address arithmetic),
# for at least the walk's unroll of steps in a row. The checker is first shown a walk
# with an ALU op on the path, which it must refuse, so it cannot pass by reading nothing.
# Usage: chase_ptx_test.sh NVCC SOURCE_DIR
set -euo pipefail
nvcc=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unroll=$(sed -n 's/^inline constexpr unsigned kChaseUnroll = \([0-9]*\);/\1/p' "$src/backends/cuda/chase_walk.hpp")
[ -n "$unroll" ] || { echo "kChaseUnroll not found in chase_walk.hpp"; exit 1; }

cat > "$work/clamped.ptx" <<'PTX'
.visible .entry chase_links_kernel(
{
	ld.global.u64 	%rd1, [%rd0];
	min.u64 	%rd2, %rd1, %rd9;
	ld.global.u64 	%rd3, [%rd2];
	ld.global.u64 	%rd4, [%rd3];
}
PTX
got=$(awk -v KERNEL=chase_links_kernel -f "$here/chase_ptx_steps.awk" "$work/clamped.ptx")
if [ "$got" != 2 ]; then
    echo "the checker found $got dependent steps in a row in a walk with a min on its path, expected 2"
    exit 1
fi

"$nvcc" -ptx -arch=sm_90 -std=c++20 -I"$src/backends/cuda" -I"$src/plugins/include" \
    "$src/backends/cuda/kernels_chase.cu" -o "$work/chase.ptx"
got=$(awk -v KERNEL=chase_links_kernel -f "$here/chase_ptx_steps.awk" "$work/chase.ptx")
if [ "$got" -lt "$unroll" ]; then
    echo "chase_links_kernel's PTX has at most $got dependent loads in a row with nothing between them;"
    echo "expected at least $unroll (kChaseUnroll): something lies on the timed path"
    grep -n -A3 'ld.global.u64' "$work/chase.ptx" | head -40
    exit 1
fi
echo "chase_links_kernel: $got dependent loads in a row, nothing between them"
