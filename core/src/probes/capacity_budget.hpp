// How much memory the capacity and integrity probes may hold at once, and of which
// kind. Every one of them stays inside this budget, so a run never starves the
// desktop or another job of the memory it needs.
#pragma once

#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace vrb::capacity {

// Sizes are multiples of this: the large-page size of GPU allocators, so a candidate
// never measures the rounding of the allocator instead of the memory.
inline constexpr uint64_t capacity_granule = 2ull << 20;

struct CapacityBudget {
    uint32_t kind = 0; // device-local memory that device operations can reach
    std::string kind_name;
    std::optional<uint64_t> reported_free; // what the API says is free, when it says
    std::string free_source;               // which figure reported_free is
    uint64_t margin = 0;                   // left to others when no --memory-limit is given
    uint64_t bytes = 0;                    // the budget, a multiple of capacity_granule
    // On the machine's RAM (memory_is_system_ram), with the default share: what the run
    // holds there beside the buffers it allocates (the checks' read-back chunks, the page
    // tables of the buffers, a CPU driver's own copies; host_reserve_of), kept out of
    // `bytes`, so that bytes + host_reserve is the share of RAM the run may hold. 0 elsewhere.
    uint64_t host_reserve = 0;
    std::string rule; // how bytes was chosen, in words

    // budget_bytes, budget_rule and memory_kind, for a result's parameters.
    nlohmann::json parameters() const;
};

// The budget on this device for this run:
//   --memory-limit given: that many bytes, or that share of the reported free memory;
//   otherwise the reported free memory less a margin of max(5%, 512 MiB), and at most
//   2 GiB in the quick suite.
// Throws RunError when the device reports no memory figure at all and no absolute
// --memory-limit says how much may be taken.
CapacityBudget plan_capacity_budget(const DeviceRecord &device, const ProbeOptions &options);

// The kind the probes allocate: device-local with device access, preferring memory
// the host cannot map (the bulk of a discrete card), then any device-accessible kind.
uint32_t capacity_memory_kind(const DeviceRecord &device);

// The plan (plan.hpp) of a probe that holds the budget: `touches` device passes over it
// (a fill and a check are two) and `allocations` times its bytes allocated, each fresh
// page faulted in by the host on a CPU. A device whose budget cannot be planned gets a
// plan that says why and is not estimated.
ProbePlan plan_capacity(const DeviceRecord &device, const ProbeOptions &options, double touches, double allocations,
                        std::string_view what);

// host_reserve: a thirty-second of the share, and at least this. lavapipe's worker held
// 17 MiB past 496 MiB of buffers in a standard run (its shaders compiled, its command
// pools grown), past what its module and runtime hold when loaded.
inline constexpr uint64_t least_host_reserve = 32ull << 20;

// Multiples of capacity_granule, rounded down.
inline uint64_t round_to_granule(uint64_t bytes)
{
    return bytes / capacity_granule * capacity_granule;
}

// What the run keeps for itself of a share of the machine's RAM: a thirty-second, at least
// least_host_reserve, never more than the share.
inline uint64_t host_reserve_of(uint64_t share)
{
    return std::min(share, round_to_granule(std::max(least_host_reserve, share / 32)));
}

} // namespace vrb::capacity
