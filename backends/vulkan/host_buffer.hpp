// A mapped, host-visible VkBuffer the backend keeps for itself: the staging buffer of
// uploads and downloads, and the small buffer shaders write their results into.
#pragma once

#include "handles.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vrb::vulkan {

class HostBuffer {
  public:
    // Throws Failure(VRB_ERROR_OUT_OF_MEMORY) when no host-visible memory is left.
    HostBuffer(VkDevice device, const VkPhysicalDeviceMemoryProperties &memory, uint64_t bytes,
               VkBufferUsageFlags usage, const std::vector<uint32_t> &sharing_families);

    VkBuffer buffer() const noexcept { return buffer_.get(); }
    uint64_t size() const noexcept { return bytes_; }
    std::byte *data() const noexcept { return static_cast<std::byte *>(mapping_.get()); }
    // Make device writes visible to the host, and host writes to the device, where the
    // memory is not coherent.
    void invalidate() const;
    void flush() const;

  private:
    VkDevice device_;
    uint64_t bytes_;
    bool coherent_ = false;
    Owned<VkBuffer> buffer_;
    Owned<VkDeviceMemory> memory_;
    Mapping mapping_;
};

// Fills the sharing fields of a buffer used by several queue families.
void set_sharing(VkBufferCreateInfo &info, const std::vector<uint32_t> &families);

} // namespace vrb::vulkan
