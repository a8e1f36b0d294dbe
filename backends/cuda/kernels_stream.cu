// The stream family: READ, WRITE, COPY, SCALE, ADD, TRIAD, DOT over elements of 1, 2
// or 4 lanes, each thread moving full-width elements grid-stride, Unroll at a time.
#include "kernel_common.cuh"

#include <vrambench/plugin.h>

namespace vrb::gpu {
namespace {

template <int L>
__global__ void __launch_bounds__(kThreads)
    read_kernel(uint32_t passes, const void *__restrict__ src, uint64_t count, uint64_t *__restrict__ partials)
{
    const GridWalk walk = thread_walk(count);
    const uint64_t sum = last_pass_sum(passes, [&](LaneSum &s) {
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                Lanes<L> v[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    v[k] = load<L>(src, i + k * stride);
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    s.add(v[k]);
                s.template added<L>();
            },
            [&](uint64_t i) {
                s.add(load<L>(src, i));
                s.template added<L>();
            });
    });
    const uint64_t total = block_sum(sum);
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

template <int L>
__global__ void __launch_bounds__(kThreads)
    dot_kernel(uint32_t passes, const void *__restrict__ a, const void *__restrict__ b, uint64_t count,
               uint64_t *__restrict__ partials)
{
    const GridWalk walk = thread_walk(count);
    const uint64_t sum = last_pass_sum(passes, [&](LaneSum &s) {
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                Lanes<L> x[kUnroll], y[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k) {
                    x[k] = load<L>(a, i + k * stride);
                    y[k] = load<L>(b, i + k * stride);
                }
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    s.add(products(x[k], y[k]));
                s.template added<L>();
            },
            [&](uint64_t i) {
                s.add(products(load<L>(a, i), load<L>(b, i)));
                s.template added<L>();
            });
    });
    const uint64_t total = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <int L>
__global__ void __launch_bounds__(kThreads)
    write_kernel(uint32_t passes, void *__restrict__ dst, uint64_t count, uint32_t seed)
{
    store_passes<L>(passes, dst, count, RandomLanes<L>(global_thread(), grid_threads(), seed));
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

template <int L, typename F>
__global__ void __launch_bounds__(kThreads)
    map_kernel(uint32_t passes, void *__restrict__ dst, const void *__restrict__ a, const void *__restrict__ b,
               uint64_t count, F f)
{
    const GridWalk walk = thread_walk(count);
    for (uint32_t p = 0; p < passes; ++p)
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                Lanes<L> x[kUnroll], y[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k) {
                    x[k] = load<L>(a, i + k * stride);
                    if constexpr (F::two_inputs)
                        y[k] = load<L>(b, i + k * stride);
                    else
                        y[k] = x[k];
                }
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    store<L>(dst, i + k * stride, apply<L>(f, x[k], y[k]));
            },
            [&](uint64_t i) {
                const Lanes<L> x = load<L>(a, i);
                if constexpr (F::two_inputs)
                    store<L>(dst, i, apply<L>(f, x, load<L>(b, i)));
                else
                    store<L>(dst, i, apply<L>(f, x, x));
            });
}

template <int L, typename F> PreparedKernel prepare_map(const KernelOp &op, F f, const DeviceShape &shape)
{
    const auto kernel = map_kernel<L, F>;
    const LaunchGeometry g = plan_kernel(kernel, op.count, shape, 0, 0xffffffffu);
    return bind_launch(kernel, g, 0, false, "launching a stream kernel", op.dst, op.src1, op.src2, op.count, f);
}

template <int L> PreparedKernel prepare(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    const std::size_t shared = kReductionBytesPerThread;
    switch (op.kind) {
    case VRB_OP_READ: {
        const auto kernel = read_kernel<L>;
        const LaunchGeometry g = plan_kernel(kernel, op.count, shape, shared, scratch.capacity);
        return bind_launch(kernel, g, g.threads * shared, true, "launching the read kernel", op.src1, op.count,
                           scratch.partial_a);
    }
    case VRB_OP_DOT: {
        const auto kernel = dot_kernel<L>;
        const LaunchGeometry g = plan_kernel(kernel, op.count, shape, shared, scratch.capacity);
        return bind_launch(kernel, g, g.threads * shared, true, "launching the dot kernel", op.src1, op.src2, op.count,
                           scratch.partial_a);
    }
    case VRB_OP_WRITE: {
        const auto kernel = write_kernel<L>;
        const LaunchGeometry g = plan_kernel(kernel, op.count, shape, 0, 0xffffffffu);
        return bind_launch(kernel, g, 0, false, "launching the write kernel", op.dst, op.count, op.seed);
    }
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
