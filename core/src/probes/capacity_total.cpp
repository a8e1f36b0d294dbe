// capacity.total: how much can be held at once in fixed-size chunks, allocated until
// the first failure or the budget, each chunk written and read back. A failed
// allocation is the measurement's end, recorded, never an error of the run.
#include "capacity_budget.hpp"
#include "capacity_largest.hpp"
#include "capacity_probes.hpp"
#include "capacity_result.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace capacity {
namespace {

constexpr uint64_t default_chunk = 256ull << 20;
constexpr uint32_t capacity_total_chunk_seed = 0x70700000;

class CapacityTotalProbe final : public Probe {
  public:
    std::string_view id() const override { return "capacity.total"; }
    std::string_view summary() const override
    {
        return "how much can be held at once in fixed-size chunks until the first failure, each chunk verified";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_capacity(device, options, 2, 1, "chunks up to the budget, each written and checked");
    }

    void run(ProbeContext &ctx) const override
    {
        const CapacityBudget budget = plan_capacity_budget(ctx.record, ctx.options);
        if (!budget_suffices(ctx, id(), budget, 4 * capacity_granule)) return;
        // At least eight chunks, so the figure is not one allocation under another name.
        const uint64_t chunk = std::max(std::min(default_chunk, round_to_granule(budget.bytes / 8)), capacity_granule);
        const uint64_t most = budget.bytes / chunk;

        ProbeResult r = make_capacity_result(ctx, id(), budget);
        r.parameters["operation"] = "total-in-chunks";
        r.parameters["chunk_bytes"] = chunk;
        r.byte_counting = "chunks allocated at once, each written and read back in full";

        std::vector<std::unique_ptr<Buffer>> held;
        std::vector<double> seconds_per_gib;
        std::optional<Touch> corrupt;
        double first_rate = 0, warm_rate = 0;
        uint64_t spilled = 0;
        r.extra["ended_by"] = "budget";
        while (held.size() < most) {
            ctx.progress(fmt::format("chunk {} of at most {}", held.size() + 1, most),
                         static_cast<double>(held.size()) / static_cast<double>(most));
            std::unique_ptr<Buffer> buffer;
            try {
                buffer = ctx.device.allocate(budget.kind, chunk);
            } catch (const BackendError &e) {
                r.extra["ended_by"] = "allocation-failure";
                r.extra["failure"] = {
                    {"chunk", held.size()}, {"status", vrb::to_string(e.status())}, {"message", e.what()}};
                break;
            }
            const uint32_t seed = capacity_total_chunk_seed + static_cast<uint32_t>(held.size());
            const Touch t = touch_buffer(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed);
            seconds_per_gib.push_back(t.seconds_per_gib_written());
            if (!t.verified() && !corrupt) corrupt = t;
            const double rate = t.write_gb_per_s();
            if (held.empty()) {
                first_rate = rate;
                warm_rate =
                    static_cast<double>(chunk) / rewrite_seconds(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed) / 1e9;
            } else if (rate < first_rate * spill_ratio) {
                const double again =
                    static_cast<double>(chunk) / rewrite_seconds(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed) / 1e9;
                if (again < warm_rate * spill_ratio) spilled += chunk;
            }
            held.push_back(std::move(buffer));
        }

        // Every chunk again, now that all are held: two allocations sharing memory
        // would have overwritten each other.
        uint64_t overwritten = 0;
        for (std::size_t i = 0; i < held.size(); ++i)
            overwritten += recheck_buffer(ctx.device, *held[i], VRB_PATTERN_RANDOM,
                                          capacity_total_chunk_seed + static_cast<uint32_t>(i));
        const uint64_t total = held.size() * chunk;
        held.clear();

        r.extra["chunks"] = total / chunk;
        r.extra["seconds_per_gib_written"] = seconds_per_gib;
        r.extra["spilled_bytes"] = spilled;
        r.extra["in_device_memory_bytes"] = total - spilled;
        add_reported_free(r, budget, total);
        if (total == 0) {
            r.status = ProbeResult::Status::failed;
            r.error = fmt::format("not even one {} chunk could be allocated", format_size(chunk));
            r.verification = {Verification::Status::unverified, "nothing was allocated to verify"};
        } else {
            set_bytes(r, total);
            if (corrupt)
                fail_verification(r, corrupt->describe_failure());
            else if (overwritten)
                fail_verification(r, fmt::format("{} lanes changed after later chunks were written: allocations "
                                                 "overlap",
                                                 overwritten));
            else
                pass(r, fmt::format("each of {} chunks written and read back, and read back again once all were held",
                                    total / chunk));
        }
        ctx.emit(std::move(r));
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_capacity_total_probe()
{
    return std::make_unique<capacity::CapacityTotalProbe>();
}

} // namespace vrb
