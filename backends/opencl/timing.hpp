// A timed run's duration from the profiling events of its commands: from the first
// command's start to the last one's end, on the device's own clock (the events of both
// of a device's queues share it). A duration that is not positive is an error.
#pragma once

#include "cl.hpp"

#include <string>
#include <vector>

namespace vrb::opencl {

struct EventTimes {
    cl_ulong start = 0;
    cl_ulong end = 0;
};

// Throws Failure(VRB_ERROR_TIMER) for a command that ends before it starts or a span
// that is not positive; `what` names the run in the message.
double span_seconds(const std::vector<EventTimes> &times, const std::string &what);

// Waits for the events and reads their profiling times.
std::vector<EventTimes> event_times(const std::vector<EventHandle> &events);

} // namespace vrb::opencl
