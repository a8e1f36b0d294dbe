// How many work-groups a launch uses: pure arithmetic over the device's shape, tested
// without a device.
#pragma once

#include <cstdint>

namespace vrb::opencl {

// Work-groups of 256 a GPU's compute unit keeps resident, as most do (2048 work-items):
// OpenCL does not say; a kernel whose registers allow fewer gets fewer (gpu_groups_per_unit).
inline constexpr uint64_t kGroupsPerGpuUnit = 8;

struct Geometry {
    bool cpu = false;           // CL_DEVICE_TYPE_CPU: a work-item walks a contiguous block
    uint32_t local_size = 1;    // work-items per group
    uint64_t max_groups = 1;    // the most groups of a launch
    uint64_t compute_units = 1; // CL_DEVICE_MAX_COMPUTE_UNITS
    bool groups_chosen = false; // VRAMBENCH_OPENCL_GROUPS set: max_groups holds whatever the passes
    // Groups of this kernel a GPU's compute unit keeps resident: kGroupsPerGpuUnit, or
    // fewer where the driver said the kernel's registers allow fewer (gpu_groups_per_unit).
    uint64_t groups_per_unit = kGroupsPerGpuUnit;
};

// Groups for one launch over `items` elements making `passes` passes (0 and 1: one).
uint64_t launch_groups(const Geometry &g, uint64_t items, uint32_t passes);

// The groups of `local_size` a GPU's compute unit keeps resident of a kernel whose
// work-items take `registers` (NVIDIA's build log; 0: not said): kGroupsPerGpuUnit, or
// what the registers leave room for when fewer.
uint64_t gpu_groups_per_unit(uint32_t registers, uint32_t local_size);

// On a GPU, the groups that each walk all `items` of a stream operation when the items
// are fewer than one wave of the device (groups_per_unit groups on every compute unit):
// shared out, a 4 KiB set would keep a few of 132 units busy. 0 when the set is shared
// out: it fills the device, the device is a CPU (each core a block of its own), or the
// groups were chosen by option.
uint64_t whole_set_groups(const Geometry &g, uint64_t items);

// Whether a CPU's elementwise kernels store `dst_bytes` with streaming (non-temporal)
// stores: once the destination is past half the device's cache (`cache_bytes`, 0 when
// the driver does not say) and 8 MiB, as the host backend decides. Below that the
// destination is read again from the caches, where streaming stores would evict it.
bool streaming_stores(const Geometry &g, uint64_t dst_bytes, uint64_t cache_bytes);

} // namespace vrb::opencl
