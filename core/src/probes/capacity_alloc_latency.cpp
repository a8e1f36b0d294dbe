// capacity.alloc-latency: how long allocating and freeing take, against size, timed
// around the API calls on the host's monotonic clock (an allocation is a host call).
#include "capacity_budget.hpp"
#include "capacity_probes.hpp"
#include "capacity_result.hpp"
#include "capacity_touch.hpp"

#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace vrb {

namespace capacity {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t smallest = 4ull << 10;
constexpr uint64_t window = 1ull << 20;
constexpr uint32_t latency_seed = 0x1a7e0000;

struct LatencyPlan {
    std::vector<uint64_t> sizes;
    uint32_t reps = 3;
    std::string size_rule;
};

// Sizes stop at the budget, and at what the API reports the device can hold: an
// --memory-limit past that is for capacity.max-alloc to look beyond the report, while an
// allocation the device cannot hold has no latency to time.
LatencyPlan plan_latency(const ProbeOptions &options, const CapacityBudget &capacity)
{
    uint64_t budget = capacity.bytes;
    std::string ceiling_note;
    if (capacity.reported_free && *capacity.reported_free / capacity_granule * capacity_granule < budget) {
        budget = *capacity.reported_free / capacity_granule * capacity_granule;
        ceiling_note = fmt::format(", stopping at the {} {}", format_size(budget), capacity.free_source);
    }
    LatencyPlan plan;
    uint64_t factor = 4, largest = 4ull << 30;
    switch (options.suite) {
    case Suite::quick:
        factor = 16;
        largest = 1ull << 30;
        plan.reps = 3;
        break;
    case Suite::standard: plan.reps = options.economy >= 1 ? 3 : 7; break;
    case Suite::full:
        largest = budget;
        plan.reps = 15;
        break;
    }
    if (options.repetitions) plan.reps = std::max<uint32_t>(*options.repetitions, 1);
    largest = std::min(largest, budget);
    for (uint64_t s = smallest; s <= largest; s *= factor)
        plan.sizes.push_back(s);
    // The largest size always, so 1 GiB (or the whole budget) is measured too.
    largest = largest / smallest * smallest;
    if (!plan.sizes.empty() && plan.sizes.back() < largest) plan.sizes.push_back(largest);
    plan.size_rule = fmt::format("4 KiB x {}^k, and {}{}", factor, format_size(largest), ceiling_note);
    return plan;
}

std::optional<uint64_t> free_now(const Device &device)
{
    const vrb_device_info info = device.describe();
    if (!(info.known & VRB_KNOWN_FREE_MEMORY)) return std::nullopt;
    return info.free_memory_bytes;
}

double seconds_since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

class CapacityAllocLatencyProbe final : public Probe {
  public:
    std::string_view id() const override { return "capacity.alloc-latency"; }
    std::string_view summary() const override
    {
        return "time to allocate and to free, from 4 KiB to 1 GiB and more, median of repetitions";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        ProbePlan p = plan_capacity(device, options, 0, 0, "sizes 4 KiB x 4^k (quick 16^k)");
        if (!p.estimated) return p;
        const LatencyPlan plan = plan_latency(options, plan_capacity_budget(device, options));
        p.sizes["array_bytes"] = plan.sizes;
        p.size_rule = plan.size_rule;
        for (uint64_t bytes : plan.sizes) {
            const double b = static_cast<double>(bytes), w = static_cast<double>(std::min(window, bytes));
            // The first repetition written and checked whole, the others at both ends.
            p.cost.runs.push_back({2, b, 0, 0, 0});
            p.cost.runs.push_back({4.0 * plan.reps, w, 0, 0, 0});
            // On a CPU, what each repetition's fresh allocation has faulted in: the first
            // whole, the others at both ends. A GPU's allocations of these sizes take
            // milliseconds (an H200's whole probe took 0.09 s).
            if (device.info.type == VRB_DEVICE_CPU) p.cost.first_touch_bytes += b + plan.reps * std::min(2 * w, b);
        }
        return p;
    }

