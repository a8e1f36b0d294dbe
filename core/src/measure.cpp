#include <vrambench/core/measure.hpp>

#include <fmt/format.h>

#include <cmath>

namespace vrb {

std::string_view timer_name(uint32_t timer)
{
    switch (timer) {
    case VRB_TIMER_HOST_MONOTONIC: return "host-monotonic";
    case VRB_TIMER_DEVICE_EVENTS: return "device-events";
    case VRB_TIMER_DEVICE_TIMESTAMPS: return "device-timestamps";
    case VRB_TIMER_PROFILING_EVENTS: return "profiling-events";
    case VRB_TIMER_CALIBRATED_TIMESTAMPS: return "calibrated-timestamps";
    default: return "host-monotonic";
    }
}

Timing time_operation(Device &device, const vrb_operation &op, uint32_t warmups, uint32_t repetitions)
{
    if (warmups > 0) device.run(op, warmups);
    auto run = device.run(op, repetitions);
    for (std::size_t i = 0; i < run.seconds.size(); ++i) {
        const double s = run.seconds[i];
        if (!std::isfinite(s) || s <= 0)
            throw RunError(fmt::format("{} reported an impossible duration ({} s) for run {}: the timer is not trusted",
                                       device.module().name(), s, i));
    }
    return Timing{std::move(run.seconds), run.output};
}

ProbeResult make_result(const ProbeContext &ctx, std::string_view probe)
{
    ProbeResult r;
    r.probe = probe;
    r.backend = ctx.record.backend;
    r.device = ctx.record.id;
    r.estimator = to_string(ctx.options.estimator);
    return r;
}

void set_bandwidth(ProbeResult &r, const Timing &timing, uint64_t bytes, const ProbeContext &ctx)
{
    r.metric = "bandwidth";
    r.unit = "GB/s";
    r.bytes_per_run = bytes;
    r.timer = timer_name(timing.output.timer);
    r.seconds = timing.seconds;
    r.samples.clear();
    for (double s : timing.seconds)
        r.samples.push_back(static_cast<double>(bytes) / s / bytes_per_gb);
    r.statistics = summarize(r.samples);
    r.value = pick(*r.statistics, ctx.options.estimator);
    if (const auto peak = ctx.record.peak_gb_per_s()) {
        r.efficiency = *r.value / *peak;
        if (*r.value > *peak && r.status == ProbeResult::Status::ok) {
            r.status = ProbeResult::Status::suspect;
            r.error = fmt::format("{:.1f} GB/s is above the theoretical peak of {:.1f} GB/s: caches or memory "
                                  "compression, not device memory bandwidth",
                                  *r.value, *peak);
        }
    }
}

} // namespace vrb
