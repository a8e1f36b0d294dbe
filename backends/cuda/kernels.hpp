// What the host side asks of the kernels: one operation, prepared once and enqueued on
// a stream for each run. Reductions leave one partial result per block in Scratch; the
// host adds them up after the last run, so no hot loop ever touches an atomic.
#pragma once

#include "gpu_runtime.hpp"

#include <cstdint>
#include <functional>

namespace vrb::gpu {

// Device memory the kernels write their answers into, owned by the opened device.
struct Scratch {
    uint64_t *partial_a = nullptr; // per block: a sum, or CHECK's mismatch count
    uint64_t *partial_b = nullptr; // per block: CHECK's first mismatching lane
    uint32_t capacity = 0;         // blocks partial_a and partial_b have room for
    // [0] nonzero once GATHER or CHASE met an index outside its buffer, [1] where
    // (the item or step), [2] the index; [3] CHASE's final index.
    uint64_t *words = nullptr;
};

inline constexpr unsigned kScratchWords = 4;

// One operation with its operands resolved to device-visible addresses.
struct KernelOp {
    uint32_t kind = 0;  // vrb_op_kind
    uint32_t lanes = 1; // 32-bit lanes per element: 1, 2 or 4
    uint64_t count = 0;
    uint64_t stride = 1;
    uint32_t scalar = 0;
    uint32_t seed = 0;
    uint32_t pattern = 0;
    void *dst = nullptr;
    const void *src1 = nullptr;
    const void *src2 = nullptr;
    // What GATHER (elements) and CHASE (uint32 indices) may address from src1.
    uint64_t src1_limit = 0;
};

struct DeviceShape {
    uint32_t compute_units = 1;
    uint32_t warp_size = 32;
};

// An operation planned and ready to enqueue: its geometry chosen and its kernel loaded
// (runtimes load kernels lazily, at their first use), so that nothing but the launch
// itself happens between a run's events.
struct PreparedKernel {
    // Enqueues one run of `passes` passes, looped inside the kernel; throws on a launch error.
    std::function<void(StreamHandle, uint32_t passes)> launch;
    uint32_t partial_blocks = 0; // blocks that leave partial results
};

PreparedKernel prepare_stream_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);
PreparedKernel prepare_access_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);
PreparedKernel prepare_pattern_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);

} // namespace vrb::gpu
