// Device timestamps to seconds. A timestamp counter has timestampValidBits significant
// bits and wraps; one wrap between two reads is undone by modular subtraction, and
// anything that cannot be a real duration is refused (VRB_ERROR_TIMER), never turned
// into zero or infinity. Pure functions, unit-tested without a device.
#pragma once

#include <cstdint>
#include <span>

namespace vrb::vulkan {

// (end - start) modulo 2^valid_bits.
uint64_t timestamp_ticks(uint64_t start, uint64_t end, uint32_t valid_bits);

// The seconds between two timestamps of one counter ticking every period_ns
// nanoseconds. Throws Failure(VRB_ERROR_TIMER) for a zero duration, for one that looks
// negative (more than half the counter's range: end was read before start) and for an
// unusable period.
double timestamp_seconds(uint64_t start, uint64_t end, uint32_t valid_bits, double period_ns);

// Refuses (Failure(VRB_ERROR_TIMER)) a timestampPeriod no real counter has: zero,
// negative, not a number, infinite, or outside [kMinTimestampPeriodNs,
// kMaxTimestampPeriodNs]. Counters tick at well under 100 GHz, and one that ticks
// slower than every 10 us cannot time the shortest runs a probe makes.
inline constexpr double kMinTimestampPeriodNs = 0.01;
inline constexpr double kMaxTimestampPeriodNs = 10000.0;
void check_timestamp_period(double period_ns);

// The spec makes timestamps comparable only within one queue, so runs on several
// queues are placed on one clock first: the host's CLOCK_MONOTONIC, through a reading
// of each queue's counter taken at the same moment as the host's
// (VK_EXT_calibrated_timestamps).
struct ClockPair {
    uint64_t device_ticks = 0; // the queue's counter, in its valid bits
    uint64_t host_ns = 0;      // CLOCK_MONOTONIC at the same moment
};

// One queue's run, between its own two timestamps, and that queue's calibration.
struct QueueRun {
    uint64_t start = 0;
    uint64_t end = 0;
    ClockPair calibration;
};

// When the host submitted the runs and when it saw the last one finish.
struct HostWindow {
    uint64_t begin_ns = 0;
    uint64_t end_ns = 0;
};

// A device timestamp on the host's clock, in nanoseconds: the calibration's host time
// plus the ticks from the calibration to `ticks` (before or after it, within half the
// counter's range), times the period.
double host_ns_of(uint64_t ticks, const ClockPair &calibration, uint32_t valid_bits, double period_ns);

// The span from the earliest start to the latest end of runs on several queues, each
// placed on the host's clock through its own calibration. Throws
// Failure(VRB_ERROR_TIMER) for a run that is not a duration on its own queue, for an
// unusable period, and for runs that land outside the host's window by more than the
// calibration's deviation (a calibration that does not hold).
double calibrated_span_seconds(std::span<const QueueRun> runs, uint32_t valid_bits, double period_ns, HostWindow window,
                               uint64_t deviation_ns);

// Device-timed runs that all happened inside one host-timed wait cannot add up to more
// than it: a sum beyond host_seconds (with a margin for clock granularity) means a
// wrong period or a counter that wrapped more than once. Throws Failure(VRB_ERROR_TIMER).
void check_against_host(std::span<const double> seconds, double host_seconds);

// A host-timed run must have taken some time.
double host_seconds_or_fail(double seconds);

} // namespace vrb::vulkan
