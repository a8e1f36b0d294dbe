// vrb_plugin_table::run: checks the operation, runs it `repetitions` times timed by the
// device (timestamp queries, one submission for all repetitions) or, on queues without
// timestamps, by the host around one fenced submission per repetition.
#pragma once

#include <vrambench/plugin.h>

namespace vrb::vulkan {

class Device;

void run_operation(Device &device, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out);

} // namespace vrb::vulkan
