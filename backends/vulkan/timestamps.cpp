#include "timestamps.hpp"

#include "device.hpp"

namespace vrb::vulkan {

TimestampQueries::TimestampQueries(Device &device, uint32_t count) : device_(device), count_(count)
{
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    check(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "creating a timestamp query pool");
    pool_ = Owned<VkQueryPool>(device.handle(), pool);
}

void TimestampQueries::reset(const CommandBuffer &commands)
{
    const VkQueueFlags flags = device_.physical().queue_families[commands.family()].queueFlags;
    if (flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
        vkCmdResetQueryPool(commands.get(), pool_.get(), 0, count_);
    } else if (device_.host_query_reset()) {
        vkResetQueryPool(device_.handle(), pool_.get(), 0, count_);
    } else {
        const QueueRef compute = device_.queues().compute;
        CommandBuffer reset(device_, compute.family);
        vkCmdResetQueryPool(reset.get(), pool_.get(), 0, count_);
        reset.end();
        submit_and_wait(device_, device_.queue(compute), reset);
    }
}

void TimestampQueries::write(VkCommandBuffer commands, uint32_t query) const
{
    // Bottom of pipe: latched once all earlier commands have finished. With a full
    // barrier before each repetition, that is when the repetition can start, and the
    // closing timestamp is when its last command has finished.
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_.get(), query);
}

std::vector<uint64_t> TimestampQueries::read() const
{
    std::vector<uint64_t> values(count_);
    check(vkGetQueryPoolResults(device_.handle(), pool_.get(), 0, count_, values.size() * sizeof(uint64_t),
                                values.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "reading timestamps");
    return values;
}

} // namespace vrb::vulkan
