// A pool of timestamp queries for one run() call: reset before use (on the device where
// the queue family can, else from the host or through the compute queue, since copy
// queues cannot reset queries), written around each repetition, read after the wait.
#pragma once

#include "commands.hpp"
#include "handles.hpp"
#include "timing.hpp"

#include <vector>

namespace vrb::vulkan {

class Device;
struct PhysicalDevice;

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

// The device's timestamp counter and the host's CLOCK_MONOTONIC read at one moment
// (VK_EXT_calibrated_timestamps), and how far apart the two reads may have been.
struct Calibration {
    ClockPair pair;
    uint64_t deviation_ns = 0;
};

// Whether the device can calibrate its counter against CLOCK_MONOTONIC; asked before the
// device is created, to decide whether to enable the extension.
bool offers_calibration(const PhysicalDevice &physical);

// Only on a device opened with the extension (Device::calibrated_timestamps()).
Calibration calibrate(const Device &device, uint32_t valid_bits);

// CLOCK_MONOTONIC, the host domain calibrate() reads, in nanoseconds.
uint64_t host_monotonic_ns();

} // namespace vrb::vulkan
