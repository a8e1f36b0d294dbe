// vrb_plugin_table::run: runs the operation seconds.size() times timed by the device
// (timestamp queries, one submission for all repetitions) or, on queues without
// timestamps, by the host around one fenced submission per repetition. The operation
// was checked against its buffers, all of this device, by make_table.
#pragma once

#include <vrambench/plugin.h>

#include <span>

namespace vrb::vulkan {

class Device;

void run_operation(Device &device, const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);

} // namespace vrb::vulkan
