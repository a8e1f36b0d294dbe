#include "launch_geometry.hpp"

#include <algorithm>

namespace vrb::gpu {

namespace {

// The most blocks the device keeps resident at once, within every launch limit.
uint64_t resident_blocks(const LaunchLimits &limits, uint32_t threads)
{
    const uint64_t resident =
        uint64_t(std::max<uint32_t>(limits.compute_units, 1)) * std::max<uint32_t>(limits.blocks_per_unit, 1);
    uint64_t cap = std::min<uint64_t>(resident, std::max<uint32_t>(limits.max_blocks, 1));
    cap = std::min(cap, kMaxGridBlocks);
    return std::min(cap, kMaxGridThreads / threads);
}

uint32_t whole_warps(const LaunchLimits &limits)
{
    const uint32_t warp = std::clamp<uint32_t>(limits.warp_size, 1, kMaxThreadsPerBlock);
    const uint32_t wanted = std::clamp<uint32_t>(limits.threads_per_block, warp, kMaxThreadsPerBlock);
    return wanted / warp * warp;
}

} // namespace

LaunchGeometry plan_sweep_launch(uint64_t items, const LaunchLimits &limits)
{
    LaunchGeometry g;
    g.threads = whole_warps(limits);
    if (items == 0) return g;
    const uint64_t cap = resident_blocks(limits, g.threads);
    g.blocks = static_cast<uint32_t>(std::max<uint64_t>(cap, 1));
    g.whole_set = items < g.grid_threads();
    return g;
}

LaunchGeometry plan_launch(uint64_t items, const LaunchLimits &limits)
{
    LaunchGeometry g;
    g.threads = whole_warps(limits);
    if (items == 0) return g;

    const uint64_t needed = (items - 1) / g.threads + 1;
    const uint64_t cap = resident_blocks(limits, g.threads);
    g.blocks = static_cast<uint32_t>(std::max<uint64_t>(std::min(needed, cap), 1));
    return g;
}

} // namespace vrb::gpu
