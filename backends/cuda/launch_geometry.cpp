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

uint32_t whole_warps(const LaunchLimits &limits, uint32_t wanted_threads)
{
    const uint32_t warp = std::clamp<uint32_t>(limits.warp_size, 1, kMaxThreadsPerBlock);
    const uint32_t wanted = std::clamp<uint32_t>(wanted_threads, warp, kMaxThreadsPerBlock);
    return wanted / warp * warp;
}

LaunchGeometry shared_out(uint64_t items, const LaunchLimits &limits)
{
    LaunchGeometry g;
    g.threads = whole_warps(limits, limits.threads_per_block);
    if (items == 0) return g;
    g.blocks = static_cast<uint32_t>(std::max<uint64_t>(resident_blocks(limits, g.threads), 1));
    g.past_l1 = true;
    return g;
}

// Whether a set of `items` is walked by every unit: it fits one L1, or, where the L1 is
// not known, it is too small to give every resident thread an item.
bool walked_per_unit(uint64_t items, const LaunchLimits &limits)
{
    if (limits.l1_bytes > 0) return items <= limits.l1_bytes / std::max<uint32_t>(limits.item_bytes, 1);
    return items < shared_out(items, limits).grid_threads();
}

} // namespace

LaunchGeometry plan_sweep_launch(uint64_t items, const LaunchLimits &limits)
{
    if (items == 0 || !walked_per_unit(items, limits)) return shared_out(items, limits);
    LaunchGeometry g;
    g.threads = whole_warps(limits, limits.unit_threads);
    const uint64_t units = std::max<uint32_t>(limits.compute_units, 1);
    g.blocks =
        static_cast<uint32_t>(std::clamp<uint64_t>(std::min({units, uint64_t(std::max<uint32_t>(limits.max_blocks, 1)),
                                                             kMaxGridBlocks, kMaxGridThreads / g.threads}),
                                                   1, units));
    g.whole_set = true;
    return g;
}

LaunchGeometry plan_one_read_launch(uint64_t items, const LaunchLimits &limits)
{
    return shared_out(items, limits);
}

LaunchGeometry plan_launch(uint64_t items, const LaunchLimits &limits)
{
    LaunchGeometry g;
    g.threads = whole_warps(limits, limits.threads_per_block);
    if (items == 0) return g;

    const uint64_t needed = (items - 1) / g.threads + 1;
    const uint64_t cap = resident_blocks(limits, g.threads);
    g.blocks = static_cast<uint32_t>(std::max<uint64_t>(std::min(needed, cap), 1));
    return g;
}

} // namespace vrb::gpu