    void run(ProbeContext &ctx) const override
    {
        const CapacityBudget budget = plan_capacity_budget(ctx.record, ctx.options);
        if (!budget_suffices(ctx, id(), budget, capacity_granule)) return;
        const LatencyPlan plan = plan_latency(ctx.options, budget);
        for (std::size_t i = 0; i < plan.sizes.size(); ++i) {
            ctx.progress(fmt::format("allocating {}", format_size(plan.sizes[i])),
                         static_cast<double>(i) / static_cast<double>(plan.sizes.size()));
            if (!measure(ctx, budget, plan, plan.sizes[i])) break; // larger sizes would fail too
        }
    }

  private:
    // Emits the allocate and free results of one size; false when allocating failed.
    bool measure(ProbeContext &ctx, const CapacityBudget &budget, const LatencyPlan &plan, uint64_t bytes) const
    {
        auto make = [&](std::string_view operation) {
            ProbeResult r = make_capacity_result(ctx, id(), budget);
            r.metric = "time";
            r.unit = std::string("s"); // not from a literal: GCC 12 warns wrongly (bug 105329)
            r.estimator = to_string(ctx.options.estimator);
            r.timer = timer_name(VRB_TIMER_HOST_MONOTONIC);
            r.parameters["operation"] = operation;
            r.parameters["array_bytes"] = bytes;
            r.parameters["repetitions"] = plan.reps;
            r.parameters["size_rule"] = plan.size_rule;
            return r;
        };
        ProbeResult alloc = make("allocate"), release = make("free");
        uint64_t wrong = 0;
        std::optional<uint64_t> wrong_at;
        Verification released;
        try {
            ctx.device.allocate(budget.kind, bytes).reset(); // warm-up: first-use costs are not latency
            for (uint32_t rep = 0; rep < plan.reps; ++rep) {
                auto start = Clock::now();
                auto buffer = ctx.device.allocate(budget.kind, bytes);
                alloc.seconds.push_back(seconds_since(start));
                // Untimed proof the memory is usable: all of it once, both ends every time.
                const uint32_t seed = latency_seed + rep;
                uint64_t bad = 0;
                if (rep == 0) {
                    const Touch t = touch_buffer(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed);
                    bad = t.verified() ? 0 : std::max<uint64_t>(t.mismatches, 1);
                } else {
                    const uint64_t w = std::min(window, bytes);
                    bad = touch_window(ctx.device, *buffer, 0, w, seed) +
                          touch_window(ctx.device, *buffer, bytes - w, w, seed);
                }
                if (bad && !wrong_at) wrong_at = rep;
                wrong += bad;
                // The first buffer was written whole, so its memory is committed and a
                // free that gives it back shows in the device's free memory.
                const std::optional<uint64_t> held = rep == 0 ? free_now(ctx.device) : std::nullopt;
                start = Clock::now();
                buffer.reset();
                release.seconds.push_back(seconds_since(start));
                if (rep == 0) released = verify_release(bytes, held, free_now(ctx.device));
            }
        } catch (const BackendError &e) {
            alloc.status = ProbeResult::Status::failed;
            alloc.error = fmt::format("allocating {} failed: {}", format_size(bytes), e.what());
            alloc.verification = {Verification::Status::unverified, "the allocation failed"};
            alloc.seconds.clear();
            ctx.emit(std::move(alloc));
            return false;
        }
        for (ProbeResult *r : {&alloc, &release}) {
            if (std::any_of(r->seconds.begin(), r->seconds.end(), [](double s) { return !(s > 0); }))
                throw RunError("the host's monotonic clock did not advance over an allocation: it is not trusted");
            r->samples = r->seconds;
            r->statistics = summarize(r->samples);
            r->value = pick(*r->statistics, ctx.options.estimator);
        }
        if (wrong)
            fail_verification(alloc, fmt::format("{} lanes read back wrong, first in repetition {}", wrong, *wrong_at));
        else
            pass(alloc, fmt::format("every allocation written and read back: all of it once, the first and last {} "
                                    "each time",
                                    format_size(std::min(window, bytes))));
        if (released.status == Verification::Status::failed)
            fail_verification(release, released.detail);
        else
            release.verification = released;
        ctx.emit(std::move(alloc));
        ctx.emit(std::move(release));
        return true;
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_capacity_alloc_latency_probe()
{
    return std::make_unique<capacity::CapacityAllocLatencyProbe>();
}

} // namespace vrb
