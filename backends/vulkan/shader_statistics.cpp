#include "shader_statistics.hpp"

#include <algorithm>
#include <limits>

namespace vrb::vulkan {

namespace {

uint32_t clamp32(uint64_t value)
{
    return static_cast<uint32_t>(std::min<uint64_t>(value, std::numeric_limits<uint32_t>::max()));
}

} // namespace

ShaderResources shader_resources(std::span<const Statistic> statistics, uint32_t subgroup_size)
{
    ShaderResources resources;
    resources.subgroup_size = subgroup_size;
    for (const Statistic &s : statistics) {
        // NVIDIA's driver: registers per invocation. RADV: the waves a SIMD keeps in
        // flight, which its registers and LDS already bound.
        if (s.name == "Register Count")
            resources.registers = clamp32(s.value);
        else if (s.name == "Subgroups per SIMD")
            resources.subgroups_per_simd = clamp32(s.value);
    }
    return resources;
}

} // namespace vrb::vulkan
