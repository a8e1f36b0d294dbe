// Timing one operation the way every probe must: warm-up runs first, then
// repetitions, every duration checked, statistics over the raw samples.
#pragma once

#include <vrambench/core/measurement/traffic.hpp>
#include <vrambench/core/probes/probe.hpp>

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
// statistics, the chosen estimator and efficiency against the device's peak. A figure
// above the peak is "suspect" only from twice the last-level cache: `footprint` is the
// distinct bytes one pass touches (0: unknown, taken as past every cache); a footprint
// inside the cache is a cache figure, and one up to twice it still hits the cache in
// part, either of which can beat the memory's peak honestly.
void set_bandwidth(ProbeResult &result, const Timing &timing, uint64_t bytes, const ProbeContext &ctx,
                   uint64_t footprint = 0);

// How many last-level caches a footprint must span before a figure above the peak is
// suspect.
inline constexpr uint64_t kSuspectCacheMultiple = 2;

// Whether a figure is suspect: above the peak with a footprint of at least
// kSuspectCacheMultiple last-level caches. `last_level` 0 (unknown) counts every
// footprint as past it.
bool is_suspect(double gb_per_s, std::optional<double> peak, uint64_t footprint, uint64_t last_level);

// The sentence a figure over `footprint` bytes (0: unknown) is marked suspect with when
// is_suspect holds against the device's peak and last-level cache; none when it does not,
// or when the device has no peak. set_bandwidth marks a live result by it and
// `vrambench analyze` a stored one, so both say the same of the same figure.
std::optional<std::string> peak_suspicion(double gb_per_s, const DeviceRecord &device, uint64_t footprint);

// Refuses a run a backend answered with a duration that is zero, negative or not
// finite, or without saying which timer timed it: RunError naming the backend.
void check_timing(const std::vector<double> &seconds, const vrb_op_output &output, std::string_view backend);

// The name of a timer kind; throws RunError for a kind the ABI does not define (an
// output whose timer was never set is 0), rather than guessing one.
std::string_view timer_name(uint32_t timer);

// A result skeleton with probe, backend, device and estimator filled in.
ProbeResult make_result(const ProbeContext &ctx, std::string_view probe);

} // namespace vrb
