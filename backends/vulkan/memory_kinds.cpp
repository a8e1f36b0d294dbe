#include "memory_kinds.hpp"

#include <vrambench/plugin.h>

#include <algorithm>

namespace vrb::vulkan {

namespace {

bool system_memory_device(VkPhysicalDeviceType type)
{
    return type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU || type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

// Types the backend never allocates: protected memory needs protected queues, lazily
// allocated memory backs only transient attachments, and AMD's device-coherent types
// need a feature the backend does not enable.
constexpr VkMemoryPropertyFlags kExcluded = VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT |
                                            VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD |
                                            VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD;

} // namespace

std::string memory_type_name(VkMemoryPropertyFlags properties)
{
    static constexpr struct {
        VkMemoryPropertyFlags bit;
        const char *name;
    } parts[] = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "device-local"},
                 {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "host-visible"},
                 {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "host-coherent"},
                 {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "host-cached"}};
    std::string name;
    for (const auto &part : parts) {
        if (!(properties & part.bit)) continue;
        if (!name.empty()) name += '+';
        name += part.name;
    }
    return name.empty() ? "no-properties" : name;
}

uint32_t heap_flags(VkMemoryHeapFlags heap, VkPhysicalDeviceType device_type)
{
    uint32_t flags = 0;
    if (heap & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) flags |= VRB_MEMORY_DEVICE_LOCAL;
    if (!(heap & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) || system_memory_device(device_type)) flags |= VRB_MEMORY_HOST_MEMORY;
    return flags;
}

std::vector<MemoryKind> derive_memory_kinds(const VkPhysicalDeviceMemoryProperties &memory,
                                            VkPhysicalDeviceType device_type, uint32_t usable_type_bits)
{
    std::vector<MemoryKind> kinds;
    const uint32_t type_count = std::min<uint32_t>(memory.memoryTypeCount, VK_MAX_MEMORY_TYPES);
    for (uint32_t t = 0; t < type_count; ++t) {
        const VkMemoryType &type = memory.memoryTypes[t];
        if (!(usable_type_bits & (1u << t)) || (type.propertyFlags & kExcluded)) continue;
        if (type.heapIndex >= memory.memoryHeapCount) continue;
        const VkMemoryHeap &heap = memory.memoryHeaps[type.heapIndex];
        if (heap.size == 0) continue;

        MemoryKind kind;
        kind.type_index = t;
        kind.heap_index = type.heapIndex;
        kind.properties = type.propertyFlags;
        kind.heap_bytes = heap.size;
        kind.flags = VRB_MEMORY_DEVICE_ACCESS;
        if (type.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) kind.flags |= VRB_MEMORY_DEVICE_LOCAL;
        if (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) kind.flags |= VRB_MEMORY_HOST_VISIBLE;
        if (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) kind.flags |= VRB_MEMORY_HOST_COHERENT;
        if (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) kind.flags |= VRB_MEMORY_HOST_CACHED;
        // System RAM a discrete GPU reaches over the bus: the driver keeps it page-locked.
        const bool off_device = !(heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
        if (off_device && device_type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
            kind.flags |= VRB_MEMORY_HOST_MEMORY;
            if (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) kind.flags |= VRB_MEMORY_PINNED;
        } else if (off_device || system_memory_device(device_type)) {
            kind.flags |= VRB_MEMORY_HOST_MEMORY;
        }

        kind.name = memory_type_name(type.propertyFlags);
        const bool taken = std::any_of(kinds.begin(), kinds.end(),
                                       [&](const MemoryKind &k) { return k.properties == kind.properties; });
        if (taken) kind.name.append(1, '#').append(std::to_string(t));
        kinds.push_back(std::move(kind));
    }
    return kinds;
}

bool runs_on(const MemoryKind &kind, uint32_t op_kind, uint32_t element_bytes)
{
    if (op_kind == VRB_OP_TRANSFER) return element_bytes == 1;
    const bool shader = op_kind >= VRB_OP_READ && op_kind <= VRB_OP_CHECK;
    const bool width = element_bytes == 4 || element_bytes == 8 || element_bytes == 16;
    return shader && width && (kind.flags & VRB_MEMORY_DEVICE_ACCESS);
}

} // namespace vrb::vulkan
