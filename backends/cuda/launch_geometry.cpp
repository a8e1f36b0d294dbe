#include "launch_geometry.hpp"

#include <algorithm>

namespace vrb::gpu {

LaunchGeometry plan_launch(uint64_t items, const LaunchLimits &limits)
{
    const uint32_t warp = std::clamp<uint32_t>(limits.warp_size, 1, kMaxThreadsPerBlock);
    const uint32_t wanted = std::clamp<uint32_t>(limits.threads_per_block, warp, kMaxThreadsPerBlock);
    LaunchGeometry g;
    g.threads = wanted / warp * warp;
    if (items == 0) return g;

    const uint64_t needed = (items - 1) / g.threads + 1;
    const uint64_t resident =
        uint64_t(std::max<uint32_t>(limits.compute_units, 1)) * std::max<uint32_t>(limits.blocks_per_unit, 1);
    uint64_t cap = std::min<uint64_t>(resident, std::max<uint32_t>(limits.max_blocks, 1));
    cap = std::min(cap, kMaxGridBlocks);
    cap = std::min(cap, kMaxGridThreads / g.threads);
    g.blocks = static_cast<uint32_t>(std::max<uint64_t>(std::min(needed, cap), 1));
    return g;
}

} // namespace vrb::gpu
