#include "nvidia_residency.hpp"

#include <algorithm>

namespace vrb::residency {

namespace {

uint32_t divide_up(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

} // namespace

uint32_t nvidia_groups_per_sm(uint32_t registers, uint32_t local_size, uint32_t warps_per_sm, uint32_t warp_size)
{
    warp_size = std::clamp(warp_size, 1u, 64u);
    registers = std::min(registers, kNvidiaMostRegisters);
    const uint32_t warps_per_group = std::max(divide_up(local_size, warp_size), 1u);
    uint32_t warps = warps_per_sm;
    if (registers) {
        const uint32_t per_warp = divide_up(registers * warp_size, kNvidiaRegisterUnit) * kNvidiaRegisterUnit;
        warps = std::min(warps, kNvidiaRegistersPerSm / kNvidiaSmPartitions / per_warp * kNvidiaSmPartitions);
    }
    return std::clamp(warps / warps_per_group, 1u, kNvidiaGroupsPerSm);
}

} // namespace vrb::residency
