// Queue choice on the queue-family layouts of real devices.
#include "queues.hpp"

#include <vrambench/plugin.h>

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

namespace vrb::vulkan {
namespace {

VkQueueFamilyProperties family(VkQueueFlags flags, uint32_t count, uint32_t bits = 64)
{
    VkQueueFamilyProperties f{};
    f.queueFlags = flags;
    f.queueCount = count;
    f.timestampValidBits = bits;
    return f;
}

constexpr VkQueueFlags Graphics = VK_QUEUE_GRAPHICS_BIT, Compute = VK_QUEUE_COMPUTE_BIT,
                       Transfer = VK_QUEUE_TRANSFER_BIT;

TEST(Queues, of_a_device_with_one_queue_share_it_for_everything)
{
    const QueuePlan plan = plan_queues({family(Graphics | Compute | Transfer, 1)}); // lavapipe
    EXPECT_EQ(plan.compute.family, 0u);
    EXPECT_EQ(plan.transfer.family, 0u);
    EXPECT_FALSE(plan.dedicated_transfer);
    EXPECT_FALSE(plan.two_transfer_queues);
    EXPECT_EQ(plan.queue_counts, std::vector<uint32_t>{1});
}

TEST(Queues, use_the_copy_engine_and_two_of_its_queues_when_there_are_two)
{
    const QueuePlan plan = plan_queues(
        {family(Graphics | Compute | Transfer, 16), family(Transfer, 2), family(Compute | Transfer, 8)}); // NVIDIA-like
    EXPECT_EQ(plan.compute.family, 0u);
    EXPECT_TRUE(plan.dedicated_transfer);
    EXPECT_EQ(plan.transfer.family, 1u);
    EXPECT_TRUE(plan.two_transfer_queues);
    EXPECT_EQ(plan.second_transfer.family, 1u);
    EXPECT_EQ(plan.second_transfer.index, 1u);
    EXPECT_EQ(plan.queue_counts, (std::vector<uint32_t>{1, 2, 0}));
}

TEST(Queues, pair_a_single_copy_engine_with_the_compute_queue)
{
    const QueuePlan plan = plan_queues(
        {family(Graphics | Compute | Transfer, 1), family(Compute | Transfer, 4), family(Transfer, 1)}); // AMD-like
    EXPECT_EQ(plan.transfer.family, 2u);
    EXPECT_TRUE(plan.two_transfer_queues);
    EXPECT_EQ(plan.second_transfer.family, plan.compute.family);
}

TEST(Queues, skip_a_copy_engine_that_cannot_time_its_work)
{
    const QueuePlan plan = plan_queues({family(Graphics | Compute | Transfer, 1), family(Transfer, 2, 0)});
    EXPECT_FALSE(plan.dedicated_transfer);
    EXPECT_EQ(plan.transfer.family, 0u);
}

TEST(Queues, prefer_a_compute_family_with_timestamps)
{
    const QueuePlan plan = plan_queues({family(Graphics | Compute | Transfer, 1, 0), family(Compute | Transfer, 2)});
    EXPECT_EQ(plan.compute.family, 1u);
}

TEST(Queues, refuse_a_device_that_cannot_compute)
{
    EXPECT_THROW(plan_queues({family(Graphics | Transfer, 1)}), plugin::Failure);
}

constexpr uint32_t DeviceMemory = VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_DEVICE_LOCAL;
constexpr uint32_t Bar = DeviceMemory | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT;
constexpr uint32_t Pinned = VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT |
                            VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PINNED;

TEST(TransferQueue, copies_within_device_memory_run_on_the_compute_queue)
{
    EXPECT_EQ(transfer_queue({{DeviceMemory, DeviceMemory}}), CopyQueue::Compute);
    EXPECT_EQ(transfer_queue({{Bar, DeviceMemory}}), CopyQueue::Compute);
    EXPECT_EQ(transfer_queue({{DeviceMemory, DeviceMemory}, {DeviceMemory, Bar}}), CopyQueue::Compute);
}

TEST(TransferQueue, copies_to_or_from_host_memory_keep_the_transfer_queue)
{
    EXPECT_EQ(transfer_queue({{Pinned, DeviceMemory}}), CopyQueue::Transfer);
    EXPECT_EQ(transfer_queue({{DeviceMemory, Pinned}}), CopyQueue::Transfer);
    EXPECT_EQ(transfer_queue({{Pinned, Pinned}}), CopyQueue::Transfer);
    // Both directions at once, one of them over the bus: the copy engines take both.
    EXPECT_EQ(transfer_queue({{DeviceMemory, DeviceMemory}, {Pinned, DeviceMemory}}), CopyQueue::Transfer);
    EXPECT_EQ(transfer_queue({}), CopyQueue::Transfer);
}

} // namespace
} // namespace vrb::vulkan
