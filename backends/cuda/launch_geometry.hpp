// The launch geometry of every kernel: how many blocks of how many threads, computed on
// the host from the item count and what the device can keep resident. Plain C++ so it
// is tested without a GPU.
#pragma once

#include <cstdint>

namespace vrb::gpu {

inline constexpr uint32_t kMaxThreadsPerBlock = 1024;   // CUDA's and HIP's limit
inline constexpr uint64_t kMaxGridBlocks = 0x7fffffffu; // gridDim.x limit
// HIP counts a grid's threads in 32 bits: blocks * threads must stay below 2^32.
inline constexpr uint64_t kMaxGridThreads = 0xffffffffu;

struct LaunchLimits {
    uint32_t threads_per_block = 256;  // wanted; rounded to a whole number of warps
    uint32_t warp_size = 32;           // 32 on NVIDIA, 64 on most AMD GPUs (wavefront)
    uint32_t compute_units = 1;        // SMs or CUs
    uint32_t blocks_per_unit = 1;      // blocks resident at once on one unit (occupancy)
    uint32_t max_blocks = 0xffffffffu; // e.g. the slots of a partial-result buffer
};

struct LaunchGeometry {
    uint32_t blocks = 0; // 0: nothing to launch
    uint32_t threads = 0;
    // Every block walks all the items (plan_sweep_launch below a full wave); otherwise
    // the blocks share them out.
    bool whole_set = false;
    uint64_t grid_threads() const { return uint64_t(blocks) * threads; }
    // Times a pass of the grid moves the working set: the blocks when each walks it whole.
    uint32_t copies() const { return whole_set ? blocks : 1u; }
};

// One thread per item while the items fit in one resident wave of blocks, otherwise
// exactly as many blocks as stay resident, each thread looping grid-stride: no block
// waits for a second wave, so no tail of idle units ends a streaming kernel. For
// operations that are not timed over a working set (fill, check, gather, strides).
LaunchGeometry plan_launch(uint64_t items, const LaunchLimits &limits);

// The stream operations of a working-set sweep: always as many blocks as stay resident,
// so every unit works at every size. Past one wave they share the items out as
// plan_launch does; below it (a 4 KiB set is one block's worth of items on a device of
// 132 units) each block walks the whole set, so each unit's own L1 holds what it reads
// and the sweep measures the caches, not how many units had work.
LaunchGeometry plan_sweep_launch(uint64_t items, const LaunchLimits &limits);

} // namespace vrb::gpu
