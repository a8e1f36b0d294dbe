#include "capacity_largest.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

namespace vrb::capacity {

namespace {

constexpr uint32_t search_seed = 0x5eed0001;

std::mutex findings_lock;
std::map<std::string, uint64_t> &findings()
{
    static std::map<std::string, uint64_t> map;
    return map;
}

std::string finding_key(const ProbeContext &ctx, uint64_t budget)
{
    return fmt::format("{}|{}|{}", ctx.device.module().file().string(), ctx.record.id, budget);
}

double gb_per_s(uint64_t bytes, double seconds)
{
    return static_cast<double>(bytes) / seconds / 1e9;
}

} // namespace

nlohmann::json WriteReference::to_json() const
{
    return {{"bytes", bytes},
            {"first_write_gb_per_s", first_gb_per_s},
            {"second_write_gb_per_s", warm_gb_per_s},
            {"cache_resident", cache_resident}};
}

bool cache_resident(uint64_t bytes, uint64_t last_level_cache)
{
    return last_level_cache > 0 && bytes < 2 * last_level_cache;
}

WriteReference measure_write_reference(Device &device, uint32_t kind, uint64_t budget, uint64_t last_level_cache,
                                       std::optional<Touch> &corrupt)
{
    // Past the caches, so the yardstick is memory, yet a small share of the budget.
    uint64_t bytes = std::max<uint64_t>(4 * last_level_cache, 64ull << 20);
    bytes = std::max(round_to_granule(std::min(bytes, budget / 4)), capacity_granule);
    WriteReference ref;
    ref.bytes = bytes;
    ref.cache_resident = cache_resident(bytes, last_level_cache);
    auto buffer = device.allocate(kind, bytes);
    const Touch first = touch_buffer(device, *buffer, VRB_PATTERN_RANDOM, search_seed);
    if (!first.verified() && !corrupt) corrupt = first;
    ref.first_gb_per_s = first.write_gb_per_s();
    ref.warm_gb_per_s = gb_per_s(bytes, rewrite_seconds(device, *buffer, VRB_PATTERN_RANDOM, search_seed));
    return ref;
}

Attempt attempt_allocation(Device &device, uint32_t kind, uint64_t bytes, uint32_t seed,
                           const WriteReference &reference, nlohmann::json &step, std::optional<Touch> &corrupt)
{
    step = {{"bytes", bytes}};
    std::unique_ptr<Buffer> buffer;
    try {
        buffer = device.allocate(kind, bytes);
    } catch (const BackendError &e) {
        step["outcome"] = to_string(Attempt::refused);
        step["status"] = vrb::to_string(e.status());
        step["message"] = e.what();
        return Attempt::refused;
    }
    const Touch t = touch_buffer(device, *buffer, VRB_PATTERN_RANDOM, seed);
    step["seconds_per_gib_written"] = t.seconds_per_gib_written();
    step["write_gb_per_s"] = t.write_gb_per_s();
    step["read_gb_per_s"] = gb_per_s(bytes, t.read_seconds);
    Attempt outcome = Attempt::fits;
    if (!reference.cache_resident && t.write_gb_per_s() < reference.first_gb_per_s * spill_ratio) {
        // A slow first write may have paid for lazy allocation: the second decides.
        const double again = gb_per_s(bytes, rewrite_seconds(device, *buffer, VRB_PATTERN_RANDOM, seed));
        step["second_write_gb_per_s"] = again;
        if (again < reference.warm_gb_per_s * spill_ratio) outcome = Attempt::spilled;
    }
    if (!t.verified()) {
        step["verification"] = t.describe_failure();
        if (!corrupt) corrupt = t;
    }
    step["outcome"] = to_string(outcome);
    return outcome;
}

LargestAllocation find_largest_allocation(ProbeContext &ctx, const CapacityBudget &budget)
{
    LargestAllocation found;
    found.upper = budget.bytes;
    found.resolution = search_resolution(budget.bytes, capacity_granule);
    ctx.progress("measuring a reference write rate", 0);
    found.reference = measure_write_reference(ctx.device, budget.kind, budget.bytes,
                                              ctx.record.last_level_cache_bytes(), found.corrupt);

    // About how many attempts a search takes, for the progress line only.
    const double expected_steps =
        2 + std::log2(std::max(2.0, static_cast<double>(found.upper) / static_cast<double>(found.resolution)));
    auto attempt = [&](uint64_t bytes) -> Attempt {
        ctx.progress(fmt::format("trying {}", format_size(bytes)),
                     std::min(0.95, static_cast<double>(found.steps.size() + 1) / expected_steps));
        nlohmann::json step;
        const uint32_t seed = search_seed + static_cast<uint32_t>(found.steps.size());
        const Attempt outcome =
            attempt_allocation(ctx.device, budget.kind, bytes, seed, found.reference, step, found.corrupt);
        if (outcome == Attempt::spilled) found.largest_spilled = std::max(found.largest_spilled, bytes);
        found.steps.push_back(std::move(step));
        return outcome;
    };
    found.search = search_largest(found.upper, found.resolution, capacity_granule, attempt);
    return found;
}

void remember_largest(const ProbeContext &ctx, uint64_t budget, uint64_t bytes)
{
    const std::lock_guard guard(findings_lock);
    findings()[finding_key(ctx, budget)] = bytes;
}

std::optional<uint64_t> recall_largest(const ProbeContext &ctx, uint64_t budget)
{
    const std::lock_guard guard(findings_lock);
    const auto it = findings().find(finding_key(ctx, budget));
    if (it == findings().end()) return std::nullopt;
    return it->second;
}

} // namespace vrb::capacity
