#include "commands.hpp"

#include "device.hpp"

#include <chrono>
#include <utility>

namespace vrb::vulkan {

CommandBuffer::CommandBuffer(Device &device, uint32_t family)
    : device_(device.handle()), pool_(device.command_pool(family)), family_(family)
{
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device_, &info, &buffer_), "allocating a command buffer");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(buffer_, &begin), "beginning a command buffer");
}

CommandBuffer::CommandBuffer(CommandBuffer &&other) noexcept
    : device_(other.device_), pool_(other.pool_), family_(other.family_),
      buffer_(std::exchange(other.buffer_, VK_NULL_HANDLE))
{
}

CommandBuffer::~CommandBuffer()
{
    if (buffer_ != VK_NULL_HANDLE) vkFreeCommandBuffers(device_, pool_, 1, &buffer_);
}

void CommandBuffer::end()
{
    check(vkEndCommandBuffer(buffer_), "recording a command buffer");
}

Fence::Fence(VkDevice device) : device_(device)
{
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    check(vkCreateFence(device, &info, nullptr, &fence), "creating a fence");
    fence_ = Owned<VkFence>(device, fence);
}

void Fence::wait() const
{
    const VkFence fence = fence_.get();
    VkResult result;
    do {
        result = vkWaitForFences(device_, 1, &fence, VK_TRUE, 1'000'000'000);
    } while (result == VK_TIMEOUT);
    check(result, "waiting for the device");
}

void submit(VkQueue queue, VkCommandBuffer commands, VkFence fence, std::span<const PendingWait> waits,
            VkSemaphore signal, uint64_t signal_value)
{
    std::vector<VkSemaphore> waited;
    std::vector<uint64_t> values;
    for (const PendingWait &wait : waits) {
        waited.push_back(wait.semaphore);
        values.push_back(wait.value);
    }
    // Every stage waits: the commands behind a wait may copy, dispatch or only signal.
    const std::vector<VkPipelineStageFlags> stages(waited.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    timeline.waitSemaphoreValueCount = static_cast<uint32_t>(values.size());
    timeline.pWaitSemaphoreValues = values.data();
    timeline.signalSemaphoreValueCount = signal != VK_NULL_HANDLE ? 1 : 0;
    timeline.pSignalSemaphoreValues = &signal_value;
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    // Only with semaphores: a device without timeline semaphores knows no such struct.
    if (!waited.empty() || signal != VK_NULL_HANDLE) info.pNext = &timeline;
    info.waitSemaphoreCount = static_cast<uint32_t>(waited.size());
    info.pWaitSemaphores = waited.data();
    info.pWaitDstStageMask = stages.data();
    info.commandBufferCount = commands != VK_NULL_HANDLE ? 1 : 0;
    info.pCommandBuffers = &commands;
    info.signalSemaphoreCount = signal != VK_NULL_HANDLE ? 1 : 0;
    info.pSignalSemaphores = &signal;
    check(vkQueueSubmit(queue, 1, &info, fence), "submitting work to the device");
}

void submit(Device &device, VkQueue queue, const CommandBuffer &commands, VkFence fence)
{
    submit(queue, commands.get(), fence, device.take_pending_waits());
}

double submit_and_wait(Device &device, VkQueue queue, const CommandBuffer &commands)
{
    const Fence fence(device.handle());
    const auto start = std::chrono::steady_clock::now();
    submit(device, queue, commands, fence.get());
    fence.wait();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void full_barrier(VkCommandBuffer commands)
{
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
}

void host_read_barrier(VkCommandBuffer commands)
{
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                         nullptr, 0, nullptr);
}

} // namespace vrb::vulkan
