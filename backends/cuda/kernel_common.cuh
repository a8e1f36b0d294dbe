// Building blocks shared by the kernel files: full-width element loads and stores,
// lane arithmetic, block reductions and the launch helper. Included only by .cu files.
#pragma once

#include "gpu_runtime.hpp"

#define VRB_PATTERN_FN static inline __host__ __device__
#include <vrambench/pattern.h>

#include "grid_stride.hpp"
#include "kernels.hpp"
#include "launch_geometry.hpp"

namespace vrb::gpu {

// Threads per block: a whole number of warps for 32- and 64-wide warps alike. Nothing
// in the kernels depends on the warp width.
inline constexpr unsigned kThreads = 256;
// Items per thread whose loads are issued together before any is used.
inline constexpr unsigned kUnroll = 4;

// An element of L 32-bit lanes, moved with one load or store of 4 * L bytes.
template <int L> struct Lanes {
    uint32_t v[L];
};

// The machine word of an element of L lanes, loaded or stored in one instruction.
template <int L> struct Word;
template <> struct Word<1> {
    using type = uint32_t;
};
template <> struct Word<2> {
    using type = uint2;
};
template <> struct Word<4> {
    using type = uint4;
};

__device__ __forceinline__ Lanes<1> lanes_of(uint32_t t)
{
    return {{t}};
}
__device__ __forceinline__ Lanes<2> lanes_of(uint2 t)
{
    return {{t.x, t.y}};
}
__device__ __forceinline__ Lanes<4> lanes_of(uint4 t)
{
    return {{t.x, t.y, t.z, t.w}};
}

// Which caches a load may be served from. Through L1 is a plain load of read-only data
// (non-coherent on NVIDIA); past L1, the vendor's load that is served from L2 at the
// nearest (gpu_vendor_*.hpp).
enum class Reach { through_l1, past_l1 };

template <int L, Reach R = Reach::through_l1>
__device__ __forceinline__ Lanes<L> load(const void *__restrict__ base, uint64_t i)
{
    const auto *p = static_cast<const typename Word<L>::type *>(base) + i;
    if constexpr (R == Reach::past_l1)
        return lanes_of(vendor::load_past_l1(p));
    else
        return lanes_of(*p);
}

template <int L> __device__ __forceinline__ typename Word<L>::type word_of(const Lanes<L> &e);
template <> __device__ __forceinline__ uint32_t word_of<1>(const Lanes<1> &e)
{
    return e.v[0];
}
template <> __device__ __forceinline__ uint2 word_of<2>(const Lanes<2> &e)
{
    uint2 t;
    t.x = e.v[0];
    t.y = e.v[1];
    return t;
}
template <> __device__ __forceinline__ uint4 word_of<4>(const Lanes<4> &e)
{
    uint4 t;
    t.x = e.v[0];
    t.y = e.v[1];
    t.z = e.v[2];
    t.w = e.v[3];
    return t;
}

// Stores reach as loads do: past L1, the vendor's store that lands in L2.
template <int L, Reach R = Reach::through_l1>
__device__ __forceinline__ void store(void *__restrict__ base, uint64_t i, const Lanes<L> &e)
{
    auto *p = static_cast<typename Word<L>::type *>(base) + i;
    if constexpr (R == Reach::past_l1)
        vendor::store_past_l1(p, word_of<L>(e));
    else
        *p = word_of<L>(e);
}

// The lane sums of plugin.h's checksums at one add and one shift-add per lane, where
// a 64-bit add per lane would cost two and hide the caches' speed behind the ALUs:
// over at most kChunkLanes lanes, `low` is their sum modulo 2^32 and `high` the sum
// of their high 16 bits (exact: below 2^32); a flush adds the low halves' sum
// (low - high * 2^16, exact below 2^32) and high * 2^16 to the 64-bit total.
inline constexpr uint32_t kChunkLanes = 65536;

struct LaneSum {
    uint64_t total = 0;
    uint32_t low = 0, high = 0, groups = 0;

