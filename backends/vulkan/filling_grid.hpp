// How many workgroups fill a device once: every unit busy, none waiting for a second
// wave. A large working set is shared out among them and streams with no tail of idle
// units; one below a full wave is walked whole on every unit (plan_sweep_walk below),
// so that at every size every unit works, each from its own caches.
//
// The passes a shader makes over its share assume the whole grid is resident: a group
// that waits for a second wave makes all its passes after the first wave's, over a
// share the L2 may hold from pass to pass. So the wave is sized from what the compiled
// shader needs (its registers), where the driver says, as CUDA's occupancy query does.
#pragma once

#include <cstdint>

namespace vrb::vulkan {

struct DeviceUnits {
    bool cpu = false;              // a CPU implementation (lavapipe, SwiftShader)
    uint32_t cpu_threads = 0;      // its threads: kWorkgroupsPerCpuThread workgroups each
    uint32_t compute_units = 0;    // SMs or CUs, 0: the API does not say
    uint32_t resident_threads = 0; // invocations one unit keeps resident, 0: unknown
    uint32_t subgroup_size = 0;    // the device's warp or wave width, 0: unknown
    bool nvidia_sms = false;       // the units are NVIDIA SMs (residency::nvidia_groups_per_sm)
    uint32_t simds_per_unit = 0;   // SIMDs of one CU (AMD), 0: not known
};

// What the driver says one compiled shader needs (VK_KHR_pipeline_executable_properties),
// 0 where it does not say.
struct ShaderResources {
    uint32_t registers = 0;          // per invocation (NVIDIA)
    uint32_t subgroups_per_simd = 0; // the waves one SIMD keeps in flight (AMD, RADV)
    uint32_t subgroup_size = 0;      // the width it was compiled for
};

inline constexpr uint32_t kWorkgroupsPerCpuThread = 8;
// What one unit keeps resident where VRAMBENCH_VULKAN_UNITS gives the units and the
// driver says nothing: the 64 warps of 32 or 32 waves of 64 of NVIDIA's and AMD's
// data-centre GPUs.
inline constexpr uint32_t kResidentInvocationsGiven = 2048;

// 0 when nothing says (a GPU without the vendor's core-properties extension): the
// caller keeps its own bound.
uint32_t filling_groups(const DeviceUnits &units, uint32_t local_size, const ShaderResources &shader = {});

// How a working-set sweep's stream operation walks its elements (CUDA's plan_sweep_launch
// is the same rule):
//  - per unit, below one full wave of the device (`filling` workgroups of `local_size`):
//    on a GPU one workgroup on every compute unit, as wide as the device allows
//    (`widest`, a power of two, at most 1024 and what a unit keeps resident), each
//    walking the whole set, so every unit reads a set of its own from its own L1 and the
//    sweep's L1 plateau is all the L1s at once; on a CPU implementation every one of
//    `filling` workgroups (a few per thread, each thread's cache its unit's);
//  - shared out from one wave on (groups 0): each invocation walks its grid-stride
//    share, and the shaders move every workgroup's share on by a few workgroups each
//    pass (common.glsl's PASS_FIRST), so what a unit reads was another unit's the pass
//    before and the set is served by the L2, not by the L1s together.
// Vulkan does not say how large a unit's L1 is, so where CUDA ends the per-unit walk at
// the L1's size this ends it at one wave, as CUDA does for an L1 it does not know.
struct SweepWalk {
    uint32_t groups = 0;     // workgroups, each walking the whole set; 0: shared out
    uint32_t local_size = 0; // their width
    bool per_unit() const { return groups > 0; }
};

SweepWalk plan_sweep_walk(uint64_t count, const DeviceUnits &units, uint32_t filling, uint32_t local_size,
                          uint32_t widest);

} // namespace vrb::vulkan
