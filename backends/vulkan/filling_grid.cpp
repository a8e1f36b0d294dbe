#include "filling_grid.hpp"

#include "nvidia_residency.hpp"
#include "splitting.hpp"

#include <algorithm>
#include <bit>
#include <optional>

namespace vrb::vulkan {

namespace {

// Workgroups one unit keeps resident by what the shader's registers or waves allow;
// nothing where the driver said nothing that bounds it.
std::optional<uint32_t> groups_by_resources(const DeviceUnits &units, uint32_t local_size,
                                            const ShaderResources &shader)
{
    const uint32_t width = shader.subgroup_size ? shader.subgroup_size : units.subgroup_size;
    if (width == 0) return std::nullopt;
    const uint32_t subgroups_per_group = (local_size + width - 1) / width;
    if (shader.registers && units.nvidia_sms)
        return residency::nvidia_groups_per_sm(shader.registers, local_size, units.resident_threads / width, width);
    // Clamped far past any AMD GPU's (20 waves a SIMD, 4 SIMDs a CU), so a count no
    // driver could mean cannot overflow the product.
    if (shader.subgroups_per_simd && units.simds_per_unit)
        return std::min(shader.subgroups_per_simd, 64u) * std::min(units.simds_per_unit, 64u) / subgroups_per_group;
    return std::nullopt;
}

} // namespace

uint32_t filling_groups(const DeviceUnits &units, uint32_t local_size, const ShaderResources &shader)
{
    // A CPU implementation runs each workgroup as one task on one of its threads. A few
    // per thread rather than one: a thread the OS takes away for a moment then leaves
    // its tasks to the others instead of holding up the whole dispatch (measured on
    // lavapipe on a busy 2-CPU machine: the in-cache read's median went from 8-13 to
    // 10-17 GB/s). More would pay llvmpipe's start-up cost per workgroup.
    if (units.cpu) return std::max(units.cpu_threads, 1u) * kWorkgroupsPerCpuThread;
    if (units.compute_units == 0 || units.resident_threads == 0 || local_size == 0) return 0;
    uint32_t per_unit = units.resident_threads / local_size;
    if (const std::optional<uint32_t> by_resources = groups_by_resources(units, local_size, shader))
        per_unit = std::min(per_unit, *by_resources);
    return units.compute_units * std::max(per_unit, 1u);
}

SweepWalk plan_sweep_walk(uint64_t count, const DeviceUnits &units, uint32_t filling, uint32_t local_size,
                          uint32_t widest)
{
    SweepWalk walk;
    if (whole_set_groups(count, filling, local_size) == 0) return walk;
    if (units.cpu || units.compute_units == 0) {
        walk.groups = filling;
        walk.local_size = local_size;
        return walk;
    }
    uint32_t width = std::min(widest, 1024u);
    if (units.resident_threads) width = std::min(width, units.resident_threads);
    walk.local_size = std::max(std::bit_floor(std::max(width, 1u)), local_size);
    walk.groups = std::min(units.compute_units, filling);
    return walk;
}

} // namespace vrb::vulkan
