// A pool of timestamp queries for one run() call: reset before use (on the device where
// the queue family can, else from the host or through the compute queue, since copy
// queues cannot reset queries), written around each repetition, read after the wait.
#pragma once

#include "commands.hpp"
#include "handles.hpp"

#include <vector>

namespace vrb::vulkan {

class Device;

class TimestampQueries {
  public:
    TimestampQueries(Device &device, uint32_t count);
    VkQueryPool get() const noexcept { return pool_.get(); }
    // Must precede, in `commands` or before its submission, every write of a timestamp.
    void reset(const CommandBuffer &commands);
    void write(VkCommandBuffer commands, uint32_t query) const;
    // The raw counter values; call once the submission has finished.
    std::vector<uint64_t> read() const;

  private:
    Device &device_;
    uint32_t count_;
    Owned<VkQueryPool> pool_;
};

} // namespace vrb::vulkan
