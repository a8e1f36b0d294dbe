// What the host side asks of the kernels: one operation, prepared once and enqueued on
// a stream for each run. Reductions leave one partial result per block in Scratch; the
// host adds them up after the last run, so no hot loop ever touches an atomic.
#pragma once

#include "chase_walk.hpp"
#include "gpu_runtime.hpp"

#include <cstdint>
#include <functional>
#include <memory>

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

// Memory of the kind and device of CHASE's chain, for the chain's links: `owner` keeps
// it, `address` is what kernels use (null: none could be had).
struct ChaseMemory {
    std::shared_ptr<void> owner;
    void *address = nullptr;
};

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
    // The stream operations: the set moved once a pass by the whole device, shared out
    // whatever its size, never walked by every unit (a READ asked for one read,
    // VRB_OPERATION_ONE_READ; a TRANSFER copied by the SMs, VRB_OPERATION_ENGINE_SM).
    bool shared_out = false;
    // CHASE: allocates memory like the chain's, of the bytes asked for.
    std::function<ChaseMemory(uint64_t bytes)> chase_memory;
};

struct DeviceShape {
    uint32_t compute_units = 1;
    uint32_t warp_size = 32;
    uint64_t l1_bytes = 0; // one unit's L1 data cache (l1_caches.hpp); 0: unknown
};

// An operation planned and ready to enqueue: its geometry chosen and its kernel loaded
// (runtimes load kernels lazily, at their first use), so that nothing but the launch
// itself happens between a run's events.
struct PreparedKernel {
    // Enqueues one run of `passes` passes, looped inside the kernel; throws on a launch error.
    std::function<void(StreamHandle, uint32_t passes)> launch;
    uint32_t partial_blocks = 0; // blocks that leave partial results
    // Times one pass of the kernel moves the operation's bytes: the blocks, when each
    // walked the whole working set (a set below one wave of the device), else 1.
    uint32_t copies = 1;
    // The partial results add up every pass's sum, not the last pass's: the passes must
    // be odd, and the answer is the total times their inverse modulo 2^64 (pass_sums.hpp).
    bool sums_every_pass = false;
    std::shared_ptr<void> keep; // memory the kernel uses beyond its operands
};

// CHASE's links (chase_walk.hpp) for one chain: made once for what the chain holds and
// kept with it, so that a point's runs, its warm-up's included, walk links already made
// (making them writes the whole chain's worth of links, which flushes the caches).
struct ChaseLinksMade {
    ChaseMemory memory; // address null: none could be made, the indices are walked
    ChaseLinks links;
};

PreparedKernel prepare_stream_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);
PreparedKernel prepare_access_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);
PreparedKernel prepare_pattern_op(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape);
// CHASE's links for op's chain, made on `stream` and waited for (kernels_chase.cu); none
// where the chain is too short to need them or no memory like it can be had.
ChaseLinksMade make_chase_links(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape,
                                StreamHandle stream);
// CHASE's walk over `made` (or over the indices where it holds none).
PreparedKernel prepare_chase_op(const KernelOp &op, const ChaseLinksMade &made, const Scratch &scratch);

} // namespace vrb::gpu
