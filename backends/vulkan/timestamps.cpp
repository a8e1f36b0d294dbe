#include "timestamps.hpp"

#include "device.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <vector>

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

namespace vrb::vulkan {

bool offers_calibration(const PhysicalDevice &physical)
{
    if (!physical.has_extension(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) ||
        !vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
        return false;
    uint32_t count = 0;
    if (vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical.handle, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkTimeDomainEXT> domains(count);
    if (vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical.handle, &count, domains.data()) < 0) return false;
    domains.resize(count);
    const auto offers = [&](VkTimeDomainEXT d) {
        return std::find(domains.begin(), domains.end(), d) != domains.end();
    };
    return offers(VK_TIME_DOMAIN_DEVICE_EXT) && offers(VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
}

Calibration calibrate(const Device &device, uint32_t valid_bits)
{
    const std::array<VkCalibratedTimestampInfoEXT, 2> infos{
        VkCalibratedTimestampInfoEXT{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
                                     VK_TIME_DOMAIN_DEVICE_EXT},
        VkCalibratedTimestampInfoEXT{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
                                     VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
    std::array<uint64_t, 2> values{};
    uint64_t deviation = 0;
    check(
        vkGetCalibratedTimestampsEXT(device.handle(), uint32_t(infos.size()), infos.data(), values.data(), &deviation),
        "calibrating the device's timestamps against the host's clock");
    const uint64_t mask = valid_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << valid_bits) - 1;
    return Calibration{ClockPair{values[0] & mask, values[1]}, deviation};
}

uint64_t host_monotonic_ns()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
}

} // namespace vrb::vulkan
