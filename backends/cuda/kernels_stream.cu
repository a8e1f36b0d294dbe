// The stream family: READ, WRITE, COPY, SCALE, ADD, TRIAD, DOT over elements of 1, 2
// or 4 lanes, each thread moving full-width elements, Unroll at a time. These are the
// working-set sweep's kernels: each comes in two forms, WholeSet for a set one unit's L1
// holds (one block a unit, each walking all of it through L1) and shared out past it
// (grid-stride, past L1) (kernel_common.cuh: sweep_walk, kSweepReach). Every thread walks
// its items `passes` times as one stream (lapped_stride), so a small share still keeps
// Unroll loads in flight.
#include "kernel_common.cuh"

#include <vrambench/plugin.h>

namespace vrb::gpu {
namespace {

// Adds every pass's lanes (PreparedKernel::sums_every_pass).
template <int L, bool WholeSet>
__global__ void __launch_bounds__(kSweepThreads<WholeSet>)
    read_kernel(uint32_t passes, const void *__restrict__ src, uint64_t count, uint64_t *__restrict__ partials)
{
    constexpr Reach R = kSweepReach<WholeSet>;
    LaneSum s;
    lapped_stride<kUnroll>(
        sweep_walk<WholeSet>(count), passes,
        [&](const uint64_t(&at)[kUnroll]) {
            Lanes<L> v[kUnroll];
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                v[k] = load<L, R>(src, at[k]);
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                s.add(v[k]);
            s.template added<L>();
        },
        [&](uint64_t i) {
            s.add(load<L, R>(src, i));
            s.template added<L>();
        });
    s.flush();
    const uint64_t total = block_sum(s.total);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// Each product is taken modulo 2^32 before it joins the sum.
template <int L> __device__ __forceinline__ Lanes<L> products(const Lanes<L> &x, const Lanes<L> &y)
{
    Lanes<L> r;
#pragma unroll
    for (int k = 0; k < L; ++k)
        r.v[k] = x.v[k] * y.v[k];
    return r;
}

template <int L, bool WholeSet>
__global__ void __launch_bounds__(kSweepThreads<WholeSet>)
    dot_kernel(uint32_t passes, const void *__restrict__ a, const void *__restrict__ b, uint64_t count,
               uint64_t *__restrict__ partials)
{
    constexpr Reach R = kSweepReach<WholeSet>;
    LaneSum s;
    lapped_stride<kUnroll>(
        sweep_walk<WholeSet>(count), passes,
        [&](const uint64_t(&at)[kUnroll]) {
            Lanes<L> x[kUnroll], y[kUnroll];
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k) {
                x[k] = load<L, R>(a, at[k]);
                y[k] = load<L, R>(b, at[k]);
            }
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                s.add(products(x[k], y[k]));
            s.template added<L>();
        },
        [&](uint64_t i) {
            s.add(products(load<L, R>(a, i), load<L, R>(b, i)));
            s.template added<L>();
        });
    s.flush();
    const uint64_t total = block_sum(s.total);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// A thread's lanes keep the places they have at its first item: its stride is the
// block's or the grid's, a multiple of the pattern's block in lanes.
template <int L, bool WholeSet>
__global__ void __launch_bounds__(kSweepThreads<WholeSet>)
    write_kernel(uint32_t passes, void *__restrict__ dst, uint64_t count, uint32_t seed)
{
    const GridWalk walk = sweep_walk<WholeSet>(count);
    const RandomLanes<L> random(walk.first, walk.stride, seed);
    store_passes<L, kSweepReach<WholeSet>>(passes, dst, walk, random);
}

// dst = f(a, b) lane by lane; b is read only by the two-input operations.
struct Copy {
    static constexpr bool two_inputs = false;
    uint32_t scalar;
    __device__ uint32_t operator()(uint32_t a, uint32_t) const { return a; }
};
struct Scale {
    static constexpr bool two_inputs = false;
    uint32_t scalar;
    __device__ uint32_t operator()(uint32_t a, uint32_t) const { return scalar * a; }
};
struct Add {
    static constexpr bool two_inputs = true;
    uint32_t scalar;
    __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a + b; }
};
struct Triad {
    static constexpr bool two_inputs = true;
    uint32_t scalar;
    __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a + scalar * b; }
};

template <int L, typename F> __device__ __forceinline__ Lanes<L> apply(const F &f, const Lanes<L> &a, const Lanes<L> &b)
{
    Lanes<L> r;
#pragma unroll
    for (int k = 0; k < L; ++k)
        r.v[k] = f(a.v[k], b.v[k]);
    return r;
}

template <int L, typename F, bool WholeSet>
__global__ void __launch_bounds__(kSweepThreads<WholeSet>)
    map_kernel(uint32_t passes, void *__restrict__ dst, const void *__restrict__ a, const void *__restrict__ b,
               uint64_t count, F f)
{
    constexpr Reach R = kSweepReach<WholeSet>;
    lapped_stride<kUnroll>(
        sweep_walk<WholeSet>(count), passes,
        [&](const uint64_t(&at)[kUnroll]) {
            Lanes<L> x[kUnroll], y[kUnroll];
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k) {
                x[k] = load<L, R>(a, at[k]);
                if constexpr (F::two_inputs)
                    y[k] = load<L, R>(b, at[k]);
                else
                    y[k] = x[k];
            }
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                store<L, R>(dst, at[k], apply<L>(f, x[k], y[k]));
        },
        [&](uint64_t i) {
            const Lanes<L> x = load<L, R>(a, i);
            if constexpr (F::two_inputs)
                store<L, R>(dst, i, apply<L>(f, x, load<L, R>(b, i)));
            else
                store<L, R>(dst, i, apply<L>(f, x, x));
        });
}

