// How a kernel's threads share out `count` items: thread `first` of a grid of `stride`
// threads takes items first, first + stride, first + 2 * stride ... (grid-stride), in
// groups of Unroll so that a group's loads are all in flight before any is used. The
// same code runs in the kernels and in the tests, which check on the host that every
// item is visited exactly once, for any count, without 64-bit overflow.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#include "gpu_runtime.hpp"
#define VRB_HOST_DEVICE __host__ __device__
#else
#define VRB_HOST_DEVICE
#endif

namespace vrb::gpu {

// How many items thread `first` visits. Written so nothing overflows even for a count
// near 2^64: it never forms first + k * stride past the last item.
VRB_HOST_DEVICE inline uint64_t grid_stride_visits(uint64_t count, uint64_t first, uint64_t stride)
{
    return first < count ? (count - 1 - first) / stride + 1 : 0;
}

// One thread's share of a walk, worked out once: kernels walk it again on every pass, and
// the 64-bit division that counts the visits costs a GPU more than a pass over a few
// items in L1, so it must not be redone per pass.
struct GridWalk {
    uint64_t first = 0, stride = 1, visits = 0;
};

VRB_HOST_DEVICE inline GridWalk grid_walk(uint64_t count, uint64_t first, uint64_t stride)
{
    return {first, stride, grid_stride_visits(count, first, stride)};
}

// Calls group(i, stride) for each full group of Unroll items i, i + stride ... and then
// one(i) for each item left over. The index after the last visit is at most
// count - 1 + stride, so it cannot wrap while count + stride fits in 64 bits.
template <unsigned Unroll, typename Group, typename One>
VRB_HOST_DEVICE inline void grid_stride(const GridWalk &walk, Group &&group, One &&one)
{
    uint64_t visits = walk.visits;
    uint64_t i = walk.first;
    const uint64_t stride = walk.stride;
    for (; visits >= Unroll; visits -= Unroll, i += Unroll * stride)
        group(i, stride);
    for (; visits > 0; --visits, i += stride)
        one(i);
}

template <unsigned Unroll, typename Group, typename One>
VRB_HOST_DEVICE inline void grid_stride(uint64_t count, uint64_t first, uint64_t stride, Group &&group, One &&one)
{
    grid_stride<Unroll>(grid_walk(count, first, stride), group, one);
}

// A thread's visits over `laps` passes as one stream: the first visits of a pass follow
// the last of the pass before at once, so every group of Unroll items is in flight
// together even where a thread's share of a small set is fewer than Unroll items (a set
// in L2 shared out over a full wave), which a pass-by-pass walk would leave one or two
// loads deep. group(at) gets the Unroll items of a group, one(i) each left at the end.
// A count of visits past 64 bits (never a sweep's) is walked pass by pass.
template <unsigned Unroll, typename Group, typename One>
VRB_HOST_DEVICE inline void lapped_stride(const GridWalk &walk, uint32_t laps, Group &&group, One &&one)
{
    if (walk.visits == 0 || laps == 0) return;
    const uint64_t first = walk.first, stride = walk.stride;
    const uint64_t last = first + (walk.visits - 1) * stride;
    if (walk.visits > ~uint64_t{0} / laps) {
        for (uint32_t p = 0; p < laps; ++p)
            for (uint64_t i = first, v = walk.visits; v > 0; --v, i += stride)
                one(i);
        return;
    }
    uint64_t n = walk.visits * laps;
    uint64_t i = first;
    for (; n >= Unroll; n -= Unroll) {
        uint64_t at[Unroll];
        for (unsigned k = 0; k < Unroll; ++k) {
            at[k] = i;
            i = i == last ? first : i + stride;
        }
        group(at);
    }
    for (; n > 0; --n) {
        one(i);
        i = i == last ? first : i + stride;
    }
}

// A sweep's walk for one thread: shared out, thread `thread` of the grid's `grid_threads`
// takes its grid-stride share; per unit, thread `thread` of a block of `block_threads`
// (one unit's walk of the whole set) takes its block-stride share of all the items.
VRB_HOST_DEVICE inline GridWalk unit_walk(uint64_t count, uint32_t thread, uint32_t block_threads)
{
    return grid_walk(count, thread, block_threads);
}

} // namespace vrb::gpu
