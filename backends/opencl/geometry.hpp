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
    bool local_size_chosen = false; // VRAMBENCH_OPENCL_LOCAL_SIZE set: every launch keeps local_size
};

// Groups for one launch over `items` elements making `passes` passes (0 and 1: one).
uint64_t launch_groups(const Geometry &g, uint64_t items, uint32_t passes);

// The groups of `local_size` a GPU's compute unit keeps resident of a kernel whose
// work-items take `registers` (NVIDIA's build log; 0: not said): kGroupsPerGpuUnit, or
// what the registers leave room for when fewer.
uint64_t gpu_groups_per_unit(uint32_t registers, uint32_t local_size);

// How a working-set sweep's stream operation walks its `items` (CUDA's plan_sweep_launch
// and Vulkan's plan_sweep_walk are the same rule):
//  - per unit, on a GPU below one wave of the device (groups_per_unit groups of
//    local_size on every compute unit): one group on every compute unit, as wide as the
//    kernel allows (`widest`, its CL_KERNEL_WORK_GROUP_SIZE, never past the device's
//    limit), no wider than a unit keeps resident (groups_per_unit x local_size) nor 1024,
//    a power of two and never narrower than local_size; each walks the whole set, so
//    every unit reads a set of its own from its own L1 and the sweep's L1 plateau is all
//    the L1s at once. Shared out, a 4 KiB set would keep a few of 132 units busy; walked
//    by a whole wave, the groups of one unit would share its L1 and the plateau would run
//    past one L1's size with no step. A width chosen by option (local_size_chosen) is kept;
//  - shared out (groups 0) from one wave on, where the kernels move every group's share
//    on each pass (common.cl's PASS_FIRST) so the L2 serves it; on a CPU, where each core
//    walks a block of its own; and with the groups chosen by option.
// OpenCL does not say how large a unit's L1 is, so where CUDA ends the per-unit walk at
// the L1's size this ends it at one wave, as CUDA does for an L1 it does not know.
struct SweepWalk {
    uint64_t groups = 0;     // groups, each walking the whole set; 0: shared out
    uint32_t local_size = 0; // their width
    bool per_unit() const { return groups > 0; }
};

SweepWalk plan_sweep_walk(const Geometry &g, uint64_t items, uint64_t widest);

// Whether a CPU's elementwise kernels store `dst_bytes` with streaming (non-temporal)
// stores: once the destination is past half the device's cache (`cache_bytes`, 0 when
// the driver does not say) and 8 MiB, as the host backend decides. Below that the
// destination is read again from the caches, where streaming stores would evict it.
bool streaming_stores(const Geometry &g, uint64_t dst_bytes, uint64_t cache_bytes);

} // namespace vrb::opencl
