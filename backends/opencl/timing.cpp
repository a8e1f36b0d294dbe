#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>

namespace vrb::opencl {

double span_seconds(const std::vector<EventTimes> &times, const std::string &what)
{
    if (times.empty()) plugin::fail(VRB_ERROR_TIMER, what + ": no command was timed");
    cl_ulong first = times.front().start, last = times.front().end;
    for (const EventTimes &t : times) {
        if (t.end < t.start)
            plugin::fail(VRB_ERROR_TIMER, what + ": a profiling event ends (" + std::to_string(t.end) +
                                              " ns) before it starts (" + std::to_string(t.start) + " ns)");
        first = std::min(first, t.start);
        last = std::max(last, t.end);
    }
    if (last <= first)
        plugin::fail(VRB_ERROR_TIMER, what + ": the profiling events span no time (start " + std::to_string(first) +
                                          " ns, end " + std::to_string(last) + " ns)");
    return double(last - first) * 1e-9;
}

std::vector<EventTimes> event_times(const std::vector<EventHandle> &events)
{
    std::vector<cl_event> raw;
    for (const EventHandle &e : events)
        raw.push_back(e.get());
    if (!raw.empty()) check(clWaitForEvents(static_cast<cl_uint>(raw.size()), raw.data()), "clWaitForEvents");
    std::vector<EventTimes> times;
    for (cl_event e : raw) {
        cl_int status = CL_SUCCESS;
        check(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), "clGetEventInfo");
        if (status < 0) check(status, "a timed command");
        EventTimes t;
        check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t.start, &t.start, nullptr),
              "clGetEventProfilingInfo(START)");
        check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t.end, &t.end, nullptr),
              "clGetEventProfilingInfo(END)");
        times.push_back(t);
    }
    return times;
}

} // namespace vrb::opencl
