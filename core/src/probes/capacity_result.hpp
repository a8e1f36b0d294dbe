// Result skeletons shared by the capacity and integrity probes.
#pragma once

#include "capacity_budget.hpp"

#include <vrambench/core/probes/probe.hpp>

namespace vrb::capacity {

// metric "capacity", unit "bytes", estimator "single" (one measurement, not a median),
// parameters from the budget.
ProbeResult make_capacity_result(const ProbeContext &ctx, std::string_view probe, const CapacityBudget &budget);

// Sets value and samples to a byte count.
void set_bytes(ProbeResult &result, uint64_t bytes);

void pass(ProbeResult &result, std::string detail);
void fail_verification(ProbeResult &result, std::string detail);

// A result that says the budget is below what the probe needs, and how to give more.
// Returns false (and emits it) when `budget` is below `minimum`.
bool budget_suffices(ProbeContext &ctx, std::string_view probe, const CapacityBudget &budget, uint64_t minimum);

// Whether freeing a buffer of `bytes` gave its memory back, from the free memory the
// device reported while it was held and right after it was freed: passed when at least
// half of it came back, failed when less did, unverified (saying why) when the device
// reports no free memory or `bytes` is below what that report can resolve (1 GiB: Linux
// folds per-CPU page counts into MemAvailable about once a second, tens of MiB late on a
// large host, and other processes move it meanwhile).
Verification verify_release(uint64_t bytes, std::optional<uint64_t> free_held, std::optional<uint64_t> free_after);
inline constexpr uint64_t least_visible_release = 1ull << 30;

// The reported free memory and the ratio of `bytes` to it, for a result's extra.
void add_reported_free(ProbeResult &result, const CapacityBudget &budget, uint64_t bytes);

} // namespace vrb::capacity
