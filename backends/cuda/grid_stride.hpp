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

// Where block `block` of `blocks` starts when every block walks the whole working set
// (a set smaller than one resident wave): spread evenly over the set, so the blocks
// meet different lines at any moment, and a multiple of 64 items, so a thread's
// elements keep their places in pattern.h's 64-lane blocks in both parts of its walk.
VRB_HOST_DEVICE inline uint64_t block_rotation(uint64_t count, uint32_t block, uint32_t blocks)
{
    if (blocks == 0) return 0;
    const uint64_t start = count / blocks * block + count % blocks * block / blocks;
    return start / 64 * 64;
}

// One thread's items, as one or two grid-stride walks. Shared out (the usual case):
// thread `first` of a grid of `stride` threads, once. Whole set: every block walks all
// `count` items with a block-wide stride, from its rotation to the end and then from 0
// up to it, so each block visits every item exactly once a pass without a wrap per item.
struct ThreadWalk {
    GridWalk part[2];
};

VRB_HOST_DEVICE inline ThreadWalk shared_walk(uint64_t count, uint64_t first, uint64_t stride)
{
    return {{grid_walk(count, first, stride), GridWalk{0, 1, 0}}};
}

VRB_HOST_DEVICE inline ThreadWalk whole_set_walk(uint64_t count, uint32_t block, uint32_t blocks, uint32_t thread,
                                                 uint32_t block_threads)
{
    const uint64_t start = block_rotation(count, block, blocks);
    return {{grid_walk(count, start + thread, block_threads), grid_walk(start, thread, block_threads)}};
}

template <unsigned Unroll, typename Group, typename One>
VRB_HOST_DEVICE inline void grid_stride(const ThreadWalk &walk, Group &&group, One &&one)
{
    grid_stride<Unroll>(walk.part[0], group, one);
    grid_stride<Unroll>(walk.part[1], group, one);
}

} // namespace vrb::gpu
