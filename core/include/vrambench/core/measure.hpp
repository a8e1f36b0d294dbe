// Timing one operation the way every probe must: warm-up runs first, then
// repetitions, every duration checked, statistics over the raw samples.
#pragma once

#include <vrambench/core/probe.hpp>
#include <vrambench/core/traffic.hpp>

namespace vrb {

struct Timing {
    std::vector<double> seconds;
    vrb_op_output output{};
};

// Runs `warmups` untimed runs, then `repetitions` timed ones. Throws BackendError
// when the backend fails, and RunError when a duration is zero, negative or not
// finite: such a timer is broken and no figure can come from it.
Timing time_operation(Device &device, const vrb_operation &op, uint32_t warmups, uint32_t repetitions);

// Fills in a bandwidth result from a timing: samples in GB/s from `bytes` per run,
// statistics, the chosen estimator, efficiency and a "suspect" status when the figure
// beats the device's theoretical peak.
void set_bandwidth(ProbeResult &result, const Timing &timing, uint64_t bytes, const ProbeContext &ctx);

std::string_view timer_name(uint32_t timer);

// A result skeleton with probe, backend, device and estimator filled in.
ProbeResult make_result(const ProbeContext &ctx, std::string_view probe);

} // namespace vrb
