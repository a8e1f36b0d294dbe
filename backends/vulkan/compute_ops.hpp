// Every operation but TRANSFER, as compute dispatches: which shader variant, which
// descriptor sets (one per piece, each binding a window of one segment per operand),
// which dispatches with which push constants, and how the answer is read back from
// the per-workgroup result slots.
#pragma once

#include "chase_links.hpp"
#include "handles.hpp"
#include "pipelines.hpp"
#include "push_constants.hpp"

#include <memory>
#include <string>
#include <vector>

namespace vrb::vulkan {

class Device;
class HostBuffer;

struct OperationAnswer {
    uint64_t checksum = 0;
    uint64_t mismatches = 0;
    uint64_t first_mismatch = 0;
};

class ComputeOperation {
  public:
    // Plans the operation and prepares its pipeline and descriptors. The operation has
    // been checked against its buffers' sizes. Throws Failure(VRB_ERROR_UNSUPPORTED)
    // where the device cannot run it.
    ComputeOperation(Device &device, const vrb_operation &op);

    // One timed run of the operation: `passes` times the whole operation, the passes
    // looped inside the shaders (each invocation walks its slice `passes` times), in
    // as few dispatches as the device's loop bound allows.
    void record(VkCommandBuffer commands, uint32_t passes = 1) const;

    // The last run's answer; call after the submission finished. Throws
    // Failure(VRB_ERROR_INVALID_ARGUMENT) when GATHER or CHASE met an index past the
    // end of its buffer.
    OperationAnswer finish() const;

    // Times one pass moves the operation's bytes: the workgroups, where each walked the
    // whole working set (a set below one wave of the device), else 1.
    uint32_t copies() const { return copies_; }

    // CHASE made its links for this operation (none were kept with the chain for what it
    // holds): writing them left the caches holding links, not the walk, so the run walks
    // a lap untimed before its timed laps.
    bool links_made_now() const { return links_made_now_; }

  private:
    enum class Answer { None, Sum, Check, Gather, Chase };

    struct Dispatch {
        uint32_t set = 0;
        uint32_t groups = 1;
        bool barrier_before = false;
        uint64_t iterations = 1; // elements one invocation walks per pass
        PushConstants push;
    };

    // What one descriptor set binds: up to four windows (storage buffers, or texel
    // views for texel loads), or the chain's segments.
    struct SetPlan {
        std::vector<VkDescriptorBufferInfo> windows; // by binding number; buffer == null: unused
        std::vector<VkBufferView> views;             // by binding number; null: a storage window
        bool chain = false;
    };

    void plan_stream(const vrb_operation &op);
    void plan_gather_or_chase(const vrb_operation &op);
    void write_descriptors(HostBuffer &results);
    // Makes the chain into links and the dispatches into the walk by address, where the
    // links find room; else leaves the walk of indices.
    void link_chase(const vrb_operation &op);

    Device &device_;
    uint32_t kind_; // vrb_op_kind as it came over the ABI: it may be one this backend does not know
    Answer answer_ = Answer::None;
    std::string shader_;
    LayoutKind layout_kind_ = LayoutKind::Stream;
    uint32_t local_size_ = 1;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    std::vector<SetPlan> set_plans_;
    std::vector<VkDescriptorBufferInfo> chain_; // the chain's segments, one per slot
    std::vector<Owned<VkBufferView>> views_;
    std::vector<Dispatch> dispatches_;
    uint32_t slots_ = 0;
    uint32_t copies_ = 1; // workgroups that each walked the whole set (1: it was shared out)
    HostBuffer *results_ = nullptr;
    std::string links_shader_, address_shader_; // CHASE by address: the link passes', the walk's
    std::shared_ptr<LinkBuffer> links_;         // kept with the chain's buffer too, while it holds the chain
    bool links_made_now_ = false;
    Owned<VkDescriptorPool> pool_;
    std::vector<VkDescriptorSet> sets_;
};

} // namespace vrb::vulkan
