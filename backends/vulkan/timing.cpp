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
    if (!(period_ns > 0.0) || !std::isfinite(period_ns))
        plugin::fail(VRB_ERROR_TIMER, "timestampPeriod " + std::to_string(period_ns) + " ns is not a usable period");
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

double timestamp_span_seconds(std::span<const uint64_t> starts, std::span<const uint64_t> ends, uint32_t valid_bits,
                              double period_ns)
{
    check_period(period_ns, valid_bits);
    if (starts.empty() || starts.size() != ends.size())
        plugin::fail(VRB_ERROR_INTERNAL, "timestamp_span_seconds: mismatched timestamps");
    const uint64_t half = counter_mask(valid_bits) / 2;
    // The earliest start: every other start lies less than half the range after it.
    uint64_t origin = starts[0];
    for (uint64_t s : starts)
        if (timestamp_ticks(s, origin, valid_bits) <= half) origin = s;
    uint64_t span = 0;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        check_ticks(timestamp_ticks(starts[i], ends[i], valid_bits), valid_bits);
        const uint64_t end = timestamp_ticks(origin, ends[i], valid_bits);
        span = end > span ? end : span;
    }
    check_ticks(span, valid_bits);
    return static_cast<double>(span) * period_ns * 1e-9;
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
