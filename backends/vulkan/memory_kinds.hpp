// The memory kinds the backend offers: one per Vulkan memory type that has a heap and
// can back a storage buffer, named from its property flags. Pure, unit-tested.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vrb::vulkan {

struct MemoryKind {
    uint32_t type_index = 0;
    uint32_t heap_index = 0;
    VkMemoryPropertyFlags properties = 0;
    uint32_t flags = 0; // VRB_MEMORY_*
    std::string name;
    uint64_t heap_bytes = 0;
};

// "device-local", "host-visible+host-coherent", ... in a fixed order; "no-properties"
// for a type without any of the four flags.
std::string memory_type_name(VkMemoryPropertyFlags properties);

// VRB_MEMORY_* of a heap: device-local, or in system RAM when it is not (and always on
// integrated GPUs and CPU devices, whose "device" memory is system RAM).
uint32_t heap_flags(VkMemoryHeapFlags heap, VkPhysicalDeviceType device_type);

// Every type listed in usable_type_bits (the memoryTypeBits of a storage buffer) that
// the backend can allocate, in type order; identically flagged types after the first
// are named "<name>#<type index>".
std::vector<MemoryKind> derive_memory_kinds(const VkPhysicalDeviceMemoryProperties &memory,
                                            VkPhysicalDeviceType device_type, uint32_t usable_type_bits);

// Whether run() does op_kind (vrb_op_kind) at element_bytes on buffers of `kind`:
// shaders on kinds that can back a storage buffer (DEVICE_ACCESS), at 4, 8 and 16 bytes;
// TRANSFER, whose width is 1, on every kind, since every buffer has transfer usage.
bool runs_on(const MemoryKind &kind, uint32_t op_kind, uint32_t element_bytes);

} // namespace vrb::vulkan
