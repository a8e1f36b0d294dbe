#include "stream_plan.hpp"

#include "curve_plan.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

StreamPlan plan_stream(const DeviceRecord &device, const ProbeOptions &options)
{
    StreamPlan plan;
    switch (options.suite) {
    case Suite::quick:
        plan.widths = {16};
        plan.warmups = 1;
        plan.reps = 3;
        break;
    case Suite::standard:
        // pattern.vector measures read and copy at every width; the seven operations at
        // the width every device reaches its peak with are the standard suite's.
        plan.widths = {16};
        plan.warmups = 2;
        plan.reps = 10;
        if (options.economy >= 1) {
            plan.warmups = 1;
            plan.reps = 5;
        }
        break;
    case Suite::full:
        plan.widths = {4, 8, 16};
        plan.warmups = 3;
        plan.reps = 30;
        break;
    }
    if (options.repetitions) plan.reps = *options.repetitions;
    const bool is_cpu = device.info.type == VRB_DEVICE_CPU;
    plan.preferred_flags = is_cpu ? 0 : VRB_MEMORY_DEVICE_LOCAL;
    bool has_preferred = false;
    for (const auto &k : device.kinds)
        has_preferred |= (k.flags & (VRB_MEMORY_DEVICE_ACCESS | plan.preferred_flags)) ==
                         (VRB_MEMORY_DEVICE_ACCESS | plan.preferred_flags);
    if (!has_preferred) plan.preferred_flags = 0;

    constexpr uint64_t granule = 64 << 10; // every width and thread split divides it
    if (options.size) {
        if (*options.size < 16)
            throw UsageError(fmt::format("--size {} is too small: at least 16 bytes", *options.size));
        plan.bytes = *options.size / 16 * 16;
        plan.size_rule = "as given by --size";
        plan.reason = "option";
        return plan;
    }
    const CacheTarget cache = plan_cache(device, options.suite, std::max<uint32_t>(device.info.compute_units, 1));
    const uint64_t floor = options.suite == Suite::quick      ? 32ull << 20
                           : options.suite == Suite::standard ? 256ull << 20
                                                              : 1ull << 30;
    // Quick outgrows what the cores reach twice over; the 4 x rule is for the others.
    const uint64_t factor = options.suite == Suite::quick ? 2 : 4;
    uint64_t bytes = std::max(cache.bytes * factor, floor);
    plan.size_rule = cache.bytes ? fmt::format("{} x {}, at least {}", factor, cache.text, format_size(floor))
                                 : fmt::format("{}: no cache size is known", format_size(floor));
    plan.reason = !cache.bytes ? "default" : options.suite == Suite::quick ? "cache" : "memory";
    cap_quick(device, options.suite, bytes, plan.size_rule, plan.reason);
    // Three arrays in at most half of the memory the device says is free.
    const auto &i = device.info;
    const uint64_t memory = (i.known & VRB_KNOWN_FREE_MEMORY)    ? i.free_memory_bytes
                            : (i.known & VRB_KNOWN_TOTAL_MEMORY) ? i.total_memory_bytes
                                                                 : 0;
    if (memory && bytes > memory / 6) {
        bytes = memory / 6;
        plan.size_rule += fmt::format("; capped to a sixth of the {} free", format_size(memory));
        plan.reason = "limit";
    }
    cap_to_budget(options, bytes, plan.size_rule, plan.reason);
    plan.bytes = std::max<uint64_t>(bytes / granule * granule, granule);
    return plan;
}

} // namespace vrb
