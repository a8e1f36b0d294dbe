// Vulkan through volk (the loader is opened at run time, never linked) and the
// translation of VkResult into the plugin's failures.
#pragma once

#include <volk.h>

#include <vrambench/plugin_support.hpp>

#include <string>
#include <string_view>

namespace vrb::vulkan {

using plugin::fail;
using plugin::Failure;

const char *result_name(VkResult result) noexcept;

// The plugin status a failed Vulkan call stands for: out of memory stays out of memory,
// a lost device is a device failure.
vrb_status status_of(VkResult result) noexcept;

[[noreturn]] void fail_vk(VkResult result, std::string_view what);

// Vulkan reports success with codes >= 0 (VK_INCOMPLETE and VK_TIMEOUT among them).
inline void check(VkResult result, std::string_view what)
{
    if (result < 0) fail_vk(result, what);
}

std::string version_string(uint32_t vk_version);

} // namespace vrb::vulkan
