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
    // A sweep's: the threads of the one block a unit runs when it walks a set of its
    // own (the most one block of the per-unit kernel may have), and the bytes of one
    // unit's L1 (0: unknown) with the bytes of one item.
    uint32_t unit_threads = kMaxThreadsPerBlock;
    uint64_t l1_bytes = 0;
    uint32_t item_bytes = 4;
};

struct LaunchGeometry {
    uint32_t blocks = 0; // 0: nothing to launch
    uint32_t threads = 0;
    // Each block is one unit's walk of the whole set (plan_sweep_launch, a set one unit's
    // L1 holds); otherwise the blocks share the items out.
    bool whole_set = false;
    // Loads are served from L2 at the nearest: a shared-out set must not sit in the L1s.
    bool past_l1 = false;
    uint64_t grid_threads() const { return uint64_t(blocks) * threads; }
    // Times a pass of the grid moves the working set: the units when each walks it whole.
    uint32_t copies() const { return whole_set ? blocks : 1u; }
};

// One thread per item while the items fit in one resident wave of blocks, otherwise
// exactly as many blocks as stay resident, each thread looping grid-stride: no block
// waits for a second wave, so no tail of idle units ends a streaming kernel. For
// operations that are not timed over a working set (fill, check, gather, strides).
LaunchGeometry plan_launch(uint64_t items, const LaunchLimits &limits);

// The stream operations of a working-set sweep, in one of two walks:
//  - per unit, while the set fits one unit's L1 (below one resident wave where the L1 is
//    unknown): one block on every unit, each walking the whole set, so each unit reads
//    a set of its own from its own L1 and the sweep's L1 plateau is every L1 at once,
//    ending where one L1 ends;
//  - shared out past it: as many blocks as stay resident, each thread taking its
//    grid-stride share, loads past L1, so from the L1's reach on the sweep sees the L2
//    and then memory, never the L1s' joint size passing for an L2.
LaunchGeometry plan_sweep_launch(uint64_t items, const LaunchLimits &limits);

// The same for `items` that must be read once (a first read of memory another API
// wrote, timed as one read): always shared out.
LaunchGeometry plan_one_read_launch(uint64_t items, const LaunchLimits &limits);

} // namespace vrb::gpu
