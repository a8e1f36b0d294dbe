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

// The span from the earliest start to the latest end of runs timed on several queues
// of one device, which share one counter. Throws like timestamp_seconds.
double timestamp_span_seconds(std::span<const uint64_t> starts, std::span<const uint64_t> ends, uint32_t valid_bits,
                              double period_ns);

// Device-timed runs that all happened inside one host-timed wait cannot add up to more
// than it: a sum beyond host_seconds (with a margin for clock granularity) means a
// wrong period or a counter that wrapped more than once. Throws Failure(VRB_ERROR_TIMER).
void check_against_host(std::span<const double> seconds, double host_seconds);

// A host-timed run must have taken some time.
double host_seconds_or_fail(double seconds);

} // namespace vrb::vulkan
