// FILL and CHECK: writing a pattern of pattern.h and finding where memory differs
// from it, lane by lane, for integrity tests and for verifying every probe.
#include "kernel_common.cuh"

#include <vrambench/plugin.h>

namespace vrb::gpu {
namespace {

template <int L> __device__ __forceinline__ Lanes<L> pattern_element(uint32_t pattern, uint64_t i, uint32_t seed)
{
    Lanes<L> e;
#pragma unroll
    for (int k = 0; k < L; ++k)
        e.v[k] = vrb_pattern(pattern, i * L + k, seed);
    return e;
}

template <int L>
__global__ void __launch_bounds__(kThreads)
    fill_kernel(uint32_t passes, void *__restrict__ dst, uint64_t count, uint32_t pattern, uint32_t seed)
{
    if (pattern == VRB_PATTERN_RANDOM) {
        const RandomLanes<L> random(global_thread(), grid_threads(), seed);
        store_passes<L>(passes, dst, thread_walk(count), random);
    } else {
        store_passes<L>(passes, dst, thread_walk(count),
                        [&](uint64_t i) { return pattern_element<L>(pattern, i, seed); });
    }
}

// Per block: how many lanes differ, and the lowest such lane (UINT64_MAX when none).
template <int L>
__global__ void __launch_bounds__(kThreads)
    check_kernel(uint32_t passes, const void *__restrict__ src, uint64_t count, uint32_t pattern, uint32_t seed,
                 uint64_t *__restrict__ counts, uint64_t *__restrict__ firsts)
{
    // As in the reductions: the count runs on over the passes, the last pass's share answers.
    uint64_t mismatches = 0, before_last = 0;
    uint64_t first = ~uint64_t(0);
    auto compare = [&](uint64_t i, const Lanes<L> &e) {
#pragma unroll
        for (int k = 0; k < L; ++k) {
            const uint64_t lane = i * L + k;
            if (e.v[k] != vrb_pattern(pattern, lane, seed)) {
                ++mismatches;
                first = lane < first ? lane : first;
            }
        }
    };
    const GridWalk walk = thread_walk(count);
    for (uint32_t p = 0; p < passes; ++p) {
        if (p + 1 == passes) before_last = mismatches;
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                Lanes<L> v[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    v[k] = load<L>(src, i + k * stride);
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    compare(i + k * stride, v[k]);
            },
            [&](uint64_t i) { compare(i, load<L>(src, i)); });
    }
    const uint64_t block_mismatches = block_sum(mismatches - before_last);
    const uint64_t block_first = block_min(first);
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = block_mismatches;
        firsts[blockIdx.x] = block_first;
    }
}

template <int L> PreparedKernel prepare(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    if (op.kind == VRB_OP_FILL) {
        const auto kernel = fill_kernel<L>;
        const LaunchGeometry g = plan_kernel(kernel, op.count, shape, 0, 0xffffffffu);
        return bind_launch(kernel, g, 0, false, "launching the fill kernel", op.dst, op.count, op.pattern, op.seed);
    }
    const std::size_t shared = kReductionBytesPerThread;
    const auto kernel = check_kernel<L>;
    const LaunchGeometry g = plan_kernel(kernel, op.count, shape, shared, scratch.capacity);
    return bind_launch(kernel, g, g.threads * shared, true, "launching the check kernel", op.src1, op.count, op.pattern,
                       op.seed, scratch.partial_a, scratch.partial_b);
}

} // namespace

PreparedKernel prepare_pattern_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    switch (op.lanes) {
    case 1: return prepare<1>(op, scratch, shape);
    case 2: return prepare<2>(op, scratch, shape);
    default: return prepare<4>(op, scratch, shape);
    }
}

} // namespace vrb::gpu
