// What a driver's statistics of one compiled shader say it needs to run
// (VK_KHR_pipeline_executable_properties): the names each driver gives them, read into
// ShaderResources. Pure, so each driver's list is tested without it.
#pragma once

#include "filling_grid.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace vrb::vulkan {

struct Statistic {
    std::string name;
    uint64_t value = 0;
};

// The statistics of the executable a compute pipeline holds, compiled for
// `subgroup_size` invocations a subgroup (its executable properties; 0: not said).
ShaderResources shader_resources(std::span<const Statistic> statistics, uint32_t subgroup_size);

} // namespace vrb::vulkan
