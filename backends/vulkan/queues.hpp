// Which queues the backend uses: one compute queue for shaders, and for TRANSFER the
// copy engine (a transfer-only family) where the device has one, with a second queue
// for copies in both directions at once where one is free. Pure, unit-tested.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

namespace vrb::vulkan {

struct QueueRef {
    uint32_t family = 0;
    uint32_t index = 0;
};

struct QueuePlan {
    QueueRef compute;
    QueueRef transfer;        // single-direction TRANSFER
    QueueRef second_transfer; // the other direction of a two-way TRANSFER
    bool two_transfer_queues = false;
    bool dedicated_transfer = false; // transfer is a family without graphics or compute
    // How many queues to create in each family, indexed by family.
    std::vector<uint32_t> queue_counts;
};

// Throws Failure(VRB_ERROR_UNSUPPORTED) when no family can compute.
QueuePlan plan_queues(const std::vector<VkQueueFamilyProperties> &families);

} // namespace vrb::vulkan
