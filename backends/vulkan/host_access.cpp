#include "host_access.hpp"

#include <initializer_list>

namespace vrb::vulkan {

HostPath choose_host_path(VkMemoryPropertyFlags properties, uint64_t bytes, bool always_stage)
{
    if (always_stage || !(properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) return HostPath::Staging;
    const bool bar =
        (properties & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(properties & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    return bar && bytes > kSmallHostAccessBytes ? HostPath::Staging : HostPath::Mapping;
}

uint32_t choose_host_buffer_type(const VkPhysicalDeviceMemoryProperties &memory, uint32_t allowed_type_bits)
{
    constexpr VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    constexpr VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    constexpr VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    constexpr VkMemoryPropertyFlags never =
        VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD;
    const VkMemoryPropertyFlags preferences[] = {visible | coherent | cached, visible | cached, visible | coherent,
                                                 visible};
    const uint32_t count = memory.memoryTypeCount < VK_MAX_MEMORY_TYPES ? memory.memoryTypeCount : VK_MAX_MEMORY_TYPES;
    for (VkMemoryPropertyFlags wanted : preferences)
        for (bool allow_device_local : {false, true})
            for (uint32_t t = 0; t < count; ++t) {
                const VkMemoryPropertyFlags flags = memory.memoryTypes[t].propertyFlags;
                if (!(allowed_type_bits & (1u << t)) || (flags & wanted) != wanted || (flags & never)) continue;
                if (!allow_device_local && (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) continue;
                return t;
            }
    return UINT32_MAX;
}

} // namespace vrb::vulkan
