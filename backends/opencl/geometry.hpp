// How many work-groups a launch uses: pure arithmetic over the device's shape, tested
// without a device.
#pragma once

#include <cstdint>

namespace vrb::opencl {

struct Geometry {
    bool cpu = false;           // CL_DEVICE_TYPE_CPU: a work-item walks a contiguous block
    uint32_t local_size = 1;    // work-items per group
    uint64_t max_groups = 1;    // the most groups of a launch
    uint64_t compute_units = 1; // CL_DEVICE_MAX_COMPUTE_UNITS
    bool groups_chosen = false; // VRAMBENCH_OPENCL_GROUPS set: max_groups holds whatever the passes
};

// Groups for one launch over `items` elements making `passes` passes (0 and 1: one).
uint64_t launch_groups(const Geometry &g, uint64_t items, uint32_t passes);

} // namespace vrb::opencl
