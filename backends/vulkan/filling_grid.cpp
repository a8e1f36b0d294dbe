#include "filling_grid.hpp"

#include <algorithm>

namespace vrb::vulkan {

uint32_t filling_groups(const DeviceUnits &units, uint32_t local_size)
{
    // A CPU implementation runs each workgroup as one task on one of its threads. A few
    // per thread rather than one: a thread the OS takes away for a moment then leaves
    // its tasks to the others instead of holding up the whole dispatch (measured on
    // lavapipe on a busy 2-CPU machine: the in-cache read's median went from 8-13 to
    // 10-17 GB/s). More would pay llvmpipe's start-up cost per workgroup.
    if (units.cpu) return std::max(units.cpu_threads, 1u) * kWorkgroupsPerCpuThread;
    if (units.compute_units == 0 || units.resident_threads == 0 || local_size == 0) return 0;
    const uint32_t per_unit = std::max(units.resident_threads / local_size, 1u);
    return units.compute_units * per_unit;
}

} // namespace vrb::vulkan