// Plans a sweep kernel and binds the form its geometry calls for: `kernel_for(whole_set)`
// names the instance. The shared-out form's occupancy sizes the resident grid, the
// per-unit form's the one block each unit runs. `shared_out`: the set is moved once a
// pass by the whole device, whatever its size (KernelOp::shared_out).
template <typename KernelFor, typename... Args>
PreparedKernel prepare_sweep(KernelFor kernel_for, uint32_t item_bytes, bool shared_out, uint64_t count,
                             const DeviceShape &shape, std::size_t shared, uint32_t max_blocks, bool partials,
                             const char *what, Args... args)
{
    LaunchLimits limits = kernel_limits(kernel_for(false), shape, shared, max_blocks);
    limits.l1_bytes = shape.l1_bytes;
    limits.item_bytes = item_bytes;
    limits.unit_threads = shared_out ? kThreads : unit_threads(kernel_for(true), shared);
    const LaunchGeometry g = shared_out ? plan_one_read_launch(count, limits) : plan_sweep_launch(count, limits);
    return bind_launch(kernel_for(g.whole_set), g, g.threads * shared, partials, what, args...);
}

template <int L, typename F> PreparedKernel prepare_map(const KernelOp &op, F f, const DeviceShape &shape)
{
    return prepare_sweep([](bool whole) { return whole ? map_kernel<L, F, true> : map_kernel<L, F, false>; }, 4 * L,
                         op.shared_out, op.count, shape, 0, 0xffffffffu, false, "launching a stream kernel", op.dst,
                         op.src1, op.src2, op.count, f);
}

template <int L> PreparedKernel prepare(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    const std::size_t shared = kReductionBytesPerThread;
    PreparedKernel prepared;
    switch (op.kind) {
    case VRB_OP_READ:
        prepared = prepare_sweep([](bool whole) { return whole ? read_kernel<L, true> : read_kernel<L, false>; }, 4 * L,
                                 op.shared_out, op.count, shape, shared, scratch.capacity, true,
                                 "launching the read kernel", op.src1, op.count, scratch.partial_a);
        prepared.sums_every_pass = true;
        return prepared;
    case VRB_OP_DOT:
        prepared = prepare_sweep([](bool whole) { return whole ? dot_kernel<L, true> : dot_kernel<L, false>; }, 4 * L,
                                 false, op.count, shape, shared, scratch.capacity, true, "launching the dot kernel",
                                 op.src1, op.src2, op.count, scratch.partial_a);
        prepared.sums_every_pass = true;
        return prepared;
    case VRB_OP_WRITE:
        return prepare_sweep([](bool whole) { return whole ? write_kernel<L, true> : write_kernel<L, false>; }, 4 * L,
                             false, op.count, shape, 0, 0xffffffffu, false, "launching the write kernel", op.dst,
                             op.count, op.seed);
    case VRB_OP_COPY: return prepare_map<L>(op, Copy{op.scalar}, shape);
    case VRB_OP_SCALE: return prepare_map<L>(op, Scale{op.scalar}, shape);
    case VRB_OP_ADD: return prepare_map<L>(op, Add{op.scalar}, shape);
    default: return prepare_map<L>(op, Triad{op.scalar}, shape);
    }
}

} // namespace

PreparedKernel prepare_stream_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    switch (op.lanes) {
    case 1: return prepare<1>(op, scratch, shape);
    case 2: return prepare<2>(op, scratch, shape);
    default: return prepare<4>(op, scratch, shape);
    }
}

} // namespace vrb::gpu
