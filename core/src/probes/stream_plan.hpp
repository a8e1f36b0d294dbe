// How big and how often bandwidth.stream runs, derived from the device and the suite.
#pragma once

#include <vrambench/core/probes/probe.hpp>

namespace vrb {

// The shortest a timed run of bandwidth.stream may last: a kernel's launch, ramp and
// tail (a few microseconds on a GPU) must not read as memory time. 256 MiB arrays move
// through an H200's HBM in about 0.1 ms a pass, so its runs make several passes.
inline constexpr double stream_least_run_seconds = 1e-3;

struct StreamPlan {
    std::vector<uint32_t> widths; // element bytes to run
    uint32_t warmups = 1;
    uint32_t reps = 5;
    uint64_t bytes = 0;           // per array; three arrays are allocated
    uint32_t preferred_flags = 0; // memory kind flags wanted beside device access
    std::string size_rule;        // how bytes was chosen, kept with the result
    std::string reason;           // "memory", "cache", "limit", "option" or "default" (curve_plan.hpp)
};

StreamPlan plan_stream(const DeviceRecord &device, const ProbeOptions &options);

std::unique_ptr<Probe> make_stream_probe();

} // namespace vrb
