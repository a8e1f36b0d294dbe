#include "geometry.hpp"

#include "nvidia_residency.hpp"

#include <algorithm>
#include <bit>

namespace vrb::opencl {

uint64_t launch_groups(const Geometry &g, uint64_t items, uint32_t passes)
{
    // On a CPU a group's block is at least 4096 elements, so a group costs far more
    // than its launch; on a GPU every work-item has an element.
    const uint64_t per_group = g.cpu ? std::max<uint64_t>(g.local_size, 4096) : g.local_size;
    const uint64_t needed = (items + per_group - 1) / per_group;
    // A CPU work-item makes all its passes over its block before the next block: with
    // many small blocks each pass would find its block still in the core's nearest
    // cache. One block per compute unit re-reads each core's share of the whole
    // operation, what a pass over all of it re-reads.
    const bool per_unit = g.cpu && passes > 1 && !g.groups_chosen;
    // A GPU's groups past one resident wave start only as the first wave's finish, and
    // each makes all its passes over its own share: a later wave's shares together are
    // a fraction of the set, small enough to stay in L2 from pass to pass (on an H200,
    // four waves read 256 MiB at 2.3x the memory's peak). One wave re-reads the whole
    // set on every pass, as a pass over all of it does.
    const bool one_wave = !g.cpu && passes > 1 && !g.groups_chosen;
    const uint64_t most = per_unit   ? g.compute_units
                          : one_wave ? std::min(g.compute_units * g.groups_per_unit, g.max_groups)
                                     : g.max_groups;
    return std::clamp<uint64_t>(needed, 1, std::max<uint64_t>(most, 1));
}

SweepWalk plan_sweep_walk(const Geometry &g, uint64_t items, uint64_t widest)
{
    SweepWalk walk;
    if (g.cpu || g.groups_chosen || items == 0) return walk;
    const uint64_t local = std::max<uint32_t>(g.local_size, 1);
    const uint64_t wave =
        std::clamp<uint64_t>(g.compute_units * g.groups_per_unit, 1, std::max<uint64_t>(g.max_groups, 1));
    if (items >= wave * local) return walk;
    const uint64_t width = std::min({widest, uint64_t(1024), std::max<uint64_t>(g.groups_per_unit, 1) * local});
    walk.local_size = g.local_size_chosen
                          ? g.local_size
                          : static_cast<uint32_t>(std::max(std::bit_floor(std::max<uint64_t>(width, 1)), local));
    walk.groups = std::clamp<uint64_t>(g.compute_units, 1, wave);
    return walk;
}

uint64_t gpu_groups_per_unit(uint32_t registers, uint32_t local_size)
{
    // Registers are said only by NVIDIA's driver, whose SMs hold at most 64 warps of 32
    // (kGroupsPerGpuUnit groups of 256), whatever the groups' width.
    if (registers == 0 || local_size == 0) return kGroupsPerGpuUnit;
    constexpr uint32_t warps = kGroupsPerGpuUnit * 256 / 32;
    return std::min<uint64_t>(kGroupsPerGpuUnit, residency::nvidia_groups_per_sm(registers, local_size, warps));
}

bool streaming_stores(const Geometry &g, uint64_t dst_bytes, uint64_t cache_bytes)
{
    return g.cpu && dst_bytes >= cache_bytes / 2 && dst_bytes >= (uint64_t{8} << 20);
}

} // namespace vrb::opencl
