// Access patterns off the sequential path: STRIDED_READ and GATHER through an index
// buffer (CHASE, the chain of dependent loads, is kernels_chase.cu).
#include "kernel_common.cuh"

#include <vrambench/plugin.h>

namespace vrb::gpu {
namespace {

template <int L>
__global__ void __launch_bounds__(kThreads)
    strided_kernel(uint32_t passes, const void *__restrict__ src, uint64_t count, uint64_t stride_elements,
                   uint64_t *__restrict__ partials)
{
    const GridWalk walk = thread_walk(count);
    const uint64_t sum = last_pass_sum(passes, [&](LaneSum &s) {
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                Lanes<L> v[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    v[k] = load<L>(src, (i + k * stride) * stride_elements);
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    s.add(v[k]);
                s.template added<L>();
            },
            [&](uint64_t i) {
                s.add(load<L>(src, i * stride_elements));
                s.template added<L>();
            });
    });
    const uint64_t total = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// An index past `limit` is reported, not followed: the host turns it into an error.
template <int L>
__global__ void __launch_bounds__(kThreads)
    gather_kernel(uint32_t passes, const void *__restrict__ src, const uint32_t *__restrict__ index, uint64_t count,
                  uint64_t limit, uint64_t *__restrict__ partials, uint64_t *words)
{
    // An index outside src1 adds nothing (its lanes read as zeros) and is reported.
    auto checked = [&](uint64_t i, uint32_t j) {
        if (j < limit) return load<L>(src, j);
        report_fault(words, i, j);
        return Lanes<L>{};
    };
    const GridWalk walk = thread_walk(count);
    const uint64_t sum = last_pass_sum(passes, [&](LaneSum &s) {
        grid_stride<kUnroll>(
            walk,
            [&](uint64_t i, uint64_t stride) {
                uint32_t j[kUnroll];
                Lanes<L> v[kUnroll];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    j[k] = index[i + k * stride];
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    v[k] = checked(i + k * stride, j[k]);
#pragma unroll
                for (unsigned k = 0; k < kUnroll; ++k)
                    s.add(v[k]);
                s.template added<L>();
            },
            [&](uint64_t i) {
                s.add(checked(i, index[i]));
                s.template added<L>();
            });
    });
    const uint64_t total = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <int L> PreparedKernel prepare(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    const std::size_t shared = kReductionBytesPerThread;
    if (op.kind == VRB_OP_STRIDED_READ) {
        const auto kernel = strided_kernel<L>;
        const LaunchGeometry g = plan_kernel(kernel, op.count, shape, shared, scratch.capacity);
        return bind_launch(kernel, g, g.threads * shared, true, "launching the strided read kernel", op.src1, op.count,
                           op.stride, scratch.partial_a);
    }
    const auto kernel = gather_kernel<L>;
    const LaunchGeometry g = plan_kernel(kernel, op.count, shape, shared, scratch.capacity);
    return bind_launch(kernel, g, g.threads * shared, true, "launching the gather kernel", op.src1,
                       static_cast<const uint32_t *>(op.src2), op.count, op.src1_limit, scratch.partial_a,
                       scratch.words);
}

} // namespace

PreparedKernel prepare_access_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape)
{
    switch (op.lanes) {
    case 1: return prepare<1>(op, scratch, shape);
    case 2: return prepare<2>(op, scratch, shape);
    default: return prepare<4>(op, scratch, shape);
    }
}

} // namespace vrb::gpu
