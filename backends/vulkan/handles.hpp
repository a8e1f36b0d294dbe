// Ownership of Vulkan objects: each handle is destroyed exactly once, by its owner's
// destructor, in reverse order of creation, whatever path leaves the scope.
#pragma once

#include "vk.hpp"

#include <utility>

namespace vrb::vulkan {

static_assert(sizeof(void *) == 8, "non-dispatchable handles must be distinct types to overload destroy()");

inline void destroy(VkDevice d, VkBuffer h)
{
    vkDestroyBuffer(d, h, nullptr);
}
inline void destroy(VkDevice d, VkBufferView h)
{
    vkDestroyBufferView(d, h, nullptr);
}
inline void destroy(VkDevice d, VkDeviceMemory h)
{
    vkFreeMemory(d, h, nullptr);
}
inline void destroy(VkDevice d, VkShaderModule h)
{
    vkDestroyShaderModule(d, h, nullptr);
}
inline void destroy(VkDevice d, VkPipeline h)
{
    vkDestroyPipeline(d, h, nullptr);
}
inline void destroy(VkDevice d, VkPipelineLayout h)
{
    vkDestroyPipelineLayout(d, h, nullptr);
}
inline void destroy(VkDevice d, VkDescriptorSetLayout h)
{
    vkDestroyDescriptorSetLayout(d, h, nullptr);
}
inline void destroy(VkDevice d, VkDescriptorPool h)
{
    vkDestroyDescriptorPool(d, h, nullptr);
}
inline void destroy(VkDevice d, VkCommandPool h)
{
    vkDestroyCommandPool(d, h, nullptr);
}
inline void destroy(VkDevice d, VkFence h)
{
    vkDestroyFence(d, h, nullptr);
}
inline void destroy(VkDevice d, VkSemaphore h)
{
    vkDestroySemaphore(d, h, nullptr);
}
inline void destroy(VkDevice d, VkQueryPool h)
{
    vkDestroyQueryPool(d, h, nullptr);
}

// A handle created from a VkDevice, destroyed with it in mind.
template <typename T> class Owned {
  public:
    Owned() = default;
    Owned(VkDevice device, T handle) noexcept : device_(device), handle_(handle) {}
    Owned(const Owned &) = delete;
    Owned &operator=(const Owned &) = delete;
    Owned(Owned &&other) noexcept
        : device_(std::exchange(other.device_, VK_NULL_HANDLE)), handle_(std::exchange(other.handle_, VK_NULL_HANDLE))
    {
    }
    Owned &operator=(Owned &&other) noexcept
    {
        if (this != &other) {
            reset();
            device_ = std::exchange(other.device_, VK_NULL_HANDLE);
            handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
        }
        return *this;
    }
    ~Owned() { reset(); }

    T get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != VK_NULL_HANDLE; }
    void reset() noexcept
    {
        if (handle_ != VK_NULL_HANDLE) destroy(device_, handle_);
        handle_ = VK_NULL_HANDLE;
    }

  private:
    VkDevice device_ = VK_NULL_HANDLE;
    T handle_ = VK_NULL_HANDLE;
};

// A dispatchable handle (VkInstance, VkDevice), destroyed by the given function.
template <typename T, void (*Destroy)(T) noexcept> class OwnedRoot {
  public:
    OwnedRoot() = default;
    explicit OwnedRoot(T handle) noexcept : handle_(handle) {}
    OwnedRoot(const OwnedRoot &) = delete;
    OwnedRoot &operator=(const OwnedRoot &) = delete;
    OwnedRoot &operator=(OwnedRoot &&other) noexcept
    {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
        }
        return *this;
    }
    ~OwnedRoot() { reset(); }
    T get() const noexcept { return handle_; }
    void reset() noexcept
    {
        if (handle_ != VK_NULL_HANDLE) Destroy(handle_);
        handle_ = VK_NULL_HANDLE;
    }

  private:
    T handle_ = VK_NULL_HANDLE;
};

inline void destroy_instance(VkInstance instance) noexcept
{
    vkDestroyInstance(instance, nullptr);
}
inline void destroy_device(VkDevice device) noexcept
{
    vkDestroyDevice(device, nullptr);
}

using OwnedInstance = OwnedRoot<VkInstance, destroy_instance>;
using OwnedDevice = OwnedRoot<VkDevice, destroy_device>;

// A mapping of device memory, unmapped before the memory is freed.
class Mapping {
  public:
    Mapping() = default;
    Mapping(VkDevice device, VkDeviceMemory memory, void *pointer) noexcept
        : device_(device), memory_(memory), pointer_(pointer)
    {
    }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    Mapping(Mapping &&other) noexcept
        : device_(std::exchange(other.device_, VK_NULL_HANDLE)), memory_(std::exchange(other.memory_, VK_NULL_HANDLE)),
          pointer_(std::exchange(other.pointer_, nullptr))
    {
    }
    Mapping &operator=(Mapping &&other) noexcept
    {
        if (this != &other) {
            reset();
            device_ = std::exchange(other.device_, VK_NULL_HANDLE);
            memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
            pointer_ = std::exchange(other.pointer_, nullptr);
        }
        return *this;
    }
    ~Mapping() { reset(); }
    void *get() const noexcept { return pointer_; }
    void reset() noexcept
    {
        if (pointer_) vkUnmapMemory(device_, memory_);
        pointer_ = nullptr;
    }

  private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void *pointer_ = nullptr;
};

} // namespace vrb::vulkan