    template <int L> __device__ __forceinline__ void add(const Lanes<L> &e)
    {
#pragma unroll
        for (int k = 0; k < L; ++k) {
            low += e.v[k];
            high += e.v[k] >> 16;
        }
    }
    __device__ __forceinline__ void flush()
    {
        total += uint32_t(low - (high << 16)) + (uint64_t(high) << 16);
        low = high = groups = 0;
    }
    // After each add of at most kUnroll elements of L lanes.
    template <int L> __device__ __forceinline__ void added()
    {
        if (++groups == kChunkLanes / (kUnroll * L)) flush();
    }
};

// A reduction's passes: the total runs on over all of them and the answer is the last
// pass's share, so no pass is dead code a compiler could drop, nor a repeat of the one
// before that it could hoist. `pass(sum)` walks the thread's items once.
template <typename Pass> __device__ __forceinline__ uint64_t last_pass_sum(uint32_t passes, Pass pass)
{
    LaneSum sum;
    uint64_t before_last = 0;
    for (uint32_t p = 0; p < passes; ++p) {
        sum.flush();
        if (p + 1 == passes) before_last = sum.total;
        pass(sum);
    }
    sum.flush();
    return sum.total - before_last;
}

__device__ __forceinline__ uint64_t global_thread()
{
    return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ uint64_t grid_threads()
{
    return uint64_t(gridDim.x) * blockDim.x;
}

// This thread's share of `count` items, worked out once before the passes.
__device__ __forceinline__ GridWalk thread_walk(uint64_t count)
{
    return grid_walk(count, global_thread(), grid_threads());
}

// A sweep kernel's items for this thread: its share of the grid's, or, in a block that
// is one unit's walk of the whole set (LaunchGeometry::whole_set), its share of the block's.
template <bool WholeSet> __device__ __forceinline__ GridWalk sweep_walk(uint64_t count)
{
    if constexpr (WholeSet)
        return unit_walk(count, threadIdx.x, blockDim.x);
    else
        return grid_walk(count, global_thread(), grid_threads());
}

// How a sweep kernel reaches memory: a unit that walks the whole set reads it from its
// own L1, which holds it (the plan walks per unit only what one L1 holds). A grid that
// shares the set out must not let each block's share sit in its own unit's L1: all the
// L1s together would then pass for an L2 up to their joint size, hiding most of the real
// L2's plateau; its loads and stores go past L1.
template <bool WholeSet> inline constexpr Reach kSweepReach = WholeSet ? Reach::through_l1 : Reach::past_l1;

// Threads of the one block each unit runs when it walks a set of its own: a unit's worth,
// so that one block keeps its L1 busy.
inline constexpr unsigned kUnitThreads = 1024;
template <bool WholeSet> inline constexpr unsigned kSweepThreads = WholeSet ? kUnitThreads : kThreads;

// Dynamic shared memory, blockDim.x 64-bit words, for the block reductions.
extern __shared__ uint64_t reduction_words[];

// Halving tree over shared memory, for any block size; the result is valid in thread 0.
// Barriers at every step rather than warp-synchronous code, so no warp width is assumed.
template <typename Combine> __device__ uint64_t block_reduce(uint64_t value, Combine combine)
{
    const unsigned t = threadIdx.x;
    __syncthreads(); // a previous reduction may still be reading the words
    reduction_words[t] = value;
    __syncthreads();
    for (unsigned active = blockDim.x; active > 1;) {
        const unsigned half = (active + 1) / 2;
        if (t < active - half) reduction_words[t] = combine(reduction_words[t], reduction_words[t + half]);
        __syncthreads();
        active = half;
    }
    return reduction_words[0];
}

__device__ __forceinline__ uint64_t block_sum(uint64_t value)
{
    return block_reduce(value, [](uint64_t a, uint64_t b) { return a + b; });
}

__device__ __forceinline__ uint64_t block_min(uint64_t value)
{
    return block_reduce(value, [](uint64_t a, uint64_t b) { return a < b ? a : b; });
}

// Records one index found outside its buffer, the first to arrive; the others are
// dropped. Only the failing path takes the atomic.
__device__ __forceinline__ void report_fault(uint64_t *words, uint64_t where, uint64_t index)
{
    if (atomicCAS(reinterpret_cast<unsigned long long *>(words), 0ull, 1ull) == 0ull) {
        words[1] = where;
        words[2] = index;
    }
}

inline constexpr std::size_t kReductionBytesPerThread = sizeof(uint64_t);

// The limits a launch of `kernel` in blocks of kThreads is planned within: as many
// blocks as stay resident on every unit, by the runtime's occupancy answer for this
// kernel and block size (asking it also loads the kernel).
template <typename Kernel>
LaunchLimits kernel_limits(Kernel kernel, const DeviceShape &shape, std::size_t shared_per_thread, uint32_t max_blocks)
{
    LaunchLimits limits;
    limits.threads_per_block = kThreads;
    limits.warp_size = shape.warp_size;
    limits.compute_units = shape.compute_units;
    limits.max_blocks = max_blocks;
    const uint32_t threads = plan_launch(1, limits).threads;
    int per_unit = 0;
    if (max_active_blocks(&per_unit, kernel, int(threads), threads * shared_per_thread) != kSuccess || per_unit < 1) {
        (void)take_last_error();
        per_unit = 1;
    }
    limits.blocks_per_unit = uint32_t(per_unit);
    return limits;
}

// Plans a launch of `kernel` over `items`: one thread per item up to a full wave.
template <typename Kernel>
LaunchGeometry plan_kernel(Kernel kernel, uint64_t items, const DeviceShape &shape, std::size_t shared_per_thread,
                           uint32_t max_blocks)
{
    return plan_launch(items, kernel_limits(kernel, shape, shared_per_thread, max_blocks));
}

// The most threads, up to kUnitThreads and in halves of it, that one block of the
// per-unit kernel `kernel` may have on this device.
template <typename Kernel> uint32_t unit_threads(Kernel kernel, std::size_t shared_per_thread)
{
    for (uint32_t threads = kUnitThreads; threads > kThreads; threads /= 2) {
        int blocks = 0;
        if (max_active_blocks(&blocks, kernel, int(threads), threads * shared_per_thread) == kSuccess && blocks >= 1)
            return threads;
        (void)take_last_error();
    }
    return kThreads;
}

inline void check_launch(const char *what)
{
    check(take_last_error(), what);
}

// Makes the runtime load a kernel now rather than at its first launch.
template <typename Kernel> void load_kernel(Kernel kernel)
{
    int blocks = 0;
    if (max_active_blocks(&blocks, kernel, 1, 0) != kSuccess) (void)take_last_error();
}

// pattern.h's random lanes for the elements one thread visits, grid-stride. With the
// grid a multiple of the pattern's block in lanes (every launch here: 256-thread
// blocks), each of the thread's lanes sits at one place in its block for the whole
// walk: that place is hashed once, and an element costs a whitening word and an XOR
// per lane. Any other grid hashes every lane.
template <int L> struct RandomLanes {
    uint32_t placed[L];
    uint32_t seed;
    bool same_place;

    __device__ RandomLanes(uint64_t first, uint64_t stride, uint32_t s) : seed(s)
    {
        same_place = (stride * L) % VRB_PATTERN_BLOCK_LANES == 0;
#pragma unroll
        for (int k = 0; k < L; ++k)
            placed[k] = vrb_pattern_block_lane(uint32_t(first * L + k) % VRB_PATTERN_BLOCK_LANES, s);
    }
    __device__ __forceinline__ Lanes<L> operator()(uint64_t i) const
    {
        Lanes<L> e;
        // An element's lanes share a block: L divides the block.
        const uint32_t white = vrb_pattern_whitening((i * L) >> VRB_PATTERN_BLOCK_SHIFT);
#pragma unroll
        for (int k = 0; k < L; ++k)
            e.v[k] = same_place ? placed[k] ^ white : vrb_pattern_random(i * L + k, seed);
        return e;
    }
};

// Stores make(i) to every element the thread visits, `passes` times, the passes one
// stream of stores (lapped_stride): stores to global memory are effects no compiler
// drops, so every pass stores again.
template <int L, Reach R = Reach::through_l1, typename Make>
__device__ __forceinline__ void store_passes(uint32_t passes, void *dst, const GridWalk &walk, Make make)
{
    lapped_stride<kUnroll>(
        walk, passes,
        [&](const uint64_t(&at)[kUnroll]) {
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                store<L, R>(dst, at[k], make(at[k]));
        },
        [&](uint64_t i) { store<L, R>(dst, i, make(i)); });
}

// Binds a planned launch of `kernel` to its arguments; the kernel's first parameter is
// the passes each thread makes over its items. `partials` says whether each block
// leaves a partial result; where each block walked the whole set, block 0's is the answer.
template <typename Kernel, typename... Args>
PreparedKernel bind_launch(Kernel kernel, LaunchGeometry g, std::size_t shared_bytes, bool partials, const char *what,
                           Args... args)
{
    PreparedKernel prepared;
    prepared.partial_blocks = partials ? (g.whole_set ? 1u : g.blocks) : 0;
    prepared.copies = g.blocks == 0 ? 1u : g.copies();
    if (g.blocks == 0) {
        prepared.launch = [](StreamHandle, uint32_t) {};
        return prepared;
    }
    prepared.launch = [=](StreamHandle stream, uint32_t passes) {
        kernel<<<g.blocks, g.threads, shared_bytes, stream>>>(passes, args...);
        check_launch(what);
    };
    return prepared;
}

} // namespace vrb::gpu
