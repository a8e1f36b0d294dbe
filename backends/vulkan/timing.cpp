#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <cmath>
#include <string>

namespace vrb::vulkan {

namespace {

uint64_t counter_mask(uint32_t valid_bits)
{
    return valid_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << valid_bits) - 1;
}

void check_period(double period_ns, uint32_t valid_bits)
{
    check_timestamp_period(period_ns);
    if (valid_bits == 0) plugin::fail(VRB_ERROR_TIMER, "the queue has no timestamps (timestampValidBits is 0)");
}

// A difference above half the range is read as end-before-start.
void check_ticks(uint64_t ticks, uint32_t valid_bits)
{
    if (ticks == 0) plugin::fail(VRB_ERROR_TIMER, "the device timer measured a zero duration");
    if (ticks > counter_mask(valid_bits) / 2)
        plugin::fail(VRB_ERROR_TIMER, "the device timer went backwards (end timestamp before start)");
}

} // namespace

uint64_t timestamp_ticks(uint64_t start, uint64_t end, uint32_t valid_bits)
{
    const uint64_t mask = counter_mask(valid_bits);
    return ((end & mask) - (start & mask)) & mask;
}

double timestamp_seconds(uint64_t start, uint64_t end, uint32_t valid_bits, double period_ns)
{
    check_period(period_ns, valid_bits);
    const uint64_t ticks = timestamp_ticks(start, end, valid_bits);
    check_ticks(ticks, valid_bits);
    return static_cast<double>(ticks) * period_ns * 1e-9;
}

void check_timestamp_period(double period_ns)
{
    // Written so that NaN fails every comparison and lands here too.
    if (!(period_ns >= kMinTimestampPeriodNs && period_ns <= kMaxTimestampPeriodNs))
        plugin::fail(VRB_ERROR_TIMER, "timestampPeriod " + std::to_string(period_ns) +
                                          " ns is not a usable period: a real counter ticks every " +
                                          std::to_string(kMinTimestampPeriodNs) + " to " +
                                          std::to_string(kMaxTimestampPeriodNs) + " ns");
}

double host_ns_of(uint64_t ticks, const ClockPair &calibration, uint32_t valid_bits, double period_ns)
{
    const uint64_t ahead = timestamp_ticks(calibration.device_ticks, ticks, valid_bits);
    const double delta = ahead <= counter_mask(valid_bits) / 2
                             ? static_cast<double>(ahead)
                             : -static_cast<double>(timestamp_ticks(ticks, calibration.device_ticks, valid_bits));
    return static_cast<double>(calibration.host_ns) + delta * period_ns;
}

double calibrated_span_seconds(std::span<const QueueRun> runs, uint32_t valid_bits, double period_ns, HostWindow window,
                               uint64_t deviation_ns)
{
    check_period(period_ns, valid_bits);
    if (runs.empty()) plugin::fail(VRB_ERROR_INTERNAL, "calibrated_span_seconds: no runs");
    double begin = 0, end = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        check_ticks(timestamp_ticks(runs[i].start, runs[i].end, valid_bits), valid_bits);
        const double s = host_ns_of(runs[i].start, runs[i].calibration, valid_bits, period_ns);
        const double e = host_ns_of(runs[i].end, runs[i].calibration, valid_bits, period_ns);
        begin = i == 0 || s < begin ? s : begin;
        end = i == 0 || e > end ? e : end;
    }
    // The runs happened between the submission and the wait's return. Besides the
    // calibration's own deviation, allow for the clocks' drift over the window and for
    // the host clock's granularity.
    const double window_ns = static_cast<double>(window.end_ns - window.begin_ns);
    const double slack = static_cast<double>(deviation_ns) + 1e-3 * window_ns + 1e4;
    if (begin < static_cast<double>(window.begin_ns) - slack || end > static_cast<double>(window.end_ns) + slack)
        plugin::fail(VRB_ERROR_TIMER,
                     "on the host's clock the queues ran from " + std::to_string(begin) + " to " + std::to_string(end) +
                         " ns, outside the " + std::to_string(window.begin_ns) + " to " +
                         std::to_string(window.end_ns) +
                         " ns between submitting and seeing them finish: the calibration does not hold");
    if (!(end > begin)) plugin::fail(VRB_ERROR_TIMER, "the queues' calibrated span is not a duration");
    return (end - begin) * 1e-9;
}

void check_against_host(std::span<const double> seconds, double host_seconds)
{
    double sum = 0;
    for (double s : seconds)
        sum += s;
    // Host clocks and device counters drift a little; a millisecond covers granularity.
    if (sum > host_seconds * 1.05 + 1e-3)
        plugin::fail(VRB_ERROR_TIMER, "device timestamps add up to " + std::to_string(sum) +
                                          " s but the host waited only " + std::to_string(host_seconds) +
                                          " s: the device timer is not trustworthy");
}

double host_seconds_or_fail(double seconds)
{
    if (!(seconds > 0.0) || !std::isfinite(seconds))
        plugin::fail(VRB_ERROR_TIMER, "the host clock measured a zero or negative duration");
    return seconds;
}

} // namespace vrb::vulkan
