#include "host_buffer.hpp"

#include "host_access.hpp"

namespace vrb::vulkan {

void set_sharing(VkBufferCreateInfo &info, const std::vector<uint32_t> &families)
{
    // Concurrent sharing spares ownership transfers between the compute and copy queues;
    // for buffers it costs nothing measurable.
    if (families.size() > 1) {
        info.sharingMode = VK_SHARING_MODE_CONCURRENT;
        info.queueFamilyIndexCount = static_cast<uint32_t>(families.size());
        info.pQueueFamilyIndices = families.data();
    } else {
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    }
}

HostBuffer::HostBuffer(VkDevice device, const VkPhysicalDeviceMemoryProperties &memory, uint64_t bytes,
                       VkBufferUsageFlags usage, const std::vector<uint32_t> &sharing_families)
    : device_(device), bytes_(bytes)
{
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage = usage;
    set_sharing(info, sharing_families);
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(device, &info, nullptr, &buffer), "creating a host buffer");
    buffer_ = Owned<VkBuffer>(device, buffer);

    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    const uint32_t type = choose_host_buffer_type(memory, requirements.memoryTypeBits);
    if (type == UINT32_MAX) fail(VRB_ERROR_UNSUPPORTED, "the device offers no host-visible memory for buffers");
    coherent_ = memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type;
    VkDeviceMemory allocation = VK_NULL_HANDLE;
    check(vkAllocateMemory(device, &allocate, nullptr, &allocation), "allocating a host buffer");
    memory_ = Owned<VkDeviceMemory>(device, allocation);
    check(vkBindBufferMemory(device, buffer, allocation, 0), "binding a host buffer");
    void *pointer = nullptr;
    check(vkMapMemory(device, allocation, 0, VK_WHOLE_SIZE, 0, &pointer), "mapping a host buffer");
    mapping_ = Mapping(device, allocation, pointer);
}

void HostBuffer::invalidate() const
{
    if (coherent_) return;
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = memory_.get();
    range.size = VK_WHOLE_SIZE;
    check(vkInvalidateMappedMemoryRanges(device_, 1, &range), "reading a host buffer");
}

void HostBuffer::flush() const
{
    if (coherent_) return;
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = memory_.get();
    range.size = VK_WHOLE_SIZE;
    check(vkFlushMappedMemoryRanges(device_, 1, &range), "writing a host buffer");
}

} // namespace vrb::vulkan
