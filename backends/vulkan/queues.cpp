#include "queues.hpp"

#include <vrambench/plugin.h>
#include <vrambench/plugin_support.hpp>

#include <algorithm>

#include <optional>

namespace vrb::vulkan {

QueuePlan plan_queues(const std::vector<VkQueueFamilyProperties> &families)
{
    const auto n = static_cast<uint32_t>(families.size());
    auto has = [&](uint32_t f, VkQueueFlags flags) { return (families[f].queueFlags & flags) == flags; };
    auto timed = [&](uint32_t f) { return families[f].timestampValidBits > 0; };

    // Compute: a family that can time its work first, the general (graphics) one first.
    std::optional<uint32_t> compute;
    for (int pass = 0; pass < 3 && !compute; ++pass)
        for (uint32_t f = 0; f < n && !compute; ++f) {
            if (!has(f, VK_QUEUE_COMPUTE_BIT) || families[f].queueCount == 0) continue;
            if (pass == 0 && (!timed(f) || !has(f, VK_QUEUE_GRAPHICS_BIT))) continue;
            if (pass == 1 && !timed(f)) continue;
            compute = f;
        }
    if (!compute) plugin::fail(VRB_ERROR_UNSUPPORTED, "the device has no compute queue");

    QueuePlan plan;
    plan.queue_counts.assign(n, 0);
    plan.compute = {*compute, 0};
    plan.queue_counts[*compute] = 1;

    // The copy engine: transfer without graphics or compute, able to time its copies.
    std::optional<uint32_t> copy;
    for (uint32_t f = 0; f < n && !copy; ++f)
        if (has(f, VK_QUEUE_TRANSFER_BIT) &&
            !(families[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) && families[f].queueCount > 0 &&
            timed(f))
            copy = f;

    if (copy) {
        plan.dedicated_transfer = true;
        plan.transfer = {*copy, 0};
        if (families[*copy].queueCount >= 2) {
            plan.second_transfer = {*copy, 1};
            plan.queue_counts[*copy] = 2;
        } else {
            plan.second_transfer = plan.compute;
            plan.queue_counts[*copy] = 1;
        }
        plan.two_transfer_queues = true;
    } else {
        plan.transfer = plan.compute;
        if (families[*compute].queueCount >= 2) {
            plan.second_transfer = {*compute, 1};
            plan.queue_counts[*compute] = 2;
            plan.two_transfer_queues = true;
        } else {
            plan.second_transfer = plan.compute;
        }
    }
    return plan;
}

CopyQueue transfer_queue(const std::vector<CopyEnds> &copies)
{
    auto device_local = [](uint32_t flags) { return (flags & VRB_MEMORY_DEVICE_LOCAL) != 0; };
    const bool within_device = !copies.empty() && std::all_of(copies.begin(), copies.end(), [&](const CopyEnds &c) {
        return device_local(c.src_flags) && device_local(c.dst_flags);
    });
    return within_device ? CopyQueue::Compute : CopyQueue::Transfer;
}

} // namespace vrb::vulkan
