#include "filling_grid.hpp"

#include <algorithm>

namespace vrb::vulkan {

uint32_t filling_groups(const DeviceUnits &units, uint32_t local_size)
{
    // A CPU implementation runs each workgroup as one task on one of its threads.
    if (units.cpu) return std::max(units.cpu_threads, 1u);
    if (units.compute_units == 0 || units.resident_threads == 0 || local_size == 0) return 0;
    const uint32_t per_unit = std::max(units.resident_threads / local_size, 1u);
    return units.compute_units * per_unit;
}

} // namespace vrb::vulkan
