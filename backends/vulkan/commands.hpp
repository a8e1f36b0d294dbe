// Command buffers and their submission: record, submit to one queue, wait on a fence.
// Every submission of work is waited for before the ABI call returns, so no work of the
// backend outlives the call that started it; only a semaphore signal (semaphore.hpp)
// is left to the device. Every submission first waits for the device-side waits the
// host gave before it (semaphore_device_wait).
#pragma once

#include "handles.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace vrb::vulkan {

class Device;

class CommandBuffer {
  public:
    CommandBuffer(Device &device, uint32_t family);
    ~CommandBuffer();
    CommandBuffer(const CommandBuffer &) = delete;
    CommandBuffer &operator=(const CommandBuffer &) = delete;
    CommandBuffer(CommandBuffer &&other) noexcept;

    VkCommandBuffer get() const noexcept { return buffer_; }
    uint32_t family() const noexcept { return family_; }
    void end();

  private:
    VkDevice device_;
    VkCommandPool pool_;
    uint32_t family_;
    VkCommandBuffer buffer_ = VK_NULL_HANDLE;
};

class Fence {
  public:
    explicit Fence(VkDevice device);
    VkFence get() const noexcept { return fence_.get(); }
    // Waits without a deadline: a hung device is the worker process's watchdog's to handle.
    void wait() const;

  private:
    VkDevice device_;
    Owned<VkFence> fence_;
};

// A timeline semaphore value a submission waits for before its commands run.
struct PendingWait {
    VkSemaphore semaphore;
    uint64_t value;
};

// `commands` may be VK_NULL_HANDLE (a batch of semaphore operations only); `signal`, when
// not VK_NULL_HANDLE, is set to signal_value once the batch is done.
void submit(VkQueue queue, VkCommandBuffer commands, VkFence fence, std::span<const PendingWait> waits,
            VkSemaphore signal = VK_NULL_HANDLE, uint64_t signal_value = 0);
// Waits for the device's pending device-side waits first.
void submit(Device &device, VkQueue queue, const CommandBuffer &commands, VkFence fence);

// Submits and waits; returns the seconds the host waited, from just before the submission.
double submit_and_wait(Device &device, VkQueue queue, const CommandBuffer &commands);

// A full barrier between everything recorded before and everything after: reads and
// writes of shaders, copies and the host.
void full_barrier(VkCommandBuffer commands);

// Makes device writes visible to the host once the submission has finished.
void host_read_barrier(VkCommandBuffer commands);

} // namespace vrb::vulkan
