// TRANSFER: vkCmdCopyBuffer between any two buffers of any kinds, on the copy engine (a
// transfer-only queue family where the device has one), or on the compute queue where
// every copy stays within device-local memory (queues.hpp). With src2 and dst2 set, both
// copies run at once: on two queues where the device has them (each repetition is the
// span from the first start to the last end, on the host's clock: see
// run_on_two_queues), else side by side in one submission.
#pragma once

#include <cstdint>

#include <vrambench/plugin.h>

namespace vrb::vulkan {

class Device;

// Fills seconds[0 .. repetitions-1], each run making `passes` copies one after the
// other; returns the vrb_timer_kind used.
uint32_t run_transfer(Device &device, const vrb_operation &op, uint32_t repetitions, uint32_t passes, double *seconds);

} // namespace vrb::vulkan
