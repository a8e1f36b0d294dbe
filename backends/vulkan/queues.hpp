// Which queues the backend uses: one compute queue for shaders, and for TRANSFER the
// copy engine (a transfer-only family) where the device has one, with a second queue
// for copies in both directions at once where one is free; a copy within device memory
// runs on the compute queue (transfer_queue). Pure, unit-tested.
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

// The two ends of one copy, as the VRB_MEMORY_* flags of their memory kinds.
struct CopyEnds {
    uint32_t src_flags = 0;
    uint32_t dst_flags = 0;
};

// Where the copies of one TRANSFER run. A transfer-only family is a DMA engine built to
// move data over the bus: host to device and back it is the fastest way, but within
// device memory it runs far below the memory's speed (an H200's: 90 GB/s, where the
// compute queue's copy, as cudaMemcpy's, moves 2125 GB/s). So copies whose every end is
// device-local run on the compute queue, and the rest on the planned transfer queue.
enum class CopyQueue { Compute, Transfer };
CopyQueue transfer_queue(const std::vector<CopyEnds> &copies);

} // namespace vrb::vulkan
