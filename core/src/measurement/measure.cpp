#include <vrambench/core/measurement/measure.hpp>

#include <vrambench/core/measurement/sizes.hpp>

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
    default:
        throw RunError(fmt::format("the backend did not say which timer timed the runs (timer kind {}): a figure "
                                   "of an unknown clock is not trusted",
                                   timer));
    }
}

void check_timing(const std::vector<double> &seconds, const vrb_op_output &output, std::string_view backend)
{
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        const double s = seconds[i];
        if (!std::isfinite(s) || s <= 0)
            throw RunError(fmt::format("{} reported an impossible duration ({} s) for run {}: the timer is not trusted",
                                       backend, s, i));
    }
    (void)timer_name(output.timer);
}

bool is_suspect(double gb_per_s, std::optional<double> peak, uint64_t footprint, uint64_t last_level)
{
    if (!peak || gb_per_s <= *peak) return false;
    // Up to about 1.8x the cache part of every pass still hits it (an LRU or adaptive
    // cache keeps some of a working set larger than itself), so a figure there can beat
    // memory's peak honestly; from 2x the partial hits are too few to.
    return footprint == 0 || last_level == 0 || footprint / kSuspectCacheMultiple >= last_level;
}

std::optional<std::string> peak_suspicion(double gb_per_s, const DeviceRecord &device, uint64_t footprint)
{
    const PeakChoice peak = device.peak();
    const uint64_t llc = device.last_level_cache_bytes();
    if (!is_suspect(gb_per_s, peak.gb_per_s, footprint, llc)) return std::nullopt;
    return fmt::format("{:.1f} GB/s over {} is above the {} peak of {:.1f} GB/s: past the {} last-level cache's {}x, "
                       "only memory compression or a miscounted figure beats it",
                       gb_per_s, footprint ? format_size(footprint) : std::string("a working set"), peak.source,
                       *peak.gb_per_s, llc ? format_size(llc) : std::string("(unknown)"), kSuspectCacheMultiple);
}

Timing time_operation(Device &device, const vrb_operation &op, uint32_t warmups, uint32_t repetitions)
{
    if (warmups > 0) device.run(op, warmups);
    auto run = device.run(op, repetitions);
    check_timing(run.seconds, run.output, device.module().name());
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

void set_bandwidth(ProbeResult &r, const Timing &timing, uint64_t bytes, const ProbeContext &ctx, uint64_t footprint)
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
    const PeakChoice peak = ctx.record.peak();
    if (peak.gb_per_s) r.efficiency = *r.value / *peak.gb_per_s;
    if (r.status == ProbeResult::Status::ok)
        if (auto sentence = peak_suspicion(*r.value, ctx.record, footprint)) {
            r.status = ProbeResult::Status::suspect;
            r.error = std::move(sentence);
        }
}

} // namespace vrb
