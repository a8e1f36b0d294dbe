// An opened device (vrb_device): the VkDevice with its queues and command pools, the
// memory kinds it offers, the limits that shape buffers and dispatches, the pipelines,
// and the host-visible buffers the backend keeps for staging and results.
// It is the Device of vrb::plugin::make_table (plugin.cpp): kinds, sizes and operations
// are checked there, against the operands' own buffers, before these members run.
#pragma once

#include "buffer.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "host_buffer.hpp"
#include "memory_kinds.hpp"
#include "physical_device.hpp"
#include "pipelines.hpp"
#include "queues.hpp"
#include "semaphore.hpp"
#include "splitting.hpp"

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace vrb::vulkan {

// Per-device choices derived from limits, driver quirks and options.
struct DeviceShape {
    uint64_t segment_bytes = 0;
    uint64_t storage_offset_alignment = 0;
    DispatchShape dispatch;
    uint32_t chase_steps_per_dispatch = 0;
    bool chain_nonuniform = false; // GATHER may index its segment array per invocation
    bool chain_uniform = false;    // CHASE may index its segment array at all
    bool chase_by_address = false; // CHASE walks links of device addresses (chase_links.hpp)
    // The streaming shaders tuned for CPU implementations (shaders/access.glsl): operands
    // read through uniform texel buffers, results written as 64-bit components.
    bool cpu_tuned = false;
    uint64_t texel_offset_alignment = 0;
    uint64_t max_texel_elements = 0;
};

class Device {
  public:
    Device(Context &context, uint32_t index);
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    // The ABI's calls; each fails when the validation layer spoke (validation.hpp).
    uint32_t memory_kind_count();
    void describe(uint32_t kind, vrb_memory_kind_info &info);
    std::unique_ptr<Buffer> alloc(uint32_t kind, uint64_t bytes);
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    std::unique_ptr<Buffer> import_buffer(const vrb_external_handle &handle, uint32_t kind);
    std::unique_ptr<Buffer> alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t handle_type);
    std::unique_ptr<Semaphore> create_exportable_semaphore(uint32_t handle_type);
    std::unique_ptr<Semaphore> import_semaphore(const vrb_external_handle &handle);
    // A submission of no command buffer that sets the semaphore once the work before it
    // and the device-side waits given before it are done.
    void signal(Semaphore &semaphore, uint64_t value);
    // Kept until the next submission of any kind, which waits for it (commands.hpp).
    void device_wait(Semaphore &semaphore, uint64_t value);
    // Whether run() does op_kind at element_bytes on buffers of memory kind `kind`.
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t kind) const noexcept;

    Context &context() noexcept { return context_; }
    // Read from the environment when the device was opened.
    const Options &options() const noexcept { return options_; }
    const PhysicalDevice &physical() const noexcept { return physical_; }
    VkDevice handle() const noexcept { return device_.get(); }
    const DeviceShape &shape() const noexcept { return shape_; }
    const std::vector<MemoryKind> &kinds() const noexcept { return kinds_; }

    const QueuePlan &queues() const noexcept { return queue_plan_; }
    VkQueue queue(QueueRef ref) const;
    // 0 where the family has no timestamps (or VRAMBENCH_VULKAN_TIMER=host).
    uint32_t timestamp_bits(uint32_t family) const noexcept;
    double timestamp_period_ns() const noexcept { return physical_.properties.limits.timestampPeriod; }
    bool host_query_reset() const noexcept { return host_query_reset_; }
    // VK_EXT_calibrated_timestamps is enabled, with the device and CLOCK_MONOTONIC domains.
    bool calibrated_timestamps() const noexcept { return calibrated_timestamps_; }
    VkCommandPool command_pool(uint32_t family) const;
    const std::vector<uint32_t> &sharing_families() const noexcept { return sharing_families_; }
    VkBufferUsageFlags buffer_usage() const noexcept;

    Pipelines &pipelines() noexcept { return *pipelines_; }
    HostBuffer &staging();
    // A results buffer of at least `bytes`, reused between runs.
    HostBuffer &results(uint64_t bytes);

    // Heap accounting: an allocation that would overfill its heap is refused before
    // the driver is asked, since some drivers would rather page than fail.
    void reserve_heap(uint32_t heap, uint64_t bytes);
    void release_heap(uint32_t heap, uint64_t bytes) noexcept;

    // Buffers belong to their device: closing it frees those the host left, since their
    // memory cannot outlive the VkDevice. Each buffer enters and leaves this list itself.
    void track(Buffer *buffer);
    void untrack(Buffer *buffer) noexcept;
    bool extension_enabled(std::string_view name) const noexcept;

    // The device-side waits not yet submitted, handed to the submission that takes them.
    std::vector<PendingWait> take_pending_waits();
    // A semaphore about to be destroyed leaves no wait behind.
    void forget_waits(const Semaphore &semaphore) noexcept;

  private:
    Context &context_;
    Options options_;
    PhysicalDevice physical_;
    QueuePlan queue_plan_;
    std::vector<uint32_t> sharing_families_;
    bool host_query_reset_ = false;
    bool calibrated_timestamps_ = false;
    std::vector<std::string> enabled_extensions_;
    DeviceShape shape_;
    std::vector<uint64_t> heap_used_;
    // Destroyed in reverse: everything below before the VkDevice.
    OwnedDevice device_;
    std::map<uint32_t, Owned<VkCommandPool>> command_pools_;
    std::vector<MemoryKind> kinds_;
    std::unique_ptr<Pipelines> pipelines_;
    std::unique_ptr<HostBuffer> staging_;
    std::unique_ptr<HostBuffer> results_;
    std::unordered_set<Buffer *> buffers_;
    std::vector<std::pair<const Semaphore *, PendingWait>> pending_waits_;
};

} // namespace vrb::vulkan
