// How many workgroups fill a device once: every unit busy, none waiting for a second
// wave. A large working set is shared out among them and streams with no tail of idle
// units; one below a full wave is walked whole by every one of them (whole_set_groups
// in splitting.hpp), so that at every size every unit works, each from its own caches.
#pragma once

#include <cstdint>

namespace vrb::vulkan {

struct DeviceUnits {
    bool cpu = false;              // a CPU implementation (lavapipe, SwiftShader)
    uint32_t cpu_threads = 0;      // its threads: kWorkgroupsPerCpuThread workgroups each
    uint32_t compute_units = 0;    // SMs or CUs, 0: the API does not say
    uint32_t resident_threads = 0; // invocations one unit keeps resident, 0: unknown
};

inline constexpr uint32_t kWorkgroupsPerCpuThread = 8;

// 0 when nothing says (a GPU without the vendor's core-properties extension): the
// caller keeps its own bound.
uint32_t filling_groups(const DeviceUnits &units, uint32_t local_size);

} // namespace vrb::vulkan
