// The largest single allocation a device really gives: the search capacity.max-alloc
// reports and integrity.pattern covers. Every candidate is allocated, written and read
// back in full on the device; one written far slower than a small buffer was has
// spilled out of device memory and does not count.
#pragma once

#include "capacity_budget.hpp"
#include "capacity_search.hpp"
#include "capacity_touch.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace vrb::capacity {

// Write rates of a buffer small enough to be in device memory for certain: the
// yardstick a spilled allocation is measured against.
struct WriteReference {
    uint64_t bytes = 0;
    double first_gb_per_s = 0; // the first write, which may pay for lazy allocation
    double warm_gb_per_s = 0;  // the second
    // Within twice the last-level cache, the caches give the reference its rates, and a
    // candidate past them writes at memory's, four times slower on a CPU: nothing is
    // judged spilled against such a reference (a small budget leaves no room for one).
    bool cache_resident = false;
    nlohmann::json to_json() const;
};

// Whether a reference of `bytes` is within twice a known last-level cache.
bool cache_resident(uint64_t bytes, uint64_t last_level_cache);

// A candidate that writes below this share of the reference rate has spilled.
inline constexpr double spill_ratio = 0.25;

// A reference buffer that reads back wrong is kept in `corrupt`, like any candidate.
WriteReference measure_write_reference(Device &device, uint32_t kind, uint64_t budget, uint64_t last_level_cache,
                                       std::optional<Touch> &corrupt);

// One candidate of a search: allocated, written and read back in full, its write rate
// judged against `reference`. Writes what happened into `step` and keeps the first
// candidate that read back wrong in `corrupt`. The buffer is gone when it returns.
Attempt attempt_allocation(Device &device, uint32_t kind, uint64_t bytes, uint32_t seed,
                           const WriteReference &reference, nlohmann::json &step, std::optional<Touch> &corrupt);

struct LargestAllocation {
    uint64_t upper = 0;      // the search's bound: the budget
    uint64_t resolution = 0; // the answer is within this below the true limit
    WriteReference reference;
    SearchOutcome search;
    nlohmann::json steps = nlohmann::json::array(); // each attempt: size, outcome, rates
    uint64_t largest_spilled = 0;                   // the largest allocation that spilled, or 0
    std::optional<Touch> corrupt;                   // the first candidate that read back wrong
};

// Searches [granule, budget] for the largest allocation that fits. Buffers live only
// inside each attempt, so nothing stays allocated when this returns or throws.
LargestAllocation find_largest_allocation(ProbeContext &ctx, const CapacityBudget &budget);

// What the search found on a device under a budget, kept for integrity.pattern so it
// covers the same bytes without searching again in the same run.
void remember_largest(const ProbeContext &ctx, uint64_t budget, uint64_t bytes);
std::optional<uint64_t> recall_largest(const ProbeContext &ctx, uint64_t budget);

} // namespace vrb::capacity
