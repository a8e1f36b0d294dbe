#include "options.hpp"

#include <vrambench/plugin_support.hpp>

#include <bit>
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

namespace vrb::vulkan {

namespace {

const char *variable(const char *name)
{
    const char *value = std::getenv(name);
    return value && *value ? value : nullptr;
}

uint64_t number(const char *name, const char *text, uint64_t min, uint64_t max, bool power_of_two)
{
    uint64_t value = 0;
    const std::string_view s(text);
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (error != std::errc() || end != s.data() + s.size() || value < min || value > max ||
        (power_of_two && !std::has_single_bit(value)))
        plugin::fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + "=" + text + " is not " +
                                                     (power_of_two ? "a power of two" : "a number") + " between " +
                                                     std::to_string(min) + " and " + std::to_string(max));
    return value;
}

} // namespace

Options read_options()
{
    Options options;
    if (const char *v = variable("VRAMBENCH_VULKAN_VALIDATION")) options.validation = std::string_view(v) != "0";
    if (const char *v = variable("VRAMBENCH_VULKAN_SEGMENT_BYTES"))
        options.segment_bytes = number("VRAMBENCH_VULKAN_SEGMENT_BYTES", v, 4096, uint64_t(1) << 31, true);
    if (const char *v = variable("VRAMBENCH_VULKAN_STAGING")) {
        const std::string_view s(v);
        if (s != "always" && s != "auto")
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT,
                         "VRAMBENCH_VULKAN_STAGING=" + std::string(s) + " must be \"always\" or \"auto\"");
        options.always_stage = s == "always";
    }
    if (const char *v = variable("VRAMBENCH_VULKAN_TIMER")) {
        const std::string_view s(v);
        if (s != "host" && s != "device")
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT,
                         "VRAMBENCH_VULKAN_TIMER=" + std::string(s) + " must be \"host\" or \"device\"");
        options.host_timer = s == "host";
    }
    if (const char *v = variable("VRAMBENCH_VULKAN_STAGING_BYTES"))
        options.staging_bytes = number("VRAMBENCH_VULKAN_STAGING_BYTES", v, 4096, uint64_t(1) << 31, false);
    if (const char *v = variable("VRAMBENCH_VULKAN_SHADERS")) {
        const std::string_view s(v);
        if (s != "gpu" && s != "cpu" && s != "auto")
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT,
                         "VRAMBENCH_VULKAN_SHADERS=" + std::string(s) + " must be \"gpu\", \"cpu\" or \"auto\"");
        options.tuning = s == "gpu" ? Tuning::Gpu : s == "cpu" ? Tuning::Cpu : Tuning::Automatic;
    }
    if (const char *v = variable("VRAMBENCH_VULKAN_LOCAL_SIZE"))
        options.local_size = static_cast<uint32_t>(number("VRAMBENCH_VULKAN_LOCAL_SIZE", v, 1, 1024, true));
    if (const char *v = variable("VRAMBENCH_VULKAN_GROUPS"))
        options.max_groups = static_cast<uint32_t>(number("VRAMBENCH_VULKAN_GROUPS", v, 1, 65535, false));
    if (const char *v = variable("VRAMBENCH_VULKAN_UNITS"))
        options.units = static_cast<uint32_t>(number("VRAMBENCH_VULKAN_UNITS", v, 1, 65535, false));
    if (const char *v = variable("VRAMBENCH_VULKAN_CHASE")) {
        const std::string_view s(v);
        if (s != "indices" && s != "addresses" && s != "auto")
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_VULKAN_CHASE=" + std::string(s) +
                                                         " must be \"indices\", \"addresses\" or \"auto\"");
        options.chase = s == "indices"     ? ChaseWalk::Indices
                        : s == "addresses" ? ChaseWalk::Addresses
                                           : ChaseWalk::Automatic;
    }
    return options;
}

} // namespace vrb::vulkan
